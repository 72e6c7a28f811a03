/**
 * Moving strings and numbers between the engine and fengari. Engine strings are byte strings (one
 * char per byte, bytes.ts); fengari strings are Uint8Array. The conversion is byte for byte, never
 * UTF-8, so binary values survive a round trip through a script exactly as in Redis.
 *
 * Number formatting lives here too because Redis uses two C formats that fengari does not
 * reproduce: `%.17g` for numbers passed to redis.call (script_lua.c luaArgsToRedisArgv) and
 * Lua 5.1's `%.14g` for tostring() (luaconf.h LUA_NUMBER_FMT).
 */
import fengari from 'fengari-web';
import type { LuaState, LuaString, LuaStringObject } from 'fengari-web';
import { formatG } from './lua_printf';

export { formatG };

const { lua } = fengari;

export function luaBytes(s: string): LuaString {
  const n = s.length;
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = s.charCodeAt(i);
  return a;
}

export function jsBytes(a: LuaString): string {
  const n = a.length;
  if (n < 256) {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(a[i]);
    return s;
  }
  let s = '';
  for (let i = 0; i < n; i += 0x2000) {
    s += String.fromCharCode.apply(null, a.subarray(i, Math.min(n, i + 0x2000)) as unknown as number[]);
  }
  return s;
}

/** Names used on every call (field keys, library names): encoded once. */
const literals = new Map<string, LuaString>();
export function lit(s: string): LuaString {
  let a = literals.get(s);
  if (a === undefined) {
    a = luaBytes(s);
    literals.set(s, a);
  }
  return a;
}

/**
 * lua_pushstring copies the array it is given; the patched fengari (docs/fengari-patch.md) also has
 * a push that keeps the caller's array, for arrays built for the push and never written again.
 * Without the patch (the bench's "as shipped" side) the copying push does the same job.
 */
const pushOwned = lua.lockscope_pushownedstring ?? lua.lua_pushstring;

/** Pushes a byte string; returns the Lua string's bytes (fresh, not shared with any other push). */
export function pushBytes(L: LuaState, s: string): LuaString {
  return pushOwned(L, luaBytes(s));
}

/** A function of the patch (v4), or one that says it is missing when called (not at import). */
function patchApi<F>(f: F | undefined, name: string): F {
  if (f !== undefined) return f;
  return (() => {
    throw new Error(`fengari-web lacks LockScope's patch (${name}): run node scripts/patch-fengari.mjs`);
  }) as F;
}
const newStringObject = patchApi(lua.lockscope_newstring, 'lockscope_newstring');
/** Pushes a string object (stringObject, or one read with luaStringObject). */
export const pushStringObject = patchApi(lua.lockscope_pushstringobject, 'lockscope_pushstringobject');
/** The string object at idx, or null when the value there is not a string (numbers are not converted). */
export const luaStringObject = patchApi(lua.lockscope_tostringobject, 'lockscope_tostringobject');

/**
 * A Lua string object for engine string `s`, remembering `s` (`lockscope_js`): when a script
 * hands the value back (`redis.call(..., KEYS[1])`) the engine gets this very string again,
 * whose hash V8 has already computed, instead of a fresh conversion.
 */
export function stringObject(L: LuaState, s: string): LuaStringObject {
  const ts = newStringObject(L, luaBytes(s));
  ts.lockscope_js = s;
  return ts;
}

/** The string at idx (numbers converted the way Lua converts them), or null. */
export function toBytes(L: LuaState, idx: number): string | null {
  const a = lua.lua_tolstring(L, idx);
  return a === null ? null : jsBytes(a);
}

/** How Lua 5.1 (and so Redis) prints a number: tostring, `..`, print. */
export function lua51NumberToString(x: number): string {
  return formatG(x, 14);
}

/** How Redis turns a Lua number into a command argument (script_lua.c luaArgsToRedisArgv). */
export function redisArgFromNumber(x: number): string {
  return formatG(x, 17);
}

/**
 * Pushes a number as Lua 5.1 would hold it. fengari has 32-bit integers: integral values inside
 * that range become Lua integers (so tostring gives "30000", not "30000.0"); everything else is a
 * double, like every number in Lua 5.1, so nothing wraps.
 */
export function pushNumber(L: LuaState, n: number): void {
  if ((n | 0) === n && !Object.is(n, -0)) lua.lua_pushinteger(L, n);
  else lua.lua_pushnumber(L, n);
}

/** luaL_error without the format string: the message may contain '%' (it names a user's option). */
export function raiseWithPosition(L: LuaState, msg: string): never {
  fengari.lauxlib.luaL_where(L, 1);
  pushBytes(L, msg);
  lua.lua_concat(L, 2);
  return lua.lua_error(L);
}
