/**
 * The scenario JSON's editor, loaded lazily (its own chunk): a plain textarea over a drawing of
 * the same text (json-highlight.ts), with line numbers and the current line shown. The textarea
 * keeps what the browser gives every text field (typing, selection, the clipboard, undo and redo,
 * Tab leaving the editor); the drawing beneath it colours the tokens and underlines the problems:
 * schema issues from the engine at the path they name, JSON syntax errors at their position.
 * It replaced CodeMirror 6, which cost 76 KB gzip of the app's JavaScript (docs/performance.md).
 */
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { SchemaIssue } from '../../engine/scenario/api';
import { locatePath } from './json-locate';
import { highlightLines, lineOf, shiftProblems, syntaxProblem, type Problem } from './json-highlight';

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
  lines: HTMLDivElement;
  input: HTMLTextAreaElement;
}

/** Draws `text` with `problems` under the textarea, and the line numbers beside it. */
function draw(parts: Parts, text: string, problems: readonly Problem[]) {
  const html = highlightLines(text, problems);
  parts.lines.innerHTML = html.map((l) => `<div class="json-editor__line">${l}</div>`).join('');
  if (parts.gutter.childElementCount !== html.length)
    parts.gutter.textContent = html.map((_, i) => i + 1).join('\n');
  markCurrentLine(parts);
}

function markCurrentLine(parts: Parts) {
  const at = lineOf(parts.input.value, parts.input.selectionStart);
  for (const el of parts.lines.querySelectorAll('.json-editor__line--current'))
    el.classList.remove('json-editor__line--current');
  parts.lines.children[at]?.classList.add('json-editor__line--current');
}

/** Scrolls the first problem into the middle of the editor, puts the caret on it, and the editor into view. */
function reveal(parts: Parts, problem: Problem) {
  const at = Math.max(0, Math.min(problem.from, parts.input.value.length));
  parts.input.setSelectionRange(at, at);
  markCurrentLine(parts);
  const mark = parts.lines.querySelector<HTMLElement>('.json-editor__problem');
  const line = parts.lines.children[lineOf(parts.input.value, at)] as HTMLElement | undefined;
  const target = mark ?? line;
  if (target) {
    const { scroller } = parts;
    const box = target.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    scroller.scrollTop += box.top - view.top - (scroller.clientHeight - box.height) / 2;
    scroller.scrollLeft += Math.min(0, box.left - view.left - 48);
  }
  scrollerHost(parts)?.scrollIntoView({ block: 'nearest' });
}

const scrollerHost = (parts: Parts) => parts.scroller.parentElement;

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
  const lines = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const problems = useRef<Problem[]>([]);
  /** the text last drawn: an edit's length change moves the marks behind it */
  const drawn = useRef(value);
  const cb = useRef({ onChange, onApply });
  useEffect(() => {
    cb.current = { onChange, onApply };
  });

  const parts = (): Parts | null =>
    scroller.current && gutter.current && lines.current && input.current
      ? { scroller: scroller.current, gutter: gutter.current, lines: lines.current, input: input.current }
      : null;

  const show = (list: Problem[], andReveal: boolean) => {
    const p = parts();
    if (!p) return;
    problems.current = list;
    draw(p, p.input.value, list);
    if (andReveal && list[0]) reveal(p, list[0]);
  };

  // The textarea is uncontrolled: the text typed is its own, so the browser's undo holds every
  // edit (React would reset it on each render). A value from outside (Reset, a picked scenario)
  // replaces it; the first run of this effect draws the text the editor opens with.
  useEffect(() => {
    const p = parts();
    if (!p || (p.input.value === value && p.lines.childElementCount > 0)) return;
    p.input.value = value;
    drawn.current = value;
    problems.current = [];
    draw(p, value, []);
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
    problems.current = shiftProblems(
      problems.current,
      p.input.selectionEnd,
      text.length - drawn.current.length,
    );
    drawn.current = text;
    draw(p, text, problems.current);
    cb.current.onChange(text);
    clearTimeout(syntaxTimer.current);
    syntaxTimer.current = setTimeout(() => {
      const problem = syntaxProblem(p.input.value);
      show(problem ? [problem] : [], false);
    }, 300);
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
      <div className="json-editor__scroller" ref={scroller}>
        <div className="json-editor__gutter" ref={gutter} aria-hidden="true" />
        <div className="json-editor__content">
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
              if (p) markCurrentLine(p);
            }}
            onPointerMove={onPointerMove}
          />
        </div>
      </div>
    </div>
  );
}
