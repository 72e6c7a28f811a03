import { describe, expect, it } from 'vitest';
import { builtin } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { besideX, drawTimeline, MIN_TEXT_PX, partialText, textWidth } from './draw';
import { computeLayout } from './layout';
import { deriveRunModel, type LaneModel } from './model';
import { NO_OWNERS } from './owners';
import { COLORS, MARK_COLOR } from './palette';
import type { Painter } from './painter';

/** A painter that records what was drawn, by colour. */
function recorder() {
  const calls: { op: string; color: string; size?: number }[] = [];
  const p: Painter = {
    rect: (_x, _y, _w, _h, fill, stroke) => calls.push({ op: 'rect', color: stroke ?? fill }),
    line: (_a, _b, _c, _d, stroke) => calls.push({ op: 'line', color: stroke }),
    poly: (_p, fill) => calls.push({ op: 'poly', color: fill }),
    text: (_x, _y, s, color, o) => calls.push({ op: `text:${s}`, color, size: o?.size ?? 11 }),
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
  nodes: [{ id: 'master', role: 'master', down: [], roles: [], keys: [], keyNames: [] }],
  arrows: [],
  sentinels: null,
  owners: NO_OWNERS,
  violations,
  partitions: [],
  latency: [],
  lockEventIndices: [],
});

const draw = (m: LaneModel, scale = 1, x = (t: number) => t / 10, width = 200) => {
  const { p, calls } = recorder();
  drawTimeline(p, m, computeLayout(m, scale), x, width, {
    threads: 'T',
    nodes: 'N',
    down: 'down',
    failover: (n) => `failover → ${n}`,
  });
  return calls;
};

const builtinModel = (id: string) => {
  const v = validateScenario(builtin(id)!.scenario);
  if (!v.ok) throw new Error(id);
  return deriveRunModel(v.scenario, runScenario(v.scenario));
};

describe('drawTimeline text (D31)', () => {
  const ids = [
    'basic-lock',
    'multilock-all-or-nothing',
    'failover-lost-lock',
    'fencing-saves-gc-pause',
    'cluster-failover-lost-lock',
  ];
  it.each(ids)('%s: every text is at least 12 px, and scales in presenter mode', (id) => {
    const m = builtinModel(id);
    // whole run and zoomed in 20×, so the labels that need room are drawn too
    for (const zoom of [1, 20]) {
      const x = (t: number) => ((t / m.tEnd) * 1300 - (zoom > 1 ? 300 : 0)) * zoom;
      const texts = draw(m, 1, x, 1300).filter((c) => c.op.startsWith('text:'));
      expect(texts.length).toBeGreaterThan(1);
      expect(texts.filter((c) => (c.size ?? 0) < MIN_TEXT_PX)).toEqual([]);
      const big = draw(m, 1.5, x, 1300).filter((c) => c.op.startsWith('text:'));
      expect(big.every((c) => (c.size ?? 0) >= MIN_TEXT_PX * 1.5)).toBe(true);
    }
  });

  it('failover-lost-lock: the promotion is a tag "→ master" and the Sentinels’ band names the replica', () => {
    const calls = draw(builtinModel('failover-lost-lock'), 1, (t) => t / 4, 6000);
    expect(calls.some((c) => c.op === 'text:→ master')).toBe(true);
    expect(calls.some((c) => c.op === 'text:failover → replica-1')).toBe(true);
    // no bare role word floats on a lane any more
    expect(calls.some((c) => c.op === 'text:master' || c.op === 'text:replica')).toBe(false);
  });

  it('cluster-failover-lost-lock: the promoted replica’s tag names the slots it took', () => {
    const calls = draw(builtinModel('cluster-failover-lost-lock'), 1, (t) => t / 4, 6000);
    expect(calls.some((c) => c.op === 'text:→ master · 10923–16383')).toBe(true);
  });

  it('the role tag says the role in the page’s language when given the word (D27)', () => {
    const { p, calls } = recorder();
    const m = builtinModel('failover-lost-lock');
    drawTimeline(p, m, computeLayout(m, 1), (t) => t / 4, 6000, {
      threads: 'T',
      nodes: 'N',
      down: 'down',
      role: (r) => (r === 'master' ? '主节点' : r),
    });
    expect(calls.some((c) => c.op === 'text:→ 主节点')).toBe(true);
    expect(calls.some((c) => c.op === 'text:→ master')).toBe(false);
  });

  it('multilock: each key’s sub-row is labelled with its name', () => {
    const texts = draw(builtinModel('multilock-all-or-nothing'), 1, (t) => t / 3, 1300).map((c) => c.op);
    for (const k of ['l1', 'l2', 'l3']) expect(texts.some((s) => s.startsWith(`text:${k} · `))).toBe(true);
  });
});

describe('cluster lanes name their keys; a partial hold names every key held (D20, D3)', () => {
  const m = builtinModel('cluster-multilock-shards');
  // the first 73 ms, as the key moment "A:1 acquires seats" shows them on a 1440 px screen
  const texts = draw(m, 1, (t) => t * 16.4, 1200).map((c) => c.op);

  it('labels each master’s key bar with the key’s name, though each lane holds one key', () => {
    for (const k of ['seat:1', 'seat:3', 'seat:4']) expect(texts).toContain(`text:${k} · A:1=1`);
    expect(texts).not.toContain('text:A:1=1');
  });

  it('names seat:3 on A:1’s partial bar once master-3 holds it too', () => {
    expect(texts).toContain('text:seat:1');
    expect(texts.some((s) => s === 'text:+ seat:3' || s === 'text:seat:1 + seat:3')).toBe(true);
  });

  it.each([
    ['cluster-which-node', 'text:myLock · A:1=1'],
    ['cluster-hash-tags', 'text:{order}:lock · A:1=1'],
    ['basic-lock', 'text:A:1=1'],
  ])('%s: a single key is named on a cluster’s lanes only', (id, text) => {
    expect(draw(builtinModel(id), 1, (t) => t * 10, 1300).map((c) => c.op)).toContain(text);
  });
});

describe('partialText', () => {
  const before = { to: 11, keys: 'seat:1' };
  it.each([
    ['the keys when they fit', { from: 11, keys: 'seat:1 + seat:3' }, 200, 'seat:1 + seat:3'],
    ['what a short span adds to the one before', { from: 11, keys: 'seat:1 + seat:3' }, 80, '+ seat:3'],
    ['nothing when even that does not fit', { from: 11, keys: 'seat:1 + seat:3' }, 30, null],
    ['nothing for a short span after a gap', { from: 12, keys: 'seat:1 + seat:3' }, 80, null],
  ] as const)('%s', (_what, span, room, want) => {
    expect(partialText(span, before, room, 12)).toBe(want);
  });
});

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

describe('a mark’s label at the plot’s right edge', () => {
  /** the x of every text drawn, by its string */
  const textsAt = (m: LaneModel, width: number, flip = true) => {
    const at = new Map<string, number>();
    const p: Painter = {
      rect: () => {},
      line: () => {},
      poly: () => {},
      circle: () => {},
      text: (x, _y, s) => void at.set(s, x),
    };
    const labels = { threads: 'T', nodes: 'N', down: 'down' };
    drawTimeline(p, m, computeLayout(m, 1), (t) => t / 10, width, labels, [0, Infinity], flip);
    return at;
  };

  it('a token on the last write goes left of its mark instead of being cut (“#1 ✕”)', () => {
    for (const kind of ['refused', 'resource'] as const) {
      // the mark at 195 px of a 200 px plot
      const x = textsAt(model([{ t: 1950, kind, index: 1, label: '#34' }]), 200).get('#34')!;
      expect(x + textWidth('#34', MIN_TEXT_PX)).toBeLessThanOrEqual(200);
      expect(x).toBeLessThan(195);
    }
  });

  it('in predict mode never goes left of its mark, out from under the veil over the future', () => {
    const m = model([{ t: 1950, kind: 'resource', index: 1, label: '#34' }]);
    expect(textsAt(m, 200, false).get('#34')).toBeGreaterThan(195);
  });

  it('stays right of its mark where there is room', () => {
    expect(
      textsAt(model([{ t: 500, kind: 'refused', index: 1, label: '#1' }]), 200).get('#1'),
    ).toBeGreaterThan(50);
    expect(besideX(50, 5, '#1', 12, 200)).toBe(55);
    expect(besideX(195, 5, '#1', 12, 200)).toBe(195 - 5 - textWidth('#1', 12));
  });
});
