import { describe, expect, it } from 'vitest';
import { timelineSvg } from './export';
import { buildContentionFixture } from './fixtures/contention';
import { deriveLaneModel } from './timeline/model';

describe('timeline SVG export', () => {
  it('draws every lane, the violation and the labels in the chosen language', () => {
    const run = buildContentionFixture();
    const model = deriveLaneModel(run.trace, (i) => run.stateAt(i));
    const en = timelineSvg(model, 'en');
    expect(en.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    for (const lane of ['A:1', 'B:1', 'master', 'Threads', 'Redis nodes']) expect(en).toContain(`>${lane}<`);
    expect(en).toContain('stroke="#dc2626"');
    expect(timelineSvg(model, 'zh')).toContain('>线程<');
  });
});
