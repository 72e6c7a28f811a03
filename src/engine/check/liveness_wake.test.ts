/**
 * L2 `hung` asks the kernel only about the threads whose `canWake` may have changed
 * (Kernel.wakeChanges). Answering "every client changed" after every task makes the check ask about
 * every acquire call again, as it did before: both must give the same trace on every built-in that
 * has an acquire call at the end of a task (all of them).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtins } from '../scenario/builtins/index';
import { Kernel } from '../sim/kernel';
import { ChangeList } from '../sim/change_list';
import { traceText } from './testing/trace_text';

const SKIP = new Set(['contention-100']); // the same code paths as contention-wakeup, 40x the time

describe('hung calls from the kernel changes', () => {
  afterEach(() => vi.restoreAllMocks());

  it(
    'gives the trace that asking about every call after every task gives, on every built-in',
    { timeout: 120_000 },
    () => {
      const cases = builtins.filter((b) => !SKIP.has(b.id));
      const incremental = cases.map((b) => traceText(b.scenario));
      const original = Kernel.prototype.wakeChanges;
      vi.spyOn(Kernel.prototype, 'wakeChanges').mockImplementation(function (this: Kernel) {
        const changes = original.call(this);
        const clients = new ChangeList();
        // every client a thread of the run could belong to: the ones the kernel named, and any other
        for (const b of cases)
          for (const c of (b.scenario.clients ?? []) as { id: string }[]) clients.add(c.id);
        return { names: changes.names, clients };
      });
      const everything = cases.map((b) => traceText(b.scenario));
      for (let i = 0; i < cases.length; i++) expect(incremental[i], cases[i].id).toBe(everything[i]);
    },
  );
});
