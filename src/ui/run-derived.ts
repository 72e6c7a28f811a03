/**
 * What the page derives from a run's whole trace (its default speed, its key moments), once per
 * trace. The controller starts on them when the trace arrives ahead of the lanes (the worker sends
 * it so), so the render that shows the run finds them done: on contention-100 each is a walk over
 * 44,000 events of some forty shapes.
 */
import { keyMoments, type KeyMoment } from '../engine/trace/key_moments';
import type { Trace } from '../engine/trace/types';
import { defaultSpeed } from './playback-speed';

function onceper<T>(derive: (trace: Trace) => T): (trace: Trace) => T {
  const done = new WeakMap<Trace, T>();
  return (trace) => {
    if (done.has(trace)) return done.get(trace) as T;
    const v = derive(trace);
    done.set(trace, v);
    return v;
  };
}

export const speedOf: (trace: Trace) => number = onceper(defaultSpeed);

export const keyMomentsOf: (trace: Trace) => KeyMoment[] = onceper(keyMoments);

/** Derives now what the first render of this trace will ask for. */
export function deriveAhead(trace: Trace): void {
  speedOf(trace);
  keyMomentsOf(trace);
}
