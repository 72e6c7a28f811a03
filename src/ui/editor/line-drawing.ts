/**
 * The drawing beside and under the editor's textarea (editor-surface.ts): the highlighted lines
 * (json-highlight.ts), their numbers, the current line's mark and the content's size. Kept apart
 * from the editing so that what a keystroke redraws, and how little, can be read in one place:
 * only the lines near the view are drawn, and the line height is read once.
 */
import { highlightRange, lineAt, type Problem } from './json-highlight';
import type { TextWindow } from './text-window';

export interface Parts {
  scroller: HTMLDivElement;
  gutter: HTMLDivElement;
  numbers: HTMLDivElement;
  content: HTMLDivElement;
  lines: HTMLDivElement;
  input: HTMLTextAreaElement;
}

/** What the textarea holds, as the drawing needs it. */
export interface Shown {
  /** the textarea's text: the whole document, or the window's */
  inner: string;
  starts: readonly number[];
  widest: number;
  win: TextWindow | null;
  /** in the document's positions */
  problems: Problem[];
}

/** Lines drawn above and below the ones in view when the textarea holds the whole text. */
export const OVERSCAN = 200;
/** The textarea's padding above the first line (app.css .json-editor__input), matched by the drawing. */
export const PAD = 4;

/** The width of a character of `el`'s (monospaced) font, in px. */
function charWidth(el: HTMLElement): number {
  const cs = getComputedStyle(el);
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return 8;
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  return ctx.measureText('0').width || 8;
}

const firstLine = (s: Shown) => s.win?.first ?? 0;
const lineCount = (s: Shown) => firstLine(s) + s.starts.length + (s.win?.afterLines ?? 0);

export class LineDrawing {
  readonly lh: number;
  /** drawn lines [first, last) of the textarea's text */
  private drawnLines: [number, number] = [0, 0];

  constructor(private readonly p: Parts) {
    this.lh = parseFloat(getComputedStyle(p.lines).lineHeight) || 17;
  }

  get drawn(): readonly [number, number] {
    return this.drawnLines;
  }

  /** The document's lines in view, [top, bottom]. */
  viewLines(): [number, number] {
    const { scrollTop, clientHeight } = this.p.scroller;
    return [
      Math.max(0, Math.floor((scrollTop - PAD) / this.lh)),
      Math.ceil((scrollTop + clientHeight) / this.lh),
    ];
  }

  /** The lines of the textarea's text to draw: the whole window, else the view and OVERSCAN more. */
  private drawRange(s: Shown): [number, number] {
    if (s.win) return [0, s.starts.length];
    const [top, bottom] = this.viewLines();
    return [Math.max(0, top - OVERSCAN), Math.min(s.starts.length, bottom + OVERSCAN)];
  }

  /** The problems in the textarea's text's own positions (those outside a window left out). */
  private innerProblems(s: Shown): Problem[] {
    const off = s.win?.before.length ?? 0;
    if (off === 0 && !s.win) return s.problems;
    return s.problems
      .map((q) => ({ ...q, from: q.from - off, to: q.to - off }))
      .filter((q) => q.to > 0 && q.from < s.inner.length);
  }

  sizes(s: Shown, n = lineCount(s)): void {
    const { content, gutter } = this.p;
    const height = `${n * this.lh + 2 * PAD}px`;
    const widest = Math.max(s.widest, s.win?.outsideWidest ?? 0);
    if (content.style.height !== height) {
      content.style.height = height;
      gutter.style.height = height;
      gutter.style.width = `calc(${String(n).length}ch + 14px)`;
    }
    const minWidth = `calc(${widest}ch + ${4 * PAD}px)`;
    if (content.style.minWidth !== minWidth) content.style.minWidth = minWidth;
  }

  drawAll(s: Shown): void {
    const { lines, numbers } = this.p;
    const [first, last] = this.drawRange(s);
    const html = highlightRange(s.inner, s.starts, this.innerProblems(s), first, last);
    const top = `${PAD + (firstLine(s) + first) * this.lh}px`;
    lines.style.top = top;
    numbers.style.top = top;
    lines.innerHTML = html.map((l) => `<div class="json-editor__line">${l}</div>`).join('');
    const from = firstLine(s) + first + 1;
    numbers.textContent = html.map((_, i) => from + i).join('\n');
    this.drawnLines = [first, last];
    this.sizes(s);
    this.markCurrentLine(s.starts);
  }

  /** Redraws line `n` of the textarea's text only (an edit within it). */
  drawLine(s: Shown, n: number): void {
    const el = this.p.lines.children[n - this.drawnLines[0]];
    if (!el) return;
    el.innerHTML = highlightRange(s.inner, s.starts, this.innerProblems(s), n, n + 1)[0];
    this.sizes(s);
  }

  markCurrentLine(starts: readonly number[]): void {
    const { lines, input } = this.p;
    const at = lineAt(starts, input.selectionStart) - this.drawnLines[0];
    for (const el of lines.querySelectorAll('.json-editor__line--current'))
      if (el !== lines.children[at]) el.classList.remove('json-editor__line--current');
    lines.children[at]?.classList.add('json-editor__line--current');
  }

  /** The view came within half the overscan of a drawn edge that is not the text's (`n` lines). */
  nearDrawnEdge(n: number): boolean {
    const [top, bottom] = this.viewLines();
    const [a, b] = this.drawnLines;
    return (top < a + OVERSCAN / 2 && a > 0) || (bottom > b - OVERSCAN / 2 && b < n);
  }

  /** Scrolls line `line` of the document into the middle of the view. */
  centreLine(line: number): void {
    const { scroller } = this.p;
    scroller.scrollTop = PAD + line * this.lh - (scroller.clientHeight - this.lh) / 2;
  }

  /** Scrolls line `line` of the document into the middle of the view, unless it is in view. */
  scrollToLine(line: number): void {
    const [top, bottom] = this.viewLines();
    if (line < top || line >= bottom - 1) this.centreLine(line);
  }

  /** Scrolls column `column` into view, to the middle when it is out of it. */
  scrollToColumn(column: number): void {
    const { input, scroller } = this.p;
    // the font's own width: the textarea's scrollWidth is the window's widest line, or the page's
    const ch = charWidth(input);
    if (column * ch < scroller.scrollLeft || column * ch > scroller.scrollLeft + scroller.clientWidth - 80)
      scroller.scrollLeft = Math.max(0, column * ch - scroller.clientWidth / 2);
  }
}
