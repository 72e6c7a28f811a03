/**
 * Expire commands (Redis expire.c): EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT with 7.0's NX/XX/GT/LT,
 * TTL, PTTL, EXPIRETIME, PEXPIRETIME, PERSIST. Relative times are based on the live clock, also
 * inside scripts (7.0; 7.2 freezes it).
 */
import { keyCommand, type CommandProc } from './command_proc';
import type { Connection } from './connection';
import { expireTimeError, NOT_INTEGER } from './errors';
import { parseLongLong } from './numbers';
import type { Reply } from './reply';
import { error, int } from './reply';
import type { RedisServer } from './server';

const LLONG_MAX = 9223372036854775807n;
const LLONG_MIN = -9223372036854775808n;
const EXPIRE_NX = 1;
const EXPIRE_XX = 2;
const EXPIRE_GT = 4;
const EXPIRE_LT = 8;

/** expireGenericCommand: `basetime` 0 for the *AT forms, `seconds` for EXPIRE/EXPIREAT. */
function expireGeneric(
  s: RedisServer,
  argv: string[],
  relative: boolean,
  seconds: boolean,
  fullname: string,
): Reply {
  let flags = 0;
  for (let j = 3; j < argv.length; j++) {
    const opt = argv[j].toLowerCase();
    if (opt === 'nx') flags |= EXPIRE_NX;
    else if (opt === 'xx') flags |= EXPIRE_XX;
    else if (opt === 'gt') flags |= EXPIRE_GT;
    else if (opt === 'lt') flags |= EXPIRE_LT;
    else return error(`ERR Unsupported option ${argv[j]}`);
  }
  if (flags & EXPIRE_NX && flags & (EXPIRE_XX | EXPIRE_GT | EXPIRE_LT)) {
    return error('ERR NX and XX, GT or LT options at the same time are not compatible');
  }
  if (flags & EXPIRE_GT && flags & EXPIRE_LT) {
    return error('ERR GT and LT options at the same time are not compatible');
  }
  const parsed = parseLongLong(argv[2]);
  if (parsed === null) return NOT_INTEGER;
  const base = relative ? s.mstime() : 0;
  let when: number;
  if (typeof parsed === 'number' && Math.abs(parsed) < 2 ** 40 && base < 2 ** 45) {
    when = (seconds ? parsed * 1000 : parsed) + base;
  } else {
    let w = BigInt(parsed);
    if (seconds) {
      if (w > LLONG_MAX / 1000n || w < LLONG_MIN / 1000n) return expireTimeError(fullname);
      w *= 1000n;
    }
    if (w > LLONG_MAX - BigInt(base)) return expireTimeError(fullname);
    when = Number(w + BigInt(base));
  }
  const key = argv[1];
  if (s.db.lookup(key) === undefined) return int(0);
  if (flags !== 0) {
    const cur = s.db.getExpire(key);
    if (flags & EXPIRE_NX && cur !== undefined) return int(0);
    if (flags & EXPIRE_XX && cur === undefined) return int(0);
    // No TTL counts as an infinite one: GT always fails, LT always succeeds.
    if (flags & EXPIRE_GT && (cur === undefined || when <= cur)) return int(0);
    if (flags & EXPIRE_LT && cur !== undefined && when >= cur) return int(0);
  }
  // checkAlreadyExpired compares with the live clock, not the script's frozen one.
  s.dirty++;
  if (when <= s.mstime()) {
    s.db.delete(key);
    s.rewrite(['DEL', key]);
    return int(1);
  }
  s.db.setExpire(key, when);
  // Replicas get the absolute form, options kept (expire.c expireGenericCommand).
  const out = argv.slice();
  out[0] = 'PEXPIREAT';
  out[2] = String(when);
  s.rewrite(out);
  return int(1);
}

/** EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT: relative or absolute, seconds or ms. */
const expireCommandOf =
  (relative: boolean, seconds: boolean, fullname: string): CommandProc =>
  (s, _c, argv) =>
    expireGeneric(s, argv, relative, seconds, fullname);

export const expireCommand = expireCommandOf(true, true, 'expire');
export const pexpireCommand = expireCommandOf(true, false, 'pexpire');
export const expireatCommand = expireCommandOf(false, true, 'expireat');
export const pexpireatCommand = expireCommandOf(false, false, 'pexpireat');

/** ttlGenericCommand: -2 missing, -1 no TTL, else the remaining (or absolute) time, clamped at 0. */
function ttlGeneric(s: RedisServer, key: string, ms: boolean, absolute: boolean): Reply {
  if (s.db.lookup(key) === undefined) return int(-2);
  const when = s.db.getExpire(key);
  if (when === undefined) return int(-1);
  let ttl = absolute ? when : when - s.mstime();
  if (ttl < 0) ttl = 0;
  const out = ms ? ttl : Math.trunc((ttl + 500) / 1000);
  // Deadlines beyond 2^53 ms are kept as doubles: print the double's exact integer value.
  return int(Number.isSafeInteger(out) ? out : BigInt(out));
}

/** TTL, PTTL, EXPIRETIME, PEXPIRETIME: seconds or ms, remaining or absolute. */
export const ttlCommand = keyCommand(ttlGeneric, false, false);
export const pttlCommand = keyCommand(ttlGeneric, true, false);
export const expiretimeCommand = keyCommand(ttlGeneric, false, true);
export const pexpiretimeCommand = keyCommand(ttlGeneric, true, true);

export function persistCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  if (s.db.lookup(argv[1]) === undefined) return int(0);
  if (!s.db.removeExpire(argv[1])) return int(0);
  s.dirty++;
  return int(1);
}
