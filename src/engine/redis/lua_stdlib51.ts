/**
 * The Lua 5.1 standard library as Redis's embedded Lua (deps/lua: lbaselib.c, lstrlib.c,
 * ltablib.c, lmathlib.c, ldo.c's messages) has it, emulated on fengari's Lua 5.3: 5.1 names
 * (table.getn, math.mod, string.gfind, ...), 5.1 argument rules and error wording, and the string
 * functions metered against the script string limit. Free functions that need no engine state;
 * lua_sandbox.ts installs them.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState, LuaString } from 'fengari-web';

import {
  jsBytes,
  lit,
  lua51NumberToString,
  luaBytes,
  pushBytes,
  pushNumber,
  raiseWithPosition,
} from './lua_strings';
import { MAX_SCRIPT_STRING, ScriptMemoryError, chargeStringBytes } from './lua_vmpatch';

const { lua, lauxlib } = fengari;

/** Lua 5.1's luaL_checkint: a number (or numeric string) truncated toward zero to a C int. */
export function checkInt51(L: LuaState, arg: number): number {
  const n = lauxlib.luaL_checknumber(L, arg);
  return Math.trunc(n) | 0;
}

/** A Lua error for a string that would pass the script string limit. */
export function refuse(L: LuaState, bytes: number): number {
  return raiseWithPosition(L, new ScriptMemoryError(bytes).message);
}

/**
 * Lua 5.3 words some messages differently from 5.1; scripts see 5.1's words. Variable info moved
 * behind the value ("attempt to index a nil value (local 'x')" -> "attempt to index local 'x'
 * (a nil value)"; 5.1 never names constants) and <eof> lost its quotes.
 */
export function lua51Message(msg: string): string {
  return msg
    .replace(
      /attempt to ([a-z ]+?) a ([a-z]+) value \((local|global|field|upvalue|method|constant) '([^']*)'\)/g,
      (_m, op: string, type: string, kind: string, name: string) =>
        kind === 'constant'
          ? `attempt to ${op} a ${type} value`
          : `attempt to ${op} ${kind} '${name}' (a ${type} value)`,
    )
    .replace(/(^|[^'])<eof>(?!')/g, "$1'<eof>'")
    .replace(/unfinished long (string|comment) \(starting at line \d+\)/, 'unfinished long $1')
    .replace(/decimal escape too large/, 'escape sequence too large')
    .replace(/escape sequence too large near '([^\\']*)\\[^']*'/, "escape sequence too large near '$1'")
    .replace(/: syntax error near /, ": '=' expected near ")
    .replace(/JS stack overflow/, 'C stack overflow')
    .replace(/'_EnV'/g, "'_ENV'");
}

/** 5.1 ipairs: tables only, raw access, stops at the first nil. */
const ipairsAux: LuaCFunction = (L) => {
  const i = lua.lua_tointeger(L, 2) + 1;
  lua.lua_pushinteger(L, i);
  if (lua.lua_rawgeti(L, 1, i) === lua.LUA_TNIL) return 0;
  return 2;
};

export const ipairs51: LuaCFunction = (L) => {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lua.lua_pushcfunction(L, ipairsAux);
  lua.lua_pushvalue(L, 1);
  lua.lua_pushinteger(L, 0);
  return 3;
};

/** tonumber, but every result a double like all 5.1 numbers (so later sums cannot wrap at 2^31). */
export const tonumberAsDouble: LuaCFunction = (L) => {
  const argc = lua.lua_gettop(L);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, argc, 1);
  if (lua.lua_isinteger(L, -1)) {
    const n = lua.lua_tointeger(L, -1);
    lua.lua_pop(L, 1);
    lua.lua_pushnumber(L, n);
  }
  return 1;
};

/** Whether a Lua pattern has a capture: an unescaped '(' outside a [set]. */
function hasCapture(p: LuaString): boolean {
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === 0x25)
      i++; // %x
    else if (c === 0x5b) {
      // [set]: ']' right after '[' or '[^' is literal
      i++;
      if (p[i] === 0x5e) i++;
      if (p[i] === 0x5d) i++;
      while (i < p.length && p[i] !== 0x5d) {
        if (p[i] === 0x25) i++;
        i++;
      }
    } else if (c === 0x28) return true;
  }
  return false;
}

/**
 * string.find without the bundled fengari's extra result: its push_captures reports the whole
 * match as a capture when the pattern has none ({3, 4, 'll'} instead of {3, 4}).
 */
export const stringFindFixed: LuaCFunction = (L) => {
  const argc = lua.lua_gettop(L);
  const pattern = lua.lua_type(L, 2) === lua.LUA_TSTRING ? lua.lua_tolstring(L, 2) : null;
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, argc, lua.LUA_MULTRET);
  const n = lua.lua_gettop(L);
  if (n === 3 && pattern !== null && lua.lua_type(L, 1) === lua.LUA_TNUMBER && !hasCapture(pattern)) {
    lua.lua_pop(L, 1);
    return 2;
  }
  return n;
};

/** tostring() for any value, numbers printed the Lua 5.1 way (%.14g, no ".0"). */
export function luaToString(L: LuaState, idx: number): string {
  if (lua.lua_type(L, idx) === lua.LUA_TNUMBER) {
    if (lua.lua_isinteger(L, idx)) return String(lua.lua_tointeger(L, idx));
    return lua51NumberToString(lua.lua_tonumber(L, idx));
  }
  const s = jsBytes(lauxlib.luaL_tolstring(L, idx));
  lua.lua_pop(L, 1);
  return s;
}

export const luaTostring51: LuaCFunction = (L) => {
  lauxlib.luaL_checkany(L, 1);
  pushBytes(L, luaToString(L, 1));
  return 1;
};

/** 5.1 error(): numbers get a position too (5.3 only prefixes strings). */
export const luaError51: LuaCFunction = (L) => {
  const level = lua.lua_type(L, 2) > lua.LUA_TNIL ? checkInt51(L, 2) : 1;
  lua.lua_settop(L, 1);
  if (lua.lua_type(L, 1) === lua.LUA_TNUMBER) {
    pushBytes(L, luaToString(L, 1));
    lua.lua_replace(L, 1);
  }
  if (lua.lua_type(L, 1) === lua.LUA_TSTRING && level > 0) {
    lauxlib.luaL_where(L, level);
    lua.lua_pushvalue(L, 1);
    lua.lua_concat(L, 2);
  }
  return lua.lua_error(L);
};

/** fengari has no allocator to measure; report a stable small heap so scripts behave the same every run. */
const NOMINAL_HEAP_KB = 32;

export const luaCollectgarbage: LuaCFunction = (L) => {
  const opt = lua.lua_type(L, 1) > lua.LUA_TNIL ? jsBytes(lauxlib.luaL_checklstring(L, 1)) : 'collect';
  switch (opt) {
    case 'count':
      lua.lua_pushnumber(L, NOMINAL_HEAP_KB);
      return 1;
    case 'collect':
    case 'stop':
    case 'restart':
    case 'setpause':
    case 'setstepmul':
      lua.lua_pushinteger(L, 0);
      return 1;
    case 'step':
      lua.lua_pushboolean(L, false);
      return 1;
    default:
      return lauxlib.luaL_argerror(L, 1, luaBytes(`invalid option '${opt}'`));
  }
};

export const luaGcinfo: LuaCFunction = (L) => {
  lua.lua_pushinteger(L, NOMINAL_HEAP_KB);
  return 1;
};

/** 5.1 coroutine.running(): nil in the main thread. */
export const coroutineRunning51: LuaCFunction = (L) => {
  if (lua.lua_pushthread(L)) {
    lua.lua_pop(L, 1);
    lua.lua_pushnil(L);
  }
  return 1;
};

/** string.rep(s, n) as 5.1 has it (no separator), refusing results past the string limit. */
export const stringRep51: LuaCFunction = (L) => {
  const s = lauxlib.luaL_checklstring(L, 1);
  const n = checkInt51(L, 2);
  if (n <= 0 || s.length === 0) {
    lua.lua_pushstring(L, new Uint8Array(0));
    return 1;
  }
  const total = s.length * n;
  if (total > MAX_SCRIPT_STRING) return refuse(L, total);
  const overRun = chargeStringBytes(total);
  if (overRun) return raiseWithPosition(L, overRun.message);
  const out = new Uint8Array(total);
  if (s.length === 1) out.fill(s[0]);
  else {
    // copy once, then keep doubling what is already there
    out.set(s, 0);
    for (let filled = s.length; filled < total; filled *= 2)
      out.copyWithin(filled, 0, Math.min(filled, total - filled));
  }
  lua.lua_pushstring(L, out);
  return 1;
};

/**
 * string.gsub whose output cannot pass the string limit: a string replacement is checked against
 * the real match count before the result is built, and a function or table replacement is watched
 * as it hands out pieces.
 */
export const gsubGuarded: LuaCFunction = (L) => {
  const original = lua.lua_upvalueindex(1);
  const src =
    lua.lua_type(L, 1) === lua.LUA_TSTRING || lua.lua_type(L, 1) === lua.LUA_TNUMBER
      ? lua.lua_tolstring(L, 1)
      : null;
  const rt = lua.lua_type(L, 3);
  if (src !== null && (rt === lua.LUA_TSTRING || rt === lua.LUA_TNUMBER)) {
    const repl = lua.lua_tolstring(L, 3)!;
    const perMatch = repl.includes(0x25) ? repl.length * Math.max(1, src.length) : repl.length;
    if (src.length + (src.length + 1) * perMatch > MAX_SCRIPT_STRING) {
      // count the matches first (the result of replacing them with nothing is no larger than s)
      const top = lua.lua_gettop(L);
      lua.lua_pushvalue(L, original);
      lua.lua_pushvalue(L, 1);
      lua.lua_pushvalue(L, 2);
      lua.lua_pushstring(L, new Uint8Array(0));
      if (top >= 4) lua.lua_pushvalue(L, 4);
      lua.lua_call(L, top >= 4 ? 4 : 3, 2);
      const matches = lua.lua_tonumber(L, -1);
      lua.lua_settop(L, top);
      const bound = src.length + matches * perMatch;
      if (bound > MAX_SCRIPT_STRING) return refuse(L, bound);
    }
  } else if (src !== null && (rt === lua.LUA_TFUNCTION || rt === lua.LUA_TTABLE)) {
    lua.lua_pushinteger(L, src.length);
    lua.lua_pushvalue(L, 3);
    lua.lua_pushcclosure(L, rt === lua.LUA_TFUNCTION ? meteredReplacement : meteredLookup, 2);
    lua.lua_replace(L, 3);
  }
  const argc = lua.lua_gettop(L);
  lua.lua_pushvalue(L, original);
  lua.lua_insert(L, 1);
  lua.lua_call(L, argc, 2);
  const result = lua.lua_tolstring(L, -2);
  const overRun = result === null ? null : chargeStringBytes(result.length);
  if (overRun) return raiseWithPosition(L, overRun.message);
  return 2;
};

/** Adds a replacement piece's length to the running total kept in upvalue 1. */
function meter(L: LuaState): void {
  const piece =
    lua.lua_type(L, -1) === lua.LUA_TSTRING || lua.lua_type(L, -1) === lua.LUA_TNUMBER
      ? lua.lua_tolstring(L, -1)
      : null;
  if (piece === null) return;
  const total = lua.lua_tonumber(L, lua.lua_upvalueindex(1)) + piece.length;
  if (total > MAX_SCRIPT_STRING) refuse(L, total);
  lua.lua_pushnumber(L, total);
  lua.lua_replace(L, lua.lua_upvalueindex(1));
}

const meteredReplacement: LuaCFunction = (L) => {
  const argc = lua.lua_gettop(L);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(2));
  lua.lua_insert(L, 1);
  lua.lua_call(L, argc, 1);
  meter(L);
  return 1;
};

/** gsub with a table indexes it with the first capture or the whole match (lua_gettable: metamethods apply). */
const meteredLookup: LuaCFunction = (L) => {
  lua.lua_settop(L, 1);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(2));
  lua.lua_insert(L, 1);
  lua.lua_gettable(L, 1);
  meter(L);
  return 1;
};

/** table.concat with the result's size checked before it is built. */
export const tableConcatGuarded: LuaCFunction = (L) => {
  if (lua.lua_type(L, 1) === lua.LUA_TTABLE) {
    const sepLen = lua.lua_type(L, 2) === lua.LUA_TSTRING ? lua.lua_tolstring(L, 2)!.length : 0;
    const i = lua.lua_type(L, 3) > lua.LUA_TNIL ? checkInt51(L, 3) : 1;
    const j = lua.lua_type(L, 4) > lua.LUA_TNIL ? checkInt51(L, 4) : lua.lua_rawlen(L, 1);
    let total = 0;
    for (let k = i; k <= j; k++) {
      lua.lua_rawgeti(L, 1, k);
      const piece = lua.lua_tolstring(L, -1);
      if (piece !== null) total += piece.length + sepLen;
      lua.lua_pop(L, 1);
      if (total > MAX_SCRIPT_STRING) return refuse(L, total);
    }
    const overRun = chargeStringBytes(total);
    if (overRun) return raiseWithPosition(L, overRun.message);
  }
  const argc = lua.lua_gettop(L);
  lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
  lua.lua_insert(L, 1);
  lua.lua_call(L, argc, 1);
  return 1;
};

export function addFunctions(L: LuaState, fns: Record<string, LuaCFunction>): void {
  for (const name of Object.keys(fns)) {
    lua.lua_pushcfunction(L, fns[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
}

/** table functions Lua 5.1 has and 5.3 dropped */
export const TABLE51: Record<string, LuaCFunction> = {
  getn: (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lua.lua_pushinteger(L, lua.lua_rawlen(L, 1));
    return 1;
  },
  setn: (L) => lauxlib.luaL_error(L, lit("'setn' is obsolete")),
  maxn: (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    let max = 0;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, 1)) {
      lua.lua_pop(L, 1);
      if (lua.lua_type(L, -1) === lua.LUA_TNUMBER) {
        const v = lua.lua_tonumber(L, -1);
        if (v > max) max = v;
      }
    }
    pushNumber(L, max);
    return 1;
  },
  foreach: (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
    lua.lua_pushnil(L);
    while (lua.lua_next(L, 1)) {
      lua.lua_pushvalue(L, 2);
      lua.lua_pushvalue(L, -3);
      lua.lua_pushvalue(L, -3);
      lua.lua_call(L, 2, 1);
      if (lua.lua_type(L, -1) !== lua.LUA_TNIL) return 1;
      lua.lua_pop(L, 2);
    }
    return 0;
  },
  foreachi: (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
    const n = lua.lua_rawlen(L, 1);
    for (let i = 1; i <= n; i++) {
      lua.lua_pushvalue(L, 2);
      lua.lua_pushinteger(L, i);
      lua.lua_rawgeti(L, 1, i);
      lua.lua_call(L, 2, 1);
      if (lua.lua_type(L, -1) !== lua.LUA_TNIL) return 1;
      lua.lua_pop(L, 1);
    }
    return 0;
  },
};

/** math functions fengari's 5.3 library provides that 5.1 also has */
export const MATH53_KEPT = [
  'abs',
  'acos',
  'asin',
  'atan',
  'ceil',
  'cos',
  'deg',
  'exp',
  'floor',
  'fmod',
  'huge',
  'log',
  'modf',
  'pi',
  'rad',
  'sin',
  'sqrt',
  'tan',
];

function mathFn1(f: (x: number) => number): LuaCFunction {
  return (L) => {
    lua.lua_pushnumber(L, f(lauxlib.luaL_checknumber(L, 1)));
    return 1;
  };
}

function mathFn2(f: (x: number, y: number) => number): LuaCFunction {
  return (L) => {
    lua.lua_pushnumber(L, f(lauxlib.luaL_checknumber(L, 1), lauxlib.luaL_checknumber(L, 2)));
    return 1;
  };
}

/** C fmod: the sign follows the dividend (JS % does the same). */
function fmod(a: number, b: number): number {
  return a % b;
}

/**
 * Lua 5.1's math.max / math.min (lmathlib.c): every argument through luaL_checknumber, so a
 * numeric string counts as its number. 5.3's compare the values as given, and a number against a
 * string raises; Redisson's read lock does math.max(remainTime, ARGV[1]).
 */
function mathExtreme(pick: (d: number, best: number) => boolean): LuaCFunction {
  return (L) => {
    const n = lua.lua_gettop(L);
    let best = lauxlib.luaL_checknumber(L, 1);
    for (let i = 2; i <= n; i++) {
      const d = lauxlib.luaL_checknumber(L, i);
      if (pick(d, best)) best = d;
    }
    if (Number.isSafeInteger(best) && !Object.is(best, -0)) lua.lua_pushinteger(L, best);
    else lua.lua_pushnumber(L, best);
    return 1;
  };
}

/** math functions Lua 5.1 has and 5.3 dropped, or has with other rules */
export const MATH51: Record<string, LuaCFunction> = {
  max: mathExtreme((d, best) => d > best),
  min: mathExtreme((d, best) => d < best),
  atan2: mathFn2(Math.atan2),
  cosh: mathFn1(Math.cosh),
  sinh: mathFn1(Math.sinh),
  tanh: mathFn1(Math.tanh),
  log10: mathFn1(Math.log10),
  pow: mathFn2(Math.pow),
  mod: mathFn2(fmod),
  ldexp: (L) => {
    const m = lauxlib.luaL_checknumber(L, 1);
    const e = checkInt51(L, 2);
    lua.lua_pushnumber(L, m * Math.pow(2, e));
    return 1;
  },
  frexp: (L) => {
    const x = lauxlib.luaL_checknumber(L, 1);
    if (x === 0 || !Number.isFinite(x)) {
      lua.lua_pushnumber(L, x);
      lua.lua_pushinteger(L, 0);
      return 2;
    }
    let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
    let m = x * Math.pow(2, -e);
    // log2 can be off by one near powers of two; normalise into [0.5, 1)
    while (Math.abs(m) < 0.5) {
      m *= 2;
      e--;
    }
    while (Math.abs(m) >= 1) {
      m /= 2;
      e++;
    }
    lua.lua_pushnumber(L, m);
    lua.lua_pushinteger(L, e);
    return 2;
  },
};

/** luaO_chunkid of Lua 5.1 for a string chunk: [string "first line..."] */
export function chunkId51(source: string): string {
  if (source.startsWith('=') || source.startsWith('@')) return source.slice(1);
  const LUA_IDSIZE = 60;
  const max = LUA_IDSIZE - 15; // room for [string "..."] and the terminator
  let len = source.search(/[\r\n\0]/);
  if (len < 0) len = source.length;
  const cut = len > max || (len < source.length && source[len] !== '\0');
  const first = source.slice(0, Math.min(len, max));
  return `[string "${first}${cut ? '...' : ''}"]`;
}
