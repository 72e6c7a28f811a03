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
 *
 * A subscribed channel holds a slot of the client's pub/sub pool (SubscriptionPool). When none is
 * free the subscriber waits, holding its channel lock, as each release does (`subscriptionPoolWait`):
 * up to 3.16.7 until the caller's bound; from 3.16.8 the pool wait is cancelled and retried every
 * retry delay, and after `retryAttempts` retries fails with "Unable to acquire connection for
 * subscription after N attempts"; 3.16.8-3.23.x also bound the channel-lock wait by `timeout`.
 */
import {
  acquire,
  acquireEffect,
  call,
  callEffect,
  sleep,
  type AcquireResult,
  type ConnectionRef,
  type Process,
  type Semaphore,
} from '../../sim/effects';
import type { Reply } from '../../redis/reply';
import type { CommandExecutor, ServiceManager } from '../executor';
import { RedissonLockEntry } from './RedissonLockEntry';
import { SubscriptionPool } from './SubscriptionPool';

/** LockPubSub.UNLOCK_MESSAGE */
export const UNLOCK_MESSAGE = 0;
/** LockPubSub.READ_UNLOCK_MESSAGE */
export const READ_UNLOCK_MESSAGE = 1;

/** ConnectionWatchdog.BACKOFF_CAP: reconnect delays stop doubling at 2 << 12 ms */
const RECONNECT_BACKOFF_CAP = 12;

/**
 * 'timeout': the caller's own bound ran out; `{ error, timeout: true }`: Redisson's pub/sub layer
 * gave up first (a RedisTimeoutException with that text); `{ error }`: the SUBSCRIBE failed.
 */
export type SubscribeResult =
  RedissonLockEntry | 'timeout' | 'interrupted' | { error: string; timeout?: true };

const POOL_ADVICE =
  "Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.";

export class LockPubSub {
  private readonly entries = new Map<string, RedissonLockEntry>();
  private readonly byChannel = new Map<string, RedissonLockEntry>();
  private readonly channelLocks = new Map<string, Semaphore>();
  private readonly pool: SubscriptionPool;
  private reattaching = false;
  /** bumped when the scan moved channels: a reconnect loop of an older connection stops */
  private generation = 0;

  constructor(private readonly client: CommandExecutor & ServiceManager) {
    if (client.clusterMode) client.ctx.onSlotMapChange?.(client.name, () => this.onSlotMapChange());
    const { config } = client;
    this.pool = new SubscriptionPool(
      client.ctx,
      client.name,
      config.subscriptionConnectionPoolSize,
      config.subscriptionsPerConnection,
      (m, delivery) => this.onMessage(m, delivery),
      () => this.onDrop(),
    );
  }

  /**
   * PublishSubscribe.subscribe(entryName, channelName). `timeoutMs` is the caller's bound on the
   * whole subscribe (lock(): per release; tryLock: what is left of its wait; undefined: none).
   */
  *subscribe(
    entryName: string,
    channelName: string,
    timeoutMs: number | undefined,
    interruptible: boolean,
    /** the thread asking, for the trace */
    actor: string,
  ): Process<SubscribeResult> {
    const { ctx, config } = this.client;
    const deadline = timeoutMs === undefined ? undefined : ctx.now() + timeoutMs;
    const sem = this.channelLock(channelName);
    // 3.16.8-3.23.x: PublishSubscribe.subscribe's lockTimeout bounds the channel-lock wait by `timeout`
    const lockBound =
      config.traits.subscriptionPoolWait === 'connection-attempts' ? config.timeoutMs : undefined;
    const lockWait = earliest(remaining(ctx.now(), deadline), lockBound);
    // (the effects yielded in place: a helper generator per subscribe, per lock wait)
    const turn = (yield acquireEffect(sem, lockWait, interruptible)) as AcquireResult;
    if (turn === 'interrupted') return turn;
    if (turn === 'timeout') {
      if (deadline !== undefined && ctx.now() >= deadline) return 'timeout';
      const node = this.client.master(channelName);
      ctx.emit('pubsub.timeout', {
        actor,
        node,
        channel: channelName,
        waitedMs: lockWait ?? 0,
        reason: 'lock',
      });
      return {
        error: `Unable to acquire subscription lock after ${lockBound}ms. ${POOL_ADVICE}`,
        timeout: true,
      };
    }
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
    let slot: ConnectionRef | Exclude<SubscribeResult, RedissonLockEntry>;
    try {
      slot = yield* this.takeSlot(channelName, deadline, interruptible, actor);
    } catch (e) {
      // cancelled while it waited for a slot
      ctx.release(sem);
      this.drop(entry);
      throw e;
    }
    if (!isConnection(slot)) {
      ctx.release(sem);
      this.drop(entry);
      return slot;
    }
    const conn = slot;
    let reply: Reply;
    try {
      reply = (yield callEffect(conn, [this.client.pubSubCommands().subscribe, channelName])) as Reply;
    } catch (e) {
      // the waiter's future was cancelled meanwhile: the subscription is let go again
      ctx.release(sem);
      this.unsubscribe(entry, actor);
      throw e;
    }
    ctx.release(sem);
    if (reply.t === 'error') {
      this.drop(entry);
      this.pool.release(channelName);
      return { error: reply.v };
    }
    // (built whole for the recorder, head first: every lock wait subscribes)
    const { node, label } = conn;
    ctx.record({ t: 0, seq: 0, kind: 'pubsub.subscribe', actor, node, conn: label, channel: channelName });
    return entry;
  }

  /**
   * A slot of the channel's master's pool: at once when one is free, else the wait of the release
   * (see the class comment). A slot freed during the wait is handed to the longest waiter.
   */
  private *takeSlot(
    channel: string,
    deadline: number | undefined,
    interruptible: boolean,
    actor: string,
  ): Process<ConnectionRef | 'timeout' | 'interrupted' | { error: string; timeout: true }> {
    const { ctx, config } = this.client;
    const node = this.client.master(channel);
    const now = ctx.now();
    const free = this.pool.tryTake(node, channel);
    if (free) return free;
    const use = this.pool.use(node);
    ctx.emit('pubsub.wait', { actor, node, channel, used: use.used, capacity: use.capacity });
    const retries = config.traits.subscriptionPoolWait !== 'subscribe-timeout';
    for (let attempt = 0; ; attempt++) {
      // PublishSubscribeService.connect: the pool wait is cancelled after the retry delay
      // (RetryDelay.calcDelay(attempts) from 3.48) and trySubscribe queues it again
      const step = retries ? this.client.retryDelay(attempt) : undefined;
      const wait = earliest(remaining(ctx.now(), deadline), step);
      const r = yield* acquire(this.pool.waitQueue(node), wait, interruptible);
      if (r === 'acquired') return this.pool.takeHandedOver(node, channel);
      if (r === 'interrupted') return r;
      if (deadline !== undefined && ctx.now() >= deadline) {
        ctx.emit('pubsub.timeout', { actor, node, channel, waitedMs: ctx.now() - now, reason: 'bound' });
        return 'timeout';
      }
      if (retries && attempt + 1 > config.retryAttempts) {
        ctx.emit('pubsub.timeout', { actor, node, channel, waitedMs: ctx.now() - now, reason: 'attempts' });
        return {
          error: `Unable to acquire connection for subscription after ${config.retryAttempts} attempts. ${POOL_ADVICE}`,
          timeout: true,
        };
      }
    }
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
    yield acquireEffect(sem);
    entry.counter--;
    if (entry.counter === 0 && this.entries.get(entry.entryName) === entry) {
      this.drop(entry);
      const conn = this.pool.connectionOf(entry.channelName);
      if (conn) {
        const reply = (yield callEffect(conn, [
          this.client.pubSubCommands().unsubscribe,
          entry.channelName,
        ])) as Reply;
        // the slot is free once the UNSUBSCRIBE is done (PubSubConnectionEntry.release)
        this.pool.release(entry.channelName);
        if (reply.t !== 'error')
          ctx.record({
            t: 0,
            seq: 0,
            kind: 'pubsub.unsubscribe',
            actor,
            node: conn.node,
            conn: conn.label,
            channel: entry.channelName,
          });
      }
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
    if (this.byChannel.get(entry.channelName) === entry) this.byChannel.delete(entry.channelName);
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

  /**
   * SUBSCRIBE each channel again where its slot now lives (its pool slot moves with it); false at
   * the first error.
   */
  private *resubscribe(channels: readonly string[], generation: number): Process<boolean> {
    for (const channel of channels) {
      if (!this.byChannel.has(channel) || this.generation !== generation) continue;
      const conn = this.pool.move(channel, this.client.master(channel));
      const reply = yield* call(conn, [this.client.pubSubCommands().subscribe, channel]);
      if (this.generation !== generation) return true;
      if (reply.t === 'error') return false;
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
    for (const channel of this.pool.channels()) {
      const at = this.pool.masterOf(channel);
      const conn = this.pool.connectionOf(channel);
      if (!this.byChannel.has(channel) || at === undefined || conn === undefined) continue;
      if (this.client.master(channel) === at) continue;
      moved.push(channel);
      old.add(conn);
    }
    if (moved.length === 0) return;
    const { ctx } = this.client;
    for (const conn of old) {
      ctx.disconnect(conn);
      this.pool.discard(conn);
    }
    this.generation++;
    this.reattaching = false;
    const generation = this.generation;
    ctx.spawn(this.client.name, `${this.client.name}/pubsub`, this.resubscribe(moved, generation));
  }
}

function remaining(now: number, deadline: number | undefined): number | undefined {
  return deadline === undefined ? undefined : Math.max(0, deadline - now);
}

/** The smaller of two optional bounds (undefined: no bound). */
function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

function isConnection(x: unknown): x is ConnectionRef {
  return typeof x === 'object' && x !== null && 'label' in x && 'node' in x;
}
