import { beforeAll, describe, expect, it } from 'vitest';
import { builtin } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { exportMeta, timelineSvg, wrapLines } from './export';
import { buildContentionFixture } from './fixtures/contention';
import { deriveLaneModel } from './timeline/model';
import { loadLang } from './i18n';
import type { Trace } from '../engine/trace/types';

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
    // the axis in the reader's language, as the page's (timeline/tick-label.ts)
    const zh = timelineSvg(model, 'zh', { title: 'x', verdict: r.trace.verdict });
    expect(zh).toMatch(/>\d+(\.\d+)? 秒</);
    expect(zh).toContain('>0 毫秒<');
    expect(zh).not.toMatch(/>\d+(\.\d+)? s</);
    expect(svg).toContain('>V1<');
    expect(svg).toContain('>→ master<');
    expect(svg).toContain('>Sentinels<');
    expect(svg).toContain('>lock key (TTL running down)<');
    expect(svg).toContain('>promotion (+switch-master)<');
    // no text under 12 px
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
  });

  // A run stopped at the event cap takes ~2,000,000 events to make: a small run marked cut stands
  // in for one (the image reads only `truncated`, `truncatedBy`, the verdict and `final.t`).
  it('a run cut short says so under its title, why and when, in both languages, and is never Safe', () => {
    const r = buildContentionFixture();
    const model = deriveLaneModel(r.trace, (i) => r.stateAt(i));
    const safe = { ...r.trace, verdict: 'safe' as const, violations: [] };
    const cut = { ...safe, truncated: true, truncatedBy: 'events' as const };
    const scenario = validateScenario(builtin('failover-lost-lock')!.scenario);
    if (!scenario.ok) throw new Error('scenario');
    const run = (trace: Trace) => ({ scenario: { ...scenario.scenario, title: 'Runaway', titleZh: undefined }, trace });
    const whole = timelineSvg(model, 'en', exportMeta(run(safe), 'en'));
    expect(whole).toContain('>Runaway — Safe<');
    const en = timelineSvg(model, 'en', exportMeta(run(cut), 'en'));
    expect(en).toContain('>Runaway — Cut short<');
    expect(en).not.toContain('Safe<');
    expect(en).toContain(`The run was stopped at ${cut.final.t} ms, before its end`);
    expect(en).toContain('cap on events');
    // the note pushes the lanes down: the image grows by its lines
    const height = (svg: string) => Number(/height="(\d+)"/.exec(svg)![1]);
    expect(height(en)).toBeGreaterThan(height(whole));
    const zh = timelineSvg(model, 'zh', exportMeta(run(cut), 'zh'));
    expect(zh).toContain('>Runaway — 未跑完<');
    expect(zh).toContain(`这次运行在 ${cut.final.t} 毫秒处`);
    expect(zh).toContain('事件数达到引擎的上限');
    // a violation found before the cut stands, and the image still says the run was cut
    const unsafeCut = { ...r.trace, truncated: true, truncatedBy: 'tasks' as const };
    const unsafe = timelineSvg(model, 'en', exportMeta(run(unsafeCut), 'en'));
    expect(unsafe).toContain('>Runaway — Unsafe<');
    expect(unsafe).toContain('task cap');
    expect(unsafe).not.toContain('Nothing was broken');
  });

  it('is titled as the page titles the run: the title given, else the scenario’s own in the reader’s language', () => {
    const r = buildContentionFixture();
    const v = validateScenario(builtin('failover-lost-lock')!.scenario);
    if (!v.ok) throw new Error('scenario');
    const run = { scenario: { ...v.scenario, title: 'Own', titleZh: '自己的' }, trace: r.trace };
    expect(exportMeta(run, 'en').title).toBe('Own');
    expect(exportMeta(run, 'zh').title).toBe('自己的');
    expect(exportMeta({ ...run, scenario: { ...run.scenario, titleZh: undefined } }, 'zh').title).toBe('Own');
    // a built-in's title as the header shows it (Header.tsx passes it)
    expect(exportMeta(run, 'zh', 'RedLock：一个主节点的时钟跳变').title).toBe('RedLock：一个主节点的时钟跳变');
  });

  it('wraps a note to the width: Latin at spaces, Chinese anywhere', () => {
    const en = wrapLines('aaaa bbbb cccc dddd', 10, 60);
    expect(en).toEqual(['aaaa bbbb', 'cccc dddd']);
    for (const line of en) expect(line.length * 6.2).toBeLessThanOrEqual(60);
    const zh = wrapLines('一二三四五六七八九十', 10, 45);
    expect(zh).toEqual(['一二三四', '五六七八', '九十']);
  });
});
