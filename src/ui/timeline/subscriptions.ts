/**
 * The pub/sub pool on the timeline: a thread's wait for a free subscription slot (a strip along
 * the bottom of its lane, from its `pubsub.wait` until it subscribes or gives up) and the give-up
 * (`pubsub.timeout`, a dashed tick).
 */
import type { TraceEvent } from '../../engine/trace/types';
import type { ThreadLane } from './model';

/**
 * Fed by the lanes' main walk (model.ts): `add` each event with its index in order, then `end` at
 * the run's end, after the lanes' other spans. The waits and give-ups reach the lanes only in `end`, so a lane's fields and
 * marks come in the order main's separate pass gave them (`subWait` after `starved`, the give-ups
 * after the main walk's marks): the lane model's JSON is the same text (src/cli/lane_hash.ts).
 */
export function subscriptionMarker(threadLanes: ReadonlyMap<string, ThreadLane>): {
  add: (e: TraceEvent, i: number) => void;
  end: (tEnd: number) => void;
} {
  const waitFrom = new Map<string, number>();
  const spans: { lane: ThreadLane; from: number; to: number }[] = [];
  const timeouts: { lane: ThreadLane; t: number; index: number }[] = [];
  const close = (actor: string, t: number) => {
    const from = waitFrom.get(actor);
    if (from === undefined) return;
    waitFrom.delete(actor);
    const lane = threadLanes.get(actor);
    if (lane) spans.push({ lane, from, to: t });
  };
  const add = (e: TraceEvent, i: number) => {
    const actor = String(e.actor ?? '');
    if (e.kind === 'pubsub.wait') {
      if (threadLanes.has(actor)) waitFrom.set(actor, e.t);
      return;
    }
    // the wait ends with the thread's next event: its subscribe, its give-up, or an interrupt
    if (waitFrom.size > 0) close(actor, e.t);
    if (e.kind !== 'pubsub.timeout') return;
    const lane = threadLanes.get(actor);
    if (lane) timeouts.push({ lane, t: e.t, index: i });
  };
  const end = (tEnd: number) => {
    for (const actor of [...waitFrom.keys()]) close(actor, tEnd);
    for (const { lane, from, to } of spans) (lane.subWait ??= []).push({ from, to });
    for (const { lane, t, index } of timeouts) lane.marks.push({ t, kind: 'sub-timeout', index });
  };
  return { add, end };
}
