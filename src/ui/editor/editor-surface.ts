/**
 * The JSON editor's surface: a textarea over a drawing of the same text (json-highlight.ts), the
 * line numbers beside it, kept in step on every keystroke. The textarea keeps what the browser
 * gives every text field (typing, selection, the clipboard, IME input, Tab leaving the editor).
 *
 * Per keystroke nothing here is proportional to the document: the drawing redraws the line typed
 * on (or the drawn lines when a line was added or removed), and the line height is read once.
 * A textarea itself lays out and paints its whole text on every keystroke, so a document of more
 * than WINDOW_FROM lines is edited through a window (text-window.ts): the textarea holds the lines
 * in view and MARGIN more each side, placed where they are in the document, and moves with the
 * scroll and the caret. Then this surface keeps undo and redo (edit-history.ts: setting a
 * textarea's value empties the browser's), and Ctrl+A, copy and cut mean the whole document.
 */
import { EditHistory, type Range } from './edit-history';
import { insertedText, keyCommand } from './editor-keys';
import { lineAt, lineStarts, shiftProblems, syntaxProblem, widestLine, type Problem } from './json-highlight';
import { LineDrawing, PAD, type Parts, type Shown } from './line-drawing';
import {
  applyChange,
  diffText,
  joinWindow,
  linesAround,
  windowOf,
  windowText,
  type Change,
  type TextWindow,
} from './text-window';
import {
  anchorOf,
  focusOf,
  followWide,
  wideRange,
  wideSelection,
  wideShown,
  type Selection,
  type Wide,
} from './wide-selection';

export type { Parts } from './line-drawing';

export interface SurfaceEvents {
  onChange: (text: string) => void;
  onApply: () => void;
}

/** A document longer than this many lines is edited through a window. */
export const WINDOW_FROM = 1500;
/** The window's lines beyond the view, each side. */
const MARGIN = 150;
/** The window moves when the view or the caret comes this near an edge of it that is not the document's. */
const EDGE = 40;
/**
 * A selection over more lines than this (Ctrl+A, Ctrl+Shift+End, an undo that selects what it
 * puts back) is kept here as `wide`: the window holds its focus and the part of it around the view.
 */
const WIDE_LINES = 2 * MARGIN;
/**
 * The syntax is checked again this long after the last keystroke, and 1 ms more per 2 KB: its
 * JSON.parse of the scale scenario's 2 MB takes 20-100 ms, which a key typed meanwhile would wait for.
 */
const checkAfterMs = (length: number) => 300 + Math.round(length / 2048);

export class EditorSurface {
  /** the whole document */
  private text = '';
  /** what the textarea holds: the whole text, or the window's */
  private inner = '';
  private starts: number[] = [0];
  private widest = 0;
  private win: TextWindow | null = null;
  private problems: Problem[] = [];
  private readonly drawing: LineDrawing;
  private history = new EditHistory();
  /** the textarea's text when the last edit was recorded */
  private base = '';
  private selBefore: Range = [0, 0];
  private composing = false;
  private dragging = false;
  // windowed only
  /** a selection longer than the window holds; the textarea selects its part in the window */
  private wide: Wide | null = null;
  /** a selection the window moved away from: put back before the next key */
  private pending: Selection | null = null;
  /** where the textarea's own selection was left meanwhile */
  private parked: Range = [0, 0];
  /** Shift+click on a parked selection: its anchor, which the click's selection extends from */
  private extendFrom: number | null = null;
  /** a value has been set: before it, even '' is new */
  private ready = false;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** the text the problems shown were found in */
  private problemsIn = '';
  private scrollFrame = 0;
  private readonly off: Array<() => void> = [];

  constructor(
    private readonly p: Parts,
    private readonly events: SurfaceEvents,
  ) {
    this.drawing = new LineDrawing(p);
    const on = <K extends keyof HTMLElementEventMap>(
      el: HTMLElement | Document | Window,
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
    ) => {
      el.addEventListener(type, fn as EventListener);
      this.off.push(() => el.removeEventListener(type, fn as EventListener));
    };
    const { input } = p;
    on(input, 'input', () => this.onInput());
    on(input, 'beforeinput', (e) => this.onBeforeInput(e));
    on(input, 'keydown', (e) => this.onKeyDown(e));
    on(input, 'copy', (e) => this.onCopy(e, false));
    on(input, 'cut', (e) => this.onCopy(e, true));
    on(input, 'compositionstart', () => (this.composing = true));
    on(input, 'compositionend', () => {
      this.composing = false;
      this.onInput();
      // the composition's text is one undo step (its input events came while composing)
      this.record();
    });
    on(input, 'pointerdown', (e) => {
      this.dragging = true;
      // the textarea would extend its parked caret: the reader's anchor is the parked selection's
      this.extendFrom = e.shiftKey && this.pending ? anchorOf(this.pending) : null;
      this.pending = null;
    });
    on(window, 'pointerup', () => {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.extendFrom !== null) this.extendToClick(this.extendFrom);
      else if (this.nearEdge()) this.rewindow();
    });
    on(document, 'selectionchange', () => {
      if (document.activeElement === input) this.onSelect();
    });
    on(p.scroller, 'scroll', () => this.onScroll());
  }

  destroy(): void {
    for (const f of this.off) f();
    clearTimeout(this.checkTimer);
    cancelAnimationFrame(this.scrollFrame);
  }

  /** The whole document as it is now. */
  value(): string {
    return this.text;
  }

  /**
   * A value from outside (the scenario, Reset): replaces the text, its marks and its undo steps.
   * The text typed comes back as the value and is already the document; anything else is new,
   * even a value set before (Reset after an Apply brings back the text first shown).
   */
  setValue(value: string): void {
    if (this.ready && value === this.text) return;
    this.ready = true;
    this.text = value;
    this.problems = [];
    this.pending = null;
    this.wide = null;
    this.history.clear();
    const starts = lineStarts(value);
    if (starts.length > WINDOW_FROM) this.rewindow();
    else this.showWhole(starts);
  }

  /** The textarea holds the whole text. */
  private showWhole(starts = lineStarts(this.text)) {
    const { input } = this.p;
    this.win = null;
    input.style.top = '';
    input.style.height = '';
    input.value = this.text;
    this.base = this.text;
    this.setInner(this.text, starts);
    this.drawAll();
  }

  /** Marks these problems; with `reveal`, scrolls to the first and puts the caret on it. */
  setProblems(list: Problem[], reveal: boolean): void {
    this.problems = list;
    this.problemsIn = this.text;
    this.drawAll();
    if (reveal && list[0]) this.reveal(list[0]);
  }

  // --- keeping the drawing in step -----------------------------------------------------------

  private setInner(inner: string, starts = lineStarts(inner)) {
    this.inner = inner;
    this.starts = starts;
    this.widest = widestLine(inner, starts);
  }

  /** The document's character where the textarea's text starts. */
  private get offset() {
    return this.win?.before.length ?? 0;
  }

  private shown(): Shown {
    const { inner, starts, widest, win, problems } = this;
    return { inner, starts, widest, win, problems };
  }

  private drawAll() {
    this.drawing.drawAll(this.shown());
  }

  private markCurrentLine() {
    this.drawing.markCurrentLine(this.starts);
  }

  // --- typing ---------------------------------------------------------------------------------

  private onInput() {
    const { input } = this.p;
    const inner = input.value;
    const change = diffText(this.inner, inner);
    if (!change) return;
    const lineCount = this.starts.length;
    this.problems = shiftProblems(
      this.problems,
      this.offset + input.selectionEnd,
      inner.length - this.inner.length,
    );
    this.setInner(inner);
    this.text = this.win ? joinWindow(this.win, inner) : inner;
    if (!this.win && this.starts.length > WINDOW_FROM) {
      this.becomeWindowed();
      return;
    }
    const oneLine = !change.removed.includes('\n') && !change.inserted.includes('\n');
    const line = lineAt(this.starts, change.at);
    const [a, b] = this.drawing.drawn;
    if (oneLine && this.starts.length === lineCount && line >= a && line < b)
      this.drawing.drawLine(this.shown(), line);
    else this.drawAll();
    this.markCurrentLine();
    if (!this.composing) this.record();
    this.emit();
  }

  /**
   * A whole text that grew past WINDOW_FROM lines (a long document pasted in): from here on it
   * is windowed, and the paste is one more undo step after those typed before.
   */
  private becomeWindowed() {
    this.record();
    this.rewindow(this.selection());
    this.emit();
  }

  /**
   * The textarea's change since the last one recorded becomes an undo step. Undo is this
   * history's, windowed or not: a document that grows past WINDOW_FROM lines keeps its steps, and
   * the browser's own steps go whenever the textarea's value is set.
   */
  private record() {
    const change = diffText(this.base, this.inner);
    this.base = this.inner;
    if (!change) return;
    const at = this.offset + change.at;
    const { selectionStart, selectionEnd } = this.p.input;
    this.history.record({
      ...change,
      at,
      before: this.selBefore,
      after: [this.offset + selectionStart, this.offset + selectionEnd],
    });
    this.wide = null;
  }

  private emit() {
    this.events.onChange(this.text);
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => {
      const problem = syntaxProblem(this.text);
      // JSON, and its problems were found since the last key: an Apply sooner than this check
      // (Ctrl+Enter after typing) had its answer, and the schema's marks in this text stand
      if (!problem && this.problemsIn === this.text) return;
      this.setProblems(problem ? [problem] : [], false);
    }, checkAfterMs(this.text.length));
  }

  private selection(): Selection {
    const { selectionStart, selectionEnd, selectionDirection } = this.p.input;
    const off = this.offset;
    return { start: off + selectionStart, end: off + selectionEnd, dir: selectionDirection ?? 'none' };
  }

  private onBeforeInput(e: InputEvent) {
    const sel = this.selection();
    // an IME's composition is one step: its selection before is the one before it began
    if (!this.composing) this.selBefore = [sel.start, sel.end];
    if (e.inputType === 'historyUndo' || e.inputType === 'historyRedo') {
      e.preventDefault();
      this.travel(e.inputType === 'historyUndo' ? 'undo' : 'redo');
      return;
    }
    if (!this.win || !this.currentWide()) return;
    // the selection (Ctrl+A: the whole document) reaches beyond the window: replace all of it
    e.preventDefault();
    this.replaceWide(insertedText(e));
  }

  /** The window's place in the document. */
  private span() {
    return { off: this.offset, n: this.inner.length };
  }

  /** Selects the wide selection's part in the window; false when the window holds none of it. */
  private showWide(w: Wide): boolean {
    const shown = wideShown(w, this.span());
    if (!shown) return false;
    this.p.input.setSelectionRange(shown[0], shown[1], w.focus < w.anchor ? 'backward' : 'forward');
    return true;
  }

  /** The textarea still selects the wide selection's part, nothing else. */
  private wideIsShown(): boolean {
    const shown = this.wide && wideShown(this.wide, this.span());
    const { selectionStart, selectionEnd } = this.p.input;
    return !!shown && selectionStart === shown[0] && selectionEnd === shown[1];
  }

  /**
   * The wide selection, after the textarea's selection moved (a key or a click may come before
   * its selectionchange): null when the textarea's is a selection of its own.
   */
  private currentWide(): Wide | null {
    if (this.wide && !this.wideIsShown()) {
      const { selectionStart: start, selectionEnd: end, selectionDirection } = this.p.input;
      this.wide = followWide(this.wide, { start, end, dir: selectionDirection ?? 'none' }, this.span());
    }
    return this.wide;
  }

  private onCopy(e: ClipboardEvent, cut: boolean) {
    const w = this.win && this.currentWide();
    if (!w || !e.clipboardData) return;
    e.preventDefault();
    const [s, end] = wideRange(w);
    e.clipboardData.setData('text/plain', this.text.slice(s, end));
    if (cut) this.replaceWide('');
  }

  /** Replaces the wide selection with `data`, as one undo step. */
  private replaceWide(data: string) {
    if (!this.wide) return;
    const [s, e] = wideRange(this.wide);
    const change: Change = { at: s, removed: this.text.slice(s, e), inserted: data };
    const caret = s + data.length;
    this.history.record({ ...change, before: [s, e], after: [caret, caret] });
    this.wide = null;
    this.applyWhole(change, [caret, caret]);
  }

  private travel(dir: 'undo' | 'redo') {
    const step = dir === 'undo' ? this.history.undo() : this.history.redo();
    if (step) this.applyWhole(step.change, step.select);
  }

  /** A change to the whole document (undo, redo, replacing everything): the window moves to its selection. */
  private applyWhole(change: Change, select: Range) {
    this.problems = shiftProblems(
      this.problems,
      change.at + change.inserted.length,
      change.inserted.length - change.removed.length,
    );
    this.text = applyChange(this.text, change);
    const starts = lineStarts(this.text);
    if (this.win || starts.length > WINDOW_FROM)
      this.rewindow({ start: select[0], end: select[1], dir: 'none' });
    else {
      this.showWhole(starts);
      this.p.input.setSelectionRange(select[0], select[1]);
      this.drawing.scrollToLine(lineAt(starts, select[1]));
      this.drawAll();
    }
    this.emit();
  }

  private onKeyDown(e: KeyboardEvent) {
    const command = keyCommand(e, navigator.platform);
    if (command === 'apply') {
      e.preventDefault();
      this.events.onApply();
      return;
    }
    if (this.composing || e.isComposing) return;
    const mod = e.ctrlKey || e.metaKey;
    if (this.win) {
      this.currentWide();
      const onlyModifier = ['Shift', 'Control', 'Alt', 'Meta'].includes(e.key);
      // Tab leaves the editor, so the view stays; any other key (Ctrl+C too: the browser copies
      // the textarea's own selection, which must be the reader's) puts the selection back first
      if (this.pending && !onlyModifier && e.key !== 'Tab') {
        // moved since (a click, a script): the new selection is the one to type at
        if (this.movedSinceParked()) this.pending = null;
        else this.rewindow(this.pending);
      }
      // a key that moves the wide selection's focus moves it from where it is, so the window goes there
      if (this.wide && !mod && !onlyModifier && !this.inWindow(this.wide.focus))
        this.rewindow(wideSelection(this.wide));
    }
    // undo is this surface's (record): the browser's would have no steps after a value was set
    if (command === 'undo' || command === 'redo') {
      e.preventDefault();
      this.travel(command);
      return;
    }
    // the browser's own Ctrl+A and Ctrl+Home/End would reach the window's ends only
    if (!command || !this.win || this.windowIsWhole()) return;
    e.preventDefault();
    if (command === 'selectAll') {
      this.wide = { anchor: 0, focus: this.text.length };
      this.showWide(this.wide);
      return;
    }
    const to = command === 'start' ? 0 : this.text.length;
    const anchor = this.wide ? this.wide.anchor : anchorOf(this.selection());
    this.rewindow(
      e.shiftKey
        ? {
            start: Math.min(anchor, to),
            end: Math.max(anchor, to),
            dir: to < anchor ? 'backward' : 'forward',
          }
        : { start: to, end: to, dir: 'none' },
    );
  }

  /** After Shift+click: the selection from `anchor` to where the click put the textarea's focus. */
  private extendToClick(anchor: number) {
    this.extendFrom = null;
    const focus = focusOf(this.selection());
    this.rewindow(
      anchor <= focus
        ? { start: anchor, end: focus, dir: 'forward' }
        : { start: focus, end: anchor, dir: 'backward' },
    );
  }

  /** Document position `at` is in the window. */
  private inWindow(at: number) {
    const off = this.offset;
    return at >= off && at <= off + this.inner.length;
  }

  private movedSinceParked() {
    const { selectionStart, selectionEnd } = this.p.input;
    return selectionStart !== this.parked[0] || selectionEnd !== this.parked[1];
  }

  private windowIsWhole() {
    return this.win !== null && this.win.before === '' && this.win.after === '';
  }

  private onSelect() {
    this.markCurrentLine();
    if (!this.win || this.composing) return;
    const sel = this.selection();
    this.selBefore = [sel.start, sel.end];
    this.currentWide();
    if (this.pending && this.movedSinceParked()) this.pending = null;
    if (!this.dragging && this.nearEdge()) this.rewindow();
  }

  private onScroll() {
    cancelAnimationFrame(this.scrollFrame);
    this.scrollFrame = requestAnimationFrame(() => {
      if (this.win) {
        if (!this.dragging && !this.composing && this.nearEdge()) this.rewindow();
      } else {
        if (this.drawing.nearDrawnEdge(this.starts.length)) this.drawAll();
      }
    });
  }

  /**
   * The view, or the caret, is near an edge of the window that is not the document's; or the
   * window, with no selection in it, is far longer than the view needs (lines typed or pasted in).
   */
  private nearEdge(): boolean {
    const w = this.win;
    if (!w) return false;
    const { input } = this.p;
    const a = w.first;
    const b = a + this.starts.length;
    const [top, bottom] = this.drawing.viewLines();
    if (
      !this.wide &&
      input.selectionStart === input.selectionEnd &&
      this.starts.length > bottom - top + 4 * MARGIN
    )
      return true;
    // the caret counts where it is in the window: a wide selection's focus may be outside it, and
    // a selection parked in `pending` is not where the textarea's caret was left (the next key puts it back)
    const focus = this.wide ? this.wide.focus - this.offset : input.selectionEnd;
    const counts =
      document.activeElement === input && this.pending === null && focus >= 0 && focus <= this.inner.length;
    const caret = counts ? a + lineAt(this.starts, focus) : top;
    const low = Math.min(top, caret);
    const high = Math.max(bottom, counts ? caret : bottom);
    return (low < a + EDGE && a > 0) || (high > b - EDGE && w.afterLines > 0);
  }

  // --- the window -------------------------------------------------------------------------------

  /**
   * Cuts the window again around the view (and `keep`, scrolled into view: a selection to put
   * back). The selection stays when it is within reach of the view; else it waits in `pending`.
   * A selection over more than WIDE_LINES lines becomes `wide`: the window holds its focus only.
   */
  private rewindow(keep?: Selection) {
    const { input, scroller } = this.p;
    // the selection moved since the window parked it (a click, a script): that one counts now
    if (this.pending && this.movedSinceParked()) this.pending = null;
    const full = this.text;
    const starts = lineStarts(full);
    if (keep) {
      // a selection to put back is the selection now
      this.pending = null;
      const long = Math.abs(lineAt(starts, keep.end) - lineAt(starts, keep.start)) > WIDE_LINES;
      this.wide = long ? { anchor: anchorOf(keep), focus: focusOf(keep) } : null;
    }
    const sel =
      keep ??
      this.pending ??
      (this.wide
        ? wideSelection(this.wide)
        : this.win
          ? this.selection()
          : { start: 0, end: 0, dir: 'none' as const });
    // a wide selection: only its focus needs to be in the window
    const sa = lineAt(starts, this.wide ? this.wide.focus : sel.start);
    const sb = this.wide ? sa : lineAt(starts, sel.end);
    // the document's height first: a scroll to a line below the old height would stop short
    this.drawing.sizes(this.shown(), starts.length);
    const everything = this.wide !== null && sel.start === 0 && sel.end === full.length;
    // the focus into view (all of the document selected: the view is where it was)
    if (keep && !everything) this.drawing.scrollToLine(lineAt(starts, focusOf(sel)));
    const [top, bottom] = this.drawing.viewLines();
    const reach = (l: number) => l >= top - MARGIN / 2 && l <= bottom + MARGIN / 2;
    const restore = (keep !== undefined && !everything) || (reach(sa) && reach(sb));
    const [first, last] = linesAround(
      restore ? Math.min(top, sa) : top,
      restore ? Math.max(bottom, sb) : bottom,
      MARGIN,
      starts.length,
    );
    this.win = windowOf(full, starts, first, last);
    const inner = windowText(full, this.win);
    const { scrollTop, scrollLeft } = scroller;
    input.value = inner;
    this.base = inner;
    this.setInner(inner);
    const { lh } = this.drawing;
    input.style.top = `${this.win.first * lh}px`;
    input.style.height = `${this.starts.length * lh + 2 * PAD}px`;
    const off = this.offset;
    if (this.wide && this.showWide(this.wide)) {
      // its part in the new window
      this.pending = null;
    } else if (restore && !this.wide) {
      input.setSelectionRange(sel.start - off, sel.end - off, sel.dir);
      this.pending = null;
    } else {
      // none of it in the window: put back (wide again if it is) before the next key
      this.wide = null;
      this.pending = sel;
      this.parked = [input.selectionStart, input.selectionEnd];
    }
    // putting the selection back must not scroll: the view is the reader's
    scroller.scrollTop = scrollTop;
    scroller.scrollLeft = scrollLeft;
    this.drawAll();
  }

  /** Scrolls the problem's line into the middle of the editor, puts the caret on it, and the editor into view. */
  private reveal(problem: Problem) {
    const { input, scroller } = this.p;
    const at = Math.max(0, Math.min(problem.from, this.text.length));
    const starts = this.win ? lineStarts(this.text) : this.starts;
    const line = lineAt(starts, at);
    this.drawing.centreLine(line);
    if (this.win) this.rewindow({ start: at, end: at, dir: 'none' });
    else {
      input.setSelectionRange(at, at);
      this.drawAll();
    }
    this.drawing.scrollToColumn(at - starts[line]);
    scroller.parentElement?.scrollIntoView({ block: 'nearest' });
  }
}
