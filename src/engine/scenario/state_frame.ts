/**
 * The frame a StateTimeline folds events into (state.ts): its records, the changes key deltas and
 * subscriptions make to it, its copies and how far apart checkpoints of it are. Everything a frame
 * holds is immutable (KeyViews, thread records), so a copy copies maps of references.
 */
import type {
  Actor,
  KeyView,
  NodeView,
  ResourceView,
  ThreadState,
  ThreadView,
  TraceEventOf,
} from '../trace/types';

export const CHECKPOINT_EVERY = 64;

/**
 * Events from one checkpoint to the next: CHECKPOINT_EVERY, or half the frame's entries (threads
 * and keys) when that is more, so a checkpoint's copy costs about as much per event as the replay
 * `stateAt` does from it. At a fixed 64, a run holding 10,000 locks copied a 10,000-key map every
 * 64 events: most of its time and nearly all of its memory. Every built-in stays at 64.
 */
export function checkpointSpacing(f: Frame): number {
  let entries = f.threads.size;
  for (const n of f.nodes.values()) entries += n.keys.size;
  return Math.max(CHECKPOINT_EVERY, Math.ceil(entries / 2));
}

export interface NodeRec {
  role: NodeView['role'];
  up: boolean;
  keys: Map<string, KeyView>;
  /** channel -> subscriber connection labels, in subscription order */
  subs: Map<string, readonly string[]>;
  /** the names in `subs` subscribed by SSUBSCRIBE or PSUBSCRIBE (absent: SUBSCRIBE) */
  subKinds?: ReadonlyMap<string, SubKind>;
}

/** How a name in `NodeRec.subs` was subscribed, when not by SUBSCRIBE: PUBSUB counts each apart. */
export type SubKind = 'shard' | 'pattern';
const SUB_KIND: Record<string, SubKind | undefined> = { ssubscribe: 'shard', psubscribe: 'pattern' };

export interface ThreadRec {
  readonly state: ThreadState;
  readonly holds: Readonly<Record<string, number>>;
  readonly nResults: number;
  readonly step?: number;
  /** the state to return to when a pause ends */
  readonly beforePause?: ThreadState;
  /** the lock of an acquire in progress (lock.request until its outcome) */
  readonly requesting?: string;
  /**
   * a lock or unlock call in progress (its request until its outcome); `answered` once a command
   * of it has run on a node, so Redis may count holds the thread does not know of yet
   */
  readonly call?: { readonly lock: string; readonly answered: boolean };
  /** its view, built on first use (the record itself never changes) */
  view?: ThreadView;
}

export interface Frame {
  t: number;
  nodes: Map<string, NodeRec>;
  threads: ThreadTable;
  resource: ResourceView;
}

/**
 * The thread records of a frame: a Map's reads over an array that every copy of the frame shares
 * the index of. A run's threads are all known at the start and never change, so a checkpoint
 * copies an array of references (a copy of a 100-entry Map, every 64 events, was most of what
 * the checkpoints of `contention-100` cost).
 */
export class ThreadTable {
  private constructor(
    private readonly index: ReadonlyMap<Actor, number>,
    private readonly recs: ThreadRec[],
  ) {}

  /** Every actor with a first record of its own, in the order given (a repeated actor keeps its first place). */
  static of(actors: readonly Actor[], first: () => ThreadRec): ThreadTable {
    const index = new Map<Actor, number>();
    const recs: ThreadRec[] = [];
    for (const a of actors)
      if (!index.has(a)) {
        index.set(a, recs.length);
        recs.push(first());
      }
    return new ThreadTable(index, recs);
  }

  get size(): number {
    return this.recs.length;
  }

  get(actor: Actor): ThreadRec | undefined {
    const i = this.index.get(actor);
    return i === undefined ? undefined : this.recs[i];
  }

  /** Only the actors the table was made with have a place. */
  set(actor: Actor, rec: ThreadRec): void {
    const i = this.index.get(actor);
    if (i === undefined) throw new Error(`no thread ${actor} in this run`);
    this.recs[i] = rec;
  }

  keys(): IterableIterator<Actor> {
    return this.index.keys();
  }

  values(): IterableIterator<ThreadRec> {
    return this.recs.values();
  }

  *[Symbol.iterator](): IterableIterator<[Actor, ThreadRec]> {
    for (const [a, i] of this.index) yield [a, this.recs[i]];
  }

  copy(): ThreadTable {
    return new ThreadTable(this.index, this.recs.slice());
  }
}

/** A node as a sweep over the run sees it: read in place, valid only during the visit. */
export interface NodeFrame {
  readonly role: NodeView['role'];
  readonly up: boolean;
  readonly keys: ReadonlyMap<string, KeyView>;
}

/**
 * One moment of a sweep (`StateTimeline.sweep`): what `stateAt` would show there, read on demand
 * instead of copied whole. A thread's view is the very object `stateAt` shares while the thread
 * is unchanged, so a reader can skip it by identity.
 */
export interface FrameReader {
  thread(actor: Actor): ThreadView | undefined;
  node(id: string): NodeFrame | undefined;
  /**
   * The threads whose view may differ from the one `thread` gave at the previous call of
   * `changed` (every thread the first time): a reader of 100 threads looks at the few that moved.
   */
  changed(): Actor[];
  /**
   * The keys of node `id` whose view may differ from the one `node(id)` showed at the previous
   * call for that node; null: look at every key (the first call, or the node's keyspace was
   * cleared since). A reader of 10,000 locks looks at the few a moment touched. Optional: a
   * reader built from a whole state has no history.
   */
  changedKeys?(id: string): ReadonlySet<string> | null;
  /**
   * What `thread` shows of a thread's state, holds and leases, without building its whole view
   * (its results copied, frozen): the same object while the thread is unchanged, as `thread`'s
   * view is. Optional: the timeline's lanes read only these, at every ms of a long run.
   */
  lane?(actor: Actor): ThreadLaneView | undefined;
}

/** The part of a ThreadView the timeline's lanes read (FrameReader.lane). */
export type ThreadLaneView = Pick<ThreadView, 'state' | 'leases'> & {
  readonly holds: Readonly<Record<string, number>>;
};

const SUBSCRIBE = new Set(['subscribe', 'ssubscribe', 'psubscribe']);
const UNSUBSCRIBE = new Set(['unsubscribe', 'sunsubscribe', 'punsubscribe']);
export function applyKey(f: Frame, node: string, key: string | null, view: KeyView | null): void {
  const n = f.nodes.get(node);
  if (n === undefined) return;
  if (key === null) n.keys = new Map();
  else if (view === null) n.keys.delete(key);
  else n.keys.set(key, view);
}

export function applySubscription(f: Frame, ev: TraceEventOf<'cmd'>): void {
  const argv = ev.argv;
  if (argv.length === 0) return;
  // Cheap filter first: this runs for every command of a run.
  const c = argv[0].charCodeAt(0) | 32;
  if (c !== 0x73 && c !== 0x75 && c !== 0x70) return; // s, u, p
  const name = argv[0].toLowerCase();
  const sub = SUBSCRIBE.has(name);
  if (!sub && !UNSUBSCRIBE.has(name)) return;
  const reply = ev.reply;
  if (reply !== null && typeof reply === 'object' && 'error' in reply) return;
  const n = f.nodes.get(ev.node)!;
  const label = ev.conn;
  if (!sub && argv.length === 1) {
    dropSubscriber(f, ev.node, label);
    return;
  }
  const subs = new Map(n.subs);
  for (let i = 1; i < argv.length; i++) {
    const list = subs.get(argv[i]) ?? [];
    if (sub) {
      if (!list.includes(label)) subs.set(argv[i], [...list, label]);
    } else {
      const rest = list.filter((l) => l !== label);
      if (rest.length) subs.set(argv[i], rest);
      else subs.delete(argv[i]);
    }
  }
  n.subs = subs;
  // how each name was subscribed (SUBSCRIBE: no entry), kept only while someone is subscribed
  const kind = sub ? SUB_KIND[name] : undefined;
  if (kind !== undefined || n.subKinds?.size) {
    const kinds = new Map(n.subKinds);
    for (let i = 1; i < argv.length; i++)
      if (kind !== undefined) kinds.set(argv[i], kind);
      else if (sub || !subs.has(argv[i])) kinds.delete(argv[i]);
    n.subKinds = kinds;
  }
}

export function dropSubscriber(f: Frame, node: string, label: string): void {
  const n = f.nodes.get(node);
  if (!n || n.subs.size === 0) return;
  const subs = new Map<string, readonly string[]>();
  for (const [ch, list] of n.subs) {
    const rest = list.filter((l) => l !== label);
    if (rest.length) subs.set(ch, rest);
  }
  n.subs = subs;
}

/**
 * Whether any thread could hold a partial lease (see partialLeases): acquiring, holding nothing,
 * alive. Most moments have none, and then the walk over every key of every master is skipped.
 */
export function hasPartialCandidate(f: Frame): boolean {
  for (const r of f.threads.values())
    if (r.requesting !== undefined && r.state !== 'done' && r.state !== 'crashed' && noHolds(r.holds))
      return true;
  return false;
}

export function noHolds(holds: Readonly<Record<string, number>>): boolean {
  for (const _ in holds) return false;
  return true;
}

export function copyFrame(f: Frame): Frame {
  const nodes = new Map<string, NodeRec>();
  for (const [id, n] of f.nodes)
    nodes.set(id, { role: n.role, up: n.up, keys: new Map(n.keys), subs: n.subs, subKinds: n.subKinds });
  return { t: f.t, nodes, threads: f.threads.copy(), resource: f.resource };
}
