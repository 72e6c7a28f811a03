/**
 * What the page reads of a run's events before its first draw: how many there are, when the last
 * one is, how many set the playback's pace, and the key moments' chips. The worker writes it with
 * the run (engine-host.ts), so the page can draw the run, its verdict and its controls before it
 * parses the events themselves (worker-protocol.ts defers that: docs/performance.md, "fifth pass:
 * the trip"). A run made without one (a test's, a fixture's) is read from its trace.
 */
import { keyMoments, type KeyMoment } from '../engine/trace/key_moments';
import type { Trace, TraceEvent } from '../engine/trace/types';
import type { ScriptContext } from './inspectors/script-context';

export interface RunOutline {
  /** trace.events.length */
  events: number;
  /** the last event's virtual time (0 without events) */
  lastT: number;
  /** the events worth watching (paceEvents) */
  pace: number;
  /** keyMoments(trace) */
  moments: KeyMoment[];
  /**
   * What the page reads of the events at the cursor the run opens at (the request's `at`), when
   * there is one: after an edit the cursor stays where it was, and the transport's clock, the
   * event box, the caption and the script view read there before the first draw (engine-host.ts
   * writes it; the events themselves are parsed after the draw).
   */
  opening?: { index: number; event: TraceEvent; script: ScriptContext | null };
}

/** Events worth watching: a verbose run's script lines would otherwise count as pace. */
export function paceEvents(trace: Pick<Trace, 'events'>): number {
  let n = 0;
  for (const e of trace.events) if (e.kind !== 'script.line' && e.kind !== 'script.call') n++;
  return n;
}

/**
 * `verbose`: whether the run recorded script lines; a run that did not has no script.line and no
 * script.call events (types.ts), so its pace is its count (a loop of 44,000 events, 5 ms cold in
 * the worker, saved).
 */
export function outlineOf(trace: Pick<Trace, 'events'>, verbose = true): RunOutline {
  const { events } = trace;
  return {
    events: events.length,
    lastT: events.length ? events[events.length - 1].t : 0,
    pace: verbose ? paceEvents(trace) : events.length,
    moments: keyMoments(trace),
  };
}

type RunLike = { trace: Pick<Trace, 'events'>; outline?: RunOutline };

export function eventCountOf(run: RunLike): number {
  return run.outline?.events ?? run.trace.events.length;
}

/** The event at `i`, undefined out of range (the cursor before the first event reads no events). */
export function eventAt(run: RunLike, i: number): TraceEvent | undefined {
  const opening = run.outline?.opening;
  if (opening !== undefined && opening.index === i) return opening.event;
  return i >= 0 && i < eventCountOf(run) ? run.trace.events[i] : undefined;
}

export function lastEventT(run: RunLike): number {
  return run.outline?.lastT ?? eventAt(run, eventCountOf(run) - 1)?.t ?? 0;
}

export function momentsOf(run: RunLike): KeyMoment[] {
  return run.outline?.moments ?? keyMoments(run.trace);
}
