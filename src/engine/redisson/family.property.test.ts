/**
 * Random small scenarios over the whole lock family (fair, fenced, spin, read/write, multi) with
 * pauses, crashes and interrupts: a run must not throw, must be deterministic, and must never
 * show two live leases of one lock (V2) on a single healthy master.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../scenario/run';
import { validateScenario } from '../scenario/schema';

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

const scenario = fc
  .record({
    seed: fc.integer({ min: 0, max: 1000 }),
    a: fc.array(op, { minLength: 1, maxLength: 6 }),
    b: fc.array(op, { minLength: 1, maxLength: 6 }),
    bStart: fc.integer({ min: 0, max: 200 }),
    fenced: fc.boolean(),
    faults: fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('pause'),
          at: fc.integer({ min: 0, max: 800 }),
          client: fc.constantFrom('A', 'B'),
          ms: fc.integer({ min: 1, max: 800 }),
        }),
        fc.record({
          kind: fc.constant('crash'),
          at: fc.integer({ min: 0, max: 800 }),
          client: fc.constantFrom('A', 'B'),
        }),
        fc.record({
          kind: fc.constant('interrupt'),
          at: fc.integer({ min: 0, max: 800 }),
          client: fc.constantFrom('A', 'B'),
          thread: fc.constant(1),
        }),
      ),
      { maxLength: 2 },
    ),
  })
  .map((r) => ({
    format: 'lockscope/1',
    seed: r.seed,
    until: 5000,
    redisson: { lockWatchdogTimeout: 600 },
    resource: { kind: r.fenced ? 'fenced' : 'counter' },
    clients: [
      { id: 'A', threads: [{ id: 1, program: r.a }] },
      { id: 'B', threads: [{ id: 1, start: r.bStart, program: r.b }] },
    ],
    faults: r.faults,
  }));

describe('the lock family on random scenarios', () => {
  it('never throws, is deterministic and never shows V2 on one master', () => {
    fc.assert(
      fc.property(scenario, (json) => {
        const v = validateScenario(JSON.parse(JSON.stringify(json)));
        if (!v.ok) throw new Error(JSON.stringify(v.issues));
        const run = runScenario(v.scenario);
        const text = JSON.stringify(run.trace);
        expect(JSON.stringify(runScenario(v.scenario).trace)).toBe(text);
        expect(run.trace.violations.filter((x) => x.kind === 'V2')).toEqual([]);
      }),
      { numRuns: Number(process.env.LOCKSCOPE_PROP_RUNS ?? 30), seed: 20261121 },
    );
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
const master = fc.constantFrom('master-1', 'master-2', 'master-3');
const redScenario = fc
  .record({
    seed: fc.integer({ min: 0, max: 1000 }),
    a: fc.array(redOp, { minLength: 1, maxLength: 5 }),
    b: fc.array(redOp, { minLength: 1, maxLength: 5 }),
    bStart: fc.integer({ min: 0, max: 200 }),
    faults: fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('crash'), at: fc.integer({ min: 0, max: 800 }), node: master }),
        fc.record({ kind: fc.constant('restart'), at: fc.integer({ min: 0, max: 800 }), node: master }),
        fc.record({
          kind: fc.constant('clock'),
          at: fc.integer({ min: 0, max: 800 }),
          node: master,
          jumpMs: fc.integer({ min: 0, max: 2000 }),
        }),
        fc.record({
          kind: fc.constant('pause'),
          at: fc.integer({ min: 0, max: 800 }),
          client: fc.constantFrom('A', 'B'),
          ms: fc.integer({ min: 1, max: 800 }),
        }),
      ),
      { maxLength: 3 },
    ),
  })
  .map((r) => ({
    format: 'lockscope/1',
    seed: r.seed,
    until: 5000,
    redis: { topology: 'independent', masters: 3 },
    redisson: { lockWatchdogTimeout: 600, timeoutMs: 50, retryAttempts: 1 },
    clients: [
      { id: 'A', threads: [{ id: 1, program: r.a }] },
      { id: 'B', threads: [{ id: 1, start: r.bStart, program: r.b }] },
    ],
    faults: r.faults,
  }));

describe('RedLock on random scenarios over three independent masters', () => {
  it('never throws and is deterministic', () => {
    fc.assert(
      fc.property(redScenario, (json) => {
        const v = validateScenario(JSON.parse(JSON.stringify(json)));
        if (!v.ok) throw new Error(JSON.stringify(v.issues));
        const run = runScenario(v.scenario);
        expect(JSON.stringify(runScenario(v.scenario).trace)).toBe(JSON.stringify(run.trace));
      }),
      { numRuns: Number(process.env.LOCKSCOPE_PROP_RUNS ?? 20), seed: 20261121 },
    );
  }, 600_000);
});
