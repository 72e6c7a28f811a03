/** Type-independent keyspace commands (Redis db.c): DEL, EXISTS, TYPE, KEYS, DBSIZE, FLUSH*, RENAME. */
import type { Connection } from './connection';
import { typeOfValue } from './db';
import { NO_SUCH_KEY, SYNTAX } from './errors';
import { stringMatch } from './glob';
import type { Reply } from './reply';
import { array, bulk, int, OK, status } from './reply';
import type { RedisServer } from './server';

const NONE = status('none');
const TYPE_REPLIES = {
  string: status('string'),
  hash: status('hash'),
  list: status('list'),
  zset: status('zset'),
};

/** DEL / UNLINK: expired keys are expired first, so they do not count as deleted. */
export function delCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  let deleted = 0;
  for (let j = 1; j < argv.length; j++) {
    if (s.db.lookup(argv[j]) !== undefined && s.db.delete(argv[j])) deleted++;
  }
  s.dirty += deleted;
  return int(deleted);
}

/** EXISTS counts repeated keys each time. */
export function existsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  let n = 0;
  for (let j = 1; j < argv.length; j++) if (s.db.lookup(argv[j]) !== undefined) n++;
  return int(n);
}

export function typeCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  return v === undefined ? NONE : TYPE_REPLIES[typeOfValue(v)];
}

/** KEYS skips logically expired keys without deleting them (db.c keysCommand). */
export function keysCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const pattern = argv[1];
  const all = pattern === '*';
  const out: Reply[] = [];
  for (const key of s.db.keys()) {
    if ((all || stringMatch(pattern, key)) && !s.db.isExpired(key)) out.push(bulk(key));
  }
  return array(out);
}

export function dbsizeCommand(s: RedisServer): Reply {
  return int(s.db.size);
}

/** FLUSHALL / FLUSHDB [ASYNC|SYNC] (db.c getFlushCommandFlags). */
export function flushCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (argv.length > 2) return SYNTAX;
  if (argv.length === 2) {
    const mode = argv[1].toLowerCase();
    if (mode !== 'sync' && mode !== 'async') return SYNTAX;
  }
  if (s.watches.active) s.watches.touchAll((key) => s.db.has(key));
  s.db.flush();
  // Replicated even when the db was already empty (forceCommandPropagation in db.c).
  s.dirty++;
  s.forcePropagation();
  return OK;
}

/** RENAME moves the value and its TTL; a rename onto itself just checks the key exists. */
export function renameCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const [, src, dst] = argv;
  const v = s.db.lookup(src);
  if (v === undefined) return NO_SUCH_KEY;
  if (src === dst) return OK;
  const when = s.db.getExpire(src);
  s.db.lookup(dst);
  s.db.delete(dst);
  s.db.delete(src);
  s.db.put(dst, v);
  if (when !== undefined) s.db.setExpire(dst, when);
  s.dirty++;
  return OK;
}
