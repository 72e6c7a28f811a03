/**
 * Undo and redo of scenario edits: two stacks of whole scenario documents. Documents are
 * immutable once loaded (every edit builds a new one), so keeping them is cheap and an undo is a
 * plain re-run of an earlier document.
 */
import { create } from 'zustand';
import type { ScenarioDoc } from '../engine/scenario/edit';

export interface HistoryEntry {
  scenario: ScenarioDoc;
  builtinId: string | null;
  originId: string | null;
}

export interface HistoryState {
  undo: HistoryEntry[];
  redo: HistoryEntry[];
}

/** Enough for a lesson's worth of experiments; older steps fall off. */
export const MAX_HISTORY = 100;

export const useHistory = create<HistoryState>()(() => ({ undo: [], redo: [] }));

/** `prev` was replaced by a new document: it becomes the undo target, and redo is forgotten. */
export function record(prev: HistoryEntry): void {
  useHistory.setState((s) => {
    const top = s.undo[s.undo.length - 1];
    if (top && top.scenario === prev.scenario) return { redo: [] };
    return { undo: [...s.undo, prev].slice(-MAX_HISTORY), redo: [] };
  });
}

type Stack = keyof HistoryState;
const other = (dir: Stack): Stack => (dir === 'undo' ? 'redo' : 'undo');

/** Pops `dir`'s top entry and pushes `current` onto the other stack; null when `dir` is empty. */
function take(dir: Stack, current: HistoryEntry): HistoryEntry | null {
  const state = useHistory.getState();
  const entry = state[dir][state[dir].length - 1];
  if (!entry) return null;
  useHistory.setState({ [dir]: state[dir].slice(0, -1), [other(dir)]: [...state[other(dir)], current] });
  return entry;
}

/** The document to go back to, with `current` kept for redo; null when there is none. */
export const takeUndo = (current: HistoryEntry): HistoryEntry | null => take('undo', current);

export const takeRedo = (current: HistoryEntry): HistoryEntry | null => take('redo', current);

/** Puts an entry taken by takeUndo/takeRedo back where it was (its re-run failed). */
export function restore(dir: Stack, entry: HistoryEntry): void {
  useHistory.setState((s) => ({ [dir]: [...s[dir], entry], [other(dir)]: s[other(dir)].slice(0, -1) }));
}
