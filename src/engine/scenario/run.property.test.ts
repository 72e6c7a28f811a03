/**
 * Random small scenarios (locks, leases, waits, pauses, crashes, interrupts) through the whole
 * pipeline: validation, run, trace. Whatever the program, a run must not throw, must be
 * deterministic, must keep seq = index, t non-decreasing, and its state fold must end on `final`.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  checkRandomRun,
  clientFault,
  propertyRuns,
  twoClientScenario,
} from '../../testing/scenario/random_scenarios';

const lockNames = fc.constantFrom('L', 'M');
const simpleOp = fc.oneof(
  fc.record({
    op: fc.constant('lock'),
    lock: lockNames,
    leaseMs: fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant('tryLock'),
    lock: lockNames,
    waitMs: fc.integer({ min: 0, max: 300 }),
    leaseMs: fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('lockInterruptibly'), lock: lockNames }),
  fc.record({ op: fc.constant('unlock'), lock: lockNames }),
  fc.record({ op: fc.constant('work'), ms: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ op: fc.constant('use'), ms: fc.integer({ min: 1, max: 100 }) }),
  fc.record({
    op: fc.constant('redis'),
    argv: fc.constantFrom(['GET', 'L'], ['DEL', 'L'], ['HGETALL', 'M'], ['PING']),
  }),
  fc.record({
    op: fc.constantFrom('isLocked', 'isHeldByThread', 'getHoldCount', 'remainTimeToLive'),
    lock: lockNames,
  }),
);
// Java's try around a few ops: exceptions (interrupts, unlocks of locks not held) are caught or not
const block = fc.array(simpleOp, { maxLength: 3 });
const op = fc.oneof(
  { weight: 6, arbitrary: simpleOp },
  {
    weight: 1,
    arbitrary: fc.record(
      { op: fc.constant('try'), body: block, catch: block, finally: block },
      { requiredKeys: ['op', 'body'] },
    ),
  },
);

const scenario = twoClientScenario({ op, fault: clientFault });

describe('runScenario on random scenarios', () => {
  it('never throws, is deterministic and keeps the trace invariants', () => {
    fc.assert(
      fc.property(scenario, (json) => checkRandomRun(json, { oneMaster: true })),
      propertyRuns(40),
    );
  }, 600_000);
});
