/**
 * The scripting sandbox, after the parts of Redis 7.0's script_lua.c and function_lua.c that set up
 * a Lua environment (luaLoadLibraries, luaSetErrorMetatable, luaSetTableProtectionRecursively,
 * luaProtectedTableError): which library functions a script sees, under which 5.1 names, and the
 * read-only globals. Redis makes tables read-only with a flag its patched Lua VM checks
 * (lua_enablereadonlytable); LockScope's install-time patch of fengari adds the same flag
 * (docs/fengari-patch.md), so a script reads globals and library tables directly, with no proxy in
 * between. The Lua 5.1 functions themselves are in lua_stdlib51.ts; the redis.* API, the error handler and
 * the budget-aware catching functions come from script_lua.ts through SandboxHost.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState, LuaString } from 'fengari-web';

import { openBit } from './lua_bit';
import { openCjson } from './lua_cjson';
import { openCmsgpack } from './lua_cmsgpack';
import { openStruct } from './lua_struct';
import {
  MATH51,
  MATH53_KEPT,
  TABLE51,
  addFunctions,
  chunkId51,
  coroutineRunning51,
  gsubGuarded,
  ipairs51,
  lua51Message,
  luaCollectgarbage,
  luaError51,
  luaGcinfo,
  luaToString,
  luaTostring51,
  refuse,
  stringFindFixed,
  stringRep51,
  tableConcatGuarded,
  tonumberAsDouble,
} from './lua_stdlib51';
import { stringFormat51 } from './lua_strformat';
import { jsBytes, lit, luaBytes, pushBytes, toBytes } from './lua_strings';
import { restoreMessage, rewriteFor53 } from './lua_syntax51';
import { MAX_SCRIPT_STRING } from './lua_vmpatch';

const { lua, lauxlib, lualib } = fengari;

/** What the sandbox takes from script_lua.ts: Redis's own functions and the budget-aware ones. */
export interface SandboxHost {
  /** Redis's pcall (luaRedisPcall) */
  readonly luaPcall: LuaCFunction;
  /** wraps a catching function (xpcall, coroutine.resume) so a budget stop is re-raised */
  wrapCatching(ref: number): LuaCFunction;
  /** calls an xpcall message handler unless the budget has stopped the script */
  readonly guardedHandler: LuaCFunction;
  /** __redis__err__handler */
  readonly errorHandler: LuaCFunction;
  readonly mathRandom: LuaCFunction;
  readonly mathRandomseed: LuaCFunction;
  /** coroutine.create/wrap with the per-run coroutine limit (upvalue 1: the original) */
  readonly countCoroutines: LuaCFunction;
  /** pushes the `redis` table */
  openRedis(L: LuaState): void;
}

/** A fengari table as the patch leaves it: writes raise while `readonly` is true. */
export interface ReadonlyFlag {
  readonly: boolean;
}

/** The table at idx, whose read-only flag the caller may read or set. */
export function tableFlag(L: LuaState, idx: number): ReadonlyFlag {
  return lua.lua_topointer(L, idx) as unknown as ReadonlyFlag;
}

function isReadonly(L: LuaState, idx: number): boolean {
  return lua.lua_type(L, idx) === lua.LUA_TTABLE && tableFlag(L, idx).readonly === true;
}

/** Makes the table at idx read-only (lua_enablereadonlytable(L, idx, 1)). */
function setReadonly(L: LuaState, idx: number): void {
  const t = tableFlag(L, idx);
  // a fengari without the patch would take the flag as a plain property and enforce nothing
  if (!('readonly' in t))
    throw new Error(
      "fengari-web lacks LockScope's patch (read-only tables): run node scripts/patch-fengari.mjs",
    );
  t.readonly = true;
}

/** One per Lua state: SCRIPT FLUSH builds a new state and a new sandbox. */
export class LuaSandbox {
  /** registry ref of the globals table */
  globalsRef = 0;
  /** the globals table's flag: script_lua.ts lifts it while it sets KEYS and ARGV, as Redis does */
  globals!: ReadonlyFlag;

  constructor(
    private readonly L: LuaState,
    private readonly host: SandboxHost,
  ) {
    this.build();
  }

  /** Fills a fresh state with the sandboxed libraries and the read-only globals (scriptingInit, luaEnvInit). */
  private build(): void {
    const L = this.L;
    // fengari's libraries load into a scratch globals table we only pick functions from
    lauxlib.luaL_requiref(L, lit('_G'), lualib.luaopen_base, 1);
    lauxlib.luaL_requiref(L, lit('table'), lualib.luaopen_table, 1);
    lauxlib.luaL_requiref(L, lit('string'), lualib.luaopen_string, 1);
    lauxlib.luaL_requiref(L, lit('math'), lualib.luaopen_math, 1);
    lauxlib.luaL_requiref(L, lit('coroutine'), lualib.luaopen_coroutine, 1);
    lua.lua_settop(L, 0);
    const scratch = 1;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);

    // G: the real globals; metatable raises on a missing name
    lua.lua_createtable(L, 0, 40);
    const G = 2;
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushcfunction(L, protectedTableError);
    lua.lua_setfield(L, -2, lit('__index'));
    // getmetatable(_G) shows this table, read-only like Redis's error metatable
    setReadonly(L, -1);
    lua.lua_setmetatable(L, G);

    const copy = (from: number, name: string, as = name): void => {
      lua.lua_getfield(L, from, lit(name));
      lua.lua_setfield(L, G, lit(as));
    };
    const set = (name: string, f: LuaCFunction): void => {
      lua.lua_pushcfunction(L, f);
      lua.lua_setfield(L, G, lit(name));
    };
    for (const name of ['assert', 'rawequal', 'select', 'type']) copy(scratch, name);
    set('ipairs', ipairs51);
    lua.lua_getfield(L, scratch, lit('tonumber'));
    lua.lua_pushcclosure(L, tonumberAsDouble, 1);
    lua.lua_setfield(L, G, lit('tonumber'));
    lua.lua_pushstring(L, lit('Lua 5.1'));
    lua.lua_setfield(L, G, lit('_VERSION'));

    // originals the LockScope versions wrap
    lua.lua_getfield(L, scratch, lit('xpcall'));
    const xpcallRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_getfield(L, scratch, lit('pairs'));
    const pairsRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);

    set('pcall', this.host.luaPcall);
    const xpcall = this.host.wrapCatching(xpcallRef);
    set('xpcall', (L) => {
      // the handler runs behind a guard: once the budget stopped the script, Lua re-enters the
      // message handler for the stop itself, with hooks off, and a looping handler would never end
      lauxlib.luaL_checkany(L, 2);
      lua.lua_pushvalue(L, 2);
      lua.lua_pushcclosure(L, this.host.guardedHandler, 1);
      lua.lua_replace(L, 2);
      return xpcall(L);
    });
    set('error', luaError51);
    set('tostring', luaTostring51);
    set('getmetatable', this.luaGetmetatable);
    set('setmetatable', this.luaSetmetatable);
    set('rawget', this.luaRawget);
    set('rawset', this.luaRawset);
    set('next', this.luaNext);
    set('pairs', this.wrapPairs(pairsRef));
    set('loadstring', this.luaLoadstring);
    set('load', this.luaLoad);
    set('collectgarbage', luaCollectgarbage);
    set('gcinfo', luaGcinfo);
    set('__redis__err__handler', this.host.errorHandler);

    // table (5.1 names), with unpack also global as in 5.1
    lua.lua_getfield(L, scratch, lit('table'));
    const tab = lua.lua_gettop(L);
    lua.lua_getfield(L, tab, lit('unpack'));
    lua.lua_setfield(L, G, lit('unpack'));
    lua.lua_createtable(L, 0, 9);
    for (const name of ['insert', 'remove', 'sort']) {
      lua.lua_getfield(L, tab, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    lua.lua_getfield(L, tab, lit('concat'));
    lua.lua_pushcclosure(L, tableConcatGuarded, 1);
    lua.lua_setfield(L, -2, lit('concat'));
    addFunctions(L, TABLE51);
    lua.lua_remove(L, tab);
    this.protectInto(L, G, 'table');

    // string (5.1 names)
    lua.lua_getfield(L, scratch, lit('string'));
    const str = lua.lua_gettop(L);
    lua.lua_createtable(L, 0, 16);
    for (const name of ['byte', 'char', 'dump', 'gmatch', 'len', 'lower', 'match']) {
      lua.lua_getfield(L, str, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    for (const name of ['reverse', 'sub', 'upper']) {
      lua.lua_getfield(L, str, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    lua.lua_getfield(L, str, lit('gmatch'));
    lua.lua_setfield(L, -2, lit('gfind'));
    lua.lua_pushcfunction(L, stringFormat51);
    lua.lua_setfield(L, -2, lit('format'));
    lua.lua_getfield(L, str, lit('gsub'));
    lua.lua_pushcclosure(L, gsubGuarded, 1);
    lua.lua_setfield(L, -2, lit('gsub'));
    lua.lua_getfield(L, str, lit('find'));
    lua.lua_pushcclosure(L, stringFindFixed, 1);
    lua.lua_setfield(L, -2, lit('find'));
    lua.lua_pushcfunction(L, stringRep51);
    lua.lua_setfield(L, -2, lit('rep'));
    lua.lua_remove(L, str);
    // strings index the read-only string table; the string metatable itself is read-only too
    setReadonly(L, -1);
    lua.lua_pushstring(L, lit(''));
    lua.lua_getmetatable(L, -1);
    lua.lua_pushvalue(L, -3);
    lua.lua_setfield(L, -2, lit('__index'));
    setReadonly(L, -1);
    lua.lua_pop(L, 2);
    lua.lua_setfield(L, G, lit('string'));

    // math (5.1 names, Redis's PRNG)
    lua.lua_getfield(L, scratch, lit('math'));
    const math = lua.lua_gettop(L);
    lua.lua_createtable(L, 0, 32);
    for (const name of MATH53_KEPT) {
      lua.lua_getfield(L, math, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    addFunctions(L, MATH51);
    lua.lua_pushcfunction(L, this.host.mathRandom);
    lua.lua_setfield(L, -2, lit('random'));
    lua.lua_pushcfunction(L, this.host.mathRandomseed);
    lua.lua_setfield(L, -2, lit('randomseed'));
    lua.lua_remove(L, math);
    this.protectInto(L, G, 'math');

    // coroutine
    lua.lua_getfield(L, scratch, lit('coroutine'));
    const co = lua.lua_gettop(L);
    lua.lua_createtable(L, 0, 6);
    for (const name of ['status', 'yield']) {
      lua.lua_getfield(L, co, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    for (const name of ['create', 'wrap']) {
      lua.lua_getfield(L, co, lit(name));
      lua.lua_pushcclosure(L, this.host.countCoroutines, 1);
      lua.lua_setfield(L, -2, lit(name));
    }
    lua.lua_getfield(L, co, lit('resume'));
    const resumeRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_pushcfunction(L, this.host.wrapCatching(resumeRef));
    lua.lua_setfield(L, -2, lit('resume'));
    lua.lua_pushcfunction(L, coroutineRunning51);
    lua.lua_setfield(L, -2, lit('running'));
    lua.lua_remove(L, co);
    this.protectInto(L, G, 'coroutine');

    openBit(L);
    this.protectInto(L, G, 'bit');
    openCjson(L);
    this.protectInto(L, G, 'cjson');
    openStruct(L);
    this.protectInto(L, G, 'struct');
    openCmsgpack(L);
    this.protectInto(L, G, 'cmsgpack');
    this.host.openRedis(L);
    this.protectInto(L, G, 'redis');

    // G is _G, and chunks compiled from now on see it as their _ENV
    lua.lua_pushvalue(L, G);
    lua.lua_setfield(L, G, lit('_G'));
    lua.lua_pushvalue(L, G);
    lua.lua_rawseti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
    lua.lua_pushvalue(L, G);
    this.globalsRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    setReadonly(L, G);
    this.globals = tableFlag(L, G);
    // fengari names a function in argument errors by searching the loaded-modules table ("bad
    // argument #1 to 'string.sub'"); Lua 5.1 says '?' when the call site gives no name. Emptying
    // the table also leaves fengari's original library tables unreachable.
    lua.lua_pushnil(L);
    lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, lit('_LOADED'));
    lua.lua_settop(L, 0);
  }

  /** Pops a library table, made read-only, into G[name]. */
  private protectInto(L: LuaState, G: number, name: string): void {
    setReadonly(L, -1);
    lua.lua_setfield(L, G, lit(name));
  }

  private readonly luaGetmetatable: LuaCFunction = (L) => {
    lauxlib.luaL_checkany(L, 1);
    if (!lua.lua_getmetatable(L, 1)) {
      lua.lua_pushnil(L);
      return 1;
    }
    lauxlib.luaL_getmetafield(L, 1, lit('__metatable'));
    return 1;
  };

  private readonly luaSetmetatable: LuaCFunction = (L) => {
    const t = lua.lua_type(L, 2);
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    if (t !== lua.LUA_TNIL && t !== lua.LUA_TTABLE) lauxlib.luaL_argerror(L, 2, lit('nil or table expected'));
    if (isReadonly(L, 1)) return raisePlain(L, 'Attempt to modify a readonly table');
    if (lauxlib.luaL_getmetafield(L, 1, lit('__metatable')) !== lua.LUA_TNIL) {
      return lauxlib.luaL_error(L, lit('cannot change a protected metatable'));
    }
    lua.lua_settop(L, 2);
    if (t === lua.LUA_TTABLE) ignoreLenMetamethod(L, 2);
    lua.lua_setmetatable(L, 1);
    return 1;
  };

  private readonly luaRawget: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lauxlib.luaL_checkany(L, 2);
    lua.lua_settop(L, 2);
    lua.lua_rawget(L, 1);
    return 1;
  };

  private readonly luaRawset: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lauxlib.luaL_checkany(L, 2);
    lauxlib.luaL_checkany(L, 3);
    if (isReadonly(L, 1)) return raisePlain(L, 'Attempt to modify a readonly table');
    lua.lua_settop(L, 3);
    lua.lua_rawset(L, 1);
    return 1;
  };

  private readonly luaNext: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lua.lua_settop(L, 2);
    if (lua.lua_next(L, 1)) return 2;
    lua.lua_pushnil(L);
    return 1;
  };

  private wrapPairs(ref: number): LuaCFunction {
    return (L) => {
      lauxlib.luaL_checkany(L, 1);
      if (
        lua.lua_type(L, 1) === lua.LUA_TTABLE &&
        lauxlib.luaL_getmetafield(L, 1, lit('__pairs')) === lua.LUA_TNIL
      ) {
        // no __pairs (_G and the libraries included): Lua 5.1's pairs returns next, t, nil
        lua.lua_pushcfunction(L, this.luaNext);
        lua.lua_pushvalue(L, 1);
        lua.lua_pushnil(L);
        return 3;
      }
      lua.lua_settop(L, 1);
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
      lua.lua_insert(L, 1);
      lua.lua_call(L, 1, 3);
      return 3;
    };
  }

  /** 5.1 loadstring(s [, chunkname]): text only, failures return nil plus the message. */
  private readonly luaLoadstring: LuaCFunction = (L) => {
    const s = lauxlib.luaL_checklstring(L, 1);
    const chunkname = lua.lua_type(L, 2) > lua.LUA_TNIL ? lauxlib.luaL_checklstring(L, 2) : s;
    return this.loadText(L, s, chunkname);
  };

  /** 5.1 load(func [, chunkname]): pieces come from calling func until it returns nil or "". */
  private readonly luaLoad: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TFUNCTION);
    const chunkname = lua.lua_type(L, 2) > lua.LUA_TNIL ? lauxlib.luaL_checklstring(L, 2) : lit('=(load)');
    const pieces: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      lua.lua_pushvalue(L, 1);
      lua.lua_call(L, 0, 1);
      if (lua.lua_type(L, -1) === lua.LUA_TNIL) {
        lua.lua_pop(L, 1);
        break;
      }
      if (lua.lua_type(L, -1) !== lua.LUA_TSTRING)
        return lauxlib.luaL_error(L, lit('reader function must return a string'));
      const piece = lua.lua_tolstring(L, -1)!;
      lua.lua_pop(L, 1);
      if (piece.length === 0) break;
      total += piece.length;
      if (total > MAX_SCRIPT_STRING) return refuse(L, total);
      pieces.push(piece);
    }
    const buf = new Uint8Array(total);
    let o = 0;
    for (const p of pieces) {
      buf.set(p, o);
      o += p.length;
    }
    return this.loadText(L, buf, chunkname);
  };

  private loadText(L: LuaState, s: LuaString, chunkname: LuaString): number {
    if (s.length > 0 && s[0] === 0x1b) {
      lua.lua_pushnil(L);
      pushBytes(L, `${chunkId51(jsBytes(chunkname))}:1: unexpected symbol near 'char(27)'`);
      return 2;
    }
    const rw = rewriteFor53(jsBytes(s));
    const code = luaBytes(rw.code);
    const st = lauxlib.luaL_loadbufferx(L, code, code.length, chunkname, lit('t'));
    if (st !== lua.LUA_OK) {
      const msg = lua51Message(restoreMessage(toBytes(L, -1) ?? '', rw));
      lua.lua_pop(L, 1);
      lua.lua_pushnil(L);
      pushBytes(L, msg);
      return 2;
    }
    return 1;
  }
}

/** fengari's tag-method index of __len (ltm.js TMS.TM_LEN) */
const TM_LEN = 4;

/**
 * Lua 5.1 ignores __len on tables (`#t` is always the raw length); 5.3 calls it. fengari caches
 * "this metatable has no such metamethod" in a per-table bit field that its VM consults before
 * looking, so setting the __len bit makes the VM skip it. The cache is cleared when the metatable
 * gains a new key, which only a script adding __len after setmetatable would notice.
 */
function ignoreLenMetamethod(L: LuaState, mtIndex: number): void {
  lua.lua_pushstring(L, lit('__len'));
  const has = lua.lua_rawget(L, mtIndex) !== lua.LUA_TNIL;
  lua.lua_pop(L, 1);
  if (!has) return;
  const mt = lua.lua_topointer(L, mtIndex) as { flags?: number } | null;
  if (mt !== null && typeof mt.flags === 'number') mt.flags |= 1 << TM_LEN;
}

/** Error without a position prefix, as Redis's patched lapi.c raises for rawset/setmetatable. */
function raisePlain(L: LuaState, msg: string): number {
  pushBytes(L, msg);
  return lua.lua_error(L);
}

/** Reading a missing global (script_lua.c luaProtectedTableError). */
const protectedTableError: LuaCFunction = (L) => {
  if (lua.lua_gettop(L) !== 2)
    return lauxlib.luaL_error(L, lit('Wrong number of arguments to luaProtectedTableError'));
  if (!lua.lua_isstring(L, -1) && !lua.lua_isnumber(L, -1)) {
    return lauxlib.luaL_error(L, lit('Second argument to luaProtectedTableError must be a string or number'));
  }
  const name = luaToString(L, -1);
  lauxlib.luaL_where(L, 1);
  pushBytes(L, `Script attempted to access nonexistent global variable '${name}'`);
  lua.lua_concat(L, 2);
  return lua.lua_error(L);
};
