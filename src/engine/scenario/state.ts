/**
 * What is visible at any point of a trace, without re-running the scenario: the UI scrubs with
 * `stateAt(i)` on every pointer move, so it must cost far less than a frame.
 *
 * The state is a fold over the events (thread, lock, resource and node events describe their own
 * effect, see TraceEventMap in trace/types.ts) plus key deltas the recorder logs beside the events:
 * after each command the new KeyView of every key it touched, after an expiry the deletion. A full
 * checkpoint is kept every CHECKPOINT_EVERY events (further apart for a large state, see
 * `checkpointSpacing` in state_frame.ts); `stateAt(i)` copies the nearest one and replays the
 * events since. Checkpoints are cheap because everything inside them is immutable (KeyViews,
 * thread records): a checkpoint copies maps of references, never values.
 */
import type {
  Actor,
  KeyView,
  NodeView,
  ResourceView,
  ThreadState,
  ThreadView,
  TraceEvent,
  TraceEventOf,
  VisibleState,
} from '../trace/types';
import { clientOf } from '../trace/actors';
import { lostWrites } from '../resource/ProtectedResource';
import {
  CHECKPOINT_EVERY,
  applyKey,
  applySubscription,
  checkpointSpacing,
  copyFrame,
  dropSubscriber,
  hasPartialCandidate,
  noHolds,
  type Frame,
  type NodeRec,
  type FrameReader,
  type ThreadRec,
  ThreadTable,
} from './state_frame';
import { ThreadParts, threadAfter } from './state_thread';

export { CHECKPOINT_EVERY, type FrameReader, type NodeFrame } from './state_frame';

export interface TimelineInit {
  nodes: readonly { id: string; role: NodeView['role'] }[];
  /** every thread of the scenario, as "<client>:<thread>" */
  threads: readonly Actor[];
  resource: ResourceView;
}

/** partialLeases' answer when no thread has one (shared: nothing writes to it) */
const NO_LEASES: ReadonlyMap<Actor, string[]> = new Map();

/** Redisson's owner id: "<client uuid>:<thread id>", ":write" appended by a write lock. */
const REDISSON_OWNER = /^(.+):(\d+)(?::write)?$/;

/**
 * Lock types whose key is a hash with one field per owner counting its holds: what a thread's
 * hold count is in Redis. (A ReadWriteLock keeps read and write holds of one name in one hash, and
 * a MultiLock's parts are other keys: their counts are not one field.)
 */
const COUNTED_IN_ONE_FIELD = new Set(['RLock', 'FairLock', 'SpinLock', 'FencedLock']);

export class StateTimeline {
  private readonly live: Frame;
  private readonly checkpoints: Frame[] = [];
  /** the index of the first event each checkpoint does not include (ascending) */
  private readonly checkpointIndex: number[] = [];
  private nextCheckpoint = CHECKPOINT_EVERY;
  /** position in the delta arrays at each checkpoint */
  private readonly checkpointDelta: number[] = [];
  private readonly dIndex: number[] = [];
  private readonly dNode: string[] = [];
  /** null: every key of the node is gone (a crash without persistence) */
  private readonly dKey: (string | null)[] = [];
  private readonly dView: (KeyView | null)[] = [];
  private readonly events: TraceEvent[] = [];
  private readonly results = new Map<Actor, unknown[]>();
  private readonly clientThreads = new Map<string, Actor[]>();
  /** the frame of the last stateAt answer, private to this class (answers are materialized copies) */
  private cursor: { frame: Frame; index: number; delta: number } | null = null;
  /** the resource's value before any write (lost updates are counted against it) */
  private readonly initialValue: number;
  /**
   * server-side owner id (hash field or naive token) -> the thread that named it, and the index
   * of the event that did (a state shows only what was known by then: stateAt(i) depends on
   * events 0..i alone)
   */
  private readonly ownerThread = new Map<string, { actor: Actor; index: number }>();
  /** Redisson client uuid -> client id, and when it was learnt */
  private readonly uuidClient = new Map<string, { client: string; index: number }>();
  /**
   * "<actor> <lock>" -> the key and hash field holding that thread's holds of that lock (learnt
   * at its first request; a thread's owner id and a lock's key never change within a run)
   */
  private readonly holdField = new Map<string, { key: string; field: string }>();
  /** the hold and call records the threads' records share */
  private readonly parts = new ThreadParts();

  constructor(init: TimelineInit) {
    this.initialValue = init.resource.value;
    const nodes = new Map<string, NodeRec>();
    for (const n of init.nodes) nodes.set(n.id, { role: n.role, up: true, keys: new Map(), subs: new Map() });
    const threads = ThreadTable.of(init.threads, () => ({ state: 'idle', holds: this.parts.none, nResults: 0 }));
    for (const a of init.threads) {
      this.results.set(a, []);
      const client = clientOf(a);
      const list = this.clientThreads.get(client);
      if (list) list.push(a);
      else this.clientThreads.set(client, [a]);
    }
    this.live = { t: 0, nodes, threads, resource: { ...init.resource } };
    this.checkpoints.push(copyFrame(this.live));
    this.checkpointIndex.push(0);
    this.checkpointDelta.push(0);
  }

  get length(): number {
    return this.events.length;
  }

  /** Appends event `ev` (its index is the next one) and folds it into the live state. */
  push(ev: TraceEvent): void {
    const index = this.events.length;
    if (index === this.nextCheckpoint) {
      this.checkpoints.push(copyFrame(this.live));
      this.checkpointIndex.push(index);
      this.checkpointDelta.push(this.dIndex.length);
      this.nextCheckpoint = index + checkpointSpacing(this.live);
    }
    this.events.push(ev);
    if (ev.kind === 'thread.result' && ev.actor !== undefined) this.results.get(ev.actor)?.push(ev.result);
    if ((ev.kind === 'lock.request' || ev.kind === 'lock.acquired') && typeof ev.owner === 'string')
      this.learnOwner(ev.owner, ev.actor);
    if (ev.kind === 'lock.request' && ev.owner !== undefined && COUNTED_IN_ONE_FIELD.has(ev.type))
      this.holdField.set(`${ev.actor} ${ev.lock}`, { key: ev.key ?? ev.lock, field: ev.owner });
    this.apply(this.live, ev);
  }

  /** Records that, as part of the last pushed event, `key` on `node` became `view` (null: deleted). */
  setKey(node: string, key: string, view: KeyView | null): void {
    this.dIndex.push(this.events.length - 1);
    this.dNode.push(node);
    this.dKey.push(key);
    this.dView.push(view);
    applyKey(this.live, node, key, view);
  }

  /** Records that every key of `node` is gone, as part of the last pushed event. */
  clearNode(node: string): void {
    this.dIndex.push(this.events.length - 1);
    this.dNode.push(node);
    this.dKey.push(null);
    this.dView.push(null);
    applyKey(this.live, node, null, null);
  }

  /** The current (latest) view of a key, for the checkers. */
  liveKey(node: string, key: string): KeyView | undefined {
    return this.live.nodes.get(node)?.keys.get(key);
  }

  liveKeyNames(node: string): Iterable<string> {
    return this.live.nodes.get(node)?.keys.keys() ?? [];
  }

  liveThreadState(actor: Actor): ThreadState | undefined {
    return this.live.threads.get(actor)?.state;
  }

  /** Everything visible right after event `index` (-1: before the first event). */
  stateAt(index: number): VisibleState {
    const last = this.events.length - 1;
    const i = Math.max(-1, Math.min(Math.trunc(index), last));
    let frame: Frame;
    let from: number;
    let d: number;
    const c = this.cursor;
    if (c !== null && c.index <= i && i - c.index <= CHECKPOINT_EVERY) {
      // Scrubbing forward (the timeline sweeps every ms): go on from the previous answer.
      frame = c.frame;
      from = c.index + 1;
      d = c.delta;
      while (d < this.dIndex.length && this.dIndex[d] <= c.index) {
        applyKey(frame, this.dNode[d], this.dKey[d], this.dView[d]);
        d++;
      }
    } else {
      // The checkpoint for a full block is taken when the next block's first event arrives.
      const k = this.checkpointBefore(i + 1);
      frame = copyFrame(this.checkpoints[k]);
      from = this.checkpointIndex[k];
      d = this.checkpointDelta[k];
    }
    for (let j = from; j <= i; j++) {
      this.apply(frame, this.events[j]);
      while (d < this.dIndex.length && this.dIndex[d] === j) {
        applyKey(frame, this.dNode[d], this.dKey[d], this.dView[d]);
        d++;
      }
    }
    this.cursor = { frame, index: i, delta: d };
    return this.materialize(frame, i);
  }

  /**
   * A forward-only reader of the run: `at(index)` shows what `stateAt(index)` would, moving one
   * frame along the events instead of copying a whole state per call. For a reader of the whole
   * run (the timeline's lanes stop at every ms): for 100 threads the copy is most of the cost.
   * The frame it returns is valid until the next call.
   */
  sweep(): (index: number) => FrameReader {
    const f = copyFrame(this.checkpoints[0]);
    let index = -1;
    let d = 0;
    let leases: ReadonlyMap<Actor, string[]> | null = null;
    const leasesNow = () => (leases ??= this.partialLeases(f, index));
    const seen = new Map<Actor, ThreadRec>();
    // The threads an event since the last `changed` may have moved: its actor, a client event's
    // threads (`apply` changes no other). null: all of them, the first time.
    let touched: Set<Actor> | null = null;
    let leased: Actor[] = [];
    // The keys a delta set or deleted since each node's last `changedKeys`; a node in `allKeys`
    // has had no call yet, or lost its whole keyspace since.
    const touchedKeys = new Map<string, Set<string>>();
    const allKeys = new Set<string>(f.nodes.keys());
    const reader: FrameReader = {
      thread: (actor) => {
        const r = f.threads.get(actor);
        if (r === undefined) return undefined;
        const l = leasesNow().get(actor);
        const v = this.threadView(actor, r);
        return l === undefined ? v : Object.freeze({ ...v, leases: l.sort() });
      },
      lane: (actor) => {
        const r = f.threads.get(actor);
        if (r === undefined) return undefined;
        const l = leasesNow().get(actor);
        return l === undefined ? r : { state: r.state, holds: r.holds, leases: l.sort() };
      },
      node: (id) => f.nodes.get(id),
      changed: () => {
        const out: Actor[] = [];
        for (const a of touched ?? f.threads.keys()) {
          const r = f.threads.get(a);
          if (r !== undefined && seen.get(a) !== r) {
            seen.set(a, r);
            out.push(a);
          }
        }
        touched = new Set();
        // Leases follow the keys, not the thread's record: who has them now, or had them.
        const now = leasesNow();
        for (const a of leased) if (!now.has(a)) out.push(a);
        leased = [...now.keys()];
        out.push(...leased);
        return out;
      },
      changedKeys: (id) => {
        const keys = touchedKeys.get(id);
        touchedKeys.set(id, new Set());
        if (allKeys.delete(id)) return null;
        return keys ?? new Set();
      },
    };
    return (to) => {
      const i = Math.min(Math.trunc(to), this.events.length - 1);
      if (i < index) throw new Error(`sweep: ${i} is behind ${index}`);
      for (let j = index + 1; j <= i; j++) {
        const ev = this.events[j];
        if (touched !== null) {
          if (ev.actor !== undefined) touched.add(ev.actor);
          if (ev.kind === 'client.pause' || ev.kind === 'client.resume' || ev.kind === 'client.crash')
            for (const a of this.clientThreads.get(ev.client) ?? []) touched.add(a);
        }
        this.apply(f, ev);
        while (d < this.dIndex.length && this.dIndex[d] === j) {
          const node = this.dNode[d];
          const key = this.dKey[d];
          applyKey(f, node, key, this.dView[d]);
          if (key === null) allKeys.add(node);
          else touchedKeys.get(node)?.add(key);
          d++;
        }
      }
      index = i;
      leases = null;
      return reader;
    };
  }

  /** The last checkpoint taken before event `next` (it includes every event before `next`). */
  private checkpointBefore(next: number): number {
    const at = this.checkpointIndex;
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= next) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private learnOwner(owner: string, actor: Actor | undefined): void {
    if (actor === undefined || this.ownerThread.has(owner)) return;
    const index = this.events.length - 1;
    this.ownerThread.set(owner, { actor, index });
    const m = REDISSON_OWNER.exec(owner);
    if (m !== null && `${clientOf(actor)}:${m[2]}` === actor && !this.uuidClient.has(m[1]))
      this.uuidClient.set(m[1], { client: clientOf(actor), index });
  }

  /** The thread a server-side owner id names, if a thread named it (or its client's uuid) by event `index`. */
  private threadOfOwner(owner: string, index: number): Actor | undefined {
    const a = this.ownerThread.get(owner);
    if (a !== undefined && a.index <= index) return a.actor;
    const m = REDISSON_OWNER.exec(owner);
    const c = m === null ? undefined : this.uuidClient.get(m[1]);
    return c === undefined || c.index > index ? undefined : `${c.client}:${m![2]}`;
  }

  /**
   * Lock keys on masters whose owner is a thread that believes it holds nothing and is acquiring
   * another lock (the parts a MultiLock or RedLock holds while it still waits for the rest).
   */
  private partialLeases(f: Frame, index: number): ReadonlyMap<Actor, string[]> {
    if (this.ownerThread.size === 0) return NO_LEASES;
    // A lease needs a candidate thread (hasPartialCandidate) and a key naming it: whichever is
    // fewer is looked at first. contention-100 has one key and 100 threads, the scale scenario
    // 10,000 keys; skipping the candidates' check changes nothing, a key walk finds only them.
    let keys = 0;
    for (const n of f.nodes.values()) if (n.role === 'master' && n.up) keys += n.keys.size;
    if (keys === 0 || (keys > f.threads.size && !hasPartialCandidate(f))) return NO_LEASES;
    // The lanes' sweep asks at nearly every moment of a run with waiters (contention-100: every
    // ms), and nearly every answer is empty: no map until a lease is found, no owners' array per key.
    let out: Map<Actor, string[]> | null = null;
    for (const n of f.nodes.values()) {
      if (n.role !== 'master' || !n.up) continue;
      for (const [key, k] of n.keys) {
        if (k.type === 'string') out = this.leaseOf(f, index, key, k.value as string, out);
        else if (k.type === 'hash')
          for (const field of k.value as [string, string][]) out = this.leaseOf(f, index, key, field[0], out);
      }
    }
    return out ?? NO_LEASES;
  }

  /** `out` with `key` added to owner `o`'s leases when it is one (partialLeases); `out` made when first needed. */
  private leaseOf(
    f: Frame,
    index: number,
    key: string,
    o: string,
    out: Map<Actor, string[]> | null,
  ): Map<Actor, string[]> | null {
    const a = this.threadOfOwner(o, index);
    const r = a === undefined ? undefined : f.threads.get(a);
    if (r === undefined || r.state === 'done' || r.state === 'crashed') return out;
    // Only while acquiring a lock made of other keys (MultiLock, RedLock): the key of the
    // lock being acquired itself is simply the acquire's reply on its way back.
    if (r.requesting === undefined || r.requesting === key || !noHolds(r.holds)) return out;
    out ??= new Map();
    const list = out.get(a!);
    if (list === undefined) out.set(a!, [key]);
    else if (!list.includes(key)) list.push(key);
    return out;
  }

  private materialize(f: Frame, index: number): VisibleState {
    const nodes: Record<string, NodeView> = {};
    for (const [id, n] of f.nodes) {
      const keys = Object.create(null) as Record<string, KeyView>;
      for (const key of [...n.keys.keys()].sort(byteOrder)) keys[key] = n.keys.get(key)!;
      const view: NodeView = { role: n.role, up: n.up, keys };
      if (n.subs.size) {
        const subs = Object.create(null) as Record<string, string[]>;
        for (const ch of [...n.subs.keys()].sort(byteOrder)) subs[ch] = n.subs.get(ch)!.slice();
        view.subscriptions = subs;
        const kinds = n.subKinds;
        if (kinds?.size) {
          const of = (k: string) => Object.keys(subs).filter((ch) => kinds.get(ch) === k);
          if (of('shard').length) view.shardChannels = of('shard');
          if (of('pattern').length) view.patterns = of('pattern');
        }
      }
      nodes[id] = view;
    }
    const threads: Record<Actor, ThreadView> = {};
    const leases = this.partialLeases(f, index);
    for (const [actor, r] of f.threads) {
      const l = leases.get(actor);
      const replying = this.replying(f, actor, r);
      threads[actor] =
        l === undefined && replying === undefined
          ? this.threadView(actor, r)
          : Object.freeze({
              ...this.threadView(actor, r),
              ...(l === undefined ? {} : { leases: l.sort() }),
              ...(replying === undefined ? {} : { replying }),
            });
    }
    return { t: f.t, nodes, threads, resource: { ...f.resource } };
  }

  /**
   * A call Redis has answered whose reply has not reached the thread yet: Redis's count of the
   * thread's holds, when it differs from what the thread believes. Without it the Threads table
   * reads one event behind the keyspace at every lock or unlock reply (the keyspace shows the new
   * count at the command, the thread learns it a latency later).
   */
  private replying(f: Frame, actor: Actor, r: ThreadRec): ThreadView['replying'] {
    const call = r.call;
    if (call === undefined || !call.answered || r.state === 'crashed') return undefined;
    const where = this.holdField.get(`${actor} ${call.lock}`);
    if (where === undefined) return undefined;
    let holds = 0;
    for (const n of f.nodes.values()) {
      const k = n.role === 'master' && n.up ? n.keys.get(where.key) : undefined;
      if (k?.type !== 'hash') continue;
      const field = (k.value as [string, string][]).find(([name]) => name === where.field);
      if (field !== undefined) holds = Math.max(holds, Number(field[1]));
    }
    return holds === (r.holds[call.lock] ?? 0) ? undefined : { lock: call.lock, holds };
  }

  /**
   * A thread record never changes once made, so its view is built once and shared by every state
   * that shows it (frozen: a caller cannot change another moment's state through it). This is
   * what keeps a sweep over every ms of a long run cheap.
   */
  private threadView(actor: Actor, r: ThreadRec): ThreadView {
    let v = r.view;
    if (v === undefined) {
      const tv: ThreadView = {
        state: r.state,
        holds: Object.freeze({ ...r.holds }),
        results: Object.freeze(this.results.get(actor)!.slice(0, r.nResults)) as unknown[],
      };
      if (r.step !== undefined) tv.step = r.step;
      v = Object.freeze(tv);
      r.view = v;
    }
    return v;
  }

  private apply(f: Frame, ev: TraceEvent): void {
    f.t = ev.t;
    const actor = ev.actor;
    switch (ev.kind) {
      case 'cmd':
        applySubscription(f, ev);
        // a thread's own command: its call may now be answered (threadAfter)
        break;
      case 'conn.close':
        dropSubscriber(f, ev.node, ev.conn);
        return;
      case 'node.role': {
        const n = f.nodes.get(ev.node);
        if (n) {
          n.role = ev.role;
          // CLIENT KILL went with it: no subscriber is left.
          n.subs = new Map();
        }
        return;
      }
      case 'node.crash':
      case 'node.restart': {
        const n = f.nodes.get(ev.node);
        if (n) {
          n.up = ev.kind === 'node.restart';
          n.subs = new Map();
        }
        return;
      }
      case 'resource.use': {
        const r = f.resource;
        const token = ev.token ?? undefined;
        f.resource = {
          value: ev.value,
          accepted: r.accepted + (ev.accepted ? 1 : 0),
          rejected: r.rejected + (ev.accepted ? 0 : 1),
        };
        const lastToken =
          ev.accepted && token !== undefined ? Math.max(token, r.lastToken ?? token) : r.lastToken;
        if (lastToken !== undefined) f.resource.lastToken = lastToken;
        const lost = lostWrites(this.initialValue, f.resource);
        if (lost > 0) f.resource.lost = lost;
        break;
      }
      case 'client.pause':
      case 'client.resume':
      case 'client.crash':
        this.applyClient(f, ev);
        return;
    }
    if (actor === undefined) return;
    const rec = f.threads.get(actor);
    if (rec === undefined) return;
    const next = threadAfter(rec, ev, this.parts);
    if (next !== rec) f.threads.set(actor, next);
  }

  private applyClient(f: Frame, ev: TraceEventOf<'client.pause' | 'client.resume' | 'client.crash'>): void {
    for (const a of this.clientThreads.get(ev.client) ?? []) {
      const r = f.threads.get(a)!;
      let next: ThreadRec = r;
      // Built field by field: a spread would copy the cached view of the old record.
      const rec = (state: ThreadState, holds: ThreadRec['holds'], beforePause?: ThreadState): ThreadRec => ({
        state,
        holds,
        nResults: r.nResults,
        step: r.step,
        beforePause,
        requesting: r.requesting,
        call: r.call,
      });
      if (ev.kind === 'client.crash') next = rec('crashed', this.parts.none);
      else if (ev.kind === 'client.pause') {
        if (r.state !== 'done' && r.state !== 'crashed' && r.state !== 'paused')
          next = rec('paused', r.holds, r.state);
      } else if (r.state === 'paused') next = rec(r.beforePause ?? 'running', r.holds);
      f.threads.set(a, next);
    }
  }
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
