import { describe, expect, it } from 'vitest';
import { builtin } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { textWidth } from '../timeline/draw';
import { LABEL_W } from '../timeline/LaneMenu';
import { deriveRunModel } from '../timeline/model';
import { labelColumnWidth, labelLines, MAX_LABEL_W, measureLine } from './label-column';

const modelOf = (id: string) => {
  const v = validateScenario(builtin(id)!.scenario);
  if (!v.ok) throw new Error(id);
  return deriveRunModel(v.scenario, runScenario(v.scenario));
};
const lines = (id: string) =>
  labelLines(
    modelOf(id),
    (r) => r,
    (s) => `slots ${s.replace(/-/g, '–')}`,
  );
// no canvas under vitest: the timeline's generous estimate
const width = (ls: ReturnType<typeof lines>) => labelColumnWidth(ls, (l) => measureLine(l, textWidth));

describe('compare label column (issue 14: slots cut at 112 px)', () => {
  it('cluster-failover-lost-lock: lists every slot range and the promotion, and is wide enough for them', () => {
    const ls = lines('cluster-failover-lost-lock');
    const texts = ls.map((l) => l.text);
    expect(texts).toContain('slots 10923–16383');
    expect(texts).toContain('→ master');
    const w = width(ls);
    expect(w).toBeGreaterThan(LABEL_W);
    expect(w).toBeGreaterThanOrEqual(textWidth('slots 10923–16383', 11) + 8);
  });

  it('keeps the timeline’s width for short names, and never takes more than its share', () => {
    expect(width(lines('basic-lock'))).toBe(LABEL_W);
    expect(width([{ kind: 'id', text: 'x'.repeat(200) }])).toBe(MAX_LABEL_W);
  });
});
