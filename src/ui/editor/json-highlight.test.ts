import { describe, expect, it } from 'vitest';
import {
  highlightLines,
  highlightRange,
  lineAt,
  lineOf,
  lineStarts,
  shiftProblems,
  syntaxProblem,
  widestLine,
} from './json-highlight';

/** The text a line's HTML shows (tags dropped, entities read back). */
const shown = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('highlightLines', () => {
  const text = '{\n  "op": "lock",\n  "ms": -12.5e3,\n  "ok": true\n}';

  it('draws every line of the text, and only its text', () => {
    const lines = highlightLines(text, []);
    expect(lines).toHaveLength(5);
    expect(lines.map(shown).join('\n')).toBe(text);
  });

  it('colours keys, strings, numbers and literals', () => {
    const [, op, ms, ok] = highlightLines(text, []);
    expect(op).toContain('<span class="tok-key">"op":</span>');
    expect(op).toContain('<span class="tok-string">"lock"</span>');
    expect(ms).toContain('<span class="tok-number">-12.5e3</span>');
    expect(ok).toContain('<span class="tok-literal">true</span>');
  });

  it('marks a problem with its message, on the token it names', () => {
    const from = text.indexOf('"lock"');
    const [, op] = highlightLines(text, [{ from, to: from + 6, message: 'op: "lokc" <no>' }]);
    expect(op).toContain(
      '<span class="tok-string json-editor__problem" title="op: &quot;lokc&quot; &lt;no&gt;">"lock"</span>',
    );
  });

  it('marks a problem across lines on each of them, and one at a line break on its last character', () => {
    const lines = highlightLines(text, [{ from: 3, to: text.indexOf('ms'), message: 'm' }]);
    expect(lines[1]).toContain('json-editor__problem');
    expect(lines[2]).toContain('json-editor__problem');
    expect(lines[3]).not.toContain('json-editor__problem');
    const atBreak = highlightLines('{\n"a"\n', [{ from: 5, to: 6, message: 'end' }]);
    expect(atBreak[1]).toContain('<span class="tok-string json-editor__problem" title="end">"</span>');
  });

  it('escapes what would be markup', () => {
    expect(highlightLines('"<b>&"', [])[0]).toBe('<span class="tok-string">"&lt;b&gt;&amp;"</span>');
  });
});

describe('syntaxProblem', () => {
  it('is null for JSON, and at the position where JSON.parse stopped otherwise', () => {
    expect(syntaxProblem('{"a": 1}')).toBeNull();
    const p = syntaxProblem('{"a": 1,,}')!;
    expect(p.from).toBe(8);
    expect(p.message).toMatch(/JSON/);
  });
});

describe('lineOf and shiftProblems', () => {
  it('counts the line of a character', () => {
    expect(lineOf('a\nb\nc', 0)).toBe(0);
    expect(lineOf('a\nb\nc', 2)).toBe(1);
    expect(lineOf('a\nb\nc', 4)).toBe(2);
  });

  it('moves the marks behind an edit with the text, and leaves those before it', () => {
    const before = { from: 1, to: 3, message: 'b' };
    const after = { from: 10, to: 12, message: 'a' };
    // three characters typed at 5: the caret is at 8
    expect(shiftProblems([before, after], 8, 3)).toEqual([before, { from: 13, to: 15, message: 'a' }]);
    // two deleted before 7: the caret is at 5
    expect(shiftProblems([before, after], 5, -2)).toEqual([before, { from: 8, to: 10, message: 'a' }]);
  });
});

describe('drawing part of a long document', () => {
  const text = Array.from({ length: 1000 }, (_, i) => `  "k${i}": ${i},`).join('\n');
  const starts = lineStarts(text);

  it('draws lines first..last exactly as the whole drawing does', () => {
    const all = highlightLines(text, [{ from: starts[500] + 2, to: starts[500] + 8, message: 'm' }]);
    const part = highlightRange(
      text,
      starts,
      [{ from: starts[500] + 2, to: starts[500] + 8, message: 'm' }],
      498,
      503,
    );
    expect(part).toEqual(all.slice(498, 503));
    expect(part[2]).toContain('json-editor__problem');
  });

  it('finds the line of a character by its start, and the widest line in columns', () => {
    expect(starts).toHaveLength(1000);
    expect(lineAt(starts, 0)).toBe(0);
    expect(lineAt(starts, starts[999])).toBe(999);
    expect(lineAt(starts, starts[999] - 1)).toBe(998);
    expect(widestLine(text, starts)).toBe('  "k999": 999,'.length);
    // a CJK character is drawn two columns wide
    expect(widestLine('ab\n"锁"', lineStarts('ab\n"锁"'))).toBe(4);
  });
});
