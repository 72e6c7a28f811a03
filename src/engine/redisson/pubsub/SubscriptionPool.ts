/**
 * The client's pub/sub connections as a resource (PublishSubscribeService's free-connection list
 * over MasterSlaveEntry's pub/sub ConnectionPool): per master at most
 * `subscriptionConnectionPoolSize` connections, each carrying at most
 * `subscriptionsPerConnection` channels. A subscribed channel holds one slot until it is
 * unsubscribed. A subscribe that finds every slot taken waits for one; the waiting itself (how
 * long, which error) is the caller's, per release (LockPubSub).
 *
 * A freed slot goes to the longest waiter of that master, if any (the pool's AsyncSemaphore is
 * FIFO), so a thread that arrives later cannot overtake it.
 */
import type { ConnectionRef, Semaphore } from '../../sim/effects';
import type { SimContext, PushHandler } from '../../sim/api';

interface PooledConnection {
  readonly ref: ConnectionRef;
  readonly channels: Set<string>;
  /** closed by the client (its master lost the slots): never handed out again */
  closed?: boolean;
}

interface MasterPool {
  readonly conns: PooledConnection[];
  /** slots freed for a waiter that has not taken them yet */
  handedOver: number;
  /** a permit per slot handed to a waiter */
  readonly freed: Semaphore;
}

export interface PoolUse {
  used: number;
  capacity: number;
}

export class SubscriptionPool {
  private readonly masters = new Map<string, MasterPool>();
  /** channel -> the master whose pool holds its slot, and the connection it is on */
  private readonly placed = new Map<string, { node: string; conn: PooledConnection }>();

  constructor(
    private readonly ctx: SimContext,
    private readonly client: string,
    private readonly poolSize: number,
    private readonly perConnection: number,
    private readonly onPush: PushHandler,
    private readonly onDrop: () => void,
  ) {}

  /** The connection `channel` is subscribed on, if it holds a slot. */
  connectionOf(channel: string): ConnectionRef | undefined {
    return this.placed.get(channel)?.conn.ref;
  }

  /** The master whose pool holds `channel`'s slot. */
  masterOf(channel: string): string | undefined {
    return this.placed.get(channel)?.node;
  }

  /** Channels holding a slot, in the order they took it. */
  channels(): string[] {
    return [...this.placed.keys()];
  }

  use(node: string): PoolUse {
    const m = this.master(node);
    let used = m.handedOver;
    for (const c of m.conns) used += c.channels.size;
    return { used, capacity: this.poolSize * this.perConnection };
  }

  /** Takes a free slot of `node`'s pool for `channel` at once; null when every slot is taken. */
  tryTake(node: string, channel: string): ConnectionRef | null {
    const m = this.master(node);
    const { used, capacity } = this.use(node);
    if (used >= capacity) return null;
    return this.place(m, node, channel);
  }

  /** The semaphore a waiter for `node`'s pool blocks on; each permit is one slot handed to it. */
  waitQueue(node: string): Semaphore {
    return this.master(node).freed;
  }

  /** The waiter woken by a permit of waitQueue(node) takes the slot handed to it. */
  takeHandedOver(node: string, channel: string): ConnectionRef {
    const m = this.master(node);
    m.handedOver--;
    return this.place(m, node, channel);
  }

  /** UNSUBSCRIBE done: the channel's slot is free again (given to the longest waiter, if any). */
  release(channel: string): void {
    const p = this.placed.get(channel);
    if (!p) return;
    this.placed.delete(channel);
    p.conn.channels.delete(channel);
    this.handOver(p.node, this.master(p.node));
  }

  /**
   * The channel's master changed (a failover): its slot moves to the new master's pool, on a
   * connection with room or a new one (the model does not make a resubscription wait).
   */
  move(channel: string, node: string): ConnectionRef {
    const p = this.placed.get(channel);
    if (p && p.node === node && p.conn.closed !== true) return p.conn.ref;
    if (p) {
      this.placed.delete(channel);
      p.conn.channels.delete(channel);
      this.handOver(p.node, this.master(p.node));
    }
    return this.place(this.master(node), node, channel);
  }

  /**
   * The client closed `ref` (the slot-map scan moved its channels to another master): it leaves
   * its master's pool; its channels keep their slots until move() places them anew.
   */
  discard(ref: ConnectionRef): void {
    for (const m of this.masters.values()) {
      const i = m.conns.findIndex((c) => c.ref === ref);
      if (i < 0) continue;
      m.conns[i].closed = true;
      m.conns.splice(i, 1);
      return;
    }
  }

  private handOver(node: string, m: MasterPool): void {
    if (this.ctx.queueLength(m.freed) === 0) return;
    const { used, capacity } = this.use(node);
    if (used >= capacity) return;
    m.handedOver++;
    this.ctx.release(m.freed, 1);
  }

  private place(m: MasterPool, node: string, channel: string): ConnectionRef {
    let conn = m.conns.find((c) => c.channels.size < this.perConnection);
    if (!conn) {
      // the first connection keeps the label it always had ("A/pubsub"); more are numbered
      const label =
        m.conns.length === 0 ? `${this.client}/pubsub` : `${this.client}/pubsub-${m.conns.length + 1}`;
      conn = {
        ref: this.ctx.connect(this.client, node, label, this.onPush, this.onDrop),
        channels: new Set(),
      };
      m.conns.push(conn);
    }
    conn.channels.add(channel);
    this.placed.set(channel, { node, conn });
    return conn.ref;
  }

  private master(node: string): MasterPool {
    let m = this.masters.get(node);
    if (!m) {
      m = { conns: [], handedOver: 0, freed: this.ctx.semaphore() };
      this.masters.set(node, m);
    }
    return m;
  }
}
