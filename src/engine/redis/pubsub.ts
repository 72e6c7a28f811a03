/**
 * Pub/Sub (Redis pubsub.c), RESP2 only. Each (un)subscription confirmation is its own frame, as
 * on the wire: the command's reply is the first one and the rest go out through
 * `Connection.send` (see RedisServer.exec).
 */
import type { Connection } from './connection';
import { subcommandSyntaxError } from './errors';
import { stringMatch } from './glob';
import type { Reply } from './reply';
import { array, bulk, int, NIL } from './reply';
import type { RedisServer } from './server';

const MESSAGE = bulk('message');
const PMESSAGE = bulk('pmessage');
const SMESSAGE = bulk('smessage');

/**
 * One kind of subscription (channel, pattern, shard channel): the client's own set, the server's
 * index, the confirmation frames' names, and the count they report.
 */
type KindName = 'channel' | 'pattern' | 'shard';

interface Kind {
  readonly own: (c: Connection) => Set<string>;
  readonly index: Map<string, Connection[]>;
  readonly on: Reply;
  readonly off: Reply;
  readonly count: (c: Connection) => number;
}

/** `prefix` names the frames: subscribe/unsubscribe, psubscribe/punsubscribe, ssubscribe/sunsubscribe. */
function kindOf(
  prefix: '' | 'p' | 's',
  own: (c: Connection) => Set<string>,
  index: Map<string, Connection[]>,
  count = (c: Connection) => c.subscriptionCount,
): Kind {
  return { own, index, on: bulk(`${prefix}subscribe`), off: bulk(`${prefix}unsubscribe`), count };
}

export class PubSub {
  /** channel → subscribers in subscription order (server.pubsub_channels) */
  private readonly channels = new Map<string, Connection[]>();
  /** pattern → subscribers in subscription order (server.pubsub_patterns) */
  private readonly patterns = new Map<string, Connection[]>();
  /** shard channel → subscribers (server.pubsubshard_channels; one shard outside cluster mode) */
  private readonly shardChannels = new Map<string, Connection[]>();

  private readonly kinds: Record<KindName, Kind> = {
    channel: kindOf('', (c) => c.channels, this.channels),
    pattern: kindOf('p', (c) => c.patterns, this.patterns),
    // the count in a shard frame is the client's shard channels only
    shard: kindOf(
      's',
      (c) => c.shardChannels,
      this.shardChannels,
      (c) => c.shardChannels.size,
    ),
  };

  constructor(private readonly onPublish?: (channel: string, message: string, receivers: number) => void) {}

  /** SPUBLISH: shard-channel subscribers only; patterns do not apply. */
  spublish(channel: string, message: string): number {
    const subs = this.shardChannels.get(channel);
    const receivers = subs === undefined ? 0 : deliver(subs, array([SMESSAGE, bulk(channel), bulk(message)]));
    this.onPublish?.(channel, message, receivers);
    return receivers;
  }

  /** PUBSUB SHARDCHANNELS [pattern] */
  activeShardChannels(pattern: string | null): string[] {
    const out: string[] = [];
    for (const ch of this.shardChannels.keys())
      if (pattern === null || stringMatch(pattern, ch)) out.push(ch);
    return out;
  }

  shardNumSub(channel: string): number {
    return this.shardChannels.get(channel)?.length ?? 0;
  }

  /**
   * pubsub.c pubsubShardUnsubscribeAllClients for every shard channel `drop` selects, in the order
   * given: each subscriber gets its sunsubscribe frame. Returns how many channels went.
   */
  removeShardChannels(drop: (channel: string) => boolean, order: (a: string, b: string) => number): number {
    const gone = [...this.shardChannels.keys()].filter(drop).sort(order);
    for (const ch of gone) {
      for (const c of this.shardChannels.get(ch)!) {
        c.shardChannels.delete(ch);
        c.send(array([this.kinds.shard.off, bulk(ch), int(this.kinds.shard.count(c))]));
      }
      this.shardChannels.delete(ch);
    }
    return gone.length;
  }

  /** Drops every subscription of a closing connection, without confirmations. */
  dropAll(c: Connection): void {
    for (const ch of c.channels) removeFrom(this.channels, ch, c);
    for (const p of c.patterns) removeFrom(this.patterns, p, c);
    for (const ch of c.shardChannels) removeFrom(this.shardChannels, ch, c);
    c.channels.clear();
    c.patterns.clear();
    c.shardChannels.clear();
  }

  /** Delivers to channel subscribers, then pattern subscribers; returns the number of deliveries. */
  publish(channel: string, message: string): number {
    const subs = this.channels.get(channel);
    let receivers = subs === undefined ? 0 : deliver(subs, array([MESSAGE, bulk(channel), bulk(message)]));
    if (this.patterns.size !== 0) {
      for (const [pattern, clients] of [...this.patterns]) {
        if (!stringMatch(pattern, channel)) continue;
        receivers += deliver(clients, array([PMESSAGE, bulk(pattern), bulk(channel), bulk(message)]));
      }
    }
    this.onPublish?.(channel, message, receivers);
    return receivers;
  }

  /** PUBSUB CHANNELS [pattern]: active channels (with at least one subscriber). */
  activeChannels(pattern: string | null): string[] {
    const out: string[] = [];
    for (const ch of this.channels.keys()) if (pattern === null || stringMatch(pattern, ch)) out.push(ch);
    return out;
  }

  numSub(channel: string): number {
    return this.channels.get(channel)?.length ?? 0;
  }

  /** PUBSUB NUMPAT: distinct patterns subscribed by anyone. */
  numPat(): number {
    return this.patterns.size;
  }

  /** (P|S)SUBSCRIBE: a confirmation per name, the first one as the reply. */
  subscribe(kind: KindName, c: Connection, names: readonly string[]): Reply {
    const k = this.kinds[kind];
    const own = k.own(c);
    return this.confirmEach(c, names, (name) => {
      if (!own.has(name)) {
        own.add(name);
        addTo(k.index, name, c);
      }
      return array([k.on, bulk(name), int(k.count(c))]);
    });
  }

  /** (P|S)UNSUBSCRIBE: the named ones, or all the client has (a lone [unsubscribe, nil, count] when none). */
  unsubscribe(kind: KindName, c: Connection, names: readonly string[]): Reply {
    const k = this.kinds[kind];
    const own = k.own(c);
    if (names.length === 0) {
      if (own.size === 0) return array([k.off, NIL, int(k.count(c))]);
      names = [...own];
    }
    return this.confirmEach(c, names, (name) => {
      if (own.delete(name)) removeFrom(k.index, name, c);
      return array([k.off, bulk(name), int(k.count(c))]);
    });
  }

  private confirmEach(c: Connection, names: readonly string[], one: (name: string) => Reply): Reply {
    const first = one(names[0]);
    for (let i = 1; i < names.length; i++) c.send(one(names[i]));
    return first;
  }
}

/** Sends `msg` to every subscriber in `subs`; returns how many. */
function deliver(subs: readonly Connection[], msg: Reply): number {
  // A receiver may unsubscribe from inside its push callback: iterate a stable copy.
  const receivers = subs.length === 1 ? subs : subs.slice();
  for (const c of receivers) c.send(msg);
  return receivers.length;
}

function addTo(map: Map<string, Connection[]>, name: string, c: Connection): void {
  const list = map.get(name);
  if (list === undefined) map.set(name, [c]);
  else list.push(c);
}

function removeFrom(map: Map<string, Connection[]>, name: string, c: Connection): void {
  const list = map.get(name);
  if (list === undefined) return;
  const i = list.indexOf(c);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) map.delete(name);
}

// ---- command procs -------------------------------------------------------------------------

/** An (un)subscribe command: every argument after its name is a channel or a pattern. */
function subscriptionCommand(op: 'subscribe' | 'unsubscribe', kind: KindName) {
  return (s: RedisServer, c: Connection, argv: string[]): Reply => s.pubsub[op](kind, c, argv.slice(1));
}

/** PUBSUB CHANNELS / SHARDCHANNELS [pattern]: `list` gives the active ones matching it. */
function channelsReply(argv: string[], list: (pattern: string | null) => string[]): Reply {
  if (argv.length > 3) return subcommandSyntaxError(argv);
  return array(list(argv.length === 3 ? argv[2] : null).map((ch) => bulk(ch)));
}

/** PUBSUB NUMSUB / SHARDNUMSUB channel...: each channel and its `count`. */
function numsubReply(argv: string[], count: (channel: string) => number): Reply {
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) out.push(bulk(argv[j]), int(count(argv[j])));
  return array(out);
}

export const subscribeCommand = subscriptionCommand('subscribe', 'channel');

export const unsubscribeCommand = subscriptionCommand('unsubscribe', 'channel');

export const psubscribeCommand = subscriptionCommand('subscribe', 'pattern');

export const punsubscribeCommand = subscriptionCommand('unsubscribe', 'pattern');

/**
 * PUBLISH and SPUBLISH (shard subscribers only). Outside cluster mode they always go to replicas,
 * so their subscribers hear them too; a cluster node sends them over the cluster bus instead, to
 * every other node (pubsub.c pubsubPublishMessageAndPropagateToCluster) or, for SPUBLISH, to the
 * node's shard only. The count is this node's receivers only.
 */
function publishCommandOf(shard: boolean) {
  return (s: RedisServer, _c: Connection, argv: string[]): Reply => {
    const [, channel, message] = argv;
    const receivers = shard ? s.pubsub.spublish(channel, message) : s.pubsub.publish(channel, message);
    if (s.cluster === undefined) s.forcePropagation();
    else if (shard) s.cluster.publishShardToBus?.(channel, message);
    else s.cluster.publishToBus(channel, message);
    return int(receivers);
  };
}

export const publishCommand = publishCommandOf(false);

export function pubsubChannelsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return channelsReply(argv, (pattern) => s.pubsub.activeChannels(pattern));
}

export function pubsubNumsubCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return numsubReply(argv, (channel) => s.pubsub.numSub(channel));
}

export function pubsubNumpatCommand(s: RedisServer): Reply {
  return int(s.pubsub.numPat());
}

export const ssubscribeCommand = subscriptionCommand('subscribe', 'shard');

export const sunsubscribeCommand = subscriptionCommand('unsubscribe', 'shard');

export const spublishCommand = publishCommandOf(true);

export function pubsubShardchannelsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return channelsReply(argv, (pattern) => s.pubsub.activeShardChannels(pattern));
}

export function pubsubShardnumsubCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return numsubReply(argv, (channel) => s.pubsub.shardNumSub(channel));
}
