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

/** The document to go back to, with `current` kept for redo; null when there is none. */
export function takeUndo(current: HistoryEntry): HistoryEntry | null {
  const { undo, redo } = useHistory.getState();
  const entry = undo[undo.length - 1];
  if (!entry) return null;
  useHistory.setState({ undo: undo.slice(0, -1), redo: [...redo, current] });
  return entry;
}

export function takeRedo(current: HistoryEntry): HistoryEntry | null {
  const { undo, redo } = useHistory.getState();
  const entry = redo[redo.length - 1];
  if (!entry) return null;
  useHistory.setState({ redo: redo.slice(0, -1), undo: [...undo, current] });
  return entry;
}

/** Puts an entry taken by takeUndo/takeRedo back where it was (its re-run failed). */
export function restore(dir: 'undo' | 'redo', entry: HistoryEntry): void {
  useHistory.setState((s) =>
    dir === 'undo'
      ? { undo: [...s.undo, entry], redo: s.redo.slice(0, -1) }
      : { redo: [...s.redo, entry], undo: s.undo.slice(0, -1) },
  );
}
