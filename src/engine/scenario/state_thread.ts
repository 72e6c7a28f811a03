/**
 * One thread's record after one of its events: the per-thread step of the state fold
 * (state.ts). Kept apart from the fold's bookkeeping of keys, nodes and checkpoints because it
 * reads nothing but the thread's own record and the event, and returns the same record when the
 * event changes nothing (checkpoints share unchanged records by reference).
 */
import type { ThreadState, TraceEvent } from '../trace/types';
import type { ThreadRec } from './state_frame';

export function threadAfter(r: ThreadRec, ev: TraceEvent): ThreadRec {
  let state: ThreadState = r.state;
  let holds = r.holds;
  let nResults = r.nResults;
  switch (ev.kind) {
    case 'thread.start':
    case 'lock.request':
    case 'unlock.request':
    case 'waiter.wakeup':
    case 'lock.failed':
    case 'work.end':
      state = 'running';
      break;
    case 'thread.done':
      state = 'done';
      break;
    case 'thread.result':
      nResults++;
      break;
    case 'work.start':
      // 'working' is a critical section: work the thread does holding no lock is plain running
      state = ev.op === 'sleep' ? 'sleeping' : ev.critical === false ? 'running' : 'working';
      break;
    // pubsub.wait: blocked in the subscribe until a pub/sub slot frees (LockPubSub)
    case 'lock.wait':
    case 'pubsub.wait':
      state = 'waiting';
      break;
    case 'lock.acquired':
      state = 'running';
      holds = withHold(holds, ev.lock, ev.holdCount);
      break;
    case 'lock.released':
      state = 'running';
      holds = withHold(holds, ev.lock, ev.holdCount);
      break;
    case 'lock.error':
      state = 'running';
      if (ev.op === 'unlock') holds = withHold(holds, ev.lock, 0);
      break;
    case 'cmd':
      if (r.call === undefined || r.call.answered) return r;
      break;
    default:
      if (typeof ev.step !== 'number') return r;
  }
  if (r.state === 'paused' || r.state === 'crashed') state = r.state;
  const step = typeof ev.step === 'number' ? ev.step : r.step;
  let requesting = r.requesting;
  if (ev.kind === 'lock.request' && typeof ev.lock === 'string') requesting = ev.lock;
  else if (ev.kind === 'lock.acquired' || ev.kind === 'lock.failed' || ev.kind === 'lock.error')
    requesting = undefined;
  const call = callAfter(r.call, ev);
  if (
    state === r.state &&
    holds === r.holds &&
    nResults === r.nResults &&
    step === r.step &&
    requesting === r.requesting &&
    call === r.call
  )
    return r;
  const next: ThreadRec = { state, holds, nResults, step, beforePause: r.beforePause, requesting, call };
  return next;
}

/** The lock or unlock call a thread is in after `ev` (ThreadRec.call). */
function callAfter(call: ThreadRec['call'], ev: TraceEvent): ThreadRec['call'] {
  switch (ev.kind) {
    case 'lock.request':
    case 'unlock.request':
      return { lock: ev.lock, answered: false };
    case 'cmd':
      return call === undefined || call.answered ? call : { lock: call.lock, answered: true };
    case 'lock.acquired':
    case 'lock.failed':
    case 'lock.error':
    case 'lock.released':
    case 'thread.done':
      return undefined;
    default:
      return call;
  }
}

function withHold(
  holds: Readonly<Record<string, number>>,
  lock: string,
  count: number,
): Readonly<Record<string, number>> {
  const next: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const k of Object.keys(holds)) if (k !== lock) next[k] = holds[k];
  if (count > 0) next[lock] = count;
  return next;
}
