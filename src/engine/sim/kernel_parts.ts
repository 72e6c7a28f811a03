/** The kernel's records: processes, semaphores, owners, nodes, connections, tasks (kernel.ts). */
import type { Clock } from '../clock';
import type { Network } from '../net/network';
import type { Connection, RedisServer, ServerEvents } from '../redis/server';
import type { WaitBlock } from '../redis/replication';
import type { Reply } from '../redis/reply';
import type { KeyView } from '../trace/types';
import type { ProcHandle, PushHandler } from './api';
import { type ConnectionRef, type Process, type Semaphore } from './effects';
import type { Recorder } from './recorder';

/** What the kernel hands a node factory so the server reports to the simulation. */
export interface NodeHooks {
  clock: Clock;
  onSleep(ms: number): void;
  events: ServerEvents;
}

export type NodeFactory = (hooks: NodeHooks) => RedisServer;

/** The recorder's view of the keyspace, to log only keys whose view changed. */
export interface KeyMirror {
  liveKey(node: string, key: string): KeyView | undefined;
  liveKeyNames(node: string): Iterable<string>;
}

export interface KernelOptions {
  seed: number;
  network: Network;
  recorder: Recorder;
  mirror: KeyMirror;
  /** response timeout of every call (redisson.timeoutMs) */
  callTimeoutMs: number;
  verbose?: boolean;
  /** the node a client treats as master (topology's business); default: hint if a node, else the first node */
  masterFor?: (client: string, hint?: string, key?: string) => string;
  /** replicas a client reads from for a master (Sentinel, cluster) */
  readReplicas?: (client: string, master: string) => string[];
  /** cluster: the masters of a client's slot map, in slot order */
  slotMasters?: (client: string) => string[];
  /** a MOVED reached a client: the node to re-send to (cluster topology) */
  redirect?: (client: string, address: string) => string | null;
}

export const RESUME = 0;
export const FN = 1;

/** What a response timer's call was, for `call.timeout` and a later `reply.late` (shared: read only). */
export interface CallMeta {
  readonly node: string;
  readonly conn: string;
  readonly command: string;
  readonly timeoutMs: number;
}

/** A resume that throws into the process instead of handing it a value (Future.cancel()). */
export class ThrowInto {
  constructor(readonly error: unknown) {}
}

/**
 * One scheduled task. A class with every field set at construction: the kernel makes one per
 * call, reply, timer and message, and one object shape keeps its property reads monomorphic.
 */
export class Task {
  cancelled = false;
  /** the response timer of that call: what `call.timeout` and a later `reply.late` name */
  timer: CallMeta | undefined = undefined;
  /** network I/O of its owner (a write, a reply, a push, a drop): deferred while the owner starves */
  io: boolean | undefined = undefined;
  constructor(
    public at: number,
    public seq: number,
    readonly kind: typeof RESUME | typeof FN,
    readonly proc: Proc | null,
    /** a response timer's is built when it fires (timerError): most timers are cancelled */
    public value: unknown,
    readonly fn: (() => void) | null,
    /** client whose pause/crash gates this task; null: not gated */
    readonly owner: string | null,
    /** the call (Proc.callSeq) a RESUME answers; a reply to an abandoned call is dropped */
    readonly call: number | undefined,
  ) {}
}

export class Proc implements ProcHandle {
  done = false;
  waitSem: Sem | null = null;
  waitTimeout: Task | null = null;
  waitInterruptible = false;
  pendingInterrupt = false;
  /** when its latest get() made with the interrupt flag set found the reply there (sim/interrupted_get.ts) */
  getFoundReplyAt = -Infinity;
  /** the instant it last resumed at, how often it resumed then, and how often it may (sim/instant_budget.ts) */
  instantAt = -1;
  instantResumes = 0;
  instantBudget = 0;
  /** false until its first step: a spawned process (fire-and-forget work) that has not run yet */
  started = false;
  /** a `call` it made has not resumed it yet (reply, error or response timeout) */
  inCall = false;
  /** a semaphore it waited on was granted (or the wait interrupted) and it has not resumed yet */
  granted = false;
  /** numbers its calls, so that the reply to one an interrupt abandoned can be told apart */
  callSeq = 0;
  callInterruptible = false;
  /** the current call's effect onAbandonedReply */
  callOnAbandoned: ((reply: Reply) => void) | undefined = undefined;
  /** calls an interrupt abandoned whose late reply still has a reader, by call number */
  abandoned: Map<number, (reply: Reply) => void> | null = null;
  /** the response timer of the call in flight */
  callTimer: Task | null = null;
  /** thrown into the process at its next resume (a cancel that found it neither calling nor waiting) */
  pendingThrow: ThrowInto | null = null;
  /** calls whose timer fired first: where their reply goes when it comes (`reply.late`) */
  timedOut: Map<number, CallMeta> | null = null;
  /** the generator running now: `gen`, or a sub-process it (or one of these) yielded */
  top: Process<unknown>;
  /** the generators waiting for a sub-process to end, innermost last */
  readonly callers: Process<unknown>[] = [];
  constructor(
    readonly id: number,
    readonly owner: string,
    readonly name: string,
    readonly gen: Process<unknown>,
  ) {
    this.top = gen;
  }
}

export class Sem implements Semaphore {
  permits = 0;
  readonly waiters: Proc[] = [];
  constructor(readonly id: number) {}
}

export class Owner {
  crashed = false;
  paused = false;
  pausedUntil = -1;
  deferred: Task[] = [];
  /** its event loop gets no CPU until then (the `starve` fault) */
  starvedUntil = -1;
  /** I/O tasks held back while starved, in their original order */
  starvedIo: Task[] = [];
  readonly procs = new Set<Proc>();
  readonly conns = new Set<Conn>();
}

export class SimNode {
  up = true;
  offset = 0;
  busyUntil = 0;
  /** clients blocked in WAIT on this node (blocked.c BLOCKED_WAIT) */
  waits: BlockedWait[] = [];
  /** commands that arrived while the node was busy, in arrival order */
  readonly backlog: (() => void)[] = [];
  drainScheduled = false;
  expiryAt = Infinity;
  readonly conns = new Set<Conn>();
  /** the client command the server is executing (verbose runs: script.begin takes its text from it) */
  execArgv: readonly string[] | null = null;
  /** verbose runs: sha -> text of the scripts this server has seen, and those already shown */
  scriptTexts = new Map<string, string>();
  scriptsShown = new Set<string>();
  constructor(
    readonly id: string,
    public server: RedisServer,
    readonly make: NodeFactory,
  ) {}
}

export interface BlockedWait {
  block: WaitBlock;
  finish: (reply: Reply) => void;
  /** the node died: no reply will ever come */
  lose: () => void;
}

export interface Push {
  conn: Conn;
  msg: Reply;
  /** seq of the pubsub.publish that sent this message */
  publishSeq: number | null;
}

export type ArrayReply = Extract<Reply, { t: 'array' }> & { v: Reply[] };

/** A pub/sub message (message, pmessage, smessage), not a (un)subscribe confirmation. */
export function isMessageFrame(msg: Reply): msg is ArrayReply {
  if (msg.t !== 'array' || msg.v === null || msg.v.length < 3) return false;
  const kind = msg.v[0];
  return kind.t === 'bulk' && (kind.v === 'message' || kind.v === 'pmessage' || kind.v === 'smessage');
}

/** A message's send over a connection: schedules its arrival at `at`; `held` when TCP held it through a partition. */
export type Send = (at: number, held: boolean) => void;

/** What TCP holds on one direction of a connection while a partition cuts it (sim/tcp_hold.ts). */
export interface HeldBytes {
  /** when the oldest unacknowledged message was sent: the retransmission back-off counts from it */
  since: number;
  /** the held messages and those written behind them, in order */
  sends: Send[];
  /** the retransmission that will deliver them, once the partition healed */
  flush: Task | null;
}

export class Conn implements ConnectionRef {
  /** no new sends, nothing delivered to the client */
  closed = false;
  /** the server side is gone (after the close reached the node, or the node crashed) */
  server: Connection | null = null;
  /** times the node dropped its side (crash, CLIENT KILL): a held request written before is then lost (RST) */
  serverDrops = 0;
  /** held by TCP: client → node, node → client */
  toNode: HeldBytes | null = null;
  toClient: HeldBytes | null = null;
  constructor(
    readonly id: number,
    readonly client: string,
    readonly node: string,
    readonly label: string,
    readonly onPush: PushHandler | undefined,
    readonly onDrop: (() => void) | undefined,
  ) {}

  /** command -> what its response timers say (read only): one per command, not one per call */
  private timerMetas: Map<string, CallMeta> | null = null;

  /** What a response timer of `command` on this connection is, for `call.timeout` and `reply.late`. */
  timerMeta(command: string, timeoutMs: number): CallMeta {
    const metas = (this.timerMetas ??= new Map());
    let meta = metas.get(command);
    if (meta === undefined || meta.timeoutMs !== timeoutMs) {
      meta = { node: this.node, conn: this.label, command, timeoutMs };
      metas.set(command, meta);
    }
    return meta;
  }
}
