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
 *   later is discarded (`reply.late`). A message to a node that is down or over a closed
 *   connection is lost, so its call ends that way too. A partition does not lose what a client
 *   connection sends: TCP holds it and delivers it, in order, at the first retransmission after
 *   the heal (200 ms back-off doubling from its send, sim/tcp_hold.ts), unless the node reset the
 *   connection meanwhile or the partition resets connections (`reset`).
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
import type { RedisServer } from '../redis/server';
import { error } from '../redis/reply';
import type { AssembledEvent, EventFields, EventKind } from '../trace/types';
import type { NodeLifecycle, ProcHandle, PushHandler, SimContext, TopologyHost } from './api';
import { type AcquireResult, type ConnectionRef, type Process, type Semaphore } from './effects';
import { type NodeFactory, RESUME, ThrowInto, type Task, Proc, Sem, SimNode, Conn } from './kernel_parts';
import { KernelBase } from './kernel_base';
import { resumesAtOneInstant } from './instant_budget';
import { ChangeList } from './change_list';

export type { NodeHooks, NodeFactory, KeyMirror, KernelOptions } from './kernel_parts';

export class Kernel extends KernelBase implements SimContext, TopologyHost {
  // ------------------------------------------------------------------------------------------
  // SimContext

  now(): number {
    return this.t;
  }

  emit<K extends EventKind>(kind: K, fields: EventFields<K>): void {
    this.rec.emit(kind, fields);
  }

  record<K extends EventKind>(event: AssembledEvent<K>): void {
    this.rec.record(event);
  }

  spawn(owner: string, name: string, proc: Process<unknown>, steps = 0): ProcHandle {
    const p = new Proc(this.nextProc++, owner, name, proc);
    p.instantBudget = resumesAtOneInstant(steps);
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
      p.granted = true;
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
      p.granted = true;
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

  /** after run: it stopped at `until` with live tasks scheduled later (the run would have gone on) */
  workPastUntil = false;

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
   * eight times as many tasks) are reached, which sets `truncated`. Stopped by `until` with work
   * still scheduled after it, it sets `workPastUntil`.
   */
  run(until: number, stop: () => boolean, maxEvents: number): void {
    // Tasks that record nothing (a process sleeping 0 ms in a loop) must not spin forever either.
    const maxTasks = this.tasksRun + maxEvents * 8;
    let stopAt = Infinity;
    for (;;) {
      const task = this.heap.peek();
      if (task === undefined || task.at > stopAt) break;
      if (task.at > until) {
        // (the run is over: the cancelled tasks on top can go, to see whether live work is left)
        while (this.heap.peek()?.cancelled === true) this.heap.pop();
        this.workPastUntil = this.heap.peek() !== undefined;
        break;
      }
      this.heap.pop();
      this.t = task.at;
      this.tasksRun++;
      // Cancelled tasks (mostly response timers: a reply came first) stay in the heap until their
      // time; at 3 s timeouts they were most of it, and every push and pop walked them.
      if ((this.tasksRun & 4095) === 0 && this.heap.size > 2048) this.heap.compact((x) => x.cancelled);
      this.dispatch(task);
      if (stopAt === Infinity && stop()) stopAt = this.t;
      if (this.truncated) break; // a process that resumed too often at one instant (step)
      if (this.rec.events.length >= maxEvents || this.tasksRun >= maxTasks) {
        this.truncated = true;
        this.truncatedBy = this.rec.events.length >= maxEvents ? 'events' : 'tasks';
        break;
      }
    }
  }

  /**
   * True while client work is in flight: a live (not crashed) client's process has a call whose
   * reply has not reached it yet, or was spawned (fire-and-forget work such as the DEL of an
   * unlock latch) and has not run yet, or waits on a semaphore with a timeout or with a pub/sub
   * frame on its way to the client (a waiter a cancelled lockAsync left to the client), or was
   * granted its semaphore and has not resumed yet. A process
   * sleeping (a watchdog timer) or waiting with nothing that can end the wait is idle. The runner
   * uses it to end a run only once that work is done.
   */
  clientWorkInFlight(): boolean {
    for (const [client, o] of this.owners) {
      if (o.crashed) continue;
      for (const p of o.procs) {
        if (!p.started || p.inCall || p.granted) return true;
        // a wait the client carries on by itself (a cancelled lockAsync's): it ends at its
        // timeout, or when the unlock message on its way opens the latch
        if (p.waitSem !== null && (p.waitTimeout !== null || (this.pushesInFlight.get(client) ?? 0) > 0)) return true;
      }
    }
    return false;
  }

  /**
   * Whether something scheduled can still make the process named `name` (a thread's actor) go on:
   * it has a task of its own (a sleep, a reply, a wait's timeout, its first step), or a pub/sub
   * frame is on its way to its client (an unlock message that would open its latch; one a partition
   * holds counts while its heal is still to come). False when
   * every such process is blocked on a semaphore with no timeout and nothing travels to its
   * client, or when it is gone. Liveness (check/liveness.ts, L2) asks this after a task.
   */
  canWake(name: string): boolean {
    // (asked after every task that touched the thread: the client part is cut once per name)
    let client = this.clientOfName.get(name);
    if (client === undefined) {
      const i = name.indexOf(':');
      this.clientOfName.set(name, (client = i < 0 ? name : name.slice(0, i)));
    }
    const o = this.owners.get(client);
    if (o === undefined || o.crashed) return false;
    let found = false;
    for (const p of o.procs) {
      if (p.name !== name) continue;
      found = true;
      if (!p.started || p.inCall || p.waitSem === null || p.waitTimeout !== null) return true;
    }
    if (!found) return false;
    return (this.pushesInFlight.get(client) ?? 0) > 0 || (this.healsPending > 0 && this.tcp.holdsFor(client));
  }

  /** a process name -> its client's name (the part before `:`), for canWake */
  private readonly clientOfName = new Map<string, string>();

  /**
   * The processes (by name) and clients whose `canWake` answer may have changed since the last
   * call: the liveness check asks only about those after a task instead of every thread (1,000
   * threads in call at once at scale).
   */
  wakeChanges(): { names: ChangeList; clients: ChangeList } {
    // Asked after every task: two pairs of lists take turns (the answer holds until the next
    // call), and a list is emptied without allocating.
    const out = this.wakeOut;
    const spare = this.wakeSpare;
    out.names = this.wakeNames;
    out.clients = this.wakeClients;
    spare.names.reset();
    spare.clients.reset();
    this.wakeNames = spare.names;
    this.wakeClients = spare.clients;
    spare.names = out.names;
    spare.clients = out.clients;
    return out;
  }

  /** what wakeChanges hands out, and the lists that take their turn next */
  private readonly wakeOut = { names: new ChangeList(), clients: new ChangeList() };
  private readonly wakeSpare = { names: new ChangeList(), clients: new ChangeList() };

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

  /**
   * Only members of the same group can talk from now on (until `healAt`). What client connections
   * send across it is held by TCP and delivered at the first retransmission after the heal
   * (sim/tcp_hold.ts); with `reset`, the connections it cuts are reset and what crosses it is lost.
   */
  partition(groups: string[][], healAt?: number, reset = false): void {
    this.net.partition(groups, reset);
    this.rec.emit('net.partition', { groups: groups.map((g) => g.slice()), ...(reset ? { reset } : {}) });
    // a partition that replaces another may join links the last one cut
    this.tcp.retransmit();
    if (healAt !== undefined) {
      this.healsPending++;
      this.at(healAt, () => {
        this.healsPending--;
        this.net.heal();
        this.rec.emit('net.heal', {});
        this.tcp.retransmit();
      });
    }
  }

  /** heals scheduled and not yet run: bytes held by a partition will still arrive */
  private healsPending = 0;

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
    c.serverDrops++;
    const onDrop = c.onDrop;
    // the FIN travels like data: held by a partition, lost to one that resets
    if (onDrop !== undefined && !c.closed)
      this.tcp.transmit(c, false, this.t, (at) => {
        this.later(at, () => c.closed || onDrop(), c.client).io = true;
      });
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
}
