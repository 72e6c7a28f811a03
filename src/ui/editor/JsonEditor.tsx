/**
 * CodeMirror 6 over the scenario JSON, loaded lazily (its own chunk). Only @codemirror/state,
 * view and the history commands: a small regex highlighter and our own issue marks stand in for
 * lang-json, language and lint, which together cost more than the rest of the page's own code
 * (the JS budget is 350 KB gzip, Lua VM included).
 * Schema issues from the engine are underlined at the path they name, JSON syntax errors at
 * their position.
 */
import { history, historyKeymap, insertNewline } from '@codemirror/commands';
import { EditorState, StateEffect, StateField, type Range } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { SchemaIssue } from '../../engine/scenario/api';
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

const TOKEN = /"(?:[^"\\\n]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g;
const mark = (cls: string) => Decoration.mark({ class: cls });
const KEY = mark('tok-key');
const STRING = mark('tok-string');
const NUMBER = mark('tok-number');
const LITERAL = mark('tok-literal');

const highlighter = new MatchDecorator({
  regexp: TOKEN,
  decoration: (m) =>
    m[0].startsWith('"') ? (m[1] !== undefined ? KEY : STRING) : /^[-\d]/.test(m[0]) ? NUMBER : LITERAL,
});

const highlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = highlighter.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = highlighter.updateDeco(u, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

interface Problem {
  from: number;
  to: number;
  message: string;
}

const setProblems = StateEffect.define<Problem[]>();

function decorate(doc: EditorState['doc'], problems: Problem[]): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const p of problems) {
    const from = Math.max(0, Math.min(p.from, doc.length));
    const to = Math.max(from + 1, Math.min(p.to, doc.length));
    if (to > doc.length) continue;
    ranges.push(Decoration.mark({ class: 'cm-problem', attributes: { title: p.message } }).range(from, to));
  }
  return Decoration.set(ranges, true);
}

const problems = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) if (e.is(setProblems)) return decorate(tr.state.doc, e.value);
    return tr.docChanged ? deco.map(tr.changes) : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Where JSON.parse stopped, from its message ("at position 12" or "line 2 column 5"). */
function syntaxProblem(text: string): Problem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    let at = text.length - 1;
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

/** Marks the problems and scrolls the first into the middle of the editor, and the editor into the page. */
function showProblems(v: EditorView, list: Problem[], reveal: boolean) {
  const first = list[0];
  if (!reveal || !first) {
    v.dispatch({ effects: setProblems.of(list) });
    return;
  }
  const at = Math.max(0, Math.min(first.from, v.state.doc.length));
  v.dispatch({
    effects: [setProblems.of(list), EditorView.scrollIntoView(at, { y: 'center' })],
    selection: { anchor: at },
  });
  v.dom.scrollIntoView({ block: 'nearest' });
}

export default function JsonEditor({
  value,
  issues,
  onChange,
  onApply,
  label,
  revealSeq = 0,
}: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const cb = useRef({ onChange, onApply });
  useEffect(() => {
    cb.current = { onChange, onApply };
  });

  useEffect(() => {
    if (!host.current) return;
    let syntaxTimer: ReturnType<typeof setTimeout> | undefined;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          highlightActiveLine(),
          highlight,
          problems,
          EditorState.tabSize.of(2),
          keymap.of([
            { key: 'Mod-Enter', run: () => (cb.current.onApply(), true) },
            // Plain newline: the indenting variant would pull in @codemirror/language and its parser.
            // Arrows, deletion and selection are the browser's own; Tab leaves the editor.
            { key: 'Enter', run: insertNewline },
            ...historyKeymap,
          ]),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            const text = u.state.doc.toString();
            cb.current.onChange(text);
            clearTimeout(syntaxTimer);
            syntaxTimer = setTimeout(() => {
              const p = syntaxProblem(text);
              u.view.dispatch({ effects: setProblems.of(p ? [p] : []) });
            }, 300);
          }),
          // tabindex: an explicit tab stop, so checkers see the scroller holds focusable content.
          EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
        ],
      }),
    });
    view.current = v;
    return () => {
      clearTimeout(syntaxTimer);
      v.destroy();
    };
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
    const list: Problem[] = issues.map((iss) => {
      const r = locatePath(text, iss.path) ?? { from: 0, to: 1 };
      return { from: r.from, to: r.to, message: `${iss.path || '(root)'}: ${iss.message}` };
    });
    showProblems(v, list, list.length > 0);
  }, [issues]);

  // A refused Apply of text that is not JSON: the problem is the syntax error's position.
  useEffect(() => {
    const v = view.current;
    if (!v || revealSeq === 0) return;
    const p = syntaxProblem(v.state.doc.toString());
    if (p) showProblems(v, [p], true);
  }, [revealSeq]);

  return <div className="json-editor" ref={host} />;
}
