/**
 * Selections in a document edited through a window (text-window.ts), in the document's
 * positions. A selection longer than the window holds (Ctrl+A, Ctrl+Shift+End, an undo that
 * selects what it puts back) is kept as a `Wide` one: the textarea selects only its part in the
 * window. Pure: editor-surface.ts keeps the textarea in step.
 */
import type { Range } from './edit-history';

export interface Selection {
  start: number;
  end: number;
  dir: 'forward' | 'backward' | 'none';
}

/** A selection in the whole document: where it began and where it ends (the caret's side). */
export interface Wide {
  anchor: number;
  focus: number;
}

/** The window's place in the document: its first character, and its length. */
export interface Span {
  off: number;
  n: number;
}

export const anchorOf = (s: Selection) => (s.dir === 'backward' ? s.end : s.start);
export const focusOf = (s: Selection) => (s.dir === 'backward' ? s.start : s.end);
const clamp = (n: number, max: number) => Math.max(0, Math.min(max, n));

/** The wide selection as [start, end]. */
export function wideRange(w: Wide): Range {
  return [Math.min(w.anchor, w.focus), Math.max(w.anchor, w.focus)];
}

/** The wide selection as a textarea would name it. */
export function wideSelection(w: Wide): Selection {
  const [start, end] = wideRange(w);
  return { start, end, dir: w.focus < w.anchor ? 'backward' : 'forward' };
}

/** The wide selection's part in the window, in the window's positions; null when none is. */
export function wideShown(w: Wide, { off, n }: Span): Range | null {
  const [s, e] = wideRange(w);
  const a = clamp(s - off, n);
  const b = clamp(e - off, n);
  return a < b ? [a, b] : null;
}

/**
 * The wide selection after the textarea's selection became `sel` (in the window's positions):
 * Shift and a key moved its focus (its anchor, outside the window and so cut at its edge, stayed);
 * else null, a selection of the textarea's own.
 */
export function followWide(w: Wide, sel: Selection, { off, n }: Span): Wide | null {
  const anchorInWindow = w.anchor >= off && w.anchor <= off + n;
  if (sel.start === sel.end || anchorInWindow || anchorOf(sel) !== clamp(w.anchor - off, n)) return null;
  return { anchor: w.anchor, focus: off + focusOf(sel) };
}

/** With Ctrl or Cmd held, the key that goes to the document's start or end: Home/End, or macOS's Cmd+↑/↓. */
export function docEnd(e: Pick<KeyboardEvent, 'key' | 'metaKey'>, platform: string): 'start' | 'end' | null {
  if (e.key === 'Home' || e.key === 'End') return e.key === 'Home' ? 'start' : 'end';
  if (!e.metaKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return null;
  if (!/Mac|iPhone|iPad/.test(platform)) return null;
  return e.key === 'ArrowUp' ? 'start' : 'end';
}
