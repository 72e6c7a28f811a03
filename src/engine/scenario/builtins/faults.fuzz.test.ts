/**
 * Built-ins under edits a reader makes in the playground: another latency (0 included), an
 * interrupt of any thread at any moment, another release. Whatever the edit, the engine must
 * neither throw nor stop a run at one instant (`truncatedBy: 'instant'`): the faults found this
 * way so far were a generator chain nested per retry round (a stack overflow) and waiters that
 * re-tried without time passing (latency_zero.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runScenario } from '../run';
import { validateScenario } from '../schema';
import { builtins } from './index';

const small = builtins.filter((b) => b.id !== 'contention-100');

const edit = fc.record({
  index: fc.nat({ max: small.length - 1 }),
  latencyMs: fc.integer({ min: 0, max: 3 }),
  at: fc.integer({ min: 0, max: 8000 }),
  pick: fc.nat(),
  version: fc.constantFrom(undefined, '3.11.6', '3.17.5', '3.27.2', '4.7.0'),
});

describe('built-ins under random edits', () => {
  it('never throw and never stop at one instant', () => {
    fc.assert(
      fc.property(edit, ({ index, latencyMs, at, pick, version }) => {
        const s = structuredClone(small[index].scenario) as unknown as Record<string, unknown> & {
          clients: { id: string; threads: { id: number }[] }[];
          faults?: unknown[];
          redisson?: Record<string, unknown>;
          network?: Record<string, unknown>;
        };
        const threads = s.clients.flatMap((c) => c.threads.map((t) => [c.id, t.id] as const));
        const [client, thread] = threads[pick % threads.length];
        s.network = { ...s.network, latencyMs };
        s.faults = [...(s.faults ?? []), { at, kind: 'interrupt', client, thread }];
        if (version !== undefined) s.redisson = { ...s.redisson, version };
        // a release without a lock type the scenario uses is refused, as in the form
        const v = validateScenario(s);
        fc.pre(v.ok);
        if (!v.ok) return;
        expect(runScenario(v.scenario).trace.truncatedBy).not.toBe('instant');
      }),
      { seed: 20261127, numRuns: 120 },
    );
  });
});
