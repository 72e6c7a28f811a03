/**
 * The trace: the one API between the engine and everything that reads it (timeline, inspectors,
 * lessons, CLI, tests). Field names follow docs/trace-format.md; extend, never rename.
 */

/** `"<client>:<thread>"` for threads, node ids (`master`, `replica-1`, `sentinel-1`) for nodes. */
export type Actor = string;

/**
 * Event kinds. The fields each carries (besides t, seq, kind; `actor` as noted):
 *
 * Recorded by the kernel (sim/kernel.ts):
 *   cmd               actor (the calling process), node, conn (connection label), argv, reply
 *                     (compact JSON, sim/reply_json.ts). Events a command causes on its node
 *                     (lazy key.expired, pubsub.publish, script.*) come just before its cmd.
 *   script.line       actor = node, node, sha, line                    (verbose runs only)
 *   script.call       actor = node, node, sha, argv, reply             (verbose runs only)
 *   script.log        actor = node, node, level, message
 *   pubsub.publish    actor = node, node, channel, message, receivers
 *   pubsub.deliver    actor = client id, node, conn, channel, message
 *   key.expired       actor = node, node, key, how ('lazy' | 'active')
 *   conn.close        actor = client id, node, conn                    (the node dropped it)
 *   client.crash / client.pause (ms) / client.resume    actor = client id, client
 *   node.crash / node.restart / node.clock (jumpMs, offset)             actor = node, node
 *   net.partition (groups) / net.heal
 *   wait.result       actor (the calling process), node, acked        (after WAIT's cmd)
 * Recorded by the topology (topology/**):
 *   repl.apply        actor = replica, node, replica, master, offset   (a stream item applied)
 *   repl.sync         actor = replica, node, replica, master, offset   (full resync: data replaced)
 *   sentinel.sdown / sentinel.odown (agree, quorum)    actor = Sentinel, sentinel, node = master
 *   sentinel.leader   actor = Sentinel, sentinel, node = master, epoch, votes
 *   node.role         actor = node, node, role, master?, by (REPLICAOF sent by a Sentinel)
 *   failover.promote  actor = Sentinel, sentinel, node = new master, from, epoch
 *   client.master     actor = client id, client, node (the client now talks to this master)
 * Recorded by the runner: thread.interrupt (actor). By the safety monitor (check/monitor.ts):
 *   violation.start / violation.end   violation ('V1' | 'V2' | 'V3' | 'L1'), lock, holders
 * The client side's events and fields are listed in sim/api.ts.
 */
export type EventKind =
  | 'cmd'
  | 'script.line'
  | 'script.call'
  | 'script.log'
  | 'lock.request'
  | 'lock.acquired'
  | 'lock.wait'
  | 'lock.failed'
  | 'unlock.request'
  | 'lock.released'
  | 'lock.error'
  | 'watchdog.renew'
  | 'watchdog.cancel'
  | 'pubsub.subscribe'
  | 'pubsub.unsubscribe'
  | 'pubsub.publish'
  | 'pubsub.deliver'
  | 'waiter.wakeup'
  | 'key.expired'
  | 'repl.apply'
  | 'wait.result'
  | 'node.crash'
  | 'node.restart'
  | 'sentinel.sdown'
  | 'sentinel.odown'
  | 'failover.promote'
  | 'node.clock'
  | 'conn.close'
  | 'client.crash'
  | 'client.pause'
  | 'client.resume'
  | 'thread.start'
  | 'thread.done'
  | 'thread.interrupt'
  | 'thread.result'
  | 'exception.caught'
  | 'work.start'
  | 'work.end'
  | 'net.partition'
  | 'net.heal'
  | 'resource.use'
  | 'violation.start'
  | 'violation.end'
  // topology/** (replication links, Sentinel, client discovery)
  | 'repl.sync'
  | 'node.role'
  | 'sentinel.leader'
  | 'client.master';

/**
 * Every member of `EventKind`, for readers that need the kinds at run time (the trace-format doc
 * test checks docs/trace-format.md documents exactly these).
 */
export const EVENT_KINDS = [
  'cmd',
  'script.line',
  'script.call',
  'script.log',
  'lock.request',
  'lock.acquired',
  'lock.wait',
  'lock.failed',
  'unlock.request',
  'lock.released',
  'lock.error',
  'watchdog.renew',
  'watchdog.cancel',
  'pubsub.subscribe',
  'pubsub.unsubscribe',
  'pubsub.publish',
  'pubsub.deliver',
  'waiter.wakeup',
  'key.expired',
  'repl.apply',
  'wait.result',
  'node.crash',
  'node.restart',
  'sentinel.sdown',
  'sentinel.odown',
  'failover.promote',
  'node.clock',
  'conn.close',
  'client.crash',
  'client.pause',
  'client.resume',
  'thread.start',
  'thread.done',
  'thread.interrupt',
  'thread.result',
  'exception.caught',
  'work.start',
  'work.end',
  'net.partition',
  'net.heal',
  'resource.use',
  'violation.start',
  'violation.end',
  'repl.sync',
  'node.role',
  'sentinel.leader',
  'client.master',
] as const satisfies readonly EventKind[];

// `satisfies` stops extra entries; this stops a kind added to the union but not to the array (the
// error names the missing kind).
type MissingEventKinds = Exclude<EventKind, (typeof EVENT_KINDS)[number]>;
const _everyEventKindListed: [MissingEventKinds] extends [never] ? true : MissingEventKinds = true;

/**
 * One thing that happened. `t` is virtual ms, `seq` the global order (ties in `t` are common).
 * Besides the fixed fields, an event carries the details its kind documents in docs/trace-format.md
 * (e.g. `cmd`: node, argv, reply; `lock.acquired`: lock, holdCount; `waiter.wakeup`: cause).
 */
export interface TraceEvent {
  t: number;
  seq: number;
  kind: EventKind;
  actor?: Actor;
  lock?: string;
  node?: string;
  [detail: string]: unknown;
}

/** V1–V3 are safety violations; L1 is liveness (a stuck lock: waiters that can never get it). */
export type ViolationKind = 'V1' | 'V2' | 'V3' | 'L1';

/** The kinds that make a run unsafe; the others (L1) make it stuck. */
export const SAFETY_KINDS: readonly ViolationKind[] = ['V1', 'V2', 'V3'];

/**
 * The `lock` of a V3 whose writer held no lock at all (its write lost someone's update or will be
 * lost to a read-modify-write in progress, e.g. stock-oversell-no-lock).
 */
export const NO_LOCK = '(none)';

/**
 * A violation (docs/trace-format.md, "Violations"):
 *   V1  two threads each believe they hold `lock` (holders: them, sorted)
 *   V2  two owners hold live server-side leases of `lock` on nodes some client treats as master
 *       (holders: the threads owning them, sorted)
 *   V3  at one moment (from = to) the resource accepted a write from a holder whose lock was no
 *       longer valid: a newer holder of `lock` had already acted on the resource (a stale token
 *       that fencing should have refused, usually a lost update), or the writer held no lock
 *       (`lock` is NO_LOCK, or a shared read lock) and its write lost someone's update or will be
 *       lost to a read-modify-write in progress (any other lost update counts too: `cause`
 *       'stale' | 'unlocked' | 'lost-update'). holders[0] is the writer; the rest, sorted, are
 *       the threads it wronged: the newer holders that had acted, the writers whose updates it
 *       erased, the uses in progress.
 *   L1  (liveness) threads wait for `lock` while its key has no TTL and every owner it names is
 *       gone (thread ended, client crashed): nothing will ever free it. holders: the gone owners,
 *       then the waiters.
 */
export interface Violation {
  kind: ViolationKind;
  lock: string;
  from: number;
  /** null while still open when the run ended */
  to: number | null;
  holders: Actor[];
  /** V3 only: 'stale' | 'unlocked' | 'lost-update' (check/monitor.ts) */
  cause?: string;
  /** L1 only: the waiting threads (the holders after the gone owners) */
  waiting?: Actor[];
}

export interface KeyView {
  key: string;
  type: 'string' | 'hash' | 'list' | 'zset';
  /** string: the value; hash: [field, value] pairs in Redis order; list: items; zset: [member, score] pairs */
  value: string | [string, string][] | string[];
  /** absolute virtual ms on the node's clock, or null for no TTL */
  expireAt: number | null;
}

export interface NodeView {
  role: 'master' | 'replica' | 'sentinel';
  up: boolean;
  keys: Record<string, KeyView>;
  /** channel -> subscriber connection labels (e.g. "A/pubsub") */
  subscriptions?: Record<string, string[]>;
}

export type ThreadState =
  'idle' | 'running' | 'working' | 'waiting' | 'sleeping' | 'paused' | 'crashed' | 'done';

export interface ThreadView {
  state: ThreadState;
  /** lock name -> hold count this thread believes it has */
  holds: Record<string, number>;
  /** one entry per program step that returns something (tryLock true/false, redis replies, errors) */
  results: unknown[];
  /** index of the program step being executed (flattened), for the script/program view */
  step?: number;
  /**
   * lock keys Redis says this thread owns (a field or value naming it, on a master) while the
   * thread, believing it holds no lock, acquires a lock made of other keys: a MultiLock part-way
   * through acquiring, holding some of its parts; absent when there is none
   */
  leases?: string[];
}

export interface ResourceView {
  value: number;
  accepted: number;
  rejected: number;
  /** fenced resource: the highest token accepted so far */
  lastToken?: number;
  /**
   * accepted writes lost so far: overwritten by a write that had read the value before them
   * (accepted − (value − initial)); absent while none is
   */
  lost?: number;
}

/** Everything visible at one moment: what the inspectors show at the cursor. */
export interface VisibleState {
  t: number;
  nodes: Record<string, NodeView>;
  threads: Record<Actor, ThreadView>;
  resource: ResourceView;
}

export interface Trace {
  format: 'lockscope-trace/1';
  /** 'unsafe' when a safety violation (V1–V3) was found, else 'stuck' when a lock got stuck (L1), else 'safe' */
  verdict: 'safe' | 'unsafe' | 'stuck';
  violations: Violation[];
  events: TraceEvent[];
  final: VisibleState;
  /** set when the run hit the event cap (a runaway program) before its end */
  truncated?: boolean;
}
