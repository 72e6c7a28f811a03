/** Sorted-set commands (Redis t_zset.c). Scores print like addReplyDouble in 7.0 (%.17g). */
import { fieldCommands, type CommandProc } from './command_proc';
import type { Connection } from './connection';
import { MIN_MAX_NOT_FLOAT, NOT_FLOAT, NOT_INTEGER, SYNTAX, WRONGTYPE } from './errors';
import { formatDouble, parseDouble, parseLongLong, parseRangeDouble } from './numbers';
import type { Reply } from './reply';
import { array, bulk, EMPTY_ARRAY, error, int, NIL } from './reply';
import { lookupKeyOrReply } from './db';
import type { RedisServer } from './server';
import { clampRange } from './t_list';
import { ZSet } from './zset_value';

function lookupZset(s: RedisServer, key: string): ZSet | undefined | Reply {
  const v = s.db.lookup(key);
  if (v === undefined || v instanceof ZSet) return v;
  return WRONGTYPE;
}

function isZset(v: unknown): v is ZSet {
  return v instanceof ZSet;
}

function score(d: number): Reply {
  return bulk(formatDouble(d));
}

const ZADD_NX = 1;
const ZADD_XX = 2;
const ZADD_GT = 4;
const ZADD_LT = 8;
const ZADD_INCR = 16;

/** zaddGenericCommand: ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member ..., and ZINCRBY. */
function zaddGeneric(s: RedisServer, argv: string[], flags: number): Reply {
  let ch = false;
  let idx = 2;
  for (; idx < argv.length; idx++) {
    const opt = argv[idx].toLowerCase();
    if (opt === 'nx') flags |= ZADD_NX;
    else if (opt === 'xx') flags |= ZADD_XX;
    else if (opt === 'ch') ch = true;
    else if (opt === 'incr') flags |= ZADD_INCR;
    else if (opt === 'gt') flags |= ZADD_GT;
    else if (opt === 'lt') flags |= ZADD_LT;
    else break;
  }
  const incr = (flags & ZADD_INCR) !== 0;
  const nx = (flags & ZADD_NX) !== 0;
  const xx = (flags & ZADD_XX) !== 0;
  const gt = (flags & ZADD_GT) !== 0;
  const lt = (flags & ZADD_LT) !== 0;
  const rest = argv.length - idx;
  if (rest % 2 !== 0 || rest === 0) return SYNTAX;
  const elements = rest / 2;
  if (xx && nx) return error('ERR XX and NX options at the same time are not compatible');
  if ((gt && nx) || (lt && nx) || (gt && lt)) {
    return error('ERR GT, LT, and/or NX options at the same time are not compatible');
  }
  if (incr && elements > 1) return error('ERR INCR option supports a single increment-element pair');
  const scores: number[] = [];
  for (let j = 0; j < elements; j++) {
    const d = parseDouble(argv[idx + j * 2]);
    if (d === null) return NOT_FLOAT;
    scores.push(d);
  }
  const key = argv[1];
  let z = lookupZset(s, key);
  if (z !== undefined && !isZset(z)) return z;
  let added = 0;
  let updated = 0;
  let processed = 0;
  let last = 0;
  if (z === undefined && !xx) {
    z = new ZSet();
    s.db.put(key, z);
  }
  if (z !== undefined) {
    for (let j = 0; j < elements; j++) {
      let sc = scores[j];
      const member = argv[idx + 1 + j * 2];
      const cur = z.score(member);
      if (cur !== undefined) {
        if (nx) continue;
        if (incr) {
          sc += cur;
          if (Number.isNaN(sc)) return error('ERR resulting score is not a number (NaN)');
        }
        if ((lt && sc >= cur) || (gt && sc <= cur)) continue;
        if (sc !== cur) {
          z.set(member, sc);
          updated++;
        }
      } else if (!xx) {
        z.set(member, sc);
        added++;
      } else continue;
      processed++;
      last = sc;
    }
  }
  s.dirty += added + updated;
  if (incr) return processed ? score(last) : NIL;
  return int(ch ? added + updated : added);
}

export function zaddCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return zaddGeneric(s, argv, 0);
}

export function zincrbyCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return zaddGeneric(s, argv, ZADD_INCR);
}

export function zremCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const z = lookupKeyOrReply(s.db, argv[1], int(0), isZset);
  if (!isZset(z)) return z;
  let deleted = 0;
  for (let j = 2; j < argv.length; j++) {
    if (z.delete(argv[j])) deleted++;
    if (z.size === 0) {
      s.db.delete(argv[1]);
      break;
    }
  }
  s.dirty += deleted;
  return int(deleted);
}

const scores = fieldCommands(isZset, (z, member) => {
  const sc = z.score(member);
  return sc === undefined ? undefined : score(sc);
});
export const zscoreCommand = scores.one;
export const zmscoreCommand = scores.many;

export function zcardCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const z = lookupKeyOrReply(s.db, argv[1], int(0), isZset);
  if (!isZset(z)) return z;
  return int(z.size);
}

function rank(s: RedisServer, argv: string[], reverse: boolean): Reply {
  const z = lookupKeyOrReply(s.db, argv[1], NIL, isZset);
  if (!isZset(z)) return z;
  const r = z.rank(argv[2]);
  if (r < 0) return NIL;
  return int(reverse ? z.size - 1 - r : r);
}

export function zrankCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return rank(s, argv, false);
}

export function zrevrankCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  return rank(s, argv, true);
}

interface ScoreRange {
  min: number;
  max: number;
  minex: boolean;
  maxex: boolean;
}

/** zslParseRange: "(" marks an exclusive bound. */
function parseScoreRange(minArg: string, maxArg: string): ScoreRange | null {
  const minex = minArg.charCodeAt(0) === 40;
  const maxex = maxArg.charCodeAt(0) === 40;
  const min = parseRangeDouble(minex ? minArg.slice(1) : minArg);
  const max = parseRangeDouble(maxex ? maxArg.slice(1) : maxArg);
  if (min === null || max === null) return null;
  return { min, max, minex, maxex };
}

/** Index range [from, to) of members inside a score range. */
function scoreSpan(z: ZSet, r: ScoreRange): [number, number] {
  if (r.min > r.max || (r.min === r.max && (r.minex || r.maxex))) return [0, 0];
  const from = z.firstAtOrAbove(r.min, r.minex);
  const to = z.endAtOrBelow(r.max, r.maxex);
  return from < to ? [from, to] : [0, 0];
}

function emit(z: ZSet, members: readonly string[], withScores: boolean): Reply {
  const out: Reply[] = [];
  for (const m of members) {
    out.push(bulk(m));
    if (withScores) out.push(score(z.score(m)!));
  }
  return array(out);
}

type RangeType = 'auto' | 'rank' | 'score' | 'lex';

/**
 * zrangeGenericCommand: ZRANGE key min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]
 * [WITHSCORES], and the older ZREVRANGE / Z[REV]RANGEBYSCORE spellings.
 */
function zrangeGeneric(
  s: RedisServer,
  argv: string[],
  presetType: RangeType,
  presetRev: boolean | null,
): Reply {
  let withScores = false;
  let offset = 0;
  let limit = -1;
  let rev = presetRev;
  let type = presetType;
  for (let j = 4; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    const left = argv.length - j - 1;
    if (opt === 'withscores') withScores = true;
    else if (opt === 'limit' && left >= 2) {
      const o = parseLongLong(argv[j + 1]);
      const l = o === null ? null : parseLongLong(argv[j + 2]);
      if (o === null || l === null) return NOT_INTEGER;
      offset = Number(o);
      limit = Number(l);
      j += 2;
    } else if (rev === null && opt === 'rev') rev = true;
    else if (type === 'auto' && opt === 'bylex') type = 'lex';
    else if (type === 'auto' && opt === 'byscore') type = 'score';
    else return SYNTAX;
  }
  const reverse = rev === true;
  if (type === 'auto') type = 'rank';
  if (limit !== -1 && type === 'rank') {
    return error('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  }
  if (withScores && type === 'lex') {
    return error('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  }
  let minArg = argv[2];
  let maxArg = argv[3];
  if (reverse && type !== 'rank') [minArg, maxArg] = [maxArg, minArg];
  let start = 0;
  let end = 0;
  let range: ScoreRange | null = null;
  let lex: LexRange | null = null;
  if (type === 'lex') {
    lex = parseLexRange(minArg, maxArg);
    if (lex === null) return LEX_RANGE_ERROR;
  } else if (type === 'rank') {
    const a = parseLongLong(minArg);
    const b = a === null ? null : parseLongLong(maxArg);
    if (a === null || b === null) return NOT_INTEGER;
    start = Number(a);
    end = Number(b);
  } else {
    range = parseScoreRange(minArg, maxArg);
    if (range === null) return MIN_MAX_NOT_FLOAT;
  }
  const z = lookupKeyOrReply(s.db, argv[1], EMPTY_ARRAY, isZset);
  if (!isZset(z)) return z;
  const members = z.members();
  const len = members.length;
  if (type === 'rank') {
    const [from, to] = clampRange(start, end, len);
    if (from > to) return EMPTY_ARRAY;
    const picked = reverse ? members.slice(len - 1 - to, len - from).reverse() : members.slice(from, to + 1);
    return emit(z, picked, withScores);
  }
  if (offset > 0 && offset >= len) return EMPTY_ARRAY;
  // A negative offset walks off the end in Redis's loop; a negative limit means no limit.
  if (offset < 0) return EMPTY_ARRAY;
  let picked: string[];
  if (lex !== null) picked = lexPick(members, lex, reverse);
  else {
    const [from, to] = scoreSpan(z, range!);
    picked = reverse ? members.slice(from, to).reverse() : members.slice(from, to);
  }
  picked = picked.slice(offset, limit < 0 ? undefined : offset + limit);
  return emit(z, picked, withScores);
}

/** ZRANGE and its older forms: a preset range type and direction (null: from the arguments). */
const zrangeCommandOf =
  (type: RangeType, rev: boolean | null): CommandProc =>
  (s, _c, argv) =>
    zrangeGeneric(s, argv, type, rev);

export const zrangeCommand = zrangeCommandOf('auto', null);
export const zrevrangeCommand = zrangeCommandOf('rank', true);
export const zrangebyscoreCommand = zrangeCommandOf('score', false);
export const zrevrangebyscoreCommand = zrangeCommandOf('score', true);
export const zrangebylexCommand = zrangeCommandOf('lex', false);
export const zrevrangebylexCommand = zrangeCommandOf('lex', true);

/**
 * ZCOUNT's and ZREMRANGEBYSCORE's start: the zset `key min max` names and the span of the range in
 * it, or the reply (a bad range before the key is looked up; a missing key answers 0 in both).
 */
function keyScoreSpan(s: RedisServer, argv: string[]): { z: ZSet; from: number; to: number } | Reply {
  const range = parseScoreRange(argv[2], argv[3]);
  if (range === null) return MIN_MAX_NOT_FLOAT;
  const z = lookupKeyOrReply(s.db, argv[1], int(0), isZset);
  if (!isZset(z)) return z;
  const [from, to] = scoreSpan(z, range);
  return { z, from, to };
}

export function zcountCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const span = keyScoreSpan(s, argv);
  return 't' in span ? span : int(span.to - span.from);
}

function removeMembers(s: RedisServer, key: string, z: ZSet, members: readonly string[]): Reply {
  for (const m of members) z.delete(m);
  if (z.size === 0) s.db.delete(key);
  s.dirty += members.length;
  return int(members.length);
}

export function zremrangebyscoreCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const span = keyScoreSpan(s, argv);
  if ('t' in span) return span;
  return removeMembers(s, argv[1], span.z, span.z.members().slice(span.from, span.to));
}

export function zremrangebyrankCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const a = parseLongLong(argv[2]);
  const b = a === null ? null : parseLongLong(argv[3]);
  if (a === null || b === null) return NOT_INTEGER;
  const z = lookupKeyOrReply(s.db, argv[1], int(0), isZset);
  if (!isZset(z)) return z;
  const [from, to] = clampRange(Number(a), Number(b), z.size);
  if (from > to) return int(0);
  return removeMembers(s, argv[1], z, z.members().slice(from, to + 1));
}

/** A lex bound: '-' and '+' are the open ends, '[x' inclusive, '(x' exclusive. */
interface LexBound {
  value: string;
  ex: boolean;
  /** -1: below every string ('-'), 1: above every string ('+'), 0: `value` */
  inf: -1 | 0 | 1;
}

interface LexRange {
  min: LexBound;
  max: LexBound;
}

const LEX_RANGE_ERROR = error('ERR min or max not valid string range item');

/** t_zset.c zslParseLexRangeItem. */
function parseLexBound(s: string): LexBound | null {
  const c = s[0];
  if (c === '+' || c === '-') return s.length === 1 ? { value: '', ex: true, inf: c === '+' ? 1 : -1 } : null;
  if (c === '(' || c === '[') return { value: s.slice(1), ex: c === '(', inf: 0 };
  return null;
}

function parseLexRange(minArg: string, maxArg: string): LexRange | null {
  const min = parseLexBound(minArg);
  const max = parseLexBound(maxArg);
  return min && max ? { min, max } : null;
}

/** sdscmplex: member against a bound (the open ends compare below / above everything). */
function cmpLex(member: string, b: LexBound): number {
  if (b.inf !== 0) return -b.inf;
  return member < b.value ? -1 : member > b.value ? 1 : 0;
}

function lexGteMin(member: string, r: LexRange): boolean {
  const c = cmpLex(member, r.min);
  return r.min.ex ? c > 0 : c >= 0;
}

function lexLteMax(member: string, r: LexRange): boolean {
  const c = cmpLex(member, r.max);
  return r.max.ex ? c < 0 : c <= 0;
}

/** sdscmplex between two bounds ('-' below and '+' above every string). */
function cmpBounds(a: LexBound, b: LexBound): number {
  if (a.inf !== 0 || b.inf !== 0) return a.inf - b.inf;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/**
 * Members inside a lex range, walking like the listpack code Redis uses for small sorted sets
 * (zzlIsInLexRange, zzlFirstInLexRange / zzlLastInLexRange): it assumes one score for all, and
 * with mixed scores it answers what Redis answers, not a filtered list.
 */
function lexPick(members: readonly string[], r: LexRange, reverse: boolean): string[] {
  const c = cmpBounds(r.min, r.max);
  const n = members.length;
  if (c > 0 || (c === 0 && (r.min.ex || r.max.ex))) return [];
  if (n === 0 || !lexGteMin(members[n - 1], r) || !lexLteMax(members[0], r)) return [];
  const out: string[] = [];
  if (!reverse) {
    let i = 0;
    while (i < n && !lexGteMin(members[i], r)) i++;
    for (; i < n && lexLteMax(members[i], r); i++) out.push(members[i]);
  } else {
    let i = n - 1;
    while (i >= 0 && !lexLteMax(members[i], r)) i--;
    for (; i >= 0 && lexGteMin(members[i], r); i--) out.push(members[i]);
  }
  return out;
}

export function zlexcountCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const range = parseLexRange(argv[2], argv[3]);
  if (range === null) return LEX_RANGE_ERROR;
  const z = lookupKeyOrReply(s.db, argv[1], int(0), isZset);
  if (!isZset(z)) return z;
  return int(lexPick(z.members(), range, false).length);
}
