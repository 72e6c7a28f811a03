/**
 * A keyspace rebuilt from the trace's key views, for answering a read as the node would have at
 * some instant (the playground's console, a CLI that inspects a frame). Redis itself restores a
 * dataset from an RDB file, not by replaying commands; so does this: values go straight into the
 * Db, which keeps every zset score bit-exact and every expiry, even one already past (a read then
 * expires it lazily, as the node would have).
 */
import type { Clock } from '../clock';
import type { KeyView } from '../trace/types';
import type { DbCheckpoint, StoredValue } from '../redis/db';
import { RedisServer } from '../redis/server';
import { ZSet } from '../redis/zset_value';

/**
 * A key view's zset score back to the double it was printed from. Views print scores with
 * JavaScript's shortest round-trip form (String(number)), which Number() inverts exactly for
 * every double, ±Infinity included; parsing it as a ZADD argument would not accept "Infinity".
 */
function scoreOf(text: string, key: string, member: string): number {
  const d = Number(text);
  if (Number.isNaN(d) || text.trim() === '')
    throw new Error(`key ${key}: member ${member} has score "${text}"`);
  return d;
}

function storedValue(k: KeyView): StoredValue {
  switch (k.type) {
    case 'string':
      return k.value as string;
    case 'hash':
      return new Map(k.value as [string, string][]);
    case 'list':
      return (k.value as string[]).slice();
    case 'zset': {
      const z = new ZSet();
      for (const [m, score] of k.value as [string, string][]) z.set(m, scoreOf(score, k.key, m));
      return z;
    }
  }
}

/** A Db checkpoint holding exactly `views`; restore it with `Db.restore`. */
export function checkpointFromKeyViews(views: Iterable<KeyView>): DbCheckpoint {
  const dict = new Map<string, StoredValue>();
  const expires = new Map<string, number>();
  for (const k of views) {
    dict.set(k.key, storedValue(k));
    if (k.expireAt !== null) expires.set(k.key, k.expireAt);
  }
  return { dict, expires };
}

/** A standalone server whose keyspace is `views`, on `clock`. */
export function serverFromKeyViews(views: Iterable<KeyView>, clock: Clock): RedisServer {
  const server = new RedisServer({ clock });
  server.db.restore(checkpointFromKeyViews(views));
  return server;
}
