import { describe, expect, it } from 'vitest';
import { computeLayout, foldedShards, veilLabelTop } from './layout';
import type { LaneModel } from './model';

const SHARDS = [
  ['master-1', 'replica-1'],
  ['master-2', 'replica-2'],
  ['master-3', 'replica-3'],
];

/** A cluster's lane model with nothing on it: two threads, three shards of two nodes. */
function cluster(): LaneModel {
  const node = (id: string) => ({ id, keys: [], keyNames: [], down: [], roles: [] });
  return {
    threads: ['A:1', 'B:1'].map((id) => ({ id })),
    nodes: SHARDS.flat().map(node),
    shards: SHARDS,
  } as unknown as LaneModel;
}

describe('presenter mode folds the shards a step does not name (LA8)', () => {
  it('folds every shard without a named lane', () => {
    expect([...foldedShards(SHARDS, ['A:1', 'B:1', 'master-3', 'replica-3'])]).toEqual([0, 1]);
    expect([...foldedShards(SHARDS, ['replica-1', 'master-3'])]).toEqual([1]);
  });

  it('folds nothing when the step names no node lane, or there are no shards', () => {
    expect(foldedShards(SHARDS, ['A:1', 'B:1']).size).toBe(0);
    expect(foldedShards(SHARDS, []).size).toBe(0);
    expect(foldedShards(undefined, ['master']).size).toBe(0);
  });

  it('gives a folded shard its header only, naming the lanes it hides', () => {
    const all = computeLayout(cluster(), 1.25);
    const focused = computeLayout(cluster(), 1.25, ['A:1', 'B:1', 'master-3', 'replica-3']);
    const headers = focused.rows.filter((r) => r.kind === 'header-shard');
    expect(headers.map((r) => r.folded)).toEqual([
      ['master-1', 'replica-1'],
      ['master-2', 'replica-2'],
      undefined,
    ]);
    expect(focused.byId.has('master-1')).toBe(false);
    expect(focused.byId.has('replica-3')).toBe(true);
    // four cluster lanes of 46 px × 1.25 fewer: room for the threads above and the keyspace below
    expect(all.height - focused.height).toBe(4 * Math.round(46 * 1.25));
  });
});

describe('predict mode’s veil label', () => {
  it('sits in the first lane, clear of every group header’s band', () => {
    for (const layout of [computeLayout(cluster()), computeLayout(cluster(), 1.25)]) {
      const top = veilLabelTop(layout);
      // the label: 14 px text in 2 px padding, about 21 px tall
      const label = { top, bottom: top + 21 };
      for (const r of layout.rows.filter((row) => row.kind.startsWith('header')))
        expect(label.bottom <= r.y || label.top >= r.y + r.h, `clear of ${r.kind} at ${r.y}`).toBe(true);
    }
  });
});
