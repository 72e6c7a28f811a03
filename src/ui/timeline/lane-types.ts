/**
 * The timeline's view model, its shapes: the lanes, bands, marks and spans that deriveLaneModel
 * (model.ts) builds and the renderer draws, and the small readers of a node lane's roles and slots.
 */
import type { EventKind, TraceEvent, TraceEventOf, ViolationKind } from '../../engine/trace/types';
import type { OwnerNames } from './owners';

export type BandKind = 'running' | 'working' | 'waiting' | 'sleeping' | 'paused' | 'crashed';

export interface Band {
  from: number;
  to: number;
  kind: BandKind;
}

/** A span during which the thread believes it holds a lock `count` times. */
export interface HoldSpan {
  from: number;
  to: number;
  lock: string;
  count: number;
  /** the unlock is sent (the critical section is over) and its reply not back yet */
  releasing?: boolean;
}

/**
 * `renew` / `renew-fail`: one per watchdog renewal attempt (each renew script the watchdog sends,
 * failed when its reply, its WAIT or the client's verdict says so); `error`: tryLock gave up or a
 * lock call threw; `resource`: an accepted write; `refused`: a write the resource refused (a stale
 * fencing token); `poll`: one attempt of a lock that polls instead of waiting for a message (a
 * SpinLock's tries with their back-off, a naive SETNX retry loop); `timeout`: a call of the thread
 * got no reply in time (or could not be written); `late`: a reply that came after that, discarded.
 */
export type MarkKind =
  | 'renew'
  | 'renew-fail'
  | 'wake-message'
  | 'wake-timeout'
  | 'error'
  | 'resource'
  | 'refused'
  | 'poll'
  | 'timeout'
  | 'late'
  | 'sub-timeout';

export interface Mark {
  t: number;
  kind: MarkKind;
  /** event index, for hover and click */
  index: number;
  /** short text beside the mark (a write's fencing token) */
  label?: string;
}

export interface ThreadLane {
  id: string;
  client: string;
  bands: Band[];
  holds: HoldSpan[];
  /** spans where Redis has the thread owning lock keys it does not believe it holds yet (a MultiLock's parts) */
  partial: { from: number; to: number; keys: string }[];
  marks: Mark[];
  /** spans where the thread's client's event loop got no CPU (its I/O held back) */
  starved?: { from: number; to: number }[];
  /** spans where the thread waited for a free slot of its client's pub/sub pool (subscriptions.ts) */
  subWait?: { from: number; to: number }[];
}

/** The lock key on one node between two changes: owner field(s), counter, and its expiry. */
export interface KeySegment {
  key: string;
  /** the key's name for the screen, owners named ("{rw}:A:1:rwlock_timeout:1") */
  name: string;
  from: number;
  to: number;
  /** absolute expiry on the node's clock, null without TTL */
  expireAt: number | null;
  /** "field=count" pairs, short, for the label */
  label: string;
  /** ms of TTL right after the change (for the running-down ramp) */
  ttlAtFrom: number | null;
}

export interface NodeLane {
  id: string;
  role: string;
  down: { from: number; to: number }[];
  roles: { from: number; to: number; role: string }[];
  keys: KeySegment[];
  /** the key names drawn on this lane, in the order of their sub-rows (one sub-row when one key) */
  keyNames: string[];
  /** cluster: the slots this node serves, span by span ("10923-16383"; '' while it serves none) */
  slots?: SlotSpan[];
  /**
   * The keys past MAX_KEY_ROWS, drawn together in one last sub-row instead of one each: how many
   * there are, and how many of them exist from moment to moment (their segments are not in `keys`).
   */
  moreKeys?: { names: number; live: { from: number; to: number; count: number }[] };
  /** spans where the node was busy (a stall: commands queue up) */
  busy?: { from: number; to: number }[];
}

export interface SlotSpan {
  from: number;
  to: number;
  slots: string;
}

/** The slots a cluster node serves at `t` ('' for none), or null outside a cluster run. */
export function slotsAt(lane: NodeLane, t: number): string | null {
  if (!lane.slots) return null;
  let cur = '';
  for (const s of lane.slots) if (s.from <= t) cur = s.slots;
  return cur;
}

/** A node's role at `t`: the span holding `t` (the last one from its start on), else its first. */
export function roleAt(lane: Pick<NodeLane, 'role' | 'roles'>, t: number): string {
  let cur = lane.roles[0]?.role ?? lane.role;
  for (const r of lane.roles) if (r.from <= t) cur = r.role;
  return cur;
}

/** What the Sentinels did: `sdown`/`odown` a master judged down, `leader` elected, `promote` the switch. */
export type SentinelMarkKind = 'sdown' | 'odown' | 'leader' | 'promote' | 'reconfig';

/** The steps of a Sentinel failover and of a cluster's, which the failover lane marks alike. */
export const FAILOVER_MARKS = {
  'sentinel.sdown': 'sdown',
  'sentinel.odown': 'odown',
  'sentinel.leader': 'leader',
  'failover.promote': 'promote',
  'cluster.pfail': 'sdown',
  'cluster.fail': 'odown',
  'cluster.election': 'leader',
  'cluster.promoted': 'promote',
} as const satisfies Partial<Record<EventKind, SentinelMarkKind>>;

/** FAILOVER_MARKS' kinds: the lanes ask for every event of a run (a Set's look-up, not hasOwn's) */
const FAILOVER_KINDS: ReadonlySet<string> = new Set(Object.keys(FAILOVER_MARKS));

export function isFailoverStep(e: TraceEvent): e is TraceEventOf<keyof typeof FAILOVER_MARKS> {
  return FAILOVER_KINDS.has(e.kind);
}

export interface SentinelMark {
  t: number;
  kind: SentinelMarkKind;
  index: number;
  /** the node the mark is about (the master judged down, the replica promoted or reconfigured) */
  node: string;
}

export interface SentinelLane {
  /** who decides a failover: the Sentinels, or a cluster's masters over the cluster bus */
  kind: 'sentinels' | 'cluster';
  ids: string[];
  marks: SentinelMark[];
  /** from the first +sdown to +switch-master (or the end of the run) */
  failovers: { from: number; to: number; promoted: string | null }[];
}

export interface Arrow {
  kind: 'pubsub' | 'repl';
  fromLane: string;
  toLane: string;
  t0: number;
  t1: number;
  index: number;
}

export interface ViolationBand {
  kind: ViolationKind;
  lock: string;
  from: number;
  to: number;
  open: boolean;
  holders: string[];
  /** the lanes to mark when they are not the holders' (V2: the node lanes holding the leases) */
  lanes?: string[];
  /** V3: 'stale' | 'unlocked' | 'lost-update'; L2–L5: their cause (check/liveness.ts) */
  cause?: string;
  /** L1, L2, L5, L7: the waiting threads */
  waiting?: string[];
  /** L4: the server's and the thread's hold counts */
  serverHolds?: number;
  clientHolds?: number;
}

export interface LaneModel {
  tEnd: number;
  threads: ThreadLane[];
  nodes: NodeLane[];
  arrows: Arrow[];
  violations: ViolationBand[];
  /** the Sentinels' lane, when the scenario has Sentinels */
  sentinels: SentinelLane | null;
  /** owner ids ("<uuid>:<thread>") to the threads they are, for labels and tooltips */
  owners: OwnerNames;
  /** cluster runs: the shards, each its master's lane id then its replicas' (`nodes` in this order) */
  shards?: string[][];
  /** shaded spans of network partitions */
  partitions: { from: number; to: number }[];
  /** shaded spans while a latency spike slows links (overlapping spikes make one span) */
  latency: { from: number; to: number }[];
  /** event indices of lock events and violations, for shift+arrow jumps */
  lockEventIndices: number[];
}
