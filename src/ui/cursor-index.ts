/**
 * Where a cursor lands in a trace, in the page (the store) and in the engine worker alike: the
 * worker answers a run with the state at the cursor the page is going to show.
 */
import type { TraceEvent } from '../engine/trace/types';

/** The last event at or before virtual time `t` (-1 before the first); events are in time order. */
export function indexAtTime(trace: { events: readonly TraceEvent[] }, t: number): number {
  const events = trace.events;
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid].t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** A cursor within a trace of `count` events: -1 (before the first) to its last event. */
export function clampIndex(count: number, c: number): number {
  return Math.max(-1, Math.min(count - 1, Math.round(c)));
}
