/**
 * One thread's record after one of its events: the per-thread step of the state fold
 * (state.ts). Kept apart from the fold's bookkeeping of keys, nodes and checkpoints because it
 * reads nothing but the thread's own record and the event, and returns the same record when the
 * event changes nothing (checkpoints share unchanged records by reference).
 */
import type { ThreadState, TraceEvent } from '../trace/types';
import type { ThreadRec } from './state_frame';

type Holds = Readonly<Record<string, number>>;
type Call = NonNullable<ThreadRec['call']>;

/**
 * The parts of thread records a timeline's threads share. A record's holds and call never change,
 * so one object serves every record with the same: a thread holding one lock (or none) and a call
 * answered or not. Each hold change made a dictionary-mode copy of the holds, and each call two
 * objects, for every acquire and release of a run (two thousand of each in `contention-100`).
 */
export class ThreadParts {
  private readonly singles = new Map<string, Map<number, Holds>>();
  private readonly calls = new Map<string, readonly [Call, Call]>();
  /** no lock held (null prototype, as every hold record withHold makes) */
  readonly none: Holds = Object.freeze(Object.create(null) as Record<string, number>);

  /** `{ [lock]: count }`, the same object each time */
  single(lock: string, count: number): Holds {
    let byCount = this.singles.get(lock);
    if (byCount === undefined) this.singles.set(lock, (byCount = new Map()));
    let h = byCount.get(count);
    if (h === undefined) {
      const rec = Object.create(null) as Record<string, number>;
      rec[lock] = count;
      byCount.set(count, (h = Object.freeze(rec)));
    }
    return h;
  }

  /** Whether `holds` has no lock other than `lock`: this table's single of it, or no lock at all. */
  onlyOf(holds: Holds, lock: string): boolean {
    if (holds === this.none) return true;
    const count = holds[lock];
    return count !== undefined && this.singles.get(lock)?.get(count) === holds;
  }

  call(lock: string, answered: boolean): Call {
    let pair = this.calls.get(lock);
    if (pair === undefined) this.calls.set(lock, (pair = [{ lock, answered: false }, { lock, answered: true }]));
    return pair[answered ? 1 : 0];
  }
}

export function threadAfter(r: ThreadRec, ev: TraceEvent, parts: ThreadParts): ThreadRec {
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
      holds = withHold(holds, ev.lock, ev.holdCount, parts);
      break;
    case 'lock.released':
      state = 'running';
      holds = withHold(holds, ev.lock, ev.holdCount, parts);
      break;
    case 'lock.error':
      state = 'running';
      if (ev.op === 'unlock') holds = withHold(holds, ev.lock, 0, parts);
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
  const call = callAfter(r.call, ev, parts);
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
function callAfter(call: ThreadRec['call'], ev: TraceEvent, parts: ThreadParts): ThreadRec['call'] {
  switch (ev.kind) {
    case 'lock.request':
    case 'unlock.request':
      return parts.call(ev.lock, false);
    case 'cmd':
      return call === undefined || call.answered ? call : parts.call(call.lock, true);
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

function withHold(holds: Holds, lock: string, count: number, parts: ThreadParts): Holds {
  if (parts.onlyOf(holds, lock)) return count > 0 ? parts.single(lock, count) : parts.none;
  const others = Object.keys(holds).filter((k) => k !== lock);
  if (others.length === 0) return count > 0 ? parts.single(lock, count) : parts.none;
  if (others.length === 1 && count === 0) return parts.single(others[0], holds[others[0]]);
  const next: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const k of others) next[k] = holds[k];
  if (count > 0) next[lock] = count;
  return next;
}
