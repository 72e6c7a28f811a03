/**
 * Predict mode's edge, read by the legend and the timeline's veil: the time of the event at the
 * cursor. Before the first event (cursor -1) it reads nothing of the events, which may not be
 * parsed yet (worker-protocol.ts defers them past the first draw).
 */
import { eventAt } from '../run-outline';
import type { PlaygroundState } from '../store';

type CursorState = Pick<PlaygroundState, 'predict' | 'run' | 'cursor'>;

const cursorT = (s: CursorState) => (s.run ? eventAt(s.run, s.cursor)?.t : undefined);

/** the legend's cut: only the marks drawn up to the cursor; undefined out of predict mode */
export function legendUntil(s: CursorState): number | undefined {
  return s.predict ? (cursorT(s) ?? 0) : undefined;
}

/** the veil's edge (-1 before the first event); null out of predict mode */
export function veilT(s: CursorState): number | null {
  return s.predict ? (cursorT(s) ?? -1) : null;
}
