import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en as firstScreen } from './en';
import { enCompare } from './en-compare';
import { enExplore } from './en-explore';
import { enLearn } from './en-learn';
import { enTopology } from './en-topology';
import { GLOSSARY, linkTerms } from './glossary';
import { GLOSSARY_TEXT } from './glossary-text';
import { zh } from './zh';

/** Placeholders, code and names that stay as they are in either language. */
const neutral = (v: string) =>
  v.replace(/\{\w+\}|\b[A-Z][a-z]+[A-Z]\w*\b|[A-Za-z_]+\(\)|`[^`]*`|\b[A-Z][A-Z0-9_:.-]+\b/g, '');

/**
 * The English tables: the first screen's (en.ts) and those a lazy view adds when its chunk loads,
 * each with the module that adds it and the modules (or folder) allowed to name its keys: the
 * view's own chunk, which the first screen does not load.
 */
const VIEW_TABLES = [
  {
    table: enLearn,
    adds: 'src/ui/lessons/LearnView.tsx',
    home: ['LearnView.tsx', 'TaskView.tsx', 'task-status.ts', 'TutorialsBox.tsx', 'player.ts'].map(
      (f) => `src/ui/lessons/${f}`,
    ),
  },
  { table: enExplore, adds: 'src/ui/explore/ExplorePanel.tsx', home: ['src/ui/explore/ExplorePanel.tsx'] },
  { table: enTopology, adds: 'src/ui/topology/TopologyView.tsx', home: ['src/ui/topology/TopologyView.tsx'] },
  {
    table: enCompare,
    adds: 'src/ui/compare/ComparePanel.tsx',
    home: ['src/ui/compare/ComparePanel.tsx', 'src/ui/compare/compare-run.ts'],
  },
];
const en = Object.assign({}, firstScreen, ...VIEW_TABLES.map((v) => v.table)) as typeof firstScreen;

/** Every non-test source file of the app, with its text. */
function sources(dir = 'src'): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    if (!/\.tsx?$/.test(d.name) || /\.test\.tsx?$/.test(d.name)) return [];
    return [{ path: relative('.', path), text: readFileSync(path, 'utf8') }];
  });
}

describe('the dictionaries', () => {
  it('have the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('give each English string one home', () => {
    const all = [firstScreen, ...VIEW_TABLES.map((v) => v.table)].flatMap((t) => Object.keys(t));
    expect(all.length).toBe(new Set(all).size);
  });

  it("name a lazy view's keys only in that view's modules, which load its table", () => {
    const files = sources().filter((f) => !f.path.startsWith('src/ui/i18n/'));
    const wrong: string[] = [];
    for (const { table, home } of VIEW_TABLES) {
      for (const key of Object.keys(table))
        for (const f of files)
          if (
            !home.some((h) => f.path.startsWith(h)) &&
            (f.text.includes(`'${key}'`) || f.text.includes(`"${key}"`))
          )
            wrong.push(`${key} in ${f.path}`);
    }
    expect(wrong).toEqual([]);
    // and each view's module adds its table
    for (const { adds } of VIEW_TABLES)
      expect(readFileSync(adds, 'utf8'), adds).toMatch(/^addEnglish\(en[A-Z]\w+\);$/m);
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
