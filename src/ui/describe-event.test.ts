import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { describeEvent } from './describe-event';

// Every field of every event of every built-in (contention-100 repeats contention-wakeup's kinds).
const events = builtins
  .filter((b) => b.id !== 'contention-100')
  .flatMap((b) => {
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(b.id);
    return runScenario(v.scenario).trace.events;
  });

describe('describeEvent in 中文 (D27)', () => {
  it('names every field and the unit in Chinese; the event kind stays the trace’s own', () => {
    const english = new Set<string>();
    for (const e of events) {
      const { head, details } = describeEvent(e, 'zh');
      expect(head).toMatch(new RegExp(`^${e.t} 毫秒 · ${e.kind.replace('.', '\\.')}`));
      for (const d of details) {
        const label = d.slice(0, d.indexOf(': '));
        // TTL and token are the glossary's own words in both languages
        if (/[a-z]{2,}/i.test(label.replace(/\b(TTL|token)\b/, ''))) english.add(label);
      }
    }
    expect([...english]).toEqual([]);
  });

  it('keeps the trace’s field names in English', () => {
    const e = events.find((x) => x.kind === 'lock.acquired')!;
    expect(describeEvent(e).head).toBe(`${e.t} ms · lock.acquired · ${e.actor} [${e.lock}]`);
    expect(describeEvent(e).details[0]).toMatch(/^holdCount: 1$/);
    expect(describeEvent(e, 'zh').details[0]).toBe('重入次数: 1');
  });
});
