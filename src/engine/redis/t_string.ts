/** String commands (Redis t_string.c). */
import type { Connection } from './connection';
import {
  arityError,
  expireTimeError,
  NOT_FLOAT,
  NOT_INTEGER,
  OVERFLOW,
  SYNTAX,
  WOULD_PRODUCE_NAN,
  WRONGTYPE,
} from './errors';
import { addLongDouble, formatLongDouble, parseLongDouble } from './long_double';
import { addInt64, parseLongLong } from './numbers';
import type { Reply } from './reply';
import { array, bulk, int, NIL, OK } from './reply';
import type { RedisServer } from './server';

const LLONG_MAX = 9223372036854775807n;

const SET_NX = 1;
const SET_XX = 2;
const SET_GET = 4;
const SET_KEEPTTL = 8;
const SET_EX = 16;
const SET_PX = 32;
const SET_EXAT = 64;
const SET_PXAT = 128;
const ANY_EXPIRE = SET_EX | SET_PX | SET_EXAT | SET_PXAT;

function isOpt(s: string, a: number, b: number): boolean {
  // Two-letter, case-insensitive option test without allocating (NX, XX, EX, PX).
  return s.length === 2 && (s.charCodeAt(0) | 32) === a && (s.charCodeAt(1) | 32) === b;
}

/**
 * t_string.c getExpireMillisecondsOrReply: the absolute deadline in ms, or an error. Relative
 * times (EX/PX) are based on the live clock, as in 7.0 even inside scripts.
 */
function expireDeadline(s: RedisServer, raw: string, flags: number, fullname: string): number | Reply {
  const v = parseLongLong(raw);
  if (v === null) return NOT_INTEGER;
  let ms = BigInt(v);
  const seconds = (flags & (SET_EX | SET_EXAT)) !== 0;
  if (ms <= 0n || (seconds && ms > LLONG_MAX / 1000n)) return expireTimeError(fullname);
  if (seconds) ms *= 1000n;
  if ((flags & (SET_EX | SET_PX)) !== 0) ms += BigInt(s.mstime());
  // C's signed overflow wraps negative here, which Redis then reports as an invalid time.
  if (ms > LLONG_MAX || ms <= 0n) return expireTimeError(fullname);
  return Number(ms);
}

/** setGenericCommand: shared by SET, SETNX, SETEX, PSETEX. */
function setGeneric(
  s: RedisServer,
  flags: number,
  key: string,
  value: string,
  expire: string | null,
  fullname: string,
  okReply: Reply,
  abortReply: Reply,
): Reply {
  let deadline = -1;
  if (expire !== null) {
    const d = expireDeadline(s, expire, flags, fullname);
    if (typeof d !== 'number') return d;
    deadline = d;
  }
  const db = s.db;
  let old: Reply = NIL;
  const cur = db.lookup(key);
  if ((flags & SET_GET) !== 0) {
    if (cur !== undefined) {
      if (typeof cur !== 'string') return WRONGTYPE;
      old = bulk(cur);
    }
  }
  const found = cur !== undefined;
  if (((flags & SET_NX) !== 0 && found) || ((flags & SET_XX) !== 0 && !found)) {
    return (flags & SET_GET) !== 0 ? old : abortReply;
  }
  db.setKey(key, value, (flags & SET_KEEPTTL) !== 0);
  s.dirty++;
  if (deadline >= 0) {
    db.setExpire(key, deadline);
    // Any expire option reaches replicas as SET key value PXAT <ms>, other options dropped.
    s.rewrite(['SET', key, value, 'PXAT', String(deadline)]);
  }
  return (flags & SET_GET) !== 0 ? old : okReply;
}

const SET_PERSIST = 256;

/** The expire flag `opt` names (`lower`: opt in lower case when longer than 2), or 0. */
function expireOption(opt: string, lower: string): number {
  if (isOpt(opt, 101, 120)) return SET_EX;
  if (isOpt(opt, 112, 120)) return SET_PX;
  if (lower === 'exat') return SET_EXAT;
  if (lower === 'pxat') return SET_PXAT;
  return 0;
}

/**
 * t_string.c parseExtendedStringArgumentsOrReply, for SET (options from argv[3]) and GETEX
 * (from argv[2]): repeated options are fine, conflicting ones are a syntax error.
 */
function parseExtended(
  argv: string[],
  from: number,
  isSet: boolean,
): { flags: number; expire: string | null } | Reply {
  let flags = 0;
  let expire: string | null = null;
  for (let j = from; j < argv.length; j++) {
    const opt = argv[j];
    const next = j + 1 < argv.length ? argv[j + 1] : null;
    const lower = opt.length > 2 ? opt.toLowerCase() : '';
    if (isSet && isOpt(opt, 110, 120) && !(flags & SET_XX)) flags |= SET_NX;
    else if (isSet && isOpt(opt, 120, 120) && !(flags & SET_NX)) flags |= SET_XX;
    else if (isSet && lower === 'get') flags |= SET_GET;
    else if (isSet && lower === 'keepttl' && !(flags & (ANY_EXPIRE | SET_PERSIST))) flags |= SET_KEEPTTL;
    else if (!isSet && lower === 'persist' && !(flags & (ANY_EXPIRE | SET_KEEPTTL))) flags |= SET_PERSIST;
    else {
      // EX, PX, EXAT, PXAT: each takes a value and excludes the other three, KEEPTTL and PERSIST.
      const e = expireOption(opt, lower);
      if (e === 0 || flags & (SET_KEEPTTL | SET_PERSIST | (ANY_EXPIRE & ~e)) || next === null) return SYNTAX;
      flags |= e;
      expire = next;
      j++;
    }
  }
  return { flags, expire };
}

/** SET key value [NX|XX] [GET] [EX s|PX ms|EXAT ts|PXAT ts|KEEPTTL]. */
export function setCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const opts = parseExtended(argv, 3, true);
  if ('t' in opts) return opts;
  return setGeneric(s, opts.flags, argv[1], argv[2], opts.expire, 'set', OK, NIL);
}

/**
 * GETEX key [EX s|PX ms|EXAT ts|PXAT ts|PERSIST]: never replicated as itself, but as the
 * PEXPIREAT, DEL or PERSIST it amounted to.
 */
export function getexCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const opts = parseExtended(argv, 2, false);
  if ('t' in opts) return opts;
  const key = argv[1];
  const v = s.db.lookup(key);
  if (v === undefined) return NIL;
  if (typeof v !== 'string') return WRONGTYPE;
  let deadline = 0;
  if (opts.expire !== null) {
    const d = expireDeadline(s, opts.expire, opts.flags, 'getex');
    if (typeof d !== 'number') return d;
    deadline = d;
  }
  if (opts.flags & (SET_EXAT | SET_PXAT) && deadline <= s.mstime()) {
    s.db.delete(key);
    s.dirty++;
    s.rewrite(['DEL', key]);
  } else if (opts.expire !== null) {
    s.db.setExpire(key, deadline);
    s.dirty++;
    s.rewrite(['PEXPIREAT', key, String(deadline)]);
  } else if (opts.flags & SET_PERSIST && s.db.removeExpire(key)) {
    s.dirty++;
    s.rewrite(['PERSIST', key]);
  }
  return bulk(v);
}

export function setnxCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return setGeneric(s, SET_NX, argv[1], argv[2], null, 'setnx', int(1), int(0));
}

export function setexCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return setGeneric(s, SET_EX, argv[1], argv[3], argv[2], 'setex', OK, NIL);
}

export function psetexCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return setGeneric(s, SET_PX, argv[1], argv[3], argv[2], 'psetex', OK, NIL);
}

export function getCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v === undefined) return NIL;
  if (typeof v !== 'string') return WRONGTYPE;
  return bulk(v);
}

export function getdelCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v === undefined) return NIL;
  if (typeof v !== 'string') return WRONGTYPE;
  s.db.delete(argv[1]);
  s.dirty++;
  s.rewrite(['DEL', argv[1]]);
  return bulk(v);
}

export function getsetCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v !== undefined && typeof v !== 'string') return WRONGTYPE;
  s.db.setKey(argv[1], argv[2], false);
  s.dirty++;
  s.rewrite(['SET', argv[1], argv[2]]);
  return v === undefined ? NIL : bulk(v);
}

export function mgetCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const out: Reply[] = [];
  for (let j = 1; j < argv.length; j++) {
    const v = s.db.lookup(argv[j]);
    out.push(typeof v === 'string' ? bulk(v) : NIL);
  }
  return array(out);
}

export function msetCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (argv.length % 2 === 0) return arityError('mset');
  for (let j = 1; j < argv.length; j += 2) s.db.setKey(argv[j], argv[j + 1], false);
  s.dirty += (argv.length - 1) / 2;
  return OK;
}

export function strlenCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v === undefined) return int(0);
  if (typeof v !== 'string') return WRONGTYPE;
  return int(v.length);
}

export function appendCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v !== undefined && typeof v !== 'string') return WRONGTYPE;
  const nv = (v ?? '') + argv[2];
  s.db.put(argv[1], nv);
  s.dirty++;
  return int(nv.length);
}

/** incrDecrCommand: the stored value must be a canonical int64; the result must not overflow. */
function incrDecr(s: RedisServer, key: string, incr: number | bigint): Reply {
  const v = s.db.lookup(key);
  let cur: number | bigint = 0;
  if (v !== undefined) {
    if (typeof v !== 'string') return WRONGTYPE;
    const n = parseLongLong(v);
    if (n === null) return NOT_INTEGER;
    cur = n;
  }
  const r = addInt64(cur, incr);
  if (r === null) return OVERFLOW;
  s.db.put(key, String(r));
  s.dirty++;
  return int(r);
}

export function incrCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return incrDecr(s, argv[1], 1);
}

export function decrCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return incrDecr(s, argv[1], -1);
}

export function incrbyCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const incr = parseLongLong(argv[2]);
  if (incr === null) return NOT_INTEGER;
  return incrDecr(s, argv[1], incr);
}

export function decrbyCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const incr = parseLongLong(argv[2]);
  if (incr === null) return NOT_INTEGER;
  if (incr === -9223372036854775808n) return DECREMENT_OVERFLOW;
  return incrDecr(s, argv[1], typeof incr === 'number' ? -incr : -incr);
}

const DECREMENT_OVERFLOW: Reply = Object.freeze({ t: 'error', v: 'ERR decrement would overflow' });

export function incrbyfloatCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = s.db.lookup(argv[1]);
  if (v !== undefined && typeof v !== 'string') return WRONGTYPE;
  const cur = v === undefined ? parseLongDouble('0') : parseLongDouble(v);
  if (cur === null) return NOT_FLOAT;
  const incr = parseLongDouble(argv[2]);
  if (incr === null) return NOT_FLOAT;
  const sum = addLongDouble(cur, incr);
  if (sum === null || sum.inf) return WOULD_PRODUCE_NAN;
  const out = formatLongDouble(sum);
  s.db.put(argv[1], out);
  s.dirty++;
  // Replicas must not redo the float arithmetic (t_string.c incrbyfloatCommand).
  s.rewrite(['SET', argv[1], out, 'KEEPTTL']);
  return bulk(out);
}
