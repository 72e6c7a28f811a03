import { TxState } from './multi';
import type { Reply } from './reply';
import type { WaitBlock } from './replication';

/**
 * One client connection to a RedisServer (networking.c `client`): its identity, its pub/sub
 * subscriptions and where pushed frames go. Created by `RedisServer.connect`.
 */
export class Connection {
  /** Channels in subscription order (pubsub.c c->pubsub_channels). */
  readonly channels = new Set<string>();
  /** Patterns in subscription order (c->pubsub_patterns). */
  readonly patterns = new Set<string>();
  /** Shard channels (SSUBSCRIBE), counted apart from the others like Redis does. */
  readonly shardChannels = new Set<string>();
  closed = false;
  /** MULTI queue and WATCHed keys */
  readonly tx = new TxState();
  /** While set, frames for this connection are collected here instead of pushed (execFrames). */
  capture: Reply[] | null = null;
  /** replication offset right after this client's last propagated write (c->woff), for WAIT */
  woff = 0;
  /** set while WAIT blocks this client; the host holds the reply back (replication.ts) */
  waitBlock: WaitBlock | null = null;
  /** READONLY (CLIENT_READONLY): a cluster replica serves reads of its master's slots to this client. */
  clusterReadonly = false;

  constructor(
    readonly id: number,
    private readonly onPush: ((msg: Reply) => void) | undefined,
  ) {}

  /** Channel plus pattern subscriptions (pubsub.c clientSubscriptionsCount). */
  get subscriptionCount(): number {
    return this.channels.size + this.patterns.size;
  }

  /** RESP2 subscribe mode: only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET run. */
  get inPubSubMode(): boolean {
    return this.channels.size !== 0 || this.patterns.size !== 0 || this.shardChannels.size !== 0;
  }

  /** Sends a frame that is not the reply to the current command (messages, extra confirmations). */
  send(msg: Reply): void {
    if (this.closed) return;
    if (this.capture) this.capture.push(msg);
    else this.onPush?.(msg);
  }
}
