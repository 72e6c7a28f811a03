/**
 * The simulation kernel: one virtual clock, one event queue ordered by (time, seq), processes
 * written as generators, semaphores, connections to simulated Redis nodes, and client faults.
 *
 * Rules it keeps (and its tests prove):
 * - A `call` travels one network latency to the node, runs there atomically (RedisServer.exec) at
 *   arrival, and its reply travels one latency back (plus any latency spike in force when it is
 *   sent). A connection is FIFO both ways, spikes included. Frames a
 *   command pushes to its own connection (extra SUBSCRIBE confirmations) follow its reply.
 * - Every call has a response timer (Redisson's RedisExecutor.scheduleResponseTimeout), started
 *   when the request is written: if no reply has reached the caller when it fires, the caller
 *   resumes with a CALL_TIMEOUT_PREFIX error reply (`call.timeout`), and a reply that comes
 *   later is discarded (`reply.late`). A message that cannot get through (partition, node down,
 *   connection closed) is lost, so its call ends that way too.
 * - Everything of a client (its processes, its timers, the replies and pushes reaching it) is
 *   gated by its owner state: `crash` drops it all for good; `pause` defers it, and at resume the
 *   deferred items run in their original order, at the resume time. `starve` defers only the
 *   client's network I/O (its event loop gets no CPU): writes, replies, pushes and drops wait,
 *   while its threads and timers (response timers included) run on.
 * - Active expiry: each node has a kernel task at its next expiry deadline that runs
 *   activeExpireCycle, so a key disappears (and `key.expired` is recorded) the first ms it counts
 *   as expired, as if Redis's cron ran continuously.
 * - DEBUG SLEEP (and the `stall` fault) makes the node busy: commands arriving meanwhile wait
 *   until it is done, the sleeping command's own reply leaves then, and active expiry waits too
 *   (no cron runs). The node's clock is not moved.
 *
 * Node clocks are the kernel clock plus a per-node offset (the `clock` fault moves it).
 */
import type { Clock } from '../clock';
import type { Network } from '../net/network';
import type { Connection, RedisServer, ServerEvents } from '../redis/server';
import type { WaitBlock } from '../redis/replication';
import type { ScriptTracer } from '../redis/eval';
import type { Reply } from '../redis/reply';
import { error } from '../redis/reply';
import type { EventFields, EventKind, KeyView } from '../trace/types';
import type { NodeLifecycle, Prng, ProcHandle, PushHandler, SimContext, TopologyHost } from './api';
import {
  CALL_INTERRUPTED,
  type AcquireResult,
  type ConnectionRef,
  type Effect,
  type Process,
  type Semaphore,
} from './effects';
import { CALL_NOT_WRITTEN_PREFIX, CALL_TIMEOUT_PREFIX } from './effects';
import { TimedHeap } from './heap';
import { keyViewOf, sameKeyView } from './key_view';
import { prngFor } from './prng';
import type { Recorder } from './recorder';
import { replyToJson } from './reply_json';
import { touchedKeys } from './touched_keys';

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

const RESUME = 0;
const FN = 1;

/** What a response timer's call was, for `call.timeout` and a later `reply.late`. */
interface CallMeta {
  node: string;
  conn: string;
  command: string;
  timeoutMs: number;
}
const callMeta = new WeakMap<object, CallMeta>();

/** A resume that throws into the process instead of handing it a value (Future.cancel()). */
class ThrowInto {
  constructor(readonly error: unknown) {}
}

interface Task {
  at: number;
  seq: number;
  kind: typeof RESUME | typeof FN;
  proc: Proc | null;
  value: unknown;
  fn: (() => void) | null;
  /** client whose pause/crash gates this task; null: not gated */
  owner: string | null;
  cancelled: boolean;
  /** the call (Proc.callSeq) a RESUME answers; a reply to an abandoned call is dropped */
  call?: number;
  /** the response timer of that call */
  timer?: true;
  /** network I/O of its owner (a write, a reply, a push, a drop): deferred while the owner starves */
  io?: true;
}

class Proc implements ProcHandle {
  done = false;
  waitSem: Sem | null = null;
  waitTimeout: Task | null = null;
  waitInterruptible = false;
  pendingInterrupt = false;
  /** false until its first step: a spawned process (fire-and-forget work) that has not run yet */
  started = false;
  /** a `call` it made has not resumed it yet (reply, error or response timeout) */
  inCall = false;
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
  constructor(
    readonly id: number,
    readonly owner: string,
    readonly name: string,
    readonly gen: Process<unknown>,
  ) {}
}

class Sem implements Semaphore {
  permits = 0;
  readonly waiters: Proc[] = [];
  constructor(readonly id: number) {}
}

class Owner {
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

class SimNode {
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

interface BlockedWait {
  block: WaitBlock;
  finish: (reply: Reply) => void;
  /** the node died: no reply will ever come */
  lose: () => void;
}

interface Push {
  conn: Conn;
  msg: Reply;
  /** seq of the pubsub.publish that sent this message */
  publishSeq: number | null;
}

type ArrayReply = Extract<Reply, { t: 'array' }> & { v: Reply[] };

/** A pub/sub message (message, pmessage, smessage), not a (un)subscribe confirmation. */
function isMessageFrame(msg: Reply): msg is ArrayReply {
  if (msg.t !== 'array' || msg.v === null || msg.v.length < 3) return false;
  const kind = msg.v[0];
  return kind.t === 'bulk' && (kind.v === 'message' || kind.v === 'pmessage' || kind.v === 'smessage');
}

class Conn implements ConnectionRef {
  /** no new sends, nothing delivered to the client */
  closed = false;
  /** the server side is gone (after the close reached the node, or the node crashed) */
  server: Connection | null = null;
  constructor(
    readonly id: number,
    readonly client: string,
    readonly node: string,
    readonly label: string,
    readonly onPush: PushHandler | undefined,
    readonly onDrop: (() => void) | undefined,
  ) {}
}

export class Kernel implements SimContext, TopologyHost {
  private t = 0;
  private seq = 0;
  private readonly heap = new TimedHeap<Task>();
  private readonly owners = new Map<string, Owner>();
  private readonly nodes = new Map<string, SimNode>();
  private readonly conns = new Map<number, Conn>();
  private readonly rngs = new Map<string, Prng>();
  private nextProc = 1;
  private nextSem = 1;
  private nextConn = 1;
  /** frames pushed during the current exec, delivered after its reply */
  private execPushes: Push[] | null = null;
  /** messages pushed by a PUBLISH the server has not reported yet */
  private unpublished: Push[] = [];
  /** client -> pub/sub frames on their way to it (deliveries scheduled, not yet run) */
  private readonly pushesInFlight = new Map<string, number>();
  private readonly net: Network;
  private readonly rec: Recorder;
  private readonly mirror: KeyMirror;
  private readonly lifecycle: NodeLifecycle[] = [];
  /** set when the run was stopped by the event cap */
  truncated = false;
  /** kernel tasks dispatched so far (a cost figure: tasks that record no event still take time) */
  tasksRun = 0;

  constructor(private readonly opts: KernelOptions) {
    this.net = opts.network;
    this.rec = opts.recorder;
    this.mirror = opts.mirror;
  }

  // ------------------------------------------------------------------------------------------
  // SimContext

  now(): number {
    return this.t;
  }

  emit<K extends EventKind>(kind: K, fields: EventFields<K>): void {
    this.rec.emit(kind, fields);
  }

  rng(purpose: string): Prng {
    let r = this.rngs.get(purpose);
    if (r === undefined) {
      r = prngFor(this.opts.seed, purpose);
      this.rngs.set(purpose, r);
    }
    return r;
  }

  spawn(owner: string, name: string, proc: Process<unknown>): ProcHandle {
    const p = new Proc(this.nextProc++, owner, name, proc);
    const o = this.owner(owner);
    if (o.crashed) {
      p.done = true;
      return p;
    }
    o.procs.add(p);
    this.wakeNames.add(name);
    this.schedule(this.t, RESUME, p, undefined, null, owner);
    return p;
  }

  kill(handle: ProcHandle): void {
    const p = handle as Proc;
    if (p.done) return;
    p.done = true;
    this.stopWaiting(p);
    this.owners.get(p.owner)?.procs.delete(p);
    this.wakeNames.add(p.name);
  }

  semaphore(): Semaphore {
    return new Sem(this.nextSem++);
  }

  release(sem: Semaphore, permits = 1): void {
    const s = sem as Sem;
    s.permits += permits;
    while (s.permits > 0 && s.waiters.length > 0) {
      const p = s.waiters.shift()!;
      s.permits--;
      this.wakeNames.add(p.name);
      if (p.waitTimeout) p.waitTimeout.cancelled = true;
      p.waitSem = null;
      p.waitTimeout = null;
      this.schedule(this.t, RESUME, p, 'acquired' satisfies AcquireResult, null, p.owner);
    }
  }

  queueLength(sem: Semaphore): number {
    return (sem as Sem).waiters.length;
  }

  interrupt(handle: ProcHandle): void {
    const p = handle as Proc;
    if (p.done) return;
    if (p.waitSem !== null && p.waitInterruptible) {
      this.stopWaiting(p);
      this.schedule(this.t, RESUME, p, 'interrupted' satisfies AcquireResult, null, p.owner);
    } else if (p.inCall && p.callInterruptible) this.abandonCall(p);
    else p.pendingInterrupt = true;
  }

  /**
   * Future.cancel() of what the process is blocked on: its call or semaphore wait ends now by
   * throwing `error` into it (a call's reply still comes, to its onAbandonedReply); blocked on
   * nothing (a sleep), it gets `error` at its next resume. No interrupt flag is left.
   */
  throwInto(handle: ProcHandle, error: unknown): void {
    const p = handle as Proc;
    if (p.done) return;
    const t = new ThrowInto(error);
    this.wakeNames.add(p.name);
    if (p.inCall) {
      if (p.callOnAbandoned !== undefined) (p.abandoned ??= new Map()).set(p.callSeq, p.callOnAbandoned);
      if (p.callTimer) p.callTimer.cancelled = true;
      p.callTimer = null;
      p.callSeq++;
      p.inCall = false;
    } else if (p.waitSem !== null) this.stopWaiting(p);
    else {
      p.pendingThrow = t;
      return;
    }
    this.schedule(this.t, RESUME, p, t, null, p.owner);
  }

  /**
   * CommandAsyncService.get() interrupted: the thread stops waiting for the reply and keeps its
   * interrupt flag (get() sets it again); the command itself goes on.
   */
  private abandonCall(p: Proc): void {
    this.wakeNames.add(p.name);
    if (p.callOnAbandoned !== undefined) (p.abandoned ??= new Map()).set(p.callSeq, p.callOnAbandoned);
    if (p.callTimer) p.callTimer.cancelled = true;
    p.callTimer = null;
    p.callSeq++;
    p.inCall = false;
    p.pendingInterrupt = true;
    this.schedule(this.t, RESUME, p, error(CALL_INTERRUPTED), null, p.owner);
  }

  connect(
    client: string,
    node: string,
    label: string,
    onPush?: PushHandler,
    onDrop?: () => void,
  ): ConnectionRef {
    const c = new Conn(this.nextConn++, client, node, label, onPush, onDrop);
    this.conns.set(c.id, c);
    const o = this.owner(client);
    if (o.crashed) {
      c.closed = true;
      return c;
    }
    o.conns.add(c);
    const n = this.nodes.get(node);
    if (n !== undefined) {
      n.conns.add(c);
      // The TCP connection exists from now on: requests already on the wire when the client dies still arrive.
      if (n.up) c.server = n.server.connect((msg) => this.pushed(c, msg));
    }
    return c;
  }

  disconnect(ref: ConnectionRef): void {
    const c = this.conns.get(ref.id);
    if (c && !c.closed) this.close(c);
  }

  /** connected_slaves of a node (0 for a node that is not up), what Redisson reads from INFO. */
  replicasOf(node: string): number {
    const n = this.nodes.get(node);
    return n !== undefined && n.up ? n.server.repl.connectedReplicas : 0;
  }

  private readonly slotMapListeners = new Map<string, (() => void)[]>();

  onSlotMapChange(client: string, fn: () => void): void {
    const list = this.slotMapListeners.get(client);
    if (list === undefined) this.slotMapListeners.set(client, [fn]);
    else list.push(fn);
  }

  slotMapChanged(client: string): void {
    if (this.owner(client).crashed) return;
    for (const fn of this.slotMapListeners.get(client) ?? []) fn();
  }

  readReplicas(client: string, master: string): string[] {
    return this.opts.readReplicas?.(client, master) ?? [];
  }

  slotMasters(client: string): string[] {
    return this.opts.slotMasters?.(client) ?? [];
  }

  redirect(client: string, address: string): string | null {
    return this.opts.redirect?.(client, address) ?? null;
  }

  masterFor(client: string, hint?: string, key?: string): string {
    if (this.opts.masterFor) return this.opts.masterFor(client, hint, key);
    if (hint !== undefined && this.nodes.has(hint)) return hint;
    return this.nodes.keys().next().value ?? 'master';
  }

  // ------------------------------------------------------------------------------------------
  // Runner API

  addNode(id: string, make: NodeFactory): void {
    const node = new SimNode(id, null as unknown as RedisServer, make);
    node.server = this.build(node);
    this.nodes.set(id, node);
  }

  nodeIds(): string[] {
    return [...this.nodes.keys()];
  }

  server(id: string): RedisServer | undefined {
    return this.nodes.get(id)?.server;
  }

  /**
   * The run is over and nothing will run on this kernel again: the nodes' Lua states go back to
   * the pool for the next run's nodes (redis/script_lua.ts), which spares each of them building one.
   */
  dispose(): void {
    for (const n of this.nodes.values()) n.server.scripts.release();
  }

  /** Runs `fn` at virtual time `at` (not gated by any client). */
  at(at: number, fn: () => void): void {
    this.later(Math.max(at, this.t), fn);
  }

  /**
   * Runs tasks in (time, seq) order until the next one is later than `until`, the queue is empty,
   * `stop()` turns true (the tasks due at that same ms still run), or `maxEvents` events (or
   * eight times as many tasks) are reached, which sets `truncated`.
   */
  run(until: number, stop: () => boolean, maxEvents: number): void {
    // Tasks that record nothing (a process sleeping 0 ms in a loop) must not spin forever either.
    const maxTasks = this.tasksRun + maxEvents * 8;
    let stopAt = Infinity;
    for (;;) {
      const task = this.heap.peek();
      if (task === undefined || task.at > until || task.at > stopAt) break;
      this.heap.pop();
      this.t = task.at;
      this.tasksRun++;
      this.dispatch(task);
      if (stopAt === Infinity && stop()) stopAt = this.t;
      if (this.rec.events.length >= maxEvents || this.tasksRun >= maxTasks) {
        this.truncated = true;
        break;
      }
    }
  }

  /**
   * True while client work is in flight: a live (not crashed) client's process has a call whose
   * reply has not reached it yet, or was spawned (fire-and-forget work such as the DEL of an
   * unlock latch) and has not run yet. A process sleeping or waiting on a semaphore (a watchdog
   * timer, a pub/sub listener) is idle. The runner uses it to end a run only once that work is done.
   */
  clientWorkInFlight(): boolean {
    for (const o of this.owners.values()) {
      if (o.crashed) continue;
      for (const p of o.procs) if (!p.started || p.inCall) return true;
    }
    return false;
  }

  /**
   * Whether something scheduled can still make the process named `name` (a thread's actor) go on:
   * it has a task of its own (a sleep, a reply, a wait's timeout, its first step), or a pub/sub
   * frame is on its way to its client (an unlock message that would open its latch). False when
   * every such process is blocked on a semaphore with no timeout and nothing travels to its
   * client, or when it is gone. Liveness (check/liveness.ts, L2) asks this after a task.
   */
  canWake(name: string): boolean {
    const i = name.indexOf(':');
    const client = i < 0 ? name : name.slice(0, i);
    const o = this.owners.get(client);
    if (o === undefined || o.crashed) return false;
    let found = false;
    for (const p of o.procs) {
      if (p.name !== name) continue;
      found = true;
      if (!p.started || p.inCall || p.waitSem === null || p.waitTimeout !== null) return true;
    }
    return found && (this.pushesInFlight.get(client) ?? 0) > 0;
  }

  /**
   * The processes (by name) and clients whose `canWake` answer may have changed since the last
   * call: the liveness check asks only about those after a task instead of every thread (1,000
   * threads in call at once at scale).
   */
  wakeChanges(): { names: ReadonlySet<string>; clients: ReadonlySet<string> } {
    const out = { names: this.wakeNames, clients: this.wakeClients };
    this.wakeNames = new Set();
    this.wakeClients = new Set();
    return out;
  }

  private wakeNames = new Set<string>();
  private wakeClients = new Set<string>();

  /** The JVM dies: its processes stop, nothing reaches it any more, its connections close. */
  crashClient(client: string): void {
    const o = this.owner(client);
    if (o.crashed) return;
    this.wakeClients.add(client);
    this.rec.emit('client.crash', { actor: client, client });
    o.crashed = true;
    o.paused = false;
    o.deferred = [];
    o.starvedIo = [];
    for (const p of o.procs) {
      p.done = true;
      this.stopWaiting(p);
    }
    o.procs.clear();
    for (const c of o.conns) this.close(c);
  }

  /** Stop-the-world for `ms`: the client's processes, timers and incoming messages wait. */
  pauseClient(client: string, ms: number): void {
    const o = this.owner(client);
    if (o.crashed) return;
    this.rec.emit('client.pause', { actor: client, client, ms });
    o.paused = true;
    const until = this.t + ms;
    if (until <= o.pausedUntil) return;
    o.pausedUntil = until;
    this.at(until, () => {
      if (o.pausedUntil !== until || o.crashed) return;
      o.paused = false;
      this.rec.emit('client.resume', { actor: client, client });
      const deferred = o.deferred;
      o.deferred = [];
      this.requeue(deferred);
    });
  }

  /** Held tasks run now, in their original order. */
  private requeue(tasks: Task[]): void {
    for (const task of tasks) {
      task.at = this.t;
      task.seq = this.seq++;
      this.heap.push(task);
    }
  }

  /**
   * The client's event loop gets no CPU for `ms` while its JVM runs (a saturated or blocked Netty
   * thread, CPU throttling): nothing is written, read or delivered meanwhile, but its threads and
   * timers go on, so response timers fire and late replies are discarded.
   */
  starveClient(client: string, ms: number): void {
    const o = this.owner(client);
    if (o.crashed) return;
    const until = this.t + ms;
    this.rec.emit('client.starve', { actor: client, client, ms });
    if (until <= o.starvedUntil) return;
    o.starvedUntil = until;
    this.at(until, () => {
      if (o.starvedUntil !== until || o.crashed) return;
      this.rec.emit('client.starve.end', { actor: client, client });
      const held = o.starvedIo;
      o.starvedIo = [];
      this.requeue(held);
    });
  }

  /**
   * The node is busy for `ms` (a slow script, a fork, DEBUG SLEEP): commands arriving meanwhile
   * queue up and run, in order, when it is free.
   */
  stallNode(id: string, ms: number): void {
    const node = this.nodes.get(id);
    if (!node || !node.up) return;
    node.busyUntil = Math.max(node.busyUntil, this.t) + ms;
    this.rec.emit('node.stall', { actor: id, node: id, ms, until: node.busyUntil });
  }

  crashNode(id: string, keepData: boolean): void {
    const node = this.nodes.get(id);
    if (!node || !node.up) return;
    node.up = false;
    this.rec.emit('node.crash', { actor: id, node: id });
    for (const l of this.lifecycle) l.crashed(id);
    // Blocked WAITs die with the node: their callers time out.
    for (const w of node.waits.slice()) w.lose();
    node.waits = [];
    for (const c of node.conns) {
      if (c.server === null) continue;
      this.dropServerSide(node, c);
    }
    if (!keepData) {
      // the old server is gone for good (topology looks servers up by id): its Lua state is free
      node.server.scripts.release();
      node.server = this.build(node);
      this.rec.clearNode(id);
    }
  }

  restartNode(id: string): void {
    const node = this.nodes.get(id);
    if (!node || node.up) return;
    node.up = true;
    node.busyUntil = this.t;
    this.rec.emit('node.restart', { actor: id, node: id });
    for (const l of this.lifecycle) l.restarted(id);
    this.rec.batch(() => this.resyncNode(node));
    node.expiryAt = Infinity;
    this.armExpiry(node);
  }

  jumpClock(id: string, ms: number): void {
    const node = this.nodes.get(id);
    if (!node) return;
    node.offset += ms;
    this.rec.emit('node.clock', { actor: id, node: id, jumpMs: ms, offset: node.offset });
    node.expiryAt = Infinity;
    this.armExpiry(node);
  }

  partition(groups: string[][], healAt?: number): void {
    this.net.partition(groups);
    this.rec.emit('net.partition', { groups: groups.map((g) => g.slice()) });
    if (healAt !== undefined)
      this.at(healAt, () => {
        this.net.heal();
        this.rec.emit('net.heal', {});
      });
  }

  /** From now until `endAt`, messages on links touching `endpoints` (all when null) take `ms` longer. */
  latencySpike(ms: number, endpoints: string[] | null, endAt: number): void {
    const end = this.net.spike(ms, endpoints);
    const { seq } = this.rec.emit('net.latency', {
      ms,
      endpoints: endpoints === null ? null : endpoints.slice(),
    });
    this.at(endAt, () => {
      end();
      // spikes may overlap: the end names the one it ends
      this.rec.emit('net.latency.end', { causeSeq: seq });
    });
  }

  // ------------------------------------------------------------------------------------------
  // Topology API (topology/**: replication links, Sentinel)

  onNodeLifecycle(listener: NodeLifecycle): void {
    this.lifecycle.push(listener);
  }

  isUp(id: string): boolean {
    return this.nodes.get(id)?.up === true;
  }

  reachable(a: string, b: string): boolean {
    return this.net.reachable(a, b);
  }

  latency(a: string, b: string): number {
    return this.net.arrival(a, b, this.t) - this.t;
  }

  /** The clock of a node (kernel time plus its offset), what its TTLs are measured against. */
  nodeNow(id: string): number {
    return this.t + (this.nodes.get(id)?.offset ?? 0);
  }

  /**
   * Runs `fn` on a node's server outside any client command (the replication stream, a resync,
   * a role change) and records the keys that changed, as part of the last event.
   */
  onNode(id: string, fn: (server: RedisServer) => void): void {
    const node = this.nodes.get(id);
    if (node === undefined || !node.up) return;
    this.rec.batch(() => {
      fn(node.server);
      this.resyncNode(node);
    });
    node.expiryAt = Infinity;
    this.armExpiry(node);
  }

  /**
   * CLIENT KILL TYPE normal + TYPE pubsub (what Sentinel sends with SLAVEOF): every client
   * connection of the node is dropped; subscriptions go; a client's next command reconnects.
   */
  killClients(id: string): void {
    const node = this.nodes.get(id);
    if (node === undefined || !node.up) return;
    for (const c of [...node.conns].sort((a, b) => a.id - b.id)) {
      if (c.server === null) continue;
      this.dropServerSide(node, c);
      this.rec.emit('conn.close', { actor: c.client, node: id, conn: c.label });
    }
  }

  /**
   * The node loses its side of `c` (it crashed, or killed the client): the client hears of it
   * (`onDrop`) one latency later, if it can hear the node at all.
   */
  private dropServerSide(node: SimNode, c: Conn): void {
    node.server.disconnect(c.server!);
    c.server = null;
    const onDrop = c.onDrop;
    if (onDrop !== undefined && !c.closed && this.net.reachable(node.id, c.client))
      this.later(this.net.arrival(node.id, c.client, this.t), () => c.closed || onDrop(), c.client).io = true;
  }

  /** Replicas acknowledged more of the stream: WAITs on `id` whose count is reached return. */
  checkWaits(id: string): void {
    const node = this.nodes.get(id);
    if (node === undefined || node.waits.length === 0) return;
    const repl = node.server.repl;
    for (const w of node.waits.slice()) {
      const acked = repl.countAcks(w.block.offset);
      if (acked >= w.block.numreplicas) w.finish({ t: 'int', v: acked });
    }
  }

  /** The node changed role (REPLICAOF): blocked clients get UNBLOCKED, as disconnectAllBlockedClients. */
  unblockAll(id: string): void {
    const node = this.nodes.get(id);
    if (node === undefined) return;
    for (const w of node.waits.slice())
      w.finish(
        error('UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)'),
      );
  }

  /** WAIT did not have its count at once: hold the reply until the acks or the timeout come. */
  private blockWait(node: SimNode, c: Conn, p: Proc, argv: string[], block: WaitBlock, call: number): void {
    let done = false;
    const w: BlockedWait = {
      block,
      lose: () => {},
      finish: (reply) => {
        if (done) return;
        done = true;
        node.waits.splice(node.waits.indexOf(w), 1);
        this.rec.emit('cmd', {
          actor: p.name,
          node: node.id,
          conn: c.label,
          argv,
          reply: replyToJson(reply),
        });
        if (reply.t === 'int')
          this.rec.emit('wait.result', { actor: p.name, node: node.id, acked: Number(reply.v) });
        // unreachable: lost, the call's response timer answers
        if (this.net.reachable(node.id, c.client))
          this.reply(p, this.net.arrival(node.id, c.client, this.t), reply, call);
      },
    };
    w.lose = () => {
      done = true;
    };
    node.waits.push(w);
    if (block.timeoutAt > 0)
      this.later(Math.max(this.t, block.timeoutAt - node.offset), () => {
        if (!done && node.up) w.finish({ t: 'int', v: node.server.repl.countAcks(block.offset) });
      });
  }

  // ------------------------------------------------------------------------------------------
  // Processes

  private owner(id: string): Owner {
    let o = this.owners.get(id);
    if (o === undefined) {
      o = new Owner();
      this.owners.set(id, o);
    }
    return o;
  }

  /** Runs `fn` at `at`; with an owner, only while that client lives (deferred while it is paused). */
  private later(at: number, fn: () => void, owner: string | null = null): Task {
    return this.schedule(at, FN, null, undefined, fn, owner);
  }

  private schedule(
    at: number,
    kind: Task['kind'],
    proc: Proc | null,
    value: unknown,
    fn: (() => void) | null,
    owner: string | null,
    call?: number,
  ): Task {
    const task: Task = { at, seq: this.seq++, kind, proc, value, fn, owner, cancelled: false };
    if (call !== undefined) task.call = call;
    this.heap.push(task);
    return task;
  }

  private dispatch(task: Task): void {
    if (task.cancelled) return;
    if (task.owner !== null) {
      const o = this.owners.get(task.owner);
      if (o !== undefined) {
        if (o.crashed) return;
        if (o.paused) {
          o.deferred.push(task);
          return;
        }
        if (task.io && o.starvedUntil > this.t) {
          o.starvedIo.push(task);
          return;
        }
      }
    }
    if (task.kind === RESUME) {
      const p = task.proc!;
      if (task.call !== undefined && task.call !== p.callSeq) {
        this.unclaimedReply(p, task.call, task.value as Reply);
        return;
      }
      if (task.call !== undefined) {
        if (task.timer) this.timedOut(p, task.call);
        else if (p.callTimer) p.callTimer.cancelled = true;
        p.callTimer = null;
      }
      if (!p.done) this.step(p, task.value);
    } else task.fn!();
  }

  /** The response timer won: the caller gets the timeout, a reply that still comes is discarded. */
  private timedOut(p: Proc, call: number): void {
    const meta = p.callTimer === null ? undefined : callMeta.get(p.callTimer);
    if (meta !== undefined) {
      (p.timedOut ??= new Map()).set(call, meta);
      this.rec.emit('call.timeout', { actor: p.name, ...meta });
    }
    p.callSeq++;
  }

  /** A reply (or timer) for a call the caller no longer waits for. */
  private unclaimedReply(p: Proc, call: number, reply: Reply): void {
    const late = p.abandoned?.get(call);
    if (late !== undefined) {
      p.abandoned!.delete(call);
      late(reply);
      return;
    }
    const timedOut = p.timedOut?.get(call);
    if (timedOut !== undefined) {
      p.timedOut!.delete(call);
      const { node, conn, command } = timedOut;
      this.rec.emit('reply.late', { actor: p.name, node, conn, command, reply: replyToJson(reply) });
    }
  }

  private step(p: Proc, value: unknown): void {
    this.wakeNames.add(p.name);
    p.started = true;
    p.inCall = false;
    let v = value;
    if (p.pendingThrow !== null && !(v instanceof ThrowInto)) {
      v = p.pendingThrow;
    }
    p.pendingThrow = null;
    for (;;) {
      let r: IteratorResult<Effect, unknown>;
      try {
        r = v instanceof ThrowInto ? p.gen.throw(v.error) : p.gen.next(v);
      } catch (e) {
        p.done = true;
        this.owners.get(p.owner)?.procs.delete(p);
        const msg = e instanceof Error ? e.message : String(e);
        throw new Error(`process ${p.name} failed at t=${this.t}: ${msg}`, { cause: e });
      }
      if (r.done || p.done) {
        p.done = true;
        this.owners.get(p.owner)?.procs.delete(p);
        return;
      }
      const eff = r.value;
      switch (eff.type) {
        case 'now':
          v = this.t;
          continue;
        case 'sleep':
          this.schedule(this.t + Math.max(0, eff.ms), RESUME, p, undefined, null, p.owner);
          return;
        case 'call':
          p.inCall = true;
          p.callSeq++;
          p.callInterruptible = eff.interruptible === true;
          p.callOnAbandoned = eff.onAbandonedReply;
          this.send(p, eff.conn, eff.argv, eff.timeoutMs ?? this.opts.callTimeoutMs, eff.writeTimeoutMs);
          if (p.callInterruptible && p.pendingInterrupt && p.inCall) this.abandonCall(p);
          return;
        case 'acquire': {
          const s = eff.sem as Sem;
          if (s.permits > 0) {
            s.permits--;
            v = 'acquired' satisfies AcquireResult;
            continue;
          }
          if (eff.interruptible && p.pendingInterrupt) {
            p.pendingInterrupt = false;
            v = 'interrupted' satisfies AcquireResult;
            continue;
          }
          if (eff.timeoutMs !== undefined && eff.timeoutMs <= 0) {
            v = 'timeout' satisfies AcquireResult;
            continue;
          }
          s.waiters.push(p);
          p.waitSem = s;
          p.waitInterruptible = eff.interruptible === true;
          if (eff.timeoutMs !== undefined)
            p.waitTimeout = this.later(
              this.t + eff.timeoutMs,
              () => {
                if (p.waitSem !== s || p.done) return;
                this.stopWaiting(p);
                this.step(p, 'timeout' satisfies AcquireResult);
              },
              p.owner,
            );
          return;
        }
        default:
          throw new Error(`process ${p.name}: unknown effect ${JSON.stringify(eff)}`);
      }
    }
  }

  private stopWaiting(p: Proc): void {
    this.wakeNames.add(p.name);
    const s = p.waitSem;
    if (s !== null) {
      const i = s.waiters.indexOf(p);
      if (i >= 0) s.waiters.splice(i, 1);
    }
    if (p.waitTimeout) p.waitTimeout.cancelled = true;
    p.waitSem = null;
    p.waitTimeout = null;
  }

  // ------------------------------------------------------------------------------------------
  // Network and nodes

  private send(
    p: Proc,
    ref: ConnectionRef,
    argv: readonly string[],
    timeoutMs: number,
    writeTimeoutMs: number | undefined,
  ): void {
    const call = p.callSeq;
    const c = this.conns.get(ref.id);
    if (c === undefined || c.closed) {
      this.schedule(this.t, RESUME, p, error('ERR connection closed'), null, p.owner, call);
      return;
    }
    const args = argv.slice();
    const o = this.owners.get(p.owner);
    if (o === undefined || o.starvedUntil <= this.t) {
      this.write(p, c, args, call, timeoutMs);
      return;
    }
    // the write itself is I/O: a starved client writes when its event loop runs again
    const write = this.later(this.t, () => this.write(p, c, args, call, timeoutMs), p.owner);
    write.io = true;
    if (writeTimeoutMs === undefined) return;
    this.later(
      this.t + writeTimeoutMs,
      () => {
        if (write.cancelled || !o.starvedIo.includes(write)) return;
        write.cancelled = true;
        if (call !== p.callSeq || !p.inCall) return;
        this.rec.emit('call.timeout', {
          actor: p.name,
          node: c.node,
          conn: c.label,
          command: args[0],
          timeoutMs: writeTimeoutMs,
          notWritten: true,
        });
        p.callSeq++;
        const msg = `${CALL_NOT_WRITTEN_PREFIX}Command still hasn't been written into connection! Check CPU usage of the JVM. Try to increase nettyThreads setting. Node source: ${c.node}, command: (${args[0]})`;
        this.step(p, error(msg));
      },
      p.owner,
    );
  }

  /**
   * The request leaves the client (even if its caller stopped waiting); the response timer of a
   * call still waited for starts now, as Redisson's does once the write completed.
   */
  private write(p: Proc, c: Conn, argv: string[], call: number, timeoutMs: number): void {
    const sentAt = this.t;
    if (!this.net.reachable(c.client, c.node)) {
      this.armTimer(p, c, argv[0], call, timeoutMs);
      return;
    }
    this.later(this.net.arrival(c.client, c.node, sentAt), () => this.arrive(c, p, argv, sentAt, call));
    this.armTimer(p, c, argv[0], call, timeoutMs);
  }

  private armTimer(p: Proc, c: Conn, command: string, call: number, timeoutMs: number): void {
    if (call !== p.callSeq || !p.inCall) return;
    const timer = this.schedule(
      this.t + timeoutMs,
      RESUME,
      p,
      error(
        `${CALL_TIMEOUT_PREFIX}Redis server response timeout (${timeoutMs} ms) for command: (${command}) to ${c.node}`,
      ),
      null,
      p.owner,
      call,
    );
    timer.timer = true;
    callMeta.set(timer, { node: c.node, conn: c.label, command, timeoutMs });
    p.callTimer = timer;
  }

  /** A reply leaves for the client and reaches it at `at` (network I/O of the client). */
  private reply(p: Proc, at: number, reply: Reply, call: number): void {
    this.schedule(at, RESUME, p, reply, null, p.owner, call).io = true;
  }

  private arrive(c: Conn, p: Proc, argv: string[], sentAt: number, call: number, fromBacklog = false): void {
    const node = this.nodes.get(c.node);
    // lost: the response timer answers
    if (node === undefined || !node.up || (c.closed && c.server === null)) return;
    if (!fromBacklog && (node.busyUntil > this.t || node.backlog.length > 0)) {
      // One queue per node keeps arrival order (per connection FIFO included) across the wait.
      node.backlog.push(() => this.arrive(c, p, argv, sentAt, call, true));
      this.drainLater(node);
      return;
    }
    if (c.server === null) c.server = node.server.connect((msg) => this.pushed(c, msg));
    const pushes: Push[] = [];
    this.execPushes = pushes;
    let reply: Reply;
    const dirty = node.server.dirty;
    try {
      node.execArgv = argv;
      reply = node.server.exec(c.server, argv);
    } finally {
      this.execPushes = null;
      node.execArgv = null;
    }
    if (
      this.opts.verbose &&
      reply.t === 'bulk' &&
      reply.v !== null &&
      argv.length === 3 &&
      /^script$/i.test(argv[0]) &&
      /^load$/i.test(argv[1])
    )
      node.scriptTexts.set(reply.v, argv[2]);
    const block = c.server.waitBlock;
    if (block !== null) {
      c.server.waitBlock = null;
      this.blockWait(node, c, p, argv, block, call);
      return;
    }
    this.rec.emit('cmd', { actor: p.name, node: node.id, conn: c.label, argv, reply: replyToJson(reply) });
    if (reply.t === 'int' && argv[0].toLowerCase() === 'wait')
      this.rec.emit('wait.result', { actor: p.name, node: node.id, acked: Number(reply.v) });
    // server.dirty counts dataset changes as Redis does: a command that changed nothing (a failed
    // acquire, a read) has no key to record (lazy expiry is recorded by its own event).
    if (node.server.dirty !== dirty) this.rec.batch(() => this.recordKeys(node, argv));
    this.armExpiry(node);
    const leave = Math.max(this.t, node.busyUntil);
    if (this.net.reachable(node.id, c.client))
      this.reply(p, this.net.arrival(node.id, c.client, leave), reply, call);
    for (const x of pushes) this.deliver(x, leave);
  }

  private drainLater(node: SimNode): void {
    if (node.drainScheduled) return;
    node.drainScheduled = true;
    this.later(Math.max(this.t, node.busyUntil), () => {
      node.drainScheduled = false;
      while (node.backlog.length > 0 && node.busyUntil <= this.t) node.backlog.shift()!();
      if (node.backlog.length > 0) this.drainLater(node);
    });
  }

  /** The server pushed a frame to `c` (a pub/sub message, an extra confirmation). */
  /**
   * The server pushed a frame to `c` (a pub/sub message, an extra confirmation). A server pushes
   * a PUBLISH's messages before it reports the publish, so a message waits in `unpublished` for
   * the seq of its pubsub.publish event (its delivery's `causeSeq`).
   */
  private pushed(c: Conn, msg: Reply): void {
    const push: Push = { conn: c, msg, publishSeq: null };
    if (isMessageFrame(msg)) this.unpublished.push(push);
    if (this.execPushes !== null) this.execPushes.push(push);
    else this.deliver(push, this.t);
  }

  private deliver(push: Push, leave: number): void {
    const { conn: c, msg } = push;
    if (c.closed || !this.net.reachable(c.node, c.client)) return;
    this.pushesInFlight.set(c.client, (this.pushesInFlight.get(c.client) ?? 0) + 1);
    this.wakeClients.add(c.client);
    const task = this.later(
      this.net.arrival(c.node, c.client, leave),
      () => {
        this.pushesInFlight.set(c.client, this.pushesInFlight.get(c.client)! - 1);
        this.wakeClients.add(c.client);
        if (c.closed) return;
        let delivery: number | null = null;
        if (isMessageFrame(msg)) {
          const last = msg.v[msg.v.length - 1];
          const channel = msg.v[msg.v.length - 2];
          delivery = this.rec.emit('pubsub.deliver', {
            actor: c.client,
            node: c.node,
            conn: c.label,
            channel: channel.t === 'bulk' ? channel.v : null,
            message: last.t === 'bulk' ? last.v : null,
            ...(push.publishSeq === null ? {} : { causeSeq: push.publishSeq }),
          }).seq;
        }
        c.onPush?.(msg, delivery);
      },
      c.client,
    );
    task.io = true;
  }

  /** Client-side close: nothing more goes out or comes in; the node learns one latency later. */
  private close(c: Conn): void {
    c.closed = true;
    this.owners.get(c.client)?.conns.delete(c);
    this.later(this.net.arrival(c.client, c.node, this.t), () => {
      const node = this.nodes.get(c.node);
      if (node !== undefined) node.conns.delete(c);
      if (c.server === null || node === undefined) return;
      node.server.disconnect(c.server);
      c.server = null;
      this.rec.emit('conn.close', { actor: c.client, node: c.node, conn: c.label });
    });
  }

  private build(node: SimNode): RedisServer {
    const id = node.id;
    const server = node.make({
      clock: { now: () => this.t + node.offset },
      onSleep: (ms) => {
        node.busyUntil = Math.max(node.busyUntil, this.t) + ms;
      },
      events: {
        keyExpired: (key, how) => {
          this.rec.emit('key.expired', { actor: id, node: id, key, how });
          this.rec.setKey(id, key, null);
        },
        publish: (channel, message, receivers) => {
          const ev = this.rec.emit('pubsub.publish', { actor: id, node: id, channel, message, receivers });
          for (const p of this.unpublished) p.publishSeq = ev.seq;
          this.unpublished = [];
        },
        scriptLog: (level, message) => {
          this.rec.emit('script.log', { actor: id, node: id, level, message });
        },
      },
    });
    if (this.opts.verbose) {
      node.scriptTexts = new Map();
      node.scriptsShown = new Set();
      server.scripts.setTracer(this.tracer(node));
    }
    return server;
  }

  /**
   * Verbose runs: script.begin / script.end bracket a script run, and script.line / script.call
   * inside it name the script by sha (the cmd event comes after them). script.begin carries the
   * script's text the first time this server runs that sha: from the EVAL itself, or from the
   * SCRIPT LOAD or EVAL that put it in this server's cache (a server rebuilt empty starts over).
   */
  private tracer(node: SimNode): ScriptTracer {
    const id = node.id;
    let sha = '';
    return {
      begin: (s, keys, args) => {
        sha = s;
        const argv = node.execArgv;
        if (argv !== null && argv.length >= 2 && /^eval(_ro)?$/i.test(argv[0]))
          node.scriptTexts.set(s, argv[1]);
        const text = node.scriptsShown.has(s) ? undefined : node.scriptTexts.get(s);
        if (text !== undefined) node.scriptsShown.add(s);
        this.rec.emit('script.begin', {
          actor: id,
          node: id,
          sha,
          keys: keys.slice(),
          args: args.slice(),
          ...(text === undefined ? {} : { script: text }),
        });
      },
      line: (line) => this.rec.emit('script.line', { actor: id, node: id, sha, line }),
      call: (argv, reply) =>
        this.rec.emit('script.call', {
          actor: id,
          node: id,
          sha,
          argv: argv.slice(),
          reply: replyToJson(reply),
        }),
      end: (reply) => this.rec.emit('script.end', { actor: id, node: id, sha, reply: replyToJson(reply) }),
    };
  }

  private recordKeys(node: SimNode, argv: readonly string[]): void {
    const keys = touchedKeys(argv, node.server);
    if (keys === null) {
      this.resyncNode(node);
      return;
    }
    const db = node.server.db;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const view = keyViewOf(db, key);
      if (!sameKeyView(this.mirror.liveKey(node.id, key), view)) this.rec.setKey(node.id, key, view);
    }
  }

  /** Logs the difference between the recorded keyspace of a node and its real one. */
  private resyncNode(node: SimNode): void {
    const db = node.server.db;
    for (const key of [...this.mirror.liveKeyNames(node.id)])
      if (!db.has(key)) this.rec.setKey(node.id, key, null);
    const keys = [...db.keys()].sort();
    for (const key of keys) {
      const view = keyViewOf(db, key);
      if (!sameKeyView(this.mirror.liveKey(node.id, key), view)) this.rec.setKey(node.id, key, view);
    }
  }

  /** Schedules the node's next active expiry; right after a cycle never at the same ms (no livelock). */
  private armExpiry(node: SimNode, afterCycle = false): void {
    if (!node.up) return;
    const next = node.server.nextExpiryAt();
    if (next === undefined) return;
    const at = Math.max(this.t + (afterCycle ? 1 : 0), next - node.offset);
    if (at >= node.expiryAt) return;
    node.expiryAt = at;
    this.later(at, () => {
      if (node.expiryAt !== at) return;
      node.expiryAt = Infinity;
      if (!node.up) return;
      if (node.busyUntil > this.t) {
        // a busy server runs no cron: the cycle comes when it is free
        this.later(node.busyUntil, () => this.armExpiry(node));
        return;
      }
      node.server.activeExpireCycle();
      this.armExpiry(node, true);
    });
  }
}
