/** Hash commands (Redis t_hash.c). A hash is a Map in insertion order, like Redis's listpack. */
import { fieldCommands, keyCommand } from './command_proc';
import type { Connection } from './connection';
import {
  arityError,
  HASH_NOT_FLOAT,
  HASH_NOT_INTEGER,
  NAN_OR_INF,
  NOT_FLOAT,
  NOT_INTEGER,
  OVERFLOW,
  WOULD_PRODUCE_NAN,
  WRONGTYPE,
} from './errors';
import { addLongDouble, formatLongDouble, parseLongDouble } from './long_double';
import { addInt64, parseLongLong } from './numbers';
import type { Reply } from './reply';
import { array, bulk, EMPTY_ARRAY, int, OK } from './reply';
import { lookupKeyOrReply } from './db';
import type { RedisServer } from './server';

type Hash = Map<string, string>;

/** hashTypeLookupWriteOrCreate: creates (and stores) an empty hash when the key is missing. */
function lookupOrCreate(s: RedisServer, key: string): Hash | Reply {
  const v = s.db.lookup(key);
  if (v === undefined) {
    const h: Hash = new Map();
    s.db.put(key, h);
    return h;
  }
  return v instanceof Map ? v : WRONGTYPE;
}

function isHash(v: unknown): v is Hash {
  return v instanceof Map;
}

export function hsetCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (argv.length % 2 === 1) return arityError(argv[0].toLowerCase() === 'hmset' ? 'hmset' : 'hset');
  const h = lookupOrCreate(s, argv[1]);
  if (!isHash(h)) return h;
  let created = 0;
  for (let j = 2; j < argv.length; j += 2) {
    if (!h.has(argv[j])) created++;
    h.set(argv[j], argv[j + 1]);
  }
  s.dirty += (argv.length - 2) / 2;
  return int(created);
}

export function hmsetCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  if (argv.length % 2 === 1) return arityError('hmset');
  const r = hsetCommand(s, c, argv);
  return r.t === 'error' ? r : OK;
}

export function hsetnxCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const h = lookupOrCreate(s, argv[1]);
  if (!isHash(h)) return h;
  if (h.has(argv[2])) return int(0);
  h.set(argv[2], argv[3]);
  s.dirty++;
  return int(1);
}

const hashFields = fieldCommands(isHash, (h, field) => {
  const v = h.get(field);
  return v === undefined ? undefined : bulk(v);
});
export const hgetCommand = hashFields.one;
export const hmgetCommand = hashFields.many;

function hgetall(s: RedisServer, key: string, keys: boolean, values: boolean): Reply {
  const h = lookupKeyOrReply(s.db, key, EMPTY_ARRAY, isHash);
  if (!isHash(h)) return h;
  const out: Reply[] = [];
  for (const [f, v] of h) {
    if (keys) out.push(bulk(f));
    if (values) out.push(bulk(v));
  }
  return array(out);
}

/** HGETALL, HKEYS, HVALS: the fields, the values, or both. */
export const hgetallCommand = keyCommand(hgetall, true, true);
export const hkeysCommand = keyCommand(hgetall, true, false);
export const hvalsCommand = keyCommand(hgetall, false, true);

export function hdelCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const h = lookupKeyOrReply(s.db, argv[1], int(0), isHash);
  if (!isHash(h)) return h;
  let deleted = 0;
  for (let j = 2; j < argv.length; j++) {
    if (h.delete(argv[j])) {
      deleted++;
      if (h.size === 0) {
        s.db.delete(argv[1]);
        break;
      }
    }
  }
  s.dirty += deleted;
  return int(deleted);
}

export function hexistsCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const h = lookupKeyOrReply(s.db, argv[1], int(0), isHash);
  if (!isHash(h)) return h;
  return int(h.has(argv[2]) ? 1 : 0);
}

export function hlenCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const h = lookupKeyOrReply(s.db, argv[1], int(0), isHash);
  if (!isHash(h)) return h;
  return int(h.size);
}

export function hstrlenCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const h = lookupKeyOrReply(s.db, argv[1], int(0), isHash);
  if (!isHash(h)) return h;
  return int(h.get(argv[2])?.length ?? 0);
}

/** HINCRBY: the increment is parsed first, then the field (missing counts as 0); the TTL stays. */
export function hincrbyCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const incr = parseLongLong(argv[3]);
  if (incr === null) return NOT_INTEGER;
  const h = lookupOrCreate(s, argv[1]);
  if (!isHash(h)) return h;
  const cur = h.get(argv[2]);
  let value: number | bigint = 0;
  if (cur !== undefined) {
    const n = parseLongLong(cur);
    if (n === null) return HASH_NOT_INTEGER;
    value = n;
  }
  const r = addInt64(value, incr);
  if (r === null) return OVERFLOW;
  h.set(argv[2], String(r));
  s.dirty++;
  return int(r);
}

export function hincrbyfloatCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const incr = parseLongDouble(argv[3]);
  if (incr === null) return NOT_FLOAT;
  if (incr.inf) return NAN_OR_INF;
  const h = lookupOrCreate(s, argv[1]);
  if (!isHash(h)) return h;
  const cur = h.get(argv[2]);
  let value = parseLongDouble('0')!;
  if (cur !== undefined) {
    const v = parseLongDouble(cur);
    if (v === null) return HASH_NOT_FLOAT;
    value = v;
  }
  const sum = addLongDouble(value, incr);
  if (sum === null || sum.inf) return WOULD_PRODUCE_NAN;
  const out = formatLongDouble(sum);
  h.set(argv[2], out);
  s.dirty++;
  s.rewrite(['HSET', argv[1], argv[2], out]);
  return bulk(out);
}
