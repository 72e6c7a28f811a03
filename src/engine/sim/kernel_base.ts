/**
 * The kernel's network and nodes (calls, replies, pushes, connections, expiry), over its state and
 * processes (`KernelProcs`, kernel_procs.ts): what `Kernel` (kernel.ts) builds its API on.
 */
import type { RedisServer } from '../redis/server';
import type { WaitBlock } from '../redis/replication';
import type { Reply } from '../redis/reply';
import { error } from '../redis/reply';
import type { AssembledEvent } from '../trace/types';
import { type ConnectionRef } from './effects';
import { CALL_NOT_WRITTEN_PREFIX } from './effects';
import { keyViewOf, sameKeyView } from './key_view';
import { replyToJson } from './reply_json';
import { touchedKeys } from './touched_keys';
import { scriptTracer } from './script_tracer';
import { TcpHold } from './tcp_hold';
import { type KernelOptions, RESUME, Proc, SimNode, type BlockedWait, type Push, isMessageFrame, Conn } from './kernel_parts';
import { KernelProcs } from './kernel_procs';

/** `execPushes` while a command runs that has pushed nothing yet (shared, never added to) */
const NO_PUSHES_YET: Push[] = [];

export abstract class KernelBase extends KernelProcs {
  /** what client connections send across a partition, held until a retransmission after the heal */
  protected readonly tcp: TcpHold;

  constructor(opts: KernelOptions) {
    super(opts);
    this.tcp = new TcpHold(
      this.net,
      (at, fn) => this.later(at, fn),
      () => this.t,
      (client) => this.wakeClients.add(client),
    );
  }

  // ------------------------------------------------------------------------------------------
  // Network and nodes

  /** WAIT did not have its count at once: hold the reply until the acks or the timeout come. */
  protected blockWait(node: SimNode, c: Conn, p: Proc, argv: string[], block: WaitBlock, call: number): void {
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
        this.tcp.transmit(c, false, this.t, (at) => this.reply(p, at, reply, call));
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

  protected roundTrip(ref: ConnectionRef): number {
    const c = this.conns.get(ref.id);
    return c === undefined ? 0 : this.net.latency(c.client, c.node) + this.net.latency(c.node, c.client);
  }

  protected send(
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
    // the caller's array, not a copy: an effect's argv is built for the call (scriptArgv, a
    // literal) or is a constant, and nothing writes to one once it is yielded; the trace's `cmd`
    // event keeps it as it is (a copy per command was about 1% of contention-100's bytes)
    const args = argv as string[];
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
  protected write(p: Proc, c: Conn, argv: string[], call: number, timeoutMs: number): void {
    const sentAt = this.t;
    const at = this.tcp.direct(c, true, sentAt);
    if (at !== null) this.later(at, () => this.arrive(c, p, argv, sentAt, call));
    else {
      const drops = c.serverDrops;
      this.tcp.transmit(c, true, sentAt, (at, held) =>
        this.later(at, () => {
          // held through a partition while the node dropped its side: the node answers with a reset
          if (held && c.serverDrops !== drops) return;
          this.arrive(c, p, argv, sentAt, call);
        }),
      );
    }
    this.armTimer(p, c, argv[0], call, timeoutMs);
  }

  protected armTimer(p: Proc, c: Conn, command: string, call: number, timeoutMs: number): void {
    if (call !== p.callSeq || !p.inCall) return;
    const timer = this.schedule(this.t + timeoutMs, RESUME, p, undefined, null, p.owner, call);
    timer.timer = c.timerMeta(command, timeoutMs);
    p.callTimer = timer;
  }

  /** A reply leaves for the client and reaches it at `at` (network I/O of the client). */
  protected reply(p: Proc, at: number, reply: Reply, call: number): void {
    this.schedule(at, RESUME, p, reply, null, p.owner, call).io = true;
  }

  protected arrive(
    c: Conn,
    p: Proc,
    argv: string[],
    sentAt: number,
    call: number,
    fromBacklog = false,
  ): void {
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
    // the frames the command pushes (most push none: the list is made by the first, in `pushed`)
    this.execPushes = NO_PUSHES_YET;
    let reply: Reply;
    const dirty = node.server.dirty;
    let pushes: Push[] | null;
    try {
      node.execArgv = argv;
      reply = node.server.exec(c.server, argv);
    } finally {
      pushes = this.execPushes as Push[] | null;
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
    const reply0 = replyToJson(reply);
    this.rec.record({ t: 0, seq: 0, kind: 'cmd', actor: p.name, node: node.id, conn: c.label, argv, reply: reply0 });
    if (reply.t === 'int' && argv[0].toLowerCase() === 'wait')
      this.rec.emit('wait.result', { actor: p.name, node: node.id, acked: Number(reply.v) });
    // server.dirty counts dataset changes as Redis does: a command that changed nothing (a failed
    // acquire, a read) has no key to record (lazy expiry is recorded by its own event).
    if (node.server.dirty !== dirty) {
      const opened = this.rec.openBatch();
      try {
        this.recordKeys(node, argv);
      } catch (e) {
        this.rec.closeBatch(opened, false);
        throw e;
      }
      this.rec.closeBatch(opened);
    }
    this.armExpiry(node);
    const leave = Math.max(this.t, node.busyUntil);
    const at = this.tcp.direct(c, false, leave);
    if (at !== null) this.reply(p, at, reply, call);
    else this.tcp.transmit(c, false, leave, (at) => this.reply(p, at, reply, call));
    if (pushes !== null) for (const x of pushes) this.deliver(x, leave);
  }

  protected drainLater(node: SimNode): void {
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
  protected pushed(c: Conn, msg: Reply): void {
    const push: Push = { conn: c, msg, publishSeq: null };
    if (isMessageFrame(msg)) this.unpublished.push(push);
    if (this.execPushes === null) this.deliver(push, this.t);
    else if (this.execPushes === NO_PUSHES_YET) this.execPushes = [push];
    else this.execPushes.push(push);
  }

  protected deliver(push: Push, leave: number): void {
    const c = push.conn;
    if (c.closed) return;
    const at = this.tcp.direct(c, false, leave);
    if (at !== null) this.arrivePush(push, at);
    else this.tcp.transmit(c, false, leave, (at) => this.arrivePush(push, at));
  }

  /** A pushed frame is on the wire and reaches the client at `at` (canWake counts it meanwhile). */
  private arrivePush(push: Push, at: number): void {
    const { conn: c, msg } = push;
    this.pushesInFlight.set(c.client, (this.pushesInFlight.get(c.client) ?? 0) + 1);
    this.wakeClients.add(c.client);
    const task = this.later(
      at,
      () => {
        this.pushesInFlight.set(c.client, this.pushesInFlight.get(c.client)! - 1);
        this.wakeClients.add(c.client);
        if (c.closed) return;
        let delivery: number | null = null;
        if (isMessageFrame(msg)) {
          const last = msg.v[msg.v.length - 1];
          const named = msg.v[msg.v.length - 2];
          const channel = named.t === 'bulk' ? named.v : null;
          const message = last.t === 'bulk' ? last.v : null;
          const causeSeq = push.publishSeq;
          // one literal each way (a field added after it moves the fields to a store of their own)
          const ev: AssembledEvent<'pubsub.deliver'> =
            causeSeq === null
              ? { t: 0, seq: 0, kind: 'pubsub.deliver', actor: c.client, node: c.node, conn: c.label, channel, message }
              : { t: 0, seq: 0, kind: 'pubsub.deliver', actor: c.client, node: c.node, conn: c.label, channel, message, causeSeq };
          delivery = this.rec.record(ev).seq;
        }
        c.onPush?.(msg, delivery);
      },
      c.client,
    );
    task.io = true;
  }

  /**
   * Client-side close: nothing more goes out or comes in. The node learns one latency later, or,
   * across a partition, after what was written before the close (the FIN follows the data).
   */
  protected close(c: Conn): void {
    c.closed = true;
    this.owners.get(c.client)?.conns.delete(c);
    const fin = (at: number) =>
      this.later(at, () => {
        const node = this.nodes.get(c.node);
        if (node !== undefined) node.conns.delete(c);
        if (c.server === null || node === undefined) return;
        node.server.disconnect(c.server);
        c.server = null;
        this.rec.emit('conn.close', { actor: c.client, node: c.node, conn: c.label });
      });
    // a resetting partition: the node learns at once, as it always did in the model
    if (this.net.resets && c.toNode === null) fin(this.net.arrival(c.client, c.node, this.t));
    else this.tcp.transmit(c, true, this.t, fin);
  }

  protected build(node: SimNode): RedisServer {
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
          const ev = this.rec.record({ t: 0, seq: 0, kind: 'pubsub.publish', actor: id, node: id, channel, message, receivers });
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
      server.scripts.setTracer(scriptTracer(node, this.rec));
    }
    return server;
  }

  protected recordKeys(node: SimNode, argv: readonly string[]): void {
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
  protected resyncNode(node: SimNode): void {
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
  protected armExpiry(node: SimNode, afterCycle = false): void {
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
