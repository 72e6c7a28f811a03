import { beforeAll, describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { EVENT_KINDS, type TraceEvent } from '../engine/trace/types';
import { describeEvent } from './describe-event';
import { loadLang } from './i18n';
import { en } from './i18n/en';
import { kindKey, valueKey } from './i18n/event-fields';
import { zh } from './i18n/zh';

// Every event of every built-in, plain and verbose (the page runs some verbose: script.* events);
// contention-100 repeats contention-wakeup's kinds.
const events = builtins
  .filter((b) => b.id !== 'contention-100')
  .flatMap((b) => {
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(b.id);
    return [false, true].flatMap((verbose) => runScenario(v.scenario, { verbose }).trace.events);
  });

/** The words a language's table lacks to show these events: kind names and enumerated values. */
function missingWords(evs: readonly TraceEvent[], table: Readonly<Record<string, string>>): string[] {
  const keys = new Set<string>(EVENT_KINDS.map(kindKey));
  for (const e of evs) {
    keys.add(kindKey(e.kind));
    for (const [k, v] of Object.entries(e)) {
      const key = valueKey(e.kind, k, v);
      if (key !== null) keys.add(key);
    }
  }
  return [...keys].filter((k) => !Object.hasOwn(table, k)).sort();
}

/**
 * Fields whose strings are names, ids, keys, code or Redis's and Java's own text: shown as they
 * are in both languages. Any other string-valued field must be enumerated (event-fields.ts), so
 * a new field of words cannot reach a Chinese page in English unnoticed.
 */
const RAW_FIELDS = new Set(
  [
    'args argv by channel client command conn error exception from groups holders key keys level lockName',
    'master message observer op owner owners pending replica reply result script sentinel sha slots',
    'timer type violation waiting',
  ]
    .join(' ')
    .split(' '),
);

describe('describeEvent in 中文 (D27)', () => {
  beforeAll(() => loadLang('zh'));

  it('has a name for every event kind and every enumerated value, in both languages', () => {
    expect(missingWords(events, en)).toEqual([]);
    expect(missingWords(events, zh)).toEqual([]);
  });

  it('notices a missing word', () => {
    const { ['kind.lock.acquired']: _k, ['value.cause.timeout']: _v, ...holed } = zh;
    expect(missingWords(events, holed)).toEqual(['kind.lock.acquired', 'value.cause.timeout']);
  });

  it('classifies every field that carries words: enumerated, or shown as it is', () => {
    const unclassified = new Set<string>();
    for (const e of events) {
      for (const [k, v] of Object.entries(e)) {
        if (typeof v !== 'string' || ['kind', 'actor', 'lock', 'node'].includes(k)) continue;
        if (valueKey(e.kind, k, v) === null && !RAW_FIELDS.has(k)) unclassified.add(`${e.kind}.${k}`);
      }
    }
    expect([...unclassified]).toEqual([]);
  });

  it('names every field, value and the unit in Chinese, the raw kind beside the kind’s name', () => {
    const english = new Set<string>();
    for (const e of events) {
      const { head, details, name } = describeEvent(e, 'zh');
      expect(head.startsWith(`${e.t} 毫秒 · ${name}（${e.kind}）`), head).toBe(true);
      expect(name).toMatch(/[\u3400-\u9fff]/);
      for (const d of details) {
        const label = d.slice(0, d.indexOf(': '));
        // TTL, token, KEYS, ARGV and SHA1 are the glossary's and Redis's own words in both languages
        if (/[a-z]{2,}/i.test(label.replace(/\b(TTL|token|KEYS|ARGV|SHA1)\b/, ''))) english.add(label);
      }
    }
    expect([...english]).toEqual([]);
  });

  it('shows enumerated values in Chinese: a wake-up by timeout, a renewal, a node’s new role', () => {
    const detailsOf = (kind: string, pick: (e: TraceEvent) => boolean) =>
      describeEvent(
        events.find((e) => e.kind === kind && pick(e))!,
        'zh',
      ).details;
    expect(detailsOf('waiter.wakeup', (e) => e.cause === 'timeout')).toContain('原因: 超时');
    expect(detailsOf('watchdog.renew', (e) => e.result === 1)).toContain('结果: 1（已续期）');
    expect(detailsOf('node.role', (e) => e.role === 'master')).toContain('角色: 主节点');
    expect(detailsOf('resource.use', (e) => e.accepted === false)).toContain('已接受: 否');
  });

  it('keeps the trace’s names and values in English', () => {
    const e = events.find((x) => x.kind === 'lock.acquired')!;
    expect(describeEvent(e).head).toBe(`${e.t} ms · lock.acquired · ${e.actor} [${e.lock}]`);
    expect(describeEvent(e).name).toBe('lock acquired');
    expect(describeEvent(e).details[0]).toMatch(/^holdCount: 1$/);
    expect(describeEvent(e, 'zh').details[0]).toBe('重入次数: 1');
    const nil = events.find((x) => x.kind === 'cmd' && x.reply === null)!;
    expect(describeEvent(nil, 'zh').details).toContain('回复: (nil)');
    const w = events.find((x) => x.kind === 'waiter.wakeup' && x.cause === 'timeout')!;
    expect(describeEvent(w).details).toContain('cause: timeout');
  });
});
