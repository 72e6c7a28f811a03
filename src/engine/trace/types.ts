/**
 * The trace: the one API between the engine and everything that reads it (timeline, inspectors,
 * lessons, CLI, tests). Extend, never rename.
 */

/** `"<client>:<thread>"` for threads, node ids (`master`, `replica-1`, `sentinel-1`) for nodes. */
export type Actor = string;

/** The compact JSON form of a Reply in `cmd` and `script.call` events (sim/reply_json.ts). */
export type ReplyJson =
  string | number | null | { status: string } | { error: string } | { int: string } | ReplyJson[];

/** Any event of a thread may also carry `step`, the index of its program step (flattened). */
interface OfThread {
  actor: Actor;
  step?: number;
}

/** Events on a node's lane: `actor` is the node id (a Sentinel's for sentinel.*). */
interface OnNode {
  actor: Actor;
  node: string;
}

/** Events about one connection of a client (`conn` is its label, e.g. "A/pubsub"). */
interface OnConn {
  actor: Actor;
  node: string;
  conn: string;
}

/**
 * Every event kind and the fields it carries besides t, seq and kind (the JSON keeps this
 * order: fixed fields first, then these as written). Extend, never rename.
 */
export interface TraceEventMap {
  /**
   * A command ran on its node; `actor` is the calling process. Events it caused on the node
   * (lazy key.expired, pubsub.publish, script.*) come just before it.
   */
  cmd: OnConn & { argv: string[]; reply: ReplyJson };
  /**
   * verbose runs only: a script starts (EVAL / EVALSHA, also inside MULTI). `script`: its text,
   * the first time this server runs that sha (a server rebuilt empty after a crash starts over).
   */
  'script.begin': OnNode & { sha: string; keys: string[]; args: string[]; script?: string };
  /** verbose runs only: the script's reply (or its error), before the command's cmd event */
  'script.end': OnNode & { sha: string; reply: ReplyJson };
  /** verbose runs only */
  'script.line': OnNode & { sha: string; line: number };
  /** verbose runs only: a redis.call from the script */
  'script.call': OnNode & { sha: string; argv: string[]; reply: ReplyJson };
  'script.log': OnNode & { level: string; message: string };
  /** after WAIT's cmd */
  'wait.result': OnNode & { acked: number };
  'pubsub.publish': OnNode & { channel: string; message: string; receivers: number };
  /** `actor`: the client that received it; `causeSeq`: the seq of its pubsub.publish */
  'pubsub.deliver': OnConn & { channel: string | null; message: string | null; causeSeq?: number };
  /** `actor`: the thread, or "<client>/pubsub" resubscribing after a lost connection */
  'pubsub.subscribe': OnConn & { channel: string; resubscribe?: true };
  /** `actor`: the last thread to leave */
  'pubsub.unsubscribe': OnConn & { channel: string };
  /**
   * The thread found every slot of the client's pub/sub pool for `node` taken (`used` of
   * `capacity` = subscriptionConnectionPoolSize × subscriptionsPerConnection) and waits for one.
   */
  'pubsub.wait': OnNode & { channel: string; used: number; capacity: number };
  /**
   * A subscribe gave up: `bound` the caller's limit (lock()'s per release, tryLock's wait),
   * `attempts` the pool's retries ("Unable to acquire connection for subscription"), `lock` the
   * channel lock's `timeout` (3.16.8-3.23.x).
   */
  'pubsub.timeout': OnNode & { channel: string; waitedMs: number; reason: 'bound' | 'attempts' | 'lock' };
  'key.expired': OnNode & { key: string; how: 'lazy' | 'active' };
  /** the node dropped the connection */
  'conn.close': OnConn;
  'node.crash': OnNode;
  'node.restart': OnNode;
  'node.clock': OnNode & { jumpMs: number; offset: number };
  /** `reset`: the partition resets the connections it cuts (what crosses it is lost, not held by TCP) */
  'net.partition': { groups: string[][]; reset?: boolean };
  'net.heal': Record<string, never>;
  /** a latency spike began: links touching `endpoints` (every link when null) take `ms` longer one way */
  'net.latency': { ms: number; endpoints: string[] | null };
  /** a latency spike ended; `causeSeq`: the seq of its net.latency */
  'net.latency.end': { causeSeq: number };
  'client.crash': { actor: Actor; client: string };
  'client.pause': { actor: Actor; client: string; ms: number };
  'client.resume': { actor: Actor; client: string };
  /** the client's event loop gets no CPU for `ms` (faults `starve`): its network I/O waits */
  'client.starve': { actor: Actor; client: string; ms: number };
  'client.starve.end': { actor: Actor; client: string };
  /** the node is busy until `until` (fault `stall`): commands queue up, no cron runs */
  'node.stall': OnNode & { ms: number; until: number };
  /**
   * No reply reached the caller within its response timeout (`actor` is the calling process):
   * it goes on with RedisResponseTimeoutException; the command may still have run.
   */
  'call.timeout': OnConn & {
    command: string;
    timeoutMs: number;
    /** the request never left: its starved client could not write it (RedisTimeoutException) */
    notWritten?: true;
  };
  /** The reply to a call that had timed out reached the client and was discarded. */
  'reply.late': OnConn & { command: string; reply: ReplyJson };
  /** the client now talks to this master */
  /** cluster: `slots` the ranges the client now sends to `node`, `from` where they went before */
  'client.master': { actor: Actor; client: string; node: string; slots?: string; from?: string };

  // topology/**: replication links and Sentinel
  /** a stream item applied; `actor` is the replica */
  'repl.apply': OnNode & { replica: string; master: string; offset: number };
  /** full resync: the replica's data replaced */
  'repl.sync': OnNode & { replica: string; master: string; offset: number };
  /** `node` is the master */
  'sentinel.sdown': OnNode & { sentinel: string };
  'sentinel.odown': OnNode & { sentinel: string; agree: number; quorum: number };
  'sentinel.leader': OnNode & { sentinel: string; epoch: number; votes: number };
  /** `node` is the new master */
  'failover.promote': OnNode & { sentinel: string; from: string; epoch: number };
  /** `by`: the Sentinel that sent REPLICAOF (cluster: the node whose configuration it follows) */
  'node.role': OnNode & { role: 'master' | 'replica'; master?: string; by: string };
  /** cluster (topology/cluster.ts): `actor` the observer, `node` the node it no longer hears */
  'cluster.pfail': OnNode & { observer: string };
  /** `reports`: masters (the observer included) flagging the node; `quorum`: a majority of the masters */
  'cluster.fail': OnNode & { observer: string; reports: number; quorum: number };
  /** a replica of a FAIL master schedules its election `delayMs` from now */
  'cluster.election': OnNode & { master: string; rank: number; offset: number; delayMs: number };
  /** `node` (a master) votes for `replica` in `epoch` */
  'cluster.vote': OnNode & { replica: string; epoch: number };
  /** `node` won the election and took `from`'s slots, `epoch` its new configEpoch */
  'cluster.promoted': OnNode & { from: string; epoch: number; votes: number; slots: string };
  /** cluster_state as `node` sees it ('fail': CLUSTERDOWN) */
  'cluster.state': OnNode & { state: 'ok' | 'fail' };

  // the client side (scenario/program.ts, redisson/**, naive/**, resource/**)
  'thread.start': OfThread;
  /**
   * How the thread's program ended: `outcome` 'normal', or 'exception' with the uncaught exception's
   * Java class (qualified) and message.
   */
  'thread.done': OfThread & { outcome: 'normal' | 'exception'; exception?: string; message?: string };
  /** by the runner, from an `interrupt` fault */
  'thread.interrupt': { actor: Actor };
  /**
   * Future.cancel() on the acquire the thread waits for (fault `cancel`); `acquiring`: it was
   * waiting for one (else the cancel found nothing to cancel)
   */
  'thread.cancel': { actor: Actor; acquiring: boolean };
  /** the program goes on running on thread `thread` of its client (op `continueOn`) */
  'thread.continue': OfThread & { thread: number };
  /** one per step that returns something (a JSON value: true/false, a reply, {error}) */
  'thread.result': OfThread & { result: unknown };
  /** a `try` op caught an exception (emitted before its `catch` block runs) */
  'exception.caught': OfThread & { exception: string; message: string };
  /** `critical`: the thread believes it holds a lock (a critical section), else plain work */
  'work.start': OfThread & { ms: number; op: 'work' | 'sleep' | 'use' | 'commit'; critical: boolean };
  'work.end': OfThread;
  /**
   * `op`: 'lock' | 'tryLock' | 'lockInterruptibly'. `owner`/`key` as in lock.acquired (Redisson's
   * family; `key` for a MultiLock / RedLock: its first sub-lock): they let V2 name threads before
   * the acquire's reply is back.
   */
  'lock.request': OfThread & {
    lock: string;
    type: string;
    op: string;
    owner?: string;
    key?: string;
    /** the owners a MultiLock / RedLock over several Redisson instances writes, one per instance */
    owners?: string[];
    /** the call's arguments, when the op gives them */
    waitMs?: number;
    leaseMs?: number;
  };
  /**
   * `waitMs`: how long the latch wait may last (null: until a message). Naive locks and SpinLock
   * have no latch: `polling`, once when polling starts.
   */
  'lock.wait': OfThread & { lock: string; ttl: number | null; waitMs: number | null; polling?: true };
  /**
   * `cause`: 'message' | 'timeout' | 'interrupted'; `causeSeq`: the seq of the pubsub.deliver
   * whose message released the latch permit the waiter took (a 'message' wake-up)
   */
  'waiter.wakeup': OfThread & { lock: string; cause: string; causeSeq?: number };
  /**
   * `owner` is the server-side identity the lock stores (the hash field "<uuid>:<threadId>" of a
   * Redisson lock, the random value of a naive lock); `key` the Redis key holding it when it is
   * not the lock name; `node` the node it was taken on when it is not masterFor(client); `token`
   * the fencing token this acquire got (FencedLock); `validityMs` a RedLock taken with a lease:
   * lease − time of the final PEXPIRE round − drift.
   */
  'lock.acquired': OfThread & {
    lock: string;
    holdCount: number;
    owner: string;
    /** as in lock.request */
    owners?: string[];
    key?: string;
    node?: string;
    token?: number;
    validityMs?: number;
  };
  /** tryLock gave up */
  'lock.failed': OfThread & { lock: string };
  /** holdCount = holds left (0: fully released) */
  /**
   * unlock() / forceUnlock() is called: the critical section ends here (V1 too); `holdCount` is
   * the holds left once the unlock succeeds. lock.released follows the reply.
   */
  'unlock.request': OfThread & { lock: string; type: string; holdCount: number };
  'lock.released': OfThread & { lock: string; holdCount: number };
  /** op 'unlock' ends the hold (IllegalMonitorState) */
  'lock.error': OfThread & { lock: string; op: string; error: string };
  /**
   * On the lane of the thread whose lock it renewed (or the timer's own), `timer` is
   * "<client>/watchdog", or "<client>/renewal" for a set-nx-px-renew lock's renewal thread (no
   * `lockName`); `result` 1 | 0 | 'error'.
   */
  'watchdog.renew': {
    actor: Actor;
    lock: string;
    timer: Actor;
    result: number | 'error';
    lockName?: string;
    error?: string;
  };
  /** `reason`: 'unlock' | 'forceUnlock' | 'lost' | 'error' */
  'watchdog.cancel': { actor: Actor; lock: string; timer: Actor; reason: string };
  /**
   * A write to the protected resource: `value` after it, `read` the value it read at `readAt`,
   * `write` its number among accepted writes, `erased` the writes it overwrote (lost updates),
   * `pending` the other uses that had read and not written yet.
   */
  'resource.use': {
    actor: Actor;
    lock?: string;
    accepted: boolean;
    token: number | null;
    read: number;
    readAt: number;
    lostUpdate: boolean;
    value: number;
    write?: number;
    erased?: number[];
    pending?: { actor: Actor; lock: string | null; readAt: number }[];
  };

  // check/monitor.ts
  /** `waiting`: L1 only, the waiting threads (the holders after the gone owners) */
  'violation.start': {
    violation: ViolationKind;
    lock: string;
    holders: Actor[];
    cause?: string;
    waiting?: Actor[];
    serverHolds?: number;
    clientHolds?: number;
  };
  'violation.end': {
    violation: ViolationKind;
    lock: string;
    holders: Actor[];
    cause?: string;
    waiting?: Actor[];
    serverHolds?: number;
    clientHolds?: number;
  };
}

export type EventKind = keyof TraceEventMap;

/**
 * Every event kind, for readers that need them at run time (the trace-format doc test checks
 * docs/trace-format.md documents exactly these).
 */
export const EVENT_KINDS = [
  'cmd',
  'script.begin',
  'script.end',
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
  'pubsub.wait',
  'pubsub.timeout',
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
  'client.starve',
  'client.starve.end',
  'node.stall',
  'call.timeout',
  'reply.late',
  'thread.start',
  'thread.done',
  'thread.interrupt',
  'thread.continue',
  'thread.cancel',
  'thread.result',
  'exception.caught',
  'work.start',
  'work.end',
  'net.partition',
  'net.heal',
  'net.latency',
  'net.latency.end',
  'resource.use',
  'violation.start',
  'violation.end',
  'repl.sync',
  'node.role',
  'sentinel.leader',
  'client.master',
  'cluster.pfail',
  'cluster.fail',
  'cluster.election',
  'cluster.vote',
  'cluster.promoted',
  'cluster.state',
] as const satisfies readonly EventKind[];

// `satisfies` stops extra entries; this stops a kind added to the map but not to the array (the
// error names the missing kind).
type MissingEventKinds = Exclude<EventKind, (typeof EVENT_KINDS)[number]>;
const _everyEventKindListed: [MissingEventKinds] extends [never] ? true : MissingEventKinds = true;

/** What a writer passes to `emit` for a kind: everything but the fields the recorder sets. */
export type EventFields<K extends EventKind = EventKind> = TraceEventMap[K];

/**
 * An event as a hot writer builds it for `record` (sim/recorder.ts): the head first, with any
 * `t` and `seq` (the recorder sets them in place), then the kind's fields, in one literal.
 */
export type AssembledEvent<K extends EventKind = EventKind> = {
  t: number;
  seq: number;
  kind: K;
} & TraceEventMap[K];

/**
 * The fields every event has. `actor`, `lock` and `node` may be read on any event; any other
 * field of an event not narrowed by `kind` reads as `unknown` (old readers, tests, a trace file
 * from elsewhere), so narrow by `kind` to get its type.
 */
interface EventHead<K extends EventKind> {
  t: number;
  seq: number;
  kind: K;
  actor?: Actor;
  lock?: string;
  node?: string;
  [detail: string]: unknown;
}

/** One thing that happened. `t` is virtual ms, `seq` the global order (ties in `t` are common). */
export type TraceEvent = {
  [K in EventKind]: EventHead<K> & TraceEventMap[K];
}[EventKind];

/** The event of one kind. */
export type TraceEventOf<K extends EventKind> = Extract<TraceEvent, { kind: K }>;

/**
 * V1–V3 are safety violations; L1–L7 are liveness (docs/trace-format.md, "Violations"):
 *   L1 stuck lock       waiters, and a key without TTL whose owners are all gone
 *   L2 lost waiter      a waiter blocked while the lock is free, with nothing scheduled to wake it
 *   L3 orphan renewal   a watchdog keeps a lock alive that no live thread believes it holds
 *   L4 hold mismatch    the server counts more (or fewer) holds of a thread than the thread does
 *   L5 wait cycle       waiters that wait for each other's holds (or their own) for ever
 *   L6 livelock         threads that block each other retrying for LIVELOCK_MS without acquiring
 *   L7 starvation       a FairLock waiter overtaken STARVATION_OVERTAKES times by later requests
 */
export type ViolationKind = 'V1' | 'V2' | 'V3' | 'L1' | 'L2' | 'L3' | 'L4' | 'L5' | 'L6' | 'L7';

/** The kinds that make a run unsafe; the others (L1–L7) make it stuck. */
export const SAFETY_KINDS: readonly ViolationKind[] = ['V1', 'V2', 'V3'];

/** The liveness kinds, in the order the docs define them. */
export const LIVENESS_KINDS: readonly ViolationKind[] = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7'];

/** Whether a kind is liveness (it makes a run stuck, not unsafe). */
export function isLiveness(kind: ViolationKind): boolean {
  return !SAFETY_KINDS.includes(kind);
}

/** L6: how long threads may retry a lock with nobody acquiring it before it is a livelock (virtual ms). */
export const LIVELOCK_MS = 10_000;

/** L7: how many later requests may acquire a FairLock ahead of a waiter before it is starvation. */
export const STARVATION_OVERTAKES = 3;

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
  /** L1, L2, L5: the waiting threads (the holders after the others) */
  waiting?: Actor[];
  /** L4 only: holds the server counts for the thread, and holds the thread believes it has */
  serverHolds?: number;
  clientHolds?: number;
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
  /** the names in `subscriptions` subscribed by SSUBSCRIBE (sharded pub/sub); the rest by SUBSCRIBE… */
  shardChannels?: string[];
  /** …or by PSUBSCRIBE (patterns) */
  patterns?: string[];
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
  /**
   * a lock or unlock call of this thread that Redis has already answered, its reply still on the
   * way back: the hold count Redis now keeps for the thread (what `holds[lock]` becomes when the
   * reply arrives). Shown by `stateAt` only; absent when there is none.
   */
  replying?: { lock: string; holds: number };
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
  /** the Redisson release the clients ran: as the scenario named it, and the release it means */
  redisson?: { version: string; release: string };
  /** 'unsafe' when a safety violation (V1–V3) was found, else 'stuck' when a liveness one (L1–L7) was, else 'safe' */
  verdict: 'safe' | 'unsafe' | 'stuck';
  violations: Violation[];
  events: TraceEvent[];
  final: VisibleState;
  /**
   * set when the run was stopped before its end (a runaway program, a model stuck at one instant,
   * or a run without `until` still going at the time cap)
   */
  truncated?: boolean;
  /**
   * With `truncated`: 'events' the event cap, 'tasks' the kernel's task cap (work that records
   * nothing), 'instant' too many tasks at one virtual instant (time stopped passing: a model bug),
   * 'time' a run without `until` that had not ended at DEFAULT_RUN_CAP_MS (600 s of virtual time).
   */
  truncatedBy?: 'events' | 'tasks' | 'instant' | 'time';
}
