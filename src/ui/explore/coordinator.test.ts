import { describe, expect, it } from 'vitest';
import { shardCount, startSearch, SearchCancelled, type WorkerLike } from './coordinator';
import type { FromWorker, SearchScope, ToWorker } from './protocol';

const SCOPE: SearchScope = {
  kinds: ['pause'],
  inapplicable: [],
  maxChanges: 3,
  horizon: 1000,
  moments: 4,
  scales: [30000],
  baseViolations: 0,
};

const violation = { kind: 'V1' as const, lock: 'myLock', from: 1, to: null, holders: ['A:1', 'B:1'] };

/**
 * A stand-in worker whose schedule i violates when `breaks(i)`: it walks its shard's indices a
 * few at a time, yielding between slices like the real one, so `bound` messages interleave.
 */
function fakeWorkers(breaks: (i: number) => boolean, opts: { failOnSearch?: boolean } = {}) {
  const made: { terminated: boolean; tried: number[] }[] = [];
  const spawn = (): WorkerLike => {
    const me = { terminated: false, tried: [] as number[] };
    made.push(me);
    let bound = Infinity;
    const w: WorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => {
        me.terminated = true;
      },
      postMessage: (m: ToWorker) => {
        setTimeout(() => void handle(structuredClone(m)), 0);
      },
    };
    const post = (m: FromWorker) =>
      setTimeout(() => {
        if (!me.terminated) w.onmessage?.({ data: structuredClone(m) } as MessageEvent<FromWorker>);
      }, 0);
    const handle = async (m: ToWorker) => {
      if (me.terminated) return;
      if (m.type === 'plan') return post({ type: 'plan', plan: { p: 1 }, scope: SCOPE });
      if (m.type === 'bound') return void (bound = Math.min(bound, m.index));
      if (m.type === 'shrink')
        return post({
          type: 'shrunk',
          result: {
            scenario: { index: m.index },
            violation,
            steps: 2,
            changes: [],
            firstChanges: 2,
            marked: [],
            baseFaults: [],
            baseReplicas: [],
          },
        });
      if (opts.failOnSearch) return post({ type: 'error', message: 'boom' });
      for (let i = m.shard; i < m.budget && i <= bound; i += m.shards) {
        me.tried.push(i);
        if (breaks(i)) return post({ type: 'done', tried: me.tried.length, hit: { index: i, violation } });
        if (me.tried.length % 3 === 0) {
          post({ type: 'progress', tried: me.tried.length, hits: 0 });
          await new Promise((r) => setTimeout(r, 0));
          if (me.terminated) return;
        }
      }
      post({ type: 'done', tried: me.tried.length, hit: null });
    };
    return w;
  };
  return { spawn, made };
}

const OPTIONS = { budget: 200, seed: 1, faults: ['pause'] };

describe('startSearch', () => {
  it.each([
    { name: 'one violating index', breaks: [57], want: 57 },
    { name: 'the lowest of several, whichever shard finds first', breaks: [90, 41, 43, 120], want: 41 },
    { name: 'index 0', breaks: [0, 1, 2], want: 0 },
    { name: 'the last index of the budget', breaks: [199], want: 199 },
  ])('finds $name with 1 to 4 workers', async ({ breaks, want }) => {
    for (const shards of [1, 2, 3, 4]) {
      const { spawn, made } = fakeWorkers((i) => breaks.includes(i));
      const phases: string[] = [];
      const outcome = await startSearch({}, OPTIONS, spawn, shards, (p) => phases.push(p.phase)).done;
      expect(outcome.kind, `${shards} workers`).toBe('found');
      if (outcome.kind !== 'found') return;
      expect(outcome.hit.index, `${shards} workers`).toBe(want);
      expect(outcome.shrunk.scenario).toEqual({ index: want });
      expect(made).toHaveLength(shards);
      expect(made.every((m) => m.terminated)).toBe(true);
      expect(phases[0]).toBe('planning');
      expect(phases.at(-1)).toBe('shrinking');
      // every index below the answer was tried by some worker
      const tried = new Set(made.flatMap((m) => m.tried));
      for (let i = 0; i < want; i++) expect(tried.has(i), `index ${i}`).toBe(true);
    }
  });

  it('reports nothing, with the whole budget tried and the scope, when no schedule breaks', async () => {
    const { spawn } = fakeWorkers(() => false);
    const outcome = await startSearch({}, OPTIONS, spawn, 3, () => {}).done;
    expect(outcome).toEqual({ kind: 'none', tried: 200, scope: SCOPE });
  });

  it('cancel terminates every worker and rejects with SearchCancelled', async () => {
    const { spawn, made } = fakeWorkers(() => false);
    const handle = startSearch({}, { ...OPTIONS, budget: 1e9 }, spawn, 2, () => {});
    await new Promise((r) => setTimeout(r, 20));
    handle.cancel();
    await expect(handle.done).rejects.toBeInstanceOf(SearchCancelled);
    expect(made.map((m) => m.terminated)).toEqual([true, true]);
  });

  it('a worker error ends the search with that error and terminates the workers', async () => {
    const { spawn, made } = fakeWorkers(() => false, { failOnSearch: true });
    await expect(startSearch({}, OPTIONS, spawn, 2, () => {}).done).rejects.toThrow('boom');
    expect(made.every((m) => m.terminated)).toBe(true);
  });
});

describe('shardCount', () => {
  it.each([
    [undefined, 1],
    [0, 1],
    [1, 1],
    [2, 2],
    [6, 6],
    [64, 8],
    [Number.NaN, 1],
  ])('%s cores → %s workers', (cores, want) => {
    expect(shardCount(cores)).toBe(want);
  });
});
