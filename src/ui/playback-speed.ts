/**
 * The speed a scenario plays at by default. A single speed for all of them made a one-second
 * scenario flash by in a tenth of a second and a seventy-second one drag on; instead each plays
 * in 10–20 s of real time, the longer end for runs with many events to follow.
 */
import type { Trace } from '../engine/trace/types';
import type { RunOutline } from './run-outline';

export const MIN_PLAY_S = 10;
export const MAX_PLAY_S = 20;
/** events a viewer can follow per real second before the playback should stretch */
const EVENTS_PER_S = 6;

/** Two significant digits: the speed menu shows it, and 7.3× reads better than 7.31234×. */
function round2(v: number): number {
  return Number(v.toPrecision(2));
}

/**
 * Virtual ms per real ms, so that playing from the start to the last event takes 10–20 s; read
 * from a run's outline (run-outline.ts: the worker's, so the page need not read the events).
 */
export function speedOf({ lastT: end, pace }: Pick<RunOutline, 'lastT' | 'pace'>): number {
  if (end <= 0) return 1;
  const seconds = Math.min(MAX_PLAY_S - 2, Math.max(MIN_PLAY_S + 2, pace / EVENTS_PER_S));
  return round2(end / (seconds * 1000));
}

/** Real seconds to play from the start to the last event at `speed`. */
export function playbackSeconds(trace: Pick<Trace, 'events'>, speed: number): number {
  const end = trace.events.length ? trace.events[trace.events.length - 1].t : 0;
  return end / speed / 1000;
}
