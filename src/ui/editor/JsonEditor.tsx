/**
 * CodeMirror 6 over the scenario JSON. Loaded lazily (its own chunk): most visitors never open it.
 * Schema issues from the engine are shown as lint diagnostics at the path they name.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, foldGutter, indentOnInput } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { SchemaIssue } from '../../engine/sim/api';
import { locatePath } from './json-locate';

export interface JsonEditorProps {
  value: string;
  issues: SchemaIssue[];
  onChange: (text: string) => void;
  onApply: () => void;
  label: string;
}

export default function JsonEditor({ value, issues, onChange, onApply, label }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const cb = useRef({ onChange, onApply });
  useEffect(() => {
    cb.current = { onChange, onApply };
  });

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          foldGutter(),
          history(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          json(),
          linter(jsonParseLinter()),
          lintGutter(),
          keymap.of([
            { key: 'Mod-Enter', run: () => (cb.current.onApply(), true) },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) cb.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor owns its text after creation; outside changes arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const text = v.state.doc.toString();
    const diagnostics: Diagnostic[] = issues.map((iss) => {
      const r = locatePath(text, iss.path) ?? { from: 0, to: Math.min(1, text.length) };
      return {
        from: r.from,
        to: Math.max(r.from, r.to),
        severity: 'error',
        message: `${iss.path || '(root)'}: ${iss.message}`,
      };
    });
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [issues]);

  return <div className="json-editor" ref={host} />;
}
