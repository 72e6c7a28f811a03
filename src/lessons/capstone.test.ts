import { describe, expect, it } from 'vitest';
import capstone from './content/22_capstone';
import { probeTask, resolveScenario, RunCache, taskOutcome } from './evaluate';
import { applyPatch } from './patch';
import { searchTask } from './search-goal';
import type { PatchOp, ScenarioJson } from './types';

const step = capstone.steps[2];
const task = step.task!;
const start = resolveScenario(step.scenario!, undefined);
const cache = new RunCache();
const onEveryBuyer = (field: string, value: unknown): PatchOp[] =>
  [0, 1, 2].map((c) => ({ op: 'add', path: `/clients/${c}/threads/0/program/0/${field}`, value }));
const fenced: PatchOp = { op: 'replace', path: '/resource', value: { kind: 'fenced', initial: 0 } };

describe('the capstone, graded by the violation search (issue 22)', () => {
  it('the starting scenario runs Safe, yet the search breaks it: the pause of step 2, a V3', () => {
    expect(cache.run(start).trace.verdict).toBe('safe');
    const o = taskOutcome(cache, start, task);
    expect(o.met).toBe(false);
    expect(o.search?.violation).toMatchObject({ kind: 'V3', lock: 'stock' });
    // step 2 runs exactly the shrunk counterexample the search reports
    const shown = resolveScenario(capstone.steps[1].scenario!, start);
    expect(o.search?.added).toEqual(shown.faults);
  });

  it('the reference solution (FencedLock, a stock that checks tokens) passes: nothing in 1000 schedules', () => {
    const o = taskOutcome(cache, applyPatch(start, task.solution), task);
    expect(o).toMatchObject({ met: true, search: { tried: 1000, violation: null } });
  }, 60_000);

  it.each<[string, PatchOp[]]>([
    ['a longer lease', onEveryBuyer('leaseMs', 60_000)],
    ['FairLock', onEveryBuyer('type', 'FairLock')],
    ['a fenced stock behind an RLock (no tokens)', [fenced]],
    ['FencedLock without the stock checking its tokens', onEveryBuyer('type', 'FencedLock')],
  ])('half a fix fails by the search’s counterexample: %s', (_name, patch) => {
    const json = applyPatch(start, patch);
    expect(probeTask(cache, json, task)).toMatchObject({ goal: false, searchable: true });
    // the watchdog or a lease: a stale write (V3); FairLock: also a waiter left behind (L2) first
    expect(searchTask(json as ScenarioJson, task.search!).violation?.kind).toMatch(/^(V3|L2)$/);
  });

  it('a dodge is answered by its own “that works, but…”, and the search does not run on it', () => {
    task.dodges!.forEach((d, i) => {
      const p = probeTask(cache, applyPatch(start, d.example), task);
      expect(p).toEqual({ goal: false, dodge: i, searchable: false });
    });
  });
});
