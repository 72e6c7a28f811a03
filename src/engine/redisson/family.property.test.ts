/**
 * Random small scenarios over the whole lock family (fair, fenced, spin, read/write, multi) with
 * pauses, crashes and interrupts: a run must not throw, must be deterministic, and must never
 * show two live leases of one lock (V2) on a single healthy master.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  checkRandomRun,
  clientFault,
  nodeFault,
  pauseFault,
  propertyRuns,
  twoClientScenario,
} from '../../testing/scenario/random_scenarios';

const typed = fc.constantFrom(
  { lock: 'F', type: 'FairLock' },
  { lock: 'T', type: 'FencedLock' },
  { lock: 'S', type: 'SpinLock' },
  { lock: 'RW', type: 'ReadLock' },
  { lock: 'RW', type: 'WriteLock' },
  { lock: 'M', type: 'MultiLock', locks: ['m1', 'm2'] },
);
const lease = fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined });
const op = fc.oneof(
  fc.tuple(typed, lease).map(([t, leaseMs]) => ({ op: 'lock', ...t, leaseMs })),
  fc
    .tuple(typed, fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }), lease)
    .map(([t, waitMs, leaseMs]) => ({ op: 'tryLock', ...t, waitMs, leaseMs })),
  typed.map((t) => ({ op: 'lockInterruptibly', ...t })),
  typed.map((t) => ({ op: 'unlock', ...t })),
  typed.map((t) => ({ op: 'forceUnlock', lock: t.lock, type: t.type })),
  fc.record({ op: fc.constant('work'), ms: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ op: fc.constant('use'), ms: fc.integer({ min: 1, max: 100 }) }),
);

/** Every one of `runs` scenarios drawn from `arb` passes checkRandomRun. */
function checkAll(arb: fc.Arbitrary<unknown>, opts: { oneMaster: boolean }, runs: number) {
  fc.assert(
    fc.property(arb, (json) => checkRandomRun(json, opts)),
    propertyRuns(runs),
  );
}

const scenario = twoClientScenario({
  op,
  fault: clientFault,
  extra: (fenced) => ({ resource: { kind: fenced ? 'fenced' : 'counter' } }),
});

describe('the lock family on random scenarios', () => {
  it('never throws, is deterministic, keeps the trace invariants and never shows V2 on one master', () => {
    checkAll(scenario, { oneMaster: true }, 30);
  }, 600_000);
});

const redOp = fc.oneof(
  lease.map((leaseMs) => ({ op: 'lock', lock: 'R', type: 'RedLock', locks: ['R', 'R', 'R'], leaseMs })),
  fc
    .tuple(fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }), lease)
    .map(([waitMs, leaseMs]) => ({
      op: 'tryLock',
      lock: 'R',
      type: 'RedLock',
      locks: ['R', 'R', 'R'],
      waitMs,
      leaseMs,
    })),
  fc.constant({ op: 'unlock', lock: 'R', type: 'RedLock', locks: ['R', 'R', 'R'] }),
  fc.record({ op: fc.constant('work'), ms: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ op: fc.constant('use'), ms: fc.integer({ min: 1, max: 100 }) }),
);
const redScenario = twoClientScenario({
  op: redOp,
  fault: fc.oneof(nodeFault(['master-1', 'master-2', 'master-3']), pauseFault),
  maxOps: 5,
  maxFaults: 3,
  extra: () => ({
    redis: { topology: 'independent', masters: 3 },
    redisson: { lockWatchdogTimeout: 600, timeoutMs: 50, retryAttempts: 1 },
  }),
});

describe('RedLock on random scenarios over three independent masters', () => {
  // V2 is allowed here: a clock jump or a restart without persistence can give two owners leases.
  it('never throws, is deterministic and keeps the trace invariants', () => {
    checkAll(redScenario, { oneMaster: false }, 20);
  }, 600_000);
});
