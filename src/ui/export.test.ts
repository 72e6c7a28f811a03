import { beforeAll, describe, expect, it } from 'vitest';
import { builtin } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { timelineSvg } from './export';
import { buildContentionFixture } from './fixtures/contention';
import { deriveLaneModel } from './timeline/model';
import { loadLang } from './i18n';

// Chinese loads on demand in the page; these tests read it.
beforeAll(() => loadLang('zh'));

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

  it('is slide-ready (D26): title with verdict, time axis, legend, violation tags, role labels', () => {
    const v = validateScenario(builtin('failover-lost-lock')!.scenario);
    if (!v.ok) throw new Error('scenario');
    const r = runScenario(v.scenario);
    const model = deriveLaneModel(r.trace, (i) => r.stateAt(i));
    const svg = timelineSvg(model, 'en', { title: 'Failover loses the lock', verdict: r.trace.verdict });
    expect(svg).toContain('>Failover loses the lock — Unsafe<');
    expect(svg).toContain('>virtual time<');
    expect(svg).toMatch(/>\d+(\.\d+)? s</);
    expect(svg).toContain('>V1<');
    expect(svg).toContain('>→ master<');
    expect(svg).toContain('>Sentinels<');
    expect(svg).toContain('>lock key (TTL running down)<');
    expect(svg).toContain('>promotion (+switch-master)<');
    // no text under 12 px
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  });
});
