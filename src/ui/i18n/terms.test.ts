import { describe, expect, it } from 'vitest';
import { loadAllLessons } from '../../lessons/index';
import { builtins } from '../../engine/scenario/builtins/index';
import { LUA_COMMENTS_ZH } from './lua-comments.zh';
import { EVENT_FIELDS_ZH } from './event-fields';
import { GLOSSARY } from './glossary';
import { GLOSSARY_TEXT } from './glossary-text';
import { ZH_TERMS, zhTermClashes } from './terms';
import { zh } from './zh';

/** Every Chinese string of an {en, zh} object in a lesson, with where it is. */
function lessonZh(x: unknown, path: string, out: [string, string][]): void {
  if (typeof x !== 'object' || x === null) return;
  const o = x as Record<string, unknown>;
  if (typeof o.en === 'string' && typeof o.zh === 'string') out.push([path, o.zh]);
  else if (typeof o.zh === 'string') out.push([`${path}.zh`, o.zh]);
  for (const [k, v] of Object.entries(o)) if (typeof v === 'object') lessonZh(v, `${path}.${k}`, out);
}

describe('one Chinese term per concept (LA26)', () => {
  it('finds a second term for the same concept (the check can fail)', () => {
    expect(zhTermClashes('续期了 myLock 的租约')).toHaveLength(1);
    expect(zhTermClashes('带着 token 2 写入')).toHaveLength(1);
    expect(zhTermClashes('获取了锁（重入次数 1）')).toHaveLength(1);
    expect(zhTermClashes('锁 key（TTL 倒计时）')).toHaveLength(1);
    // code, placeholders and an English gloss in parentheses are not prose
    expect(zhTermClashes('防护令牌（fencing token）：`redisson_lock_token:{res}` 的 {token}')).toEqual([]);
  });

  it('every term is one word and no variant matches its own term', () => {
    for (const t of ZH_TERMS) for (const v of t.variants) expect(v.test(t.term), t.concept).toBe(false);
  });

  it('the UI strings, captions, legend and event fields use one term each', async () => {
    const texts: [string, string][] = [
      ...Object.entries(zh).map(([k, v]): [string, string] => [`zh.ts ${k}`, v]),
      ...Object.entries(EVENT_FIELDS_ZH).map(([k, v]): [string, string] => [`event-fields ${k}`, v]),
      ...GLOSSARY.flatMap((g): [string, string][] => [
        [`glossary ${g.id}.title`, g.title.zh],
        [`glossary ${g.id}.text`, GLOSSARY_TEXT[g.id].zh],
      ]),
    ];
    const clashes = texts.flatMap(([where, t]) => zhTermClashes(t).map((c) => `${where}: ${c}`));
    expect(clashes).toEqual([]);
  });

  it('the built-ins (titles, descriptions, incident cards) and the script notes use one term each', () => {
    const texts: [string, string][] = [];
    for (const b of builtins) {
      texts.push([`${b.id}.titleZh`, b.titleZh], [`${b.id}.descriptionZh`, b.descriptionZh]);
      if (b.incident)
        texts.push([`${b.id}.symptom`, b.incident.symptom.zh], [`${b.id}.cause`, b.incident.cause.zh]);
    }
    for (const [en, zhText] of LUA_COMMENTS_ZH) texts.push([`lua-comments ${en.slice(0, 40)}`, zhText]);
    expect(texts.length).toBeGreaterThan(200);
    const clashes = texts.flatMap(([where, t]) => zhTermClashes(t).map((c) => `${where}: ${c}`));
    expect(clashes).toEqual([]);
  });

  it('every lesson uses one term each', async () => {
    const texts: [string, string][] = [];
    for (const l of await loadAllLessons()) lessonZh(l, l.id, texts);
    expect(texts.length).toBeGreaterThan(300);
    const clashes = texts.flatMap(([where, t]) => zhTermClashes(t).map((c) => `${where}: ${c}`));
    expect(clashes).toEqual([]);
  });
});
