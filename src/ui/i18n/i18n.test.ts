import { describe, expect, it } from 'vitest';
import { en } from './en';
import { GLOSSARY, linkTerms } from './glossary';
import { GLOSSARY_TEXT } from './glossary-text';
import { zh } from './zh';

/** Placeholders, code and names that stay as they are in either language. */
const neutral = (v: string) =>
  v.replace(/\{\w+\}|\b[A-Z][a-z]+[A-Z]\w*\b|[A-Za-z_]+\(\)|`[^`]*`|\b[A-Z][A-Z0-9_:.-]+\b/g, '');

describe('the dictionaries', () => {
  it('have the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('translate every long English text', () => {
    const same = Object.entries(en).filter(
      ([k, v]) => neutral(v).replace(/[^A-Za-z]/g, '').length > 8 && zh[k as keyof typeof en] === v,
    );
    expect(same.map(([k]) => k)).toEqual([]);
  });

  it('keep the same placeholders', () => {
    for (const [k, v] of Object.entries(en)) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(zh[k as keyof typeof en]), k).toEqual(names(v));
    }
  });

  it('use no English units in Chinese', () => {
    const bad = Object.entries(zh).filter(([, v]) => /\d\s*ms\b|\}\s*ms\b|\bms\)/.test(v));
    expect(bad).toEqual([]);
  });

  it('use no Chinese in English (the legend said "watchdog renewal (续期)")', () => {
    const mixed = Object.entries(en).filter(([k, v]) => /[\u3400-\u9fff]/.test(v) && k !== 'lang.zh');
    expect(mixed.map(([k]) => k)).toEqual([]);
  });
});

describe('the glossary', () => {
  it('has both languages for every entry, and each entry can be found in its own text', () => {
    for (const g of GLOSSARY) {
      const text = GLOSSARY_TEXT[g.id];
      for (const lang of ['en', 'zh'] as const) {
        expect(text[lang].length, g.id).toBeGreaterThan(40);
        expect(g.match[lang].test(g.title[lang]), `${g.id} ${lang}`).toBe(true);
      }
      expect(text.zh).not.toBe(text.en);
    }
  });

  it('links the first mention of each term only', () => {
    const parts = linkTerms('The watchdog renews the lease; the watchdog stops at unlock.', 'en');
    expect(parts).toEqual([
      { text: 'The ' },
      { text: 'watchdog', term: 'watchdog' },
      { text: ' renews the ' },
      { text: 'lease', term: 'lease' },
      { text: '; the watchdog stops at unlock.' },
    ]);
    expect(
      linkTerms('看门狗续期租期', 'zh')
        .filter((p) => p.term)
        .map((p) => p.term),
    ).toEqual(['watchdog', 'lease']);
    // a term inside a command's name is not the term: PTTL is not "P" + TTL (waiting-fails 5's caption)
    expect(linkTerms('回复为 -1，这是 PTTL 对没有 TTL 的键的回答', 'zh')).toEqual([
      { text: '回复为 -1，这是 PTTL 对没有 ' },
      { text: 'TTL', term: 'lease' },
      { text: ' 的键的回答' },
    ]);
  });
});

describe('loading a language', () => {
  it('falls back to English until Chinese is loaded, then translates', async () => {
    const { loadLang, translate } = await import('./index');
    expect(translate('zh', 'intro.more')).toBe(en['intro.more']);
    await loadLang('zh');
    expect(translate('zh', 'intro.more')).toBe(zh['intro.more']);
    expect(zh['intro.more']).not.toBe(en['intro.more']);
  });
});
