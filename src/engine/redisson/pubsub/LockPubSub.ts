/**
 * LockPubSub (PublishSubscribe<RedissonLockEntry>): one entry per client per lock, shared by the
 * client's waiting threads. The first thread to subscribe sends SUBSCRIBE on the client's pub/sub
 * connection; the others only count themselves in. The last one to leave sends UNSUBSCRIBE.
 *
 * As in Redisson, subscribe and unsubscribe of a channel are serialised by a per-channel
 * semaphore (Redisson stripes channels over 50 AsyncSemaphores; one per channel keeps the same
 * order for any one lock), so a second subscriber waits until the first SUBSCRIBE is answered.
 * In a cluster the channel's slot picks the node (PublishSubscribeService.getEntry(channelName)),
 * and from 3.22.0 the lock channel is a shard channel (SSUBSCRIBE, messages as `smessage`).
 * When the client's slot-map scan sees a channel's slot on a new master (a failover, after a
 * crash or a partition alike), the old master's entry is shut down: its pub/sub connections are
 * closed and their channels subscribed again on the new master (ClusterConnectionManager.addEntry
 * → shutdownEntry → ClientConnectionsEntry.nodeDown → reattachPubSub, 4.7.0; changeMaster →
 * slaveDown / removeMaster → reattachPubSub in 3.11.6 and 3.27.2).
 */
import { acquire, call, sleep, type ConnectionRef, type Process, type Semaphore } from '../../sim/effects';
import type { Reply } from '../../redis/reply';
import type { CommandExecutor, ServiceManager } from '../executor';
import { RedissonLockEntry } from './RedissonLockEntry';

/** LockPubSub.UNLOCK_MESSAGE */
export const UNLOCK_MESSAGE = 0;
/** LockPubSub.READ_UNLOCK_MESSAGE */
export const READ_UNLOCK_MESSAGE = 1;

/** ConnectionWatchdog.BACKOFF_CAP: reconnect delays stop doubling at 2 << 12 ms */
const RECONNECT_BACKOFF_CAP = 12;

export type SubscribeResult = RedissonLockEntry | 'timeout' | 'interrupted' | { error: string };

export class LockPubSub {
  private readonly entries = new Map<string, RedissonLockEntry>();
  private readonly byChannel = new Map<string, RedissonLockEntry>();
  private readonly channelLocks = new Map<string, Semaphore>();
  private readonly conns = new Map<string, ConnectionRef>();
  private reattaching = false;
  /** channel -> the connection its subscription lives on */
  private readonly subscribedOn = new Map<string, ConnectionRef>();
  /** bumped when the scan moved channels: a reconnect loop of an older connection stops */
  private generation = 0;

  constructor(private readonly client: CommandExecutor & ServiceManager) {
    if (client.clusterMode) client.ctx.onSlotMapChange?.(client.name, () => this.onSlotMapChange());
  }

  /** PublishSubscribe.subscribe(entryName, channelName), waiting at most timeoutMs for its turn. */
  *subscribe(
    entryName: string,
    channelName: string,
    timeoutMs: number,
    interruptible: boolean,
    /** the thread asking, for the trace */
    actor: string,
  ): Process<SubscribeResult> {
    const { ctx } = this.client;
    const sem = this.channelLock(channelName);
    const turn = yield* acquire(sem, timeoutMs, interruptible);
    if (turn !== 'acquired') return turn;
    const existing = this.entries.get(entryName);
    if (existing) {
      existing.counter++;
      ctx.release(sem);
      return existing;
    }
    const entry = new RedissonLockEntry(entryName, channelName, ctx.semaphore());
    entry.counter = 1;
    this.entries.set(entryName, entry);
    this.byChannel.set(channelName, entry);
    const conn = this.connection(channelName);
    let reply: Reply;
    try {
      reply = yield* call(conn, [this.client.pubSubCommands().subscribe, channelName]);
    } catch (e) {
      // the waiter's future was cancelled meanwhile: the subscription is let go again
      ctx.release(sem);
      this.unsubscribe(entry, actor);
      throw e;
    }
    ctx.release(sem);
    if (reply.t === 'error') {
      this.drop(entry);
      return { error: reply.v };
    }
    this.subscribedOn.set(channelName, conn);
    ctx.emit('pubsub.subscribe', { actor, node: conn.node, conn: conn.label, channel: channelName });
    return entry;
  }

  /**
   * PublishSubscribe.unsubscribe: the calling thread does not wait for it (Redisson returns a
   * future nobody joins), so a small process of the client does the bookkeeping and UNSUBSCRIBE.
   */
  unsubscribe(entry: RedissonLockEntry, actor: string): void {
    this.client.ctx.spawn(
      this.client.name,
      `${this.client.name}/pubsub`,
      this.unsubscribeLocked(entry, actor),
    );
  }

  private *unsubscribeLocked(entry: RedissonLockEntry, actor: string): Process<void> {
    const { ctx } = this.client;
    const sem = this.channelLock(entry.channelName);
    yield* acquire(sem);
    entry.counter--;
    if (entry.counter === 0 && this.entries.get(entry.entryName) === entry) {
      this.drop(entry);
      const conn = this.connection(entry.channelName);
      const reply = yield* call(conn, [this.client.pubSubCommands().unsubscribe, entry.channelName]);
      if (reply.t !== 'error')
        ctx.emit('pubsub.unsubscribe', {
          actor,
          node: conn.node,
          conn: conn.label,
          channel: entry.channelName,
        });
    }
    ctx.release(sem);
  }

  /** Threads of this client currently subscribed to the lock's channel (for tests and inspectors). */
  subscribers(entryName: string): number {
    return this.entries.get(entryName)?.counter ?? 0;
  }

  private onMessage(msg: Reply, delivery: number | null): void {
    if (msg.t !== 'array' || !msg.v || msg.v.length < 3) return;
    const [kind, channel, payload] = msg.v;
    if (kind.t !== 'bulk' || channel.t !== 'bulk' || payload.t !== 'bulk') return;
    if (kind.v !== 'message' && kind.v !== 'smessage') return;
    const entry = this.byChannel.get(channel.v ?? '');
    if (!entry) return;
    // LockPubSub.onMessage: UNLOCK_MESSAGE wakes one waiter of this client.
    if (payload.v === String(UNLOCK_MESSAGE)) this.release(entry, 1, delivery);
    // READ_UNLOCK_MESSAGE (a write lock let go) wakes them all: as many permits as threads are
    // blocked on the latch right now (getQueueLength()), none when nobody waits.
    else if (payload.v === String(READ_UNLOCK_MESSAGE)) {
      const waiting = this.client.ctx.queueLength(entry.latch);
      if (waiting > 0) this.release(entry, waiting, delivery);
    }
  }

  private release(entry: RedissonLockEntry, permits: number, delivery: number | null): void {
    if (delivery !== null) for (let i = 0; i < permits; i++) entry.permitCauses.push(delivery);
    this.client.ctx.release(entry.latch, permits);
  }

  private drop(entry: RedissonLockEntry): void {
    this.entries.delete(entry.entryName);
    if (this.byChannel.get(entry.channelName) === entry) {
      this.byChannel.delete(entry.channelName);
      this.subscribedOn.delete(entry.channelName);
    }
  }

  private channelLock(channel: string): Semaphore {
    let s = this.channelLocks.get(channel);
    if (!s) {
      s = this.client.ctx.semaphore();
      this.client.ctx.release(s, 1);
      this.channelLocks.set(channel, s);
    }
    return s;
  }

  private connection(channel: string): ConnectionRef {
    const node = this.client.master(channel);
    let c = this.conns.get(node);
    if (!c) {
      c = this.client.ctx.connect(
        this.client.name,
        node,
        `${this.client.name}/pubsub`,
        (m, delivery) => this.onMessage(m, delivery),
        () => this.onDrop(),
      );
      this.conns.set(node, c);
    }
    return c;
  }

  /**
   * The node lost our pub/sub connection (it crashed): its subscriptions are gone. Redisson's
   * ConnectionWatchdog reconnects with a doubling backoff (2, 4, 8 ... ms, capped at 2 << 12)
   * and subscribes the connection's channels again. Waiting threads are not woken; they keep
   * waiting for their ttl or for the next message.
   */
  private onDrop(): void {
    if (this.reattaching) return;
    this.reattaching = true;
    this.client.ctx.spawn(this.client.name, `${this.client.name}/pubsub`, this.reattach());
  }

  /**
   * The model cannot see a refused connect, so an attempt is the re-SUBSCRIBE itself: against a
   * node that is still down it is lost and fails after the response timeout, then the next
   * backoff step follows. It goes to the current master, so it also follows a failover.
   */
  private *reattach(): Process<void> {
    const generation = this.generation;
    for (let attempt = 0; ; attempt++) {
      yield* sleep(2 << Math.min(attempt, RECONNECT_BACKOFF_CAP));
      if (this.generation !== generation) return;
      if (yield* this.resubscribe([...this.byChannel.keys()], generation)) break;
    }
    this.reattaching = false;
  }

  /** SUBSCRIBE each channel again where its slot now lives; false at the first error. */
  private *resubscribe(channels: readonly string[], generation: number): Process<boolean> {
    for (const channel of channels) {
      if (!this.byChannel.has(channel) || this.generation !== generation) continue;
      const conn = this.connection(channel);
      const reply = yield* call(conn, [this.client.pubSubCommands().subscribe, channel]);
      if (this.generation !== generation) return true;
      if (reply.t === 'error') return false;
      this.subscribedOn.set(channel, conn);
      this.client.ctx.emit('pubsub.subscribe', {
        actor: `${this.client.name}/pubsub`,
        node: conn.node,
        conn: conn.label,
        channel,
        resubscribe: true,
      });
    }
    return true;
  }

  /**
   * The scan changed the slot map: the pub/sub connections to a node that no longer serves a
   * subscribed channel's slot are closed (a reconnect loop on them ends) and those channels are
   * subscribed again on their slot's new master. Waiting threads are not woken.
   */
  private onSlotMapChange(): void {
    const moved: string[] = [];
    const old = new Set<ConnectionRef>();
    for (const [channel, conn] of this.subscribedOn)
      if (this.byChannel.has(channel) && this.client.master(channel) !== conn.node) {
        moved.push(channel);
        old.add(conn);
      }
    if (moved.length === 0) return;
    const { ctx } = this.client;
    for (const conn of old) {
      ctx.disconnect(conn);
      if (this.conns.get(conn.node) === conn) this.conns.delete(conn.node);
    }
    this.generation++;
    this.reattaching = false;
    const generation = this.generation;
    ctx.spawn(this.client.name, `${this.client.name}/pubsub`, this.resubscribe(moved, generation));
  }
}
