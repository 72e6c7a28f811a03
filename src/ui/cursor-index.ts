/**
 * Where a cursor lands in a trace, in the page (the store) and in the engine worker alike: the
 * worker answers a run with the state at the cursor the page is going to show.
 */
import { bisector } from 'd3-array';
import type { TraceEvent } from '../engine/trace/types';

const byTime = bisector((e: TraceEvent) => e.t);

/** The last event at or before virtual time `t` (-1 before the first). */
export function indexAtTime(trace: { events: readonly TraceEvent[] }, t: number): number {
  return byTime.right(trace.events, t) - 1;
}

/** A cursor within a trace of `count` events: -1 (before the first) to its last event. */
export function clampIndex(count: number, c: number): number {
  return Math.max(-1, Math.min(count - 1, Math.round(c)));
}
