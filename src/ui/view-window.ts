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

/**
 * The window that shows [from, to] with context either side: the span itself plus 60 % of it,
 * and never less than 4 % of the run each side, so a 100 ms violation in a 40 s run is wide
 * enough to see and still shows what led to it.
 */
export function focusWindow(from: number, to: number, runEnd: number): [number, number] {
  const span = Math.max(0, to - from);
  const margin = Math.max(span * 0.6, runEnd * 0.04, 20);
  return [Math.max(0, Math.floor(from - margin)), Math.ceil(to + margin)];
}
