/**
 * Random small scenarios (locks, leases, waits, pauses, crashes, interrupts) through the whole
 * pipeline: validation, run, trace. Whatever the program, a run must not throw, must be
 * deterministic, must keep seq = index, t non-decreasing, and its state fold must end on `final`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from './run';
import { validateScenario } from './schema';

const lockNames = fc.constantFrom('L', 'M');
const op = fc.oneof(
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
);

const scenario = fc
  .record({
    seed: fc.integer({ min: 0, max: 1000 }),
    a: fc.array(op, { minLength: 1, maxLength: 6 }),
    b: fc.array(op, { minLength: 1, maxLength: 6 }),
    bStart: fc.integer({ min: 0, max: 200 }),
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
    clients: [
      { id: 'A', threads: [{ id: 1, program: r.a }] },
      { id: 'B', threads: [{ id: 1, start: r.bStart, program: r.b }] },
    ],
    faults: r.faults,
  }));

describe('runScenario on random scenarios', () => {
  it('never throws, is deterministic and keeps the trace invariants', () => {
    fc.assert(
      fc.property(scenario, (json) => {
        const v = validateScenario(json);
        expect(v.ok).toBe(true);
        if (!v.ok) return;
        const run = runScenario(v.scenario);
        const text = JSON.stringify(run.trace);
        expect(JSON.stringify(runScenario(v.scenario).trace)).toBe(text);
        const evs = run.trace.events;
        for (let i = 0; i < evs.length; i++) {
          expect(evs[i].seq).toBe(i);
          if (i > 0) expect(evs[i].t).toBeGreaterThanOrEqual(evs[i - 1].t);
        }
        expect(JSON.stringify(run.stateAt(evs.length - 1))).toBe(JSON.stringify(run.trace.final));
        expect(run.trace.verdict).toBe(run.trace.violations.length ? 'unsafe' : 'safe');
        // one healthy master never holds two live leases of one lock (reference: failure-scenarios §0)
        expect(run.trace.violations.filter((x) => x.kind === 'V2')).toEqual([]);
        for (const viol of run.trace.violations) {
          expect(viol.holders.length).toBeGreaterThanOrEqual(1);
          if (viol.to !== null) expect(viol.to).toBeGreaterThanOrEqual(viol.from);
        }
      }),
      {
        numRuns: Number(process.env.LOCKSCOPE_PROP_RUNS ?? 40),
        seed: Number(process.env.LOCKSCOPE_PROP_SEED ?? 20261121),
      },
    );
  }, 600_000);
});
