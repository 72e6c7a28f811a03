/**
 * The scenario JSON's editor, loaded lazily (its own chunk): a plain textarea over a drawing of
 * the same text (json-highlight.ts), with line numbers and the current line shown. The textarea
 * keeps what the browser gives every text field (typing, selection, the clipboard, undo and redo,
 * Tab leaving the editor); the drawing beneath it colours the tokens and underlines the problems:
 * schema issues from the engine at the path they name, JSON syntax errors at their position. Only
 * the lines in view are drawn. It replaced CodeMirror 6, which cost 76 KB gzip of the app's
 * JavaScript; a textarea lays out its whole text on each keystroke, so typing in a document of
 * megabytes is slower than it was (docs/performance.md, "Issue 23, third pass: bundle").
 */
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { SchemaIssue } from '../../engine/scenario/api';
import { locatePath } from './json-locate';
import {
  highlightRange,
  lineAt,
  lineStarts,
  shiftProblems,
  syntaxProblem,
  widestLine,
  type Problem,
} from './json-highlight';

export interface JsonEditorProps {
  value: string;
  issues: SchemaIssue[];
  onChange: (text: string) => void;
  onApply: () => void;
  label: string;
  /** changes after each refused Apply: the editor scrolls to the problem it underlines */
  revealSeq?: number;
}

interface Parts {
  scroller: HTMLDivElement;
  gutter: HTMLDivElement;
  numbers: HTMLDivElement;
  content: HTMLDivElement;
  lines: HTMLDivElement;
  input: HTMLTextAreaElement;
}

/** Lines drawn above and below the ones in view: a document this long or shorter is drawn whole. */
const OVERSCAN = 200;
/** The textarea's padding above the first line (app.css .json-editor__input), matched by the drawing. */
const PAD = 4;

/** The text as drawn: its lines' starts and widest line, worked out once per text. */
interface Layout {
  text: string;
  starts: number[];
  widest: number;
}

function layoutOf(prev: Layout | null, text: string): Layout {
  if (prev !== null && prev.text === text) return prev;
  const starts = lineStarts(text);
  return { text, starts, widest: widestLine(text, starts) };
}

const lineHeight = (parts: Parts) => parseFloat(getComputedStyle(parts.lines).lineHeight) || 17;

/**
 * Draws the lines in view (and OVERSCAN more each side) under the textarea, and their numbers:
 * the textarea holds the whole text, the drawing beneath it only what can be seen, so a document
 * of 90,000 lines (the scale scenario) costs what a short one does.
 */
function draw(parts: Parts, layout: Layout, problems: readonly Problem[]) {
  const { scroller, content, lines, gutter, numbers, input } = parts;
  const lh = lineHeight(parts);
  const n = layout.starts.length;
  const height = `${n * lh + 2 * PAD}px`;
  content.style.height = height;
  content.style.minWidth = `calc(${layout.widest}ch + ${4 * PAD}px)`;
  gutter.style.height = height;
  gutter.style.width = `calc(${String(n).length}ch + 14px)`;
  const first = Math.max(0, Math.floor((scroller.scrollTop - PAD) / lh) - OVERSCAN);
  const last = Math.min(n, Math.ceil((scroller.scrollTop + scroller.clientHeight) / lh) + OVERSCAN);
  const html = highlightRange(layout.text, layout.starts, problems, first, last);
  const top = `${PAD + first * lh}px`;
  lines.style.top = top;
  numbers.style.top = top;
  lines.innerHTML = html.map((l) => `<div class="json-editor__line">${l}</div>`).join('');
  numbers.textContent = html.map((_, i) => first + i + 1).join('\n');
  lines.dataset.first = String(first);
  lines.dataset.last = String(last);
  const current = lineAt(layout.starts, input.selectionStart) - first;
  lines.children[current]?.classList.add('json-editor__line--current');
}

/** The drawn window no longer covers what is in view (a scroll): draw again. */
function outOfWindow(parts: Parts, n: number): boolean {
  const lh = lineHeight(parts);
  const first = Number(parts.lines.dataset.first ?? 0);
  const last = Number(parts.lines.dataset.last ?? 0);
  const top = Math.floor((parts.scroller.scrollTop - PAD) / lh);
  const bottom = Math.ceil((parts.scroller.scrollTop + parts.scroller.clientHeight) / lh);
  return (top < first + OVERSCAN / 2 && first > 0) || (bottom > last - OVERSCAN / 2 && last < n);
}

function markCurrentLine(parts: Parts, layout: Layout) {
  const at = lineAt(layout.starts, parts.input.selectionStart) - Number(parts.lines.dataset.first ?? 0);
  for (const el of parts.lines.querySelectorAll('.json-editor__line--current'))
    el.classList.remove('json-editor__line--current');
  parts.lines.children[at]?.classList.add('json-editor__line--current');
}

/** Scrolls the problem's line into the middle of the editor, puts the caret on it, and the editor into view. */
function reveal(parts: Parts, layout: Layout, problems: readonly Problem[], problem: Problem) {
  const at = Math.max(0, Math.min(problem.from, parts.input.value.length));
  parts.input.setSelectionRange(at, at);
  const lh = lineHeight(parts);
  const line = lineAt(layout.starts, at);
  const { scroller } = parts;
  scroller.scrollTop = PAD + line * lh - (scroller.clientHeight - lh) / 2;
  const column = at - layout.starts[line];
  const ch = parts.input.scrollWidth / Math.max(1, layout.widest);
  if (column * ch < scroller.scrollLeft || column * ch > scroller.scrollLeft + scroller.clientWidth - 80)
    scroller.scrollLeft = Math.max(0, column * ch - scroller.clientWidth / 2);
  draw(parts, layout, problems);
  parts.scroller.parentElement?.scrollIntoView({ block: 'nearest' });
}

export default function JsonEditor({
  value,
  issues,
  onChange,
  onApply,
  label,
  revealSeq = 0,
}: JsonEditorProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const numbers = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const lines = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const problems = useRef<Problem[]>([]);
  const layout = useRef<Layout | null>(null);
  const cb = useRef({ onChange, onApply });
  useEffect(() => {
    cb.current = { onChange, onApply };
  });

  const parts = (): Parts | null =>
    scroller.current && gutter.current && numbers.current && content.current && lines.current && input.current
      ? {
          scroller: scroller.current,
          gutter: gutter.current,
          numbers: numbers.current,
          content: content.current,
          lines: lines.current,
          input: input.current,
        }
      : null;

  /** Lays out the textarea's text (when it changed) and draws it with the problems. */
  const redraw = (p: Parts) => {
    layout.current = layoutOf(layout.current, p.input.value);
    draw(p, layout.current, problems.current);
    return layout.current;
  };

  const show = (list: Problem[], andReveal: boolean) => {
    const p = parts();
    if (!p) return;
    problems.current = list;
    const l = redraw(p);
    if (andReveal && list[0]) reveal(p, l, list, list[0]);
  };

  // The textarea is uncontrolled: the text typed is its own, so the browser's undo holds every
  // edit (React would reset it on each render). A value from outside (Reset, a picked scenario)
  // replaces it; the first run of this effect draws the text the editor opens with.
  useEffect(() => {
    const p = parts();
    if (!p || (p.input.value === value && layout.current !== null)) return;
    p.input.value = value;
    problems.current = [];
    redraw(p);
  }, [value]);

  useEffect(() => {
    const p = parts();
    if (!p) return;
    const text = p.input.value;
    const list: Problem[] = issues.map((iss) => {
      const r = locatePath(text, iss.path) ?? { from: 0, to: 1 };
      return { from: r.from, to: r.to, message: `${iss.path || '(root)'}: ${iss.message}` };
    });
    show(list, list.length > 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [issues]);

  // A refused Apply of text that is not JSON: the problem is the syntax error's position.
  useEffect(() => {
    const p = parts();
    if (!p || revealSeq === 0) return;
    const problem = syntaxProblem(p.input.value);
    if (problem) show([problem], true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [revealSeq]);

  // After each edit the marks follow the text; 300 ms after the last one the syntax is checked again.
  const syntaxTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(syntaxTimer.current), []);
  const onInput = () => {
    const p = parts();
    if (!p) return;
    const text = p.input.value;
    const before = layout.current?.text.length ?? text.length;
    problems.current = shiftProblems(problems.current, p.input.selectionEnd, text.length - before);
    redraw(p);
    cb.current.onChange(text);
    clearTimeout(syntaxTimer.current);
    syntaxTimer.current = setTimeout(() => {
      const problem = syntaxProblem(p.input.value);
      show(problem ? [problem] : [], false);
    }, 300);
  };

  // A scroll draws the lines that came into view, once per frame.
  const scrollFrame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(scrollFrame.current), []);
  const onScroll = () => {
    cancelAnimationFrame(scrollFrame.current);
    scrollFrame.current = requestAnimationFrame(() => {
      const p = parts();
      const l = layout.current;
      if (p && l && outOfWindow(p, l.starts.length)) draw(p, l, problems.current);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      cb.current.onApply();
    }
  };

  // The textarea lies over the drawing, so the problem under the pointer gives it its title.
  const onPointerMove = (e: PointerEvent<HTMLTextAreaElement>) => {
    const mark = document
      .elementsFromPoint(e.clientX, e.clientY)
      .find((el) => el.classList.contains('json-editor__problem'));
    const title = mark?.getAttribute('title') ?? '';
    if (e.currentTarget.title !== title) e.currentTarget.title = title;
  };

  return (
    <div className="json-editor">
      <div className="json-editor__scroller" ref={scroller} onScroll={onScroll}>
        <div className="json-editor__gutter" ref={gutter} aria-hidden="true">
          <div className="json-editor__numbers" ref={numbers} />
        </div>
        <div className="json-editor__content" ref={content}>
          <div className="json-editor__lines" ref={lines} aria-hidden="true" />
          <textarea
            className="json-editor__input"
            ref={input}
            aria-label={label}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            wrap="off"
            onInput={onInput}
            onKeyDown={onKeyDown}
            onSelect={() => {
              const p = parts();
              if (p && layout.current) markCurrentLine(p, layout.current);
            }}
            onPointerMove={onPointerMove}
          />
        </div>
      </div>
    </div>
  );
}
