/**
 * A long document edited through a window of its lines. A textarea lays out and paints its
 * whole text on every keystroke (about 0.1-0.5 ms per KB on the 2-core machine, so 0.3-1.2 s a
 * key in the scale scenario's 2 MB), so for a long document it holds only the lines around the
 * view, and the text before and after them waits here, unchanged while the window stays. Pure:
 * JsonEditor's surface (editor-surface.ts) moves the window and keeps the textarea over it.
 */
import { widestLine } from './json-highlight';

/**
 * `before` + the window's text + `after` is the document. The window is whole lines: `before`
 * is empty or ends with its last line's newline, and `after` is empty or starts with the newline
 * that ends the window's last line, so typing at the window's end extends that line.
 */
export interface TextWindow {
  before: string;
  after: string;
  /** the document's line where the window starts (the lines in `before`) */
  first: number;
  /** the lines after the window's last one */
  afterLines: number;
  /** the widest line outside the window, in columns (json-highlight `widestLine`) */
  outsideWidest: number;
}

/** The window over lines [first, last) of `text`, whose lines start at `starts`. */
export function windowOf(text: string, starts: readonly number[], first: number, last: number): TextWindow {
  const n = starts.length;
  const a = Math.max(0, Math.min(first, n - 1));
  const b = Math.max(a + 1, Math.min(last, n));
  const from = starts[a];
  const to = b < n ? starts[b] - 1 : text.length;
  return {
    before: text.slice(0, from),
    after: text.slice(to),
    first: a,
    afterLines: n - b,
    outsideWidest: Math.max(widestLine(text, starts, 0, a), widestLine(text, starts, b, n)),
  };
}

/** The window's text in `text` (the document as the window was cut from it). */
export function windowText(text: string, w: TextWindow): string {
  return text.slice(w.before.length, text.length - w.after.length);
}

/** The document with the window's text `inner`: concatenated, not copied (V8 joins them lazily). */
export function joinWindow(w: TextWindow, inner: string): string {
  return w.before + inner + w.after;
}

/**
 * Lines [first, last) for a window around lines [from, to] (what is in view, and whatever must
 * stay in the textarea: the selection), `margin` more each side, within `n` lines.
 */
export function linesAround(from: number, to: number, margin: number, n: number): [number, number] {
  return [Math.max(0, from - margin), Math.min(n, to + 1 + margin)];
}

/** What an edit did: `removed` at `at` became `inserted` (common head and tail left out). */
export interface Change {
  at: number;
  removed: string;
  inserted: string;
}

/** The change from `a` to `b`: their common start and end left out; null when they are equal. */
export function diffText(a: string, b: string): Change | null {
  if (a === b) return null;
  const max = Math.min(a.length, b.length);
  let head = 0;
  while (head < max && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < max - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;
  return { at: head, removed: a.slice(head, a.length - tail), inserted: b.slice(head, b.length - tail) };
}

/** `text` with `change` applied. */
export function applyChange(text: string, change: Change): string {
  return text.slice(0, change.at) + change.inserted + text.slice(change.at + change.removed.length);
}

/** The change that undoes `change`. */
export function invertChange(change: Change): Change {
  return { at: change.at, removed: change.inserted, inserted: change.removed };
}
