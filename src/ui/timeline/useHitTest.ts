/**
 * Which event the pointer is on: the lane under it, then the event of that lane nearest in x
 * (within 7 px). Each lane's event indices are collected once per trace, in time order, so a
 * hover costs one bisection; they are collected once the run is drawn and the page is idle (or at
 * the first hover, if that comes first), not in the render that shows the run (a walk over every
 * event: 28 ms of contention-100's pick), nor in the middle of a zoom.
 */
import { bisector } from 'd3-array';
import type { LinearScale } from './linear-scale';
import { useCallback, useEffect, useMemo } from 'react';
import type { Trace } from '../../engine/trace/types';
import type { RunView } from '../store';
import { SENTINEL_LANE, type Layout } from './layout';
import type { LaneModel } from './model';
import { isThreadActor } from '../../engine/trace/actors';

export interface Hit {
  index: number;
  left: number;
  top: number;
}

const HIT_PX = 7;

/** Event indices per lane, in time order (script internals are not hover targets). */
export function laneEventIndex(trace: Trace, model: LaneModel): Map<string, number[]> {
  const m = new Map<string, number[]>();
  const add = (lane: string, i: number) => {
    let a = m.get(lane);
    if (!a) m.set(lane, (a = []));
    a.push(i);
  };
  const threadsOf = new Map<string, string[]>();
  for (const t of model.threads) {
    const list = threadsOf.get(t.client) ?? [];
    list.push(t.id);
    threadsOf.set(t.client, list);
  }
  const sentinels = new Set(model.sentinels?.ids ?? []);
  trace.events.forEach((e, i) => {
    if (e.kind === 'script.line' || e.kind === 'script.call') return;
    // A Sentinel's events go on the Sentinels' lane, not on the node they judged.
    if (e.actor !== undefined && sentinels.has(e.actor)) return add(SENTINEL_LANE, i);
    if (isThreadActor(e.actor)) add(e.actor, i);
    else if (e.actor && threadsOf.has(e.actor)) for (const th of threadsOf.get(e.actor)!) add(th, i);
    if (typeof e.node === 'string') add(e.node, i);
    else if (e.actor && !threadsOf.has(e.actor) && !isThreadActor(e.actor)) add(e.actor, i);
  });
  return m;
}

export function useHitTest(
  run: RunView | null,
  layout: Layout | null,
  x: LinearScale,
): (px: number, py: number) => Hit | null {
  const laneEvents = useMemo(() => {
    let index: Map<string, number[]> | null = null;
    return () => (index ??= run ? laneEventIndex(run.trace, run.model) : new Map<string, number[]>());
  }, [run]);
  useEffect(() => {
    if (typeof requestIdleCallback === 'undefined') return;
    const id = requestIdleCallback(() => laneEvents(), { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }, [laneEvents]);
  return useCallback(
    (px: number, py: number): Hit | null => {
      if (!layout || !run) return null;
      const row = layout.rows.find((r) => py >= r.y && py < r.y + r.h);
      if (!row || !row.id) return null;
      const list = laneEvents().get(row.id);
      if (!list || !list.length) return null;
      const events = run.trace.events;
      const lo = bisector((i: number) => events[i].t).left(list, x.invert(px));
      let best = -1;
      let bestD = HIT_PX;
      for (const j of [lo - 1, lo, lo + 1]) {
        if (j < 0 || j >= list.length) continue;
        const d = Math.abs(x(events[list[j]].t) - px);
        if (d < bestD) {
          bestD = d;
          best = list[j];
        }
      }
      return best < 0 ? null : { index: best, left: px, top: row.y + row.h };
    },
    [layout, run, laneEvents, x],
  );
}
