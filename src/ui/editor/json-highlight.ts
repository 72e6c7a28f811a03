/**
 * The JSON editor's drawing, as HTML: each line of the text with its tokens coloured (keys,
 * strings, numbers, literals) and the problems marked (a schema issue at the path it names, or
 * where JSON.parse stopped). Pure, so it is tested without a browser; JsonEditor.tsx lays it under
 * its textarea.
 */
import { firstSyntaxError } from './json-syntax';
import { bisectRight } from 'd3-array';

export interface Problem {
  from: number;
  to: number;
  message: string;
}

const TOKEN = /"(?:[^"\\\n]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g;

function tokenClass(m: RegExpExecArray): string {
  if (m[0].startsWith('"')) return m[1] !== undefined ? 'tok-key' : 'tok-string';
  return /^[-\d]/.test(m[0]) ? 'tok-number' : 'tok-literal';
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (s: string) => s.replace(/[&<>]/g, (c) => ESCAPES[c]);
const escapeAttr = (s: string) => s.replace(/[&<>"]/g, (c) => ESCAPES[c]);

interface Span {
  from: number;
  to: number;
  cls: string;
}

/** Splits [from, to) into pieces at every token and problem edge, each with its classes and title. */
function pieces(text: string, from: number, to: number, tokens: Span[], problems: Problem[]): string {
  const cuts = new Set<number>([from, to]);
  for (const s of [...tokens, ...problems]) {
    if (s.from > from && s.from < to) cuts.add(s.from);
    if (s.to > from && s.to < to) cuts.add(s.to);
  }
  const at = [...cuts].sort((a, b) => a - b);
  let html = '';
  for (let i = 0; i + 1 < at.length; i++) {
    const [a, b] = [at[i], at[i + 1]];
    const piece = escape(text.slice(a, b));
    const tok = tokens.find((s) => s.from <= a && s.to >= b);
    const problem = problems.find((p) => p.from <= a && p.to >= b);
    const cls = [tok?.cls, problem ? 'json-editor__problem' : undefined].filter(Boolean).join(' ');
    if (!cls) html += piece;
    else
      html += `<span class="${cls}"${problem ? ` title="${escapeAttr(problem.message)}"` : ''}>${piece}</span>`;
  }
  return html;
}

/** Where each line of `text` starts (line i runs from starts[i] to the next '\n'). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * One HTML string per line of `text` from line `first` up to (not including) `last`, tokens
 * coloured and problems marked. Only those lines are read, so a long document costs what is drawn.
 */
export function highlightRange(
  text: string,
  starts: readonly number[],
  problems: readonly Problem[],
  first = 0,
  last = starts.length,
): string[] {
  const clamped = problems
    .map((p) => {
      const from = Math.max(0, Math.min(p.from, text.length - 1));
      return { from, to: Math.max(from + 1, Math.min(p.to, text.length)), message: p.message };
    })
    .filter((p) => p.from < text.length);
  const out: string[] = [];
  for (let n = Math.max(0, first); n < Math.min(last, starts.length); n++) {
    const start = starts[n];
    const end = n + 1 < starts.length ? starts[n + 1] - 1 : text.length;
    const line = text.slice(start, end);
    // a token never spans lines (the string pattern stops at a newline), so each line is read alone
    const tokens: Span[] = [];
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line))
      tokens.push({ from: start + m.index, to: start + m.index + m[0].length, cls: tokenClass(m) });
    const mine = clamped.filter((p) => p.from < end && p.to > start);
    // a problem on a line's newline alone (JSON.parse stopping at the end of a line) marks its last character
    const onBreak = clamped.filter((p) => p.from === end && line.length > 0);
    out.push(
      pieces(text, start, end, tokens, [...mine, ...onBreak.map((p) => ({ ...p, from: end - 1, to: end }))]),
    );
  }
  return out;
}

/** Every line of `text` as HTML (highlightRange over the whole text). */
export function highlightLines(text: string, problems: readonly Problem[]): string[] {
  return highlightRange(text, lineStarts(text), problems);
}

/** The 0-based line of character `at`, by binary search in the lines' starts. */
export function lineAt(starts: readonly number[], at: number): number {
  return Math.max(0, bisectRight(starts, at) - 1);
}

/** The 0-based line of character `at`. */
export function lineOf(text: string, at: number): number {
  return lineAt(lineStarts(text), at);
}

/**
 * The widest line in columns, a CJK character counting as two (they are drawn two columns wide);
 * of lines [first, last) only, when given.
 */
export function widestLine(text: string, starts: readonly number[], first = 0, last = starts.length): number {
  let widest = 0;
  for (let n = first; n < last; n++) {
    const end = n + 1 < starts.length ? starts[n + 1] - 1 : text.length;
    let w = end - starts[n];
    if (w <= widest / 2) continue;
    for (let i = starts[n]; i < end; i++) if (text.charCodeAt(i) >= 0x2e80) w++;
    widest = Math.max(widest, w);
  }
  return widest;
}

/** Where JSON.parse stopped: from its message ("at position 12", "line 2 column 5") or, when it names none, from our own scan. */
export function syntaxProblem(text: string): Problem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    let at = firstSyntaxError(text) ?? text.length - 1;
    const pos = /position (\d+)/.exec(message);
    const lc = /line (\d+) column (\d+)/.exec(message);
    if (pos) at = Number(pos[1]);
    else if (lc) {
      const lines = text.split('\n');
      at = lines.slice(0, Number(lc[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(lc[2]) - 1;
    }
    return { from: Math.max(0, at), to: at + 1, message };
  }
}

/**
 * The problems after an edit that changed the text's length by `delta` and left the caret at
 * `caret`: marks behind the edit move with the text, so they stay on what they named until the
 * next check redraws them.
 */
export function shiftProblems(problems: readonly Problem[], caret: number, delta: number): Problem[] {
  const editEnd = caret - delta;
  return problems
    .map((p) => (p.from >= editEnd ? { ...p, from: p.from + delta, to: p.to + delta } : p))
    .filter((p) => p.from >= 0 && p.to > p.from);
}
