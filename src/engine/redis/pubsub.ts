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

const SUBSCRIBE = bulk('subscribe');
const UNSUBSCRIBE = bulk('unsubscribe');
const PSUBSCRIBE = bulk('psubscribe');
const PUNSUBSCRIBE = bulk('punsubscribe');
const MESSAGE = bulk('message');
const PMESSAGE = bulk('pmessage');
const SSUBSCRIBE = bulk('ssubscribe');
const SUNSUBSCRIBE = bulk('sunsubscribe');
const SMESSAGE = bulk('smessage');

export class PubSub {
  /** channel → subscribers in subscription order (server.pubsub_channels) */
  private readonly channels = new Map<string, Connection[]>();
  /** pattern → subscribers in subscription order (server.pubsub_patterns) */
  private readonly patterns = new Map<string, Connection[]>();
  /** shard channel → subscribers (server.pubsubshard_channels; one shard outside cluster mode) */
  private readonly shardChannels = new Map<string, Connection[]>();

  constructor(private readonly onPublish?: (channel: string, message: string, receivers: number) => void) {}

  subscribe(c: Connection, channels: readonly string[]): Reply {
    return this.confirmEach(c, channels, (ch) => {
      if (!c.channels.has(ch)) {
        c.channels.add(ch);
        addTo(this.channels, ch, c);
      }
      return array([SUBSCRIBE, bulk(ch), int(c.subscriptionCount)]);
    });
  }

  psubscribe(c: Connection, patterns: readonly string[]): Reply {
    return this.confirmEach(c, patterns, (p) => {
      if (!c.patterns.has(p)) {
        c.patterns.add(p);
        addTo(this.patterns, p, c);
      }
      return array([PSUBSCRIBE, bulk(p), int(c.subscriptionCount)]);
    });
  }

  /** UNSUBSCRIBE: the named channels, or all of them (a lone [unsubscribe, nil, 0] when there are none). */
  unsubscribe(c: Connection, channels: readonly string[]): Reply {
    if (channels.length === 0) {
      if (c.channels.size === 0) return array([UNSUBSCRIBE, NIL, int(c.subscriptionCount)]);
      channels = [...c.channels];
    }
    return this.confirmEach(c, channels, (ch) => {
      if (c.channels.delete(ch)) removeFrom(this.channels, ch, c);
      return array([UNSUBSCRIBE, bulk(ch), int(c.subscriptionCount)]);
    });
  }

  punsubscribe(c: Connection, patterns: readonly string[]): Reply {
    if (patterns.length === 0) {
      if (c.patterns.size === 0) return array([PUNSUBSCRIBE, NIL, int(c.subscriptionCount)]);
      patterns = [...c.patterns];
    }
    return this.confirmEach(c, patterns, (p) => {
      if (c.patterns.delete(p)) removeFrom(this.patterns, p, c);
      return array([PUNSUBSCRIBE, bulk(p), int(c.subscriptionCount)]);
    });
  }

  /** SSUBSCRIBE: the count in each confirmation is the client's shard channels only. */
  ssubscribe(c: Connection, channels: readonly string[]): Reply {
    return this.confirmEach(c, channels, (ch) => {
      if (!c.shardChannels.has(ch)) {
        c.shardChannels.add(ch);
        addTo(this.shardChannels, ch, c);
      }
      return array([SSUBSCRIBE, bulk(ch), int(c.shardChannels.size)]);
    });
  }

  sunsubscribe(c: Connection, channels: readonly string[]): Reply {
    if (channels.length === 0) {
      if (c.shardChannels.size === 0) return array([SUNSUBSCRIBE, NIL, int(0)]);
      channels = [...c.shardChannels];
    }
    return this.confirmEach(c, channels, (ch) => {
      if (c.shardChannels.delete(ch)) removeFrom(this.shardChannels, ch, c);
      return array([SUNSUBSCRIBE, bulk(ch), int(c.shardChannels.size)]);
    });
  }

  /** SPUBLISH: shard-channel subscribers only; patterns do not apply. */
  spublish(channel: string, message: string): number {
    let receivers = 0;
    const subs = this.shardChannels.get(channel);
    if (subs !== undefined) {
      const msg = array([SMESSAGE, bulk(channel), bulk(message)]);
      for (const c of subs.slice()) {
        c.send(msg);
        receivers++;
      }
    }
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
        c.send(array([SUNSUBSCRIBE, bulk(ch), int(c.shardChannels.size)]));
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
    let receivers = 0;
    const subs = this.channels.get(channel);
    if (subs !== undefined) {
      const msg = array([MESSAGE, bulk(channel), bulk(message)]);
      // A receiver may unsubscribe from inside its push callback: iterate a stable copy.
      for (const c of subs.length === 1 ? subs : subs.slice()) {
        c.send(msg);
        receivers++;
      }
    }
    if (this.patterns.size !== 0) {
      for (const [pattern, clients] of [...this.patterns]) {
        if (!stringMatch(pattern, channel)) continue;
        const msg = array([PMESSAGE, bulk(pattern), bulk(channel), bulk(message)]);
        for (const c of clients.slice()) {
          c.send(msg);
          receivers++;
        }
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

  private confirmEach(c: Connection, names: readonly string[], one: (name: string) => Reply): Reply {
    const first = one(names[0]);
    for (let i = 1; i < names.length; i++) c.send(one(names[i]));
    return first;
  }
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

export function subscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.subscribe(c, argv.slice(1));
}

export function unsubscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.unsubscribe(c, argv.slice(1));
}

export function psubscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.psubscribe(c, argv.slice(1));
}

export function punsubscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.punsubscribe(c, argv.slice(1));
}

/**
 * Outside cluster mode PUBLISH always goes to replicas, so their subscribers hear it too; a
 * cluster node sends it over the cluster bus to every other node instead (pubsub.c
 * pubsubPublishMessageAndPropagateToCluster). The count is this node's receivers only.
 */
export function publishCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const receivers = s.pubsub.publish(argv[1], argv[2]);
  if (s.cluster !== undefined) s.cluster.publishToBus(argv[1], argv[2]);
  else s.forcePropagation();
  return int(receivers);
}

export function pubsubChannelsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (argv.length > 3) return subcommandSyntaxError(argv);
  return array(s.pubsub.activeChannels(argv.length === 3 ? argv[2] : null).map((ch) => bulk(ch)));
}

export function pubsubNumsubCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) out.push(bulk(argv[j]), int(s.pubsub.numSub(argv[j])));
  return array(out);
}

export function pubsubNumpatCommand(s: RedisServer): Reply {
  return int(s.pubsub.numPat());
}

export function ssubscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.ssubscribe(c, argv.slice(1));
}

export function sunsubscribeCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  return s.pubsub.sunsubscribe(c, argv.slice(1));
}

/** Like PUBLISH, but on a cluster node the bus carries it to the node's shard only. */
export function spublishCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const receivers = s.pubsub.spublish(argv[1], argv[2]);
  if (s.cluster !== undefined) s.cluster.publishShardToBus?.(argv[1], argv[2]);
  else s.forcePropagation();
  return int(receivers);
}

export function pubsubShardchannelsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (argv.length > 3) return subcommandSyntaxError(argv);
  return array(s.pubsub.activeShardChannels(argv.length === 3 ? argv[2] : null).map((ch) => bulk(ch)));
}

export function pubsubShardnumsubCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) out.push(bulk(argv[j]), int(s.pubsub.shardNumSub(argv[j])));
  return array(out);
}
