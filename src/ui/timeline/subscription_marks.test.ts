import { describe, expect, it } from 'vitest';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { poolOfOne } from '../fixtures/subscription-pool';
import { legendItems } from './legend-items';
import { deriveRunModel } from './model';

function modelOf(json: unknown) {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return deriveRunModel(v.scenario, runScenario(v.scenario));
}


describe('timeline: the pub/sub pool', () => {
  it('keeps main’s field order on a lane that waits for a slot and is starved: starved, then subWait', () => {
    const m = modelOf({ ...poolOfOne, faults: [{ kind: 'starve', at: 5000, client: 'W', ms: 200 }] });
    const w2 = m.threads.find((t) => t.id === 'W:2')!;
    expect(w2.subWait).toHaveLength(1);
    expect(w2.starved).toEqual([{ from: 5000, to: 5200 }]);
    // a lane's JSON (an export of the lanes, the lane-hashes) is the same text as main's
    expect(Object.keys(w2)).toEqual([
      'id',
      'client',
      'bands',
      'holds',
      'partial',
      'marks',
      'starved',
      'subWait',
    ]);
  });

  it('draws W:2’s wait for a pub/sub slot and its give-up (3.27.2, pool 1 × 1), nothing on W:1', () => {
    const m = modelOf(poolOfOne);
    const w2 = m.threads.find((t) => t.id === 'W:2')!;
    expect(w2.subWait).toHaveLength(1);
    const span = w2.subWait![0];
    expect(span.to - span.from).toBe(6000);
    expect(w2.marks.filter((x) => x.kind === 'sub-timeout').map((x) => x.t)).toEqual([span.to]);
    // the thread is blocked in lock() all along: a waiting band under the strip
    const mid = (span.from + span.to) / 2;
    expect(w2.bands.find((b) => b.from <= mid && mid < b.to)?.kind).toBe('waiting');
    expect(m.threads.find((t) => t.id === 'W:1')!.subWait).toBeUndefined();
    expect(legendItems(m).map((l) => l.key)).toEqual(
      expect.arrayContaining(['legend.subWait', 'legend.subTimeout']),
    );
    // predict mode: a legend cut before the give-up does not announce it (lesson waiting-fails 2)
    const before = legendItems(m, { until: span.to - 1 }).map((l) => l.key);
    expect(before).toContain('legend.subWait');
    expect(before).not.toContain('legend.subTimeout');
    const atStart = legendItems(m, { until: span.from - 1 }).map((l) => l.key);
    expect(atStart).not.toContain('legend.subWait');
  });
});
