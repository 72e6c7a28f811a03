/** List commands (Redis t_list.c). A list is an array, head first; an emptied list is deleted. */
import type { Connection } from './connection';
import {
  arityError,
  INDEX_OUT_OF_RANGE,
  MUST_BE_POSITIVE,
  NO_SUCH_KEY,
  NOT_INTEGER,
  WRONGTYPE,
} from './errors';
import { parseLongLong } from './numbers';
import type { Reply } from './reply';
import { array, bulk, EMPTY_ARRAY, int, NIL, NIL_ARRAY, OK } from './reply';
import type { RedisServer } from './server';

function lookupList(s: RedisServer, key: string): string[] | undefined | Reply {
  const v = s.db.lookup(key);
  if (v === undefined || Array.isArray(v)) return v;
  return WRONGTYPE;
}

function isList(v: string[] | undefined | Reply): v is string[] {
  return Array.isArray(v);
}

/** A long argument (getLongFromObjectOrReply), or the error reply. */
function parseLong(raw: string): number | Reply {
  const n = parseLongLong(raw);
  if (n === null) return NOT_INTEGER;
  return Number(n);
}

function push(s: RedisServer, argv: string[], head: boolean, onlyIfExists: boolean): Reply {
  const v = lookupList(s, argv[1]);
  if (v !== undefined && !isList(v)) return v;
  if (v === undefined && onlyIfExists) return int(0);
  const list = v ?? [];
  if (v === undefined) s.db.put(argv[1], list);
  for (let j = 2; j < argv.length; j++) {
    if (head) list.unshift(argv[j]);
    else list.push(argv[j]);
  }
  s.dirty += argv.length - 2;
  return int(list.length);
}

export function lpushCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return push(s, argv, true, false);
}

export function rpushCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return push(s, argv, false, false);
}

export function lpushxCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return push(s, argv, true, true);
}

export function rpushxCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return push(s, argv, false, true);
}

/** LPOP/RPOP key [count]: without count a bulk (or nil); with count an array (or a nil array). */
function pop(s: RedisServer, argv: string[], head: boolean): Reply {
  if (argv.length > 3) return arityError(head ? 'lpop' : 'rpop');
  const hasCount = argv.length === 3;
  let count = 0;
  if (hasCount) {
    // getPositiveLongFromObjectOrReply: a bad number and a negative one get the same error.
    const n = parseLongLong(argv[2]);
    if (n === null || n < 0) return MUST_BE_POSITIVE;
    count = Number(n);
  }
  const v = lookupList(s, argv[1]);
  if (v === undefined) return hasCount ? NIL_ARRAY : NIL;
  if (!isList(v)) return v;
  if (hasCount && count === 0) return EMPTY_ARRAY;
  if (!hasCount) {
    const item = head ? v.shift()! : v.pop()!;
    if (v.length === 0) s.db.delete(argv[1]);
    s.dirty++;
    return bulk(item);
  }
  const n = Math.min(count, v.length);
  const items = head ? v.splice(0, n) : v.splice(v.length - n, n).reverse();
  if (v.length === 0) s.db.delete(argv[1]);
  s.dirty += n;
  return array(items.map((x) => bulk(x)));
}

export function lpopCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return pop(s, argv, true);
}

export function rpopCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return pop(s, argv, false);
}

export function llenCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const v = lookupList(s, argv[1]);
  if (v === undefined) return int(0);
  if (!isList(v)) return v;
  return int(v.length);
}

/**
 * LINDEX's and LSET's start: the list `key index` names and the index counted from the head (may
 * still be out of range), or the reply (`missing` for no key, then WRONGTYPE, then a bad index).
 */
function listAndIndex(s: RedisServer, argv: string[], missing: Reply): { v: string[]; i: number } | Reply {
  const v = lookupList(s, argv[1]);
  if (v === undefined) return missing;
  if (!isList(v)) return v;
  const idx = parseLong(argv[2]);
  if (typeof idx !== 'number') return idx;
  return { v, i: idx < 0 ? v.length + idx : idx };
}

export function lindexCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const at = listAndIndex(s, argv, NIL);
  if ('t' in at) return at;
  return at.i >= 0 && at.i < at.v.length ? bulk(at.v[at.i]) : NIL;
}

/** LRANGE/LTRIM's start and end, parsed before the key is looked up (their error comes first). */
function parseIndexes(start: string, end: string): [number, number] | Reply {
  const from = parseLong(start);
  if (typeof from !== 'number') return from;
  const to = parseLong(end);
  return typeof to === 'number' ? [from, to] : to;
}

/**
 * LRANGE's and LTRIM's start: the list `key start stop` names and the clamped [from, to] (from > to
 * when nothing is in range), or the reply (a bad index first, then `missing` for no key, WRONGTYPE).
 */
function listRange(
  s: RedisServer,
  argv: string[],
  missing: Reply,
): { v: string[]; from: number; to: number } | Reply {
  const range = parseIndexes(argv[2], argv[3]);
  if (!Array.isArray(range)) return range;
  const v = lookupList(s, argv[1]);
  if (v === undefined) return missing;
  if (!isList(v)) return v;
  const [from, to] = clampRange(range[0], range[1], v.length);
  return { v, from, to };
}

/** LRANGE: negative indexes count from the tail; out-of-range ends are clamped. */
export function lrangeCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const r = listRange(s, argv, EMPTY_ARRAY);
  if ('t' in r) return r;
  const { v, from, to } = r;
  if (from > to) return EMPTY_ARRAY;
  const out: Reply[] = [];
  for (let i = from; i <= to; i++) out.push(bulk(v[i]));
  return array(out);
}

/** Redis's index sanitising for LRANGE/LTRIM/ZRANGE: [from, to] inclusive, from > to when empty. */
export function clampRange(start: number, end: number, len: number): [number, number] {
  if (start < 0) start = len + start;
  if (end < 0) end = len + end;
  if (start < 0) start = 0;
  if (start > end || start >= len) return [1, 0];
  if (end >= len) end = len - 1;
  return [start, end];
}

/** LREM key count element: count > 0 from the head, < 0 from the tail, 0 all. */
export function lremCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const count = parseLong(argv[2]);
  if (typeof count !== 'number') return count;
  const v = lookupList(s, argv[1]);
  if (v === undefined) return int(0);
  if (!isList(v)) return v;
  const elem = argv[3];
  let removed = 0;
  if (count >= 0) {
    for (let i = 0; i < v.length;) {
      if (v[i] === elem && (count === 0 || removed < count)) {
        v.splice(i, 1);
        removed++;
      } else i++;
    }
  } else {
    for (let i = v.length - 1; i >= 0 && removed < -count; i--) {
      if (v[i] === elem) {
        v.splice(i, 1);
        removed++;
      }
    }
  }
  if (v.length === 0) s.db.delete(argv[1]);
  s.dirty += removed;
  return int(removed);
}

export function lsetCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const at = listAndIndex(s, argv, NO_SUCH_KEY);
  if ('t' in at) return at;
  if (at.i < 0 || at.i >= at.v.length) return INDEX_OUT_OF_RANGE;
  at.v[at.i] = argv[3];
  s.dirty++;
  return OK;
}

export function ltrimCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const r = listRange(s, argv, OK);
  if ('t' in r) return r;
  const { v, from, to } = r;
  const before = v.length;
  if (from > to) s.db.delete(argv[1]);
  else {
    v.splice(to + 1);
    v.splice(0, from);
  }
  // A trim that removes nothing is not a change and is not replicated.
  s.dirty += from > to ? before : before - v.length;
  return OK;
}
