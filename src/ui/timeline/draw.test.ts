import { describe, expect, it } from 'vitest';
import { drawTimeline } from './draw';
import { computeLayout } from './layout';
import type { LaneModel } from './model';
import { COLORS, MARK_COLOR } from './palette';
import type { Painter } from './painter';

/** A painter that records what was drawn, by colour. */
function recorder() {
  const calls: { op: string; color: string }[] = [];
  const p: Painter = {
    rect: (_x, _y, _w, _h, fill, stroke) => calls.push({ op: 'rect', color: stroke ?? fill }),
    line: (_a, _b, _c, _d, stroke) => calls.push({ op: 'line', color: stroke }),
    poly: (_p, fill) => calls.push({ op: 'poly', color: fill }),
    text: (_x, _y, s, color) => calls.push({ op: `text:${s}`, color }),
    circle: (_x, _y, _r, fill, stroke) => calls.push({ op: 'circle', color: stroke ?? fill }),
  };
  return { p, calls };
}

const model = (
  marks: LaneModel['threads'][0]['marks'],
  violations: LaneModel['violations'] = [],
): LaneModel => ({
  tEnd: 2000,
  threads: [{ id: 'B:1', client: 'B', bands: [], holds: [], partial: [], marks }],
  nodes: [{ id: 'master', role: 'master', down: [], roles: [], keys: [] }],
  arrows: [],
  violations,
  partitions: [],
  lockEventIndices: [],
});

const draw = (m: LaneModel) => {
  const { p, calls } = recorder();
  drawTimeline(p, m, computeLayout(m), (t) => t / 10, 200, { threads: 'T', nodes: 'N', down: 'down' });
  return calls;
};

describe('drawTimeline marks', () => {
  it('a failed tryLock’s ✕ is drawn even when a timeout ring shares its pixel (D33)', () => {
    const calls = draw(
      model([
        { t: 1100, kind: 'wake-timeout', index: 1 },
        { t: 1101, kind: 'error', index: 2 },
      ]),
    );
    expect(calls.filter((c) => c.op === 'circle' && c.color === MARK_COLOR['wake-timeout']).length).toBe(1);
    expect(calls.filter((c) => c.op === 'line' && c.color === MARK_COLOR.error).length).toBe(2);
  });

  it('a refused write is its own mark, with its token (D5)', () => {
    const calls = draw(model([{ t: 500, kind: 'refused', index: 1, label: '#33' }]));
    expect(calls.some((c) => c.op === 'circle' && c.color === MARK_COLOR.refused)).toBe(true);
    expect(calls.some((c) => c.op === 'text:#33')).toBe(true);
  });

  it('V2 is drawn on its own lanes, L1 in its own colour', () => {
    const calls = draw(
      model(
        [],
        [
          { kind: 'V2', lock: 'L', from: 0, to: 100, open: false, holders: ['B:1'], lanes: ['master'] },
          { kind: 'L1', lock: 'L', from: 0, to: 100, open: true, holders: ['B:1'] },
        ],
      ),
    );
    expect(calls.some((c) => c.op === 'rect' && c.color === COLORS.violationEdge)).toBe(true);
    expect(calls.some((c) => c.op === 'rect' && c.color === COLORS.stuckEdge)).toBe(true);
  });
});
