/**
 * The scenario JSON's editor, loaded lazily (its own chunk): a plain textarea over a drawing of
 * the same text, with line numbers and the current line shown (editor-surface.ts keeps them in
 * step; a long document is edited through a window of its lines). The drawing colours the tokens
 * and underlines the problems: schema issues from the engine at the path they name, JSON syntax
 * errors at their position. It replaced CodeMirror 6, which cost 76 KB gzip of the app's
 * JavaScript (docs/performance.md, "Issue 23, third pass: bundle" and "fourth pass: edits").
 */
import { useEffect, useRef, type PointerEvent } from 'react';
import type { SchemaIssue } from '../../engine/scenario/api';
import { EditorSurface } from './editor-surface';
import { syntaxProblem, type Problem } from './json-highlight';
import { locatePath } from './json-locate';

export interface JsonEditorProps {
  value: string;
  issues: SchemaIssue[];
  onChange: (text: string) => void;
  onApply: () => void;
  label: string;
  /** changes after each refused Apply: the editor scrolls to the problem it underlines */
  revealSeq?: number;
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
  const surface = useRef<EditorSurface | null>(null);
  const cb = useRef({ onChange, onApply });
  useEffect(() => {
    cb.current = { onChange, onApply };
  });

  useEffect(() => {
    if (!scroller.current || !gutter.current || !numbers.current || !content.current) return;
    if (!lines.current || !input.current) return;
    const s = new EditorSurface(
      {
        scroller: scroller.current,
        gutter: gutter.current,
        numbers: numbers.current,
        content: content.current,
        lines: lines.current,
        input: input.current,
      },
      { onChange: (text) => cb.current.onChange(text), onApply: () => cb.current.onApply() },
    );
    surface.current = s;
    return () => {
      s.destroy();
      surface.current = null;
    };
  }, []);

  // The textarea is uncontrolled: the text typed is its own, so the browser's undo holds every
  // edit (React would reset it on each render). A value that differs from the editor's document
  // (Reset, a picked scenario, an applied edit printed anew) replaces it; the text typed, coming
  // back as the value, is the document already and does not.
  useEffect(() => surface.current?.setValue(value), [value]);

  useEffect(() => {
    const s = surface.current;
    if (!s) return;
    const text = s.value();
    const list: Problem[] = issues.map((iss) => {
      const r = locatePath(text, iss.path) ?? { from: 0, to: 1 };
      return { from: r.from, to: r.to, message: `${iss.path || '(root)'}: ${iss.message}` };
    });
    s.setProblems(list, list.length > 0);
  }, [issues]);

  // A refused Apply of text that is not JSON: the problem is the syntax error's position.
  useEffect(() => {
    const s = surface.current;
    if (!s || revealSeq === 0) return;
    const problem = syntaxProblem(s.value());
    if (problem) s.setProblems([problem], true);
  }, [revealSeq]);

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
            onPointerMove={onPointerMove}
          />
        </div>
      </div>
    </div>
  );
}
