/**
 * Shared pieces of the random-scenario property tests: two clients with one thread each, a
 * handful of faults, and the invariants every run must keep whatever the program. Test-only code.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { isLiveness } from '../../engine/trace/types';

const at = fc.integer({ min: 0, max: 800 });
const client = fc.constantFrom('A', 'B');

/** Client faults: a GC pause, a JVM crash, Thread.interrupt() of thread 1. */
export const clientFault = fc.oneof(
  fc.record({ kind: fc.constant('pause'), at, client, ms: fc.integer({ min: 1, max: 800 }) }),
  fc.record({ kind: fc.constant('crash'), at, client }),
  fc.record({ kind: fc.constant('interrupt'), at, client, thread: fc.constant(1) }),
);

export const pauseFault = fc.record({
  kind: fc.constant('pause'),
  at,
  client,
  ms: fc.integer({ min: 1, max: 800 }),
});

/** Node faults on the given node ids: crash, restart, a clock step. */
export function nodeFault(nodes: readonly string[]) {
  const node = fc.constantFrom(...nodes);
  return fc.oneof(
    fc.record({ kind: fc.constant('crash'), at, node }),
    fc.record({ kind: fc.constant('restart'), at, node }),
    fc.record({ kind: fc.constant('clock'), at, node, jumpMs: fc.integer({ min: 0, max: 2000 }) }),
  );
}

export interface TwoClientOptions {
  op: fc.Arbitrary<unknown>;
  fault: fc.Arbitrary<unknown>;
  maxOps?: number;
  maxFaults?: number;
  /** fields merged into every scenario (redis, redisson, resource...) */
  extra?: (fenced: boolean) => Record<string, unknown>;
}

/** Client A starts at 0, client B a little later; each runs one random program. */
export function twoClientScenario(o: TwoClientOptions) {
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 1000 }),
      a: fc.array(o.op, { minLength: 1, maxLength: o.maxOps ?? 6 }),
      b: fc.array(o.op, { minLength: 1, maxLength: o.maxOps ?? 6 }),
      bStart: fc.integer({ min: 0, max: 200 }),
      fenced: fc.boolean(),
      faults: fc.array(o.fault, { maxLength: o.maxFaults ?? 2 }),
    })
    .map((r) => ({
      format: 'lockscope/1',
      seed: r.seed,
      until: 5000,
      redisson: { lockWatchdogTimeout: 600 },
      ...(o.extra?.(r.fenced) ?? {}),
      clients: [
        { id: 'A', threads: [{ id: 1, program: r.a }] },
        { id: 'B', threads: [{ id: 1, start: r.bStart, program: r.b }] },
      ],
      faults: r.faults,
    }));
}

/**
 * Validates and runs `json` twice and checks what must hold for any program: byte-identical
 * traces, seq = index, t non-decreasing, the state fold ends on `final`, the verdict agrees with
 * the violations, and every violation names holders over a sane interval. With `oneMaster`,
 * no V2: a single healthy master never holds two live leases of one lock.
 */
export function checkRandomRun(json: unknown, opts: { oneMaster: boolean }): void {
  const v = validateScenario(JSON.parse(JSON.stringify(json)));
  if (!v.ok) throw new Error(`generated an invalid scenario: ${JSON.stringify(v.issues)}`);
  const run = runScenario(v.scenario);
  expect(JSON.stringify(runScenario(v.scenario).trace)).toBe(JSON.stringify(run.trace));
  const evs = run.trace.events;
  for (let i = 0; i < evs.length; i++) {
    expect(evs[i].seq).toBe(i);
    if (i > 0) expect(evs[i].t).toBeGreaterThanOrEqual(evs[i - 1].t);
  }
  expect(JSON.stringify(run.stateAt(evs.length - 1))).toBe(JSON.stringify(run.trace.final));
  const kinds = run.trace.violations.map((x) => x.kind);
  expect(run.trace.verdict).toBe(
    kinds.some((k) => !isLiveness(k)) ? 'unsafe' : kinds.length > 0 ? 'stuck' : 'safe',
  );
  if (opts.oneMaster) expect(run.trace.violations.filter((x) => x.kind === 'V2')).toEqual([]);
  for (const viol of run.trace.violations) {
    expect(viol.holders.length).toBeGreaterThanOrEqual(1);
    if (viol.to !== null) expect(viol.to).toBeGreaterThanOrEqual(viol.from);
  }
}

export function propertyRuns(fallback: number): { numRuns: number; seed: number } {
  return {
    numRuns: Number(process.env.LOCKSCOPE_PROP_RUNS ?? fallback),
    seed: Number(process.env.LOCKSCOPE_PROP_SEED ?? 20261121),
  };
}
