import { beforeAll, describe, expect, it } from 'vitest';
import { loadLang } from '../i18n';
import { commentBlocks, scriptLines, zhComment } from './lua-comments';

// every script the engine can send, as Redis receives it
const scripts = import.meta.glob<string>('../../engine/**/*.lua', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The comment blocks of these scripts that have no 中文 of the same length. */
function untranslated(texts: Record<string, string>): string[] {
  return Object.entries(texts).flatMap(([file, text]) =>
    commentBlocks(text)
      .filter((b) => zhComment(b.text)?.length !== b.lines.length)
      .map((b) => `${file.replace(/^.*\//, '')}: ${b.text.split('\n')[0]}`),
  );
}

describe('the Lua scripts’ comments in 中文 (D27)', () => {
  beforeAll(() => loadLang('zh'));
  it('has every comment block of every script, line for line', () => {
    expect(Object.keys(scripts).length).toBeGreaterThan(0);
    expect(untranslated(scripts)).toEqual([]);
  });

  it('notices a comment that changed', () => {
    const text = scripts['../../engine/naive/scripts/compare_and_delete.lua'];
    const edited = text.replace('Release a SET NX PX lock', 'Free a SET NX PX lock');
    expect(edited).not.toBe(text);
    expect(untranslated({ 'compare_and_delete.lua': edited })).toEqual([
      'compare_and_delete.lua: Free a SET NX PX lock only if it still holds this acquisition\'s token: the compare and the',
    ]);
  });

  it('swaps only comment lines, keeping the line count, the code and the English on hover', () => {
    const text = scripts['../../engine/naive/scripts/compare_and_delete.lua'];
    const en = text.split('\n');
    const zh = scriptLines(text, 'zh');
    expect(zh).toHaveLength(en.length);
    zh.forEach((l, i) => {
      if (/^\s*--/.test(en[i])) {
        expect(l.original).toBe(en[i]);
        expect(l.text).toMatch(/^\s*-- .*[\u3400-\u9fff]/);
        expect(l.text.match(/^\s*/)![0]).toBe(en[i].match(/^\s*/)![0]);
      } else expect(l).toEqual({ text: en[i] });
    });
    expect(scriptLines(text, 'en').map((l) => l.text)).toEqual(en);
  });
});
