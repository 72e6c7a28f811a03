/**
 * The one store: what is being simulated (scenario), what came out (run), and where the viewer
 * is (cursor, playback, language, selected node). Components read it; controller.ts is the only
 * place that talks to the engine and writes runs into it.
 */
import { create } from 'zustand';
import type { ScenarioDoc } from '../engine/scenario/edit';
import type { SchemaIssue } from '../engine/scenario/api';
import type { Trace, Violation, VisibleState } from '../engine/trace/types';
import { clampIndex, indexAtTime } from './cursor-index';
import type { BuiltinInfo } from './engine-adapter';
import type { Lang, MessageKey } from './i18n';
import { focusWindow, requestView } from './view-window';
import type { RunPayload } from './worker-protocol';
import { eventAt, eventCountOf } from './run-outline';

export type RunView = RunPayload;

export interface UiError {
  id: number;
  key: MessageKey;
  params?: Record<string, string | number>;
  /** a nested reason, translated and passed to the message as {msg} */
  detail?: { key: MessageKey; params?: Record<string, string | number> };
  /** schema issues to list under the message */
  issues?: SchemaIssue[];
}

export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] as const;

export interface PlaygroundState {
  lang: Lang;
  embed: boolean;
  builtins: BuiltinInfo[];
  defaultId: string;
  engineReady: boolean;
  /** built-in the scenario came from, null once edited or imported */
  builtinId: string | null;
  /** the document as written (what the editor and the URL show), once validation accepted it */
  scenario: ScenarioDoc | null;
  issues: SchemaIssue[];
  errors: UiError[];
  run: RunView | null;
  running: boolean;
  runStartedAt: number;
  cursor: number;
  playing: boolean;
  speed: number;
  selectedNode: string;
  /** the engine's frame at the cursor (arrives asynchronously from the worker) */
  visible: VisibleState | null;
  visibleIndex: number;
  /** the built-in the scenario is, or was edited from (kept through edits; null once imported) */
  originId: string | null;
  /** large text for a projector (the `presenter` class on <html>): the timeline scales its canvas text */
  presenter: boolean;
  /** predict mode: the timeline after the cursor (and what it reveals) stays hidden until stepped into */
  predict: boolean;
  /** the keyspace shows owner ids as Redis stores them ("<uuid>:1"), not as their thread ("A:1") */
  realIds: boolean;
  /**
   * the lanes the open lesson step talks about (empty: none, or the learner unfolded them): in
   * presenter mode a cluster's other shards fold to their header
   */
  laneFocus: readonly string[];
}

export const usePlayground = create<PlaygroundState>()(() => ({
  lang: 'en',
  embed: false,
  builtins: [],
  defaultId: '',
  engineReady: false,
  builtinId: null,
  scenario: null,
  issues: [],
  errors: [],
  run: null,
  running: false,
  runStartedAt: 0,
  cursor: -1,
  playing: false,
  speed: 10,
  selectedNode: 'master',
  visible: null,
  visibleIndex: -2,
  originId: null,
  presenter: false,
  predict: false,
  realIds: false,
  laneFocus: [],
}));

let errorSeq = 1;

export function pushError(e: Omit<UiError, 'id'>): void {
  usePlayground.setState((s) => ({ errors: [...s.errors.slice(-3), { ...e, id: errorSeq++ }] }));
}

export function dismissError(id: number): void {
  usePlayground.setState((s) => ({ errors: s.errors.filter((e) => e.id !== id) }));
}

export function eventCount(s: PlaygroundState): number {
  return s.run ? eventCountOf(s.run) : 0;
}

export function clampCursor(s: PlaygroundState, c: number): number {
  return clampIndex(eventCount(s), c);
}

export function setCursor(c: number): void {
  usePlayground.setState((s) => ({ cursor: clampCursor(s, c) }));
}

export function stepCursor(delta: number): void {
  usePlayground.setState((s) => ({ cursor: clampCursor(s, s.cursor + delta), playing: false }));
}

/** Virtual time at the cursor: the time of the event it points at (0 before the first). */
export function clockAt(s: PlaygroundState): number {
  const ev = s.run && eventAt(s.run, s.cursor);
  return ev ? ev.t : 0;
}

/** Jump to the previous/next lock event or violation start/end. */
export function jumpLockEvent(dir: 1 | -1): void {
  usePlayground.setState((s) => {
    const idx = s.run?.model.lockEventIndices ?? [];
    let target: number;
    if (dir > 0) target = idx.find((i) => i > s.cursor) ?? eventCount(s) - 1;
    else {
      target = -1;
      for (const i of idx) if (i < s.cursor) target = i;
    }
    return { cursor: clampCursor(s, target), playing: false };
  });
}

/** Index of the last event at or before virtual time t (-1 before the first); the worker's too. */
export { indexAtTime };

/**
 * The cursor on the event that opens violation `v` (its time when there is none), and the timeline
 * zoomed to show the whole violation with what led to it: a short one in a long run is a few
 * pixels wide.
 */
export function jumpToViolation(trace: Trace, v: Pick<Violation, 'kind' | 'lock' | 'from' | 'to'>): void {
  const start = trace.events.findIndex(
    (e) => e.kind === 'violation.start' && e.t === v.from && e.violation === v.kind && e.lock === v.lock,
  );
  usePlayground.setState({ playing: false });
  setCursor(start >= 0 ? start : indexAtTime(trace, v.from));
  const end = trace.events[trace.events.length - 1]?.t ?? v.from;
  requestView(...focusWindow(v.from, v.to ?? end, end));
}

// player: the lesson player's own store, so the playground's state above stays as it was

export interface LearnState {
  /** 'index': the list of lessons; 'lesson': a lesson open beside the playground */
  view: 'play' | 'index' | 'lesson';
  lessonId: string | null;
  /** 0-based */
  step: number;
  /** presenter mode: the inspectors and the editor shown (folded away by default) */
  panels: boolean;
  /** the lesson link's `&p=1`: predict mode on at every step, not only while a question waits */
  predict: boolean;
  /** the lesson link's `&path=`: a course path Next follows across lessons (null: the whole course) */
  path: string | null;
}

export const useLearn = create<LearnState>()(() => ({
  view: 'play',
  lessonId: null,
  step: 0,
  panels: false,
  predict: false,
  path: null,
}));
