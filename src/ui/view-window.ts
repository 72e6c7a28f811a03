/**
 * The timeline's visible time window, shared with whoever needs it outside the timeline: the
 * share link keeps it, and jumps (violations, key moments) ask the timeline to show a window.
 * Its own small store, so a zoom does not re-render everything that reads the playground store.
 */
import { create } from 'zustand';

export interface ViewWindowState {
  /** [from, to] in virtual ms while zoomed in; null at the full view */
  view: [number, number] | null;
  /** a window the timeline should show next; `seq` makes asking twice for the same one count */
  request: { from: number; to: number; seq: number } | null;
}

export const useViewWindow = create<ViewWindowState>()(() => ({ view: null, request: null }));

let seq = 0;

export function requestView(from: number, to: number): void {
  useViewWindow.setState({ request: { from, to, seq: ++seq } });
}

/** The narrowest window a span gets: a few ms, so a 1 ms hold is still a bar and not a line. */
const MIN_WINDOW_MS = 6;

/**
 * The window that shows [from, to] with context either side. A span (a violation) gets margins
 * proportional to it: up to twice its length each side, so it fills at least a fifth of the
 * width (a 10 ms double hold in a 12 s run is ~200 px, not ~10), and no more context than 4 % of
 * the run either way. A point (a key moment) has no length to scale by: 4 % of the run each side.
 * The window always starts at or before `from`, so the hold that opened the span shows its start.
 */
export function focusWindow(from: number, to: number, runEnd: number): [number, number] {
  const span = Math.max(0, to - from);
  const context = Math.max(runEnd * 0.04, 20);
  const margin =
    span > 0 ? Math.max(span * 0.6, Math.min(span * 2, context), (MIN_WINDOW_MS - span) / 2) : context;
  return [Math.max(0, Math.floor(from - margin)), Math.ceil(to + margin)];
}
