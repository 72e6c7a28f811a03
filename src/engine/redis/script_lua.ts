/**
 * The Lua side of scripting, after Redis 7.0's script_lua.c: one fengari state per node, the
 * sandbox (libraries, read-only globals), the two conversions (Lua value <-> Redis reply), the
 * `redis` API, the instruction budget and the line hook. EVAL/EVALSHA/SCRIPT parsing and the
 * command rules for redis.call live in eval.ts, which talks to this file through LuaBridge.
 *
 * fengari is Lua 5.3 with 32-bit integers; Redis embeds Lua 5.1 with doubles. What this file hides
 * and what it cannot is listed in docs/lua-differences.md.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaHook, LuaState, LuaString } from 'fengari-web';
import type { Reply } from './reply';
import { NIL, bulk, error, int, status } from './reply';
import {
  formatG,
  jsBytes,
  lit,
  lua51NumberToString,
  luaBytes,
  pushBytes,
  pushNumber,
  raiseWithPosition,
  redisArgFromNumber,
  toBytes,
} from './lua_strings';
import {
  MAX_SCRIPT_STRING,
  NATIVE_ERROR_STATUS,
  ScriptMemoryError,
  chargeStringBytes,
  installVmPatches,
  takeRefusal,
  withStringGuard,
} from './lua_vmpatch';
import { Rand48, REDIS_LRAND48_MAX } from './lua_random';
import { sha1hex } from './sha1';
import { openBit } from './lua_bit';
import { openCjson } from './lua_cjson';
import { openCmsgpack } from './lua_cmsgpack';
import { openStruct } from './lua_struct';
import { stringFormat51 } from './lua_strformat';
import { restoreMessage, rewriteFor53 } from './lua_syntax51';
import { toResp3 } from './lua_resp3';
import type { Resp3 } from './lua_resp3';

const { lua, lauxlib, lualib } = fengari;

export type LogLevel = 'debug' | 'verbose' | 'notice' | 'warning';

/** What the Lua layer needs from eval.ts. */
export interface LuaBridge {
  /** One redis.call/redis.pcall. Rejections (unknown command, arity, ...) come back as error replies. */
  call(argv: string[]): Reply;
  log(level: LogLevel, message: string): void;
  /** redis.acl_check_cmd: undefined when the command does not exist */
  commandExists(name: string): boolean;
}

export interface LuaOptions {
  /** instructions a script may run before it is stopped */
  budget: number;
  /** 0 = rand48's initial state, as on a fresh redis-server; anything else = srand48(seed) */
  seed: number;
}

/** Text of the error a script gets when it runs past its instruction budget. */
export function budgetErrorText(budget: number): string {
  return `ERR Script killed: it ran more than ${budget} Lua instructions (LockScope's instruction budget)`;
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'verbose', 'notice', 'warning'];
const REDIS_VERSION = '7.0.15';
const REDIS_VERSION_NUM = 0x07000f;
/** Redis gives up converting a nested reply when the Lua C stack runs out (luaReplyToRedisReply). */
const MAX_REPLY_DEPTH = 2000;
/** Strings up to this length are interned (see pushString), up to this many distinct ones. */
const INTERN_MAX_LENGTH = 64;
const INTERN_MAX_ENTRIES = 4096;
/** Longer KEYS/ARGV values of the running script remembered for decode (see pushArg), at most this many. */
const RUN_ARGS_MAX = 16;
const MAX_COROUTINES = 10_000;
/** Instructions between two budget checks: large so the fast path barely notices the hook. */
const HOOK_STEP = 10_000;

/** CR and LF become spaces in status and error replies, as addReplyErrorFormat / luaReplyToRedisReply do. */
function mapCRLF(s: string): string {
  return s.includes('\r') || s.includes('\n') ? s.replace(/[\r\n]/g, ' ') : s;
}

function trimCRLF(s: string): string {
  return s.replace(/^[\r\n]+|[\r\n]+$/g, '');
}

/**
 * The `err` field Redis builds from an error reply (script_lua.c luaPushErrorBuff): the first word
 * is the code, a code-less message gets "ERR", and CR/LF are trimmed from the message's ends.
 */
export function luaErrorField(reply: string): string {
  const sp = reply.indexOf(' ');
  if (sp < 0) return `ERR ${trimCRLF(reply)}`;
  return `${reply.slice(0, sp)} ${trimCRLF(reply.slice(sp + 1))}`;
}

/** Lua number -> Redis integer, as the C cast `(long long)n` behaves on x86-64. */
function integerReply(n: number): Reply {
  if (!Number.isFinite(n) || n >= 9223372036854775808 || n < -9223372036854775808) {
    return int(-9223372036854775808n);
  }
  const t = Math.trunc(n);
  return int(Number.isSafeInteger(t) ? t : BigInt(t));
}

interface ScriptFunction {
  ref: number;
}

type Checked = { ok: true; fn: ScriptFunction } | { ok: false; error: Reply };

export class LuaScripting {
  private L!: LuaState;
  /** registry refs of the sandbox's own tables */
  private globalsRef = 0;
  private proxyGlobalsRef = 0;
  private errMetaProxyRef = 0;
  private stringMetaProxyRef = 0;
  /** proxy table identity -> registry ref of the table it fronts */
  private proxies = new Map<object, number>();
  private readonly rand: Rand48;
  /** short strings pushed before -> registry ref of the Lua string, so hot values are not re-created */
  private interned = new Map<string, number>();
  private readonly decoded = new WeakMap<LuaString, string>();
  /**
   * KEYS/ARGV values too long to intern, pushed for the current run: the Lua string's bytes and the
   * engine string they were made from. redis.call(..., KEYS[3]) then gets the caller's own string
   * back instead of a fresh conversion (which the keyspace would hash again). Identity of the
   * Uint8Array is the key: fengari strings are immutable, so same array means same bytes. Cleared
   * at the end of every run, so it holds nothing between scripts.
   */
  private readonly runBytes: LuaString[] = [];
  private readonly runStrings: string[] = [];

  // per-run state
  private running = false;
  private used = 0;
  private killed = false;
  private killLine = 0;
  private resp: 2 | 3 = 2;
  private coroutines = 0;
  private lineListener: ((line: number) => void) | null = null;

  constructor(
    private readonly bridge: LuaBridge,
    private readonly opts: LuaOptions,
  ) {
    this.rand = opts.seed === 0 ? new Rand48() : new Rand48(opts.seed);
    this.reset();
  }

  /** A fresh Lua VM (SCRIPT FLUSH). Compiled functions are gone; the PRNG keeps going, as in Redis. */
  reset(): void {
    this.L = lauxlib.luaL_newstate();
    this.proxies = new Map();
    this.interned = new Map();
    installVmPatches(this.L);
    lua.lua_atnativeerror(this.L, nativeError);
    this.buildSandbox();
  }

  /** Called on every executed line while set (the tracer); null turns the line hook off. */
  setLineListener(fn: ((line: number) => void) | null): void {
    this.lineListener = fn;
  }

  /** Compiles a script body (luaCreateFunction). */
  compile(body: string): Checked {
    const L = this.L;
    if (body.length > 0 && body.charCodeAt(0) === 0x1b) {
      // Redis's Lua refuses binary chunks by parsing them as text, which fails on the ESC byte
      return {
        ok: false,
        error: error(
          `ERR Error compiling script (new function): user_script:1: unexpected symbol near 'char(27)'`,
        ),
      };
    }
    const rw = rewriteFor53(body);
    const bytes = luaBytes(rw.code);
    const st = lauxlib.luaL_loadbufferx(L, bytes, bytes.length, lit('@user_script'), lit('t'));
    if (st !== lua.LUA_OK) {
      const msg = lua51Message(restoreMessage(toBytes(L, -1) ?? 'unknown error', rw));
      lua.lua_pop(L, 1);
      return { ok: false, error: error(`ERR Error compiling script (new function): ${msg}`) };
    }
    const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    return { ok: true, fn: { ref } };
  }

  /** Runs a compiled script with KEYS and ARGV (luaCallFunction) and converts what it returns. */
  run(fn: ScriptFunction, sha: string, keys: readonly string[], args: readonly string[]): Reply {
    if (this.running) return error('ERR LockScope: nested script run');
    const L = this.L;
    this.running = true;
    this.used = 0;
    this.killed = false;
    this.killLine = 0;
    this.resp = 2;
    this.coroutines = 0;
    try {
      return withStringGuard(() => {
        lua.lua_settop(L, 0);
        lua.lua_pushcfunction(L, this.errorHandler);
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, fn.ref);
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.globalsRef);
        // key first, then value: no lua_insert to swap them (see setField)
        this.pushString(L, 'KEYS');
        this.pushStringArray(L, keys);
        lua.lua_rawset(L, -3);
        this.pushString(L, 'ARGV');
        this.pushStringArray(L, args);
        lua.lua_rawset(L, -3);
        lua.lua_pop(L, 1);
        this.armHook(L);
        const st = lua.lua_pcall(L, 0, 1, 1);
        lua.lua_sethook(L, null, 0, 0);
        let reply: Reply;
        if (this.killed) reply = this.killReply(sha);
        else if (st === lua.LUA_OK) reply = this.toReply(L, -1, 0);
        else if (st === NATIVE_ERROR_STATUS)
          reply = error(`ERR Error running script ${sha}, ${nativeErrorText()}`);
        else reply = this.errorReply(L, sha);
        takeRefusal();
        lua.lua_settop(L, 0);
        return reply;
      });
    } finally {
      this.running = false;
      this.runBytes.length = 0;
      this.runStrings.length = 0;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // budget and line hook

  private armHook(L: LuaState): void {
    const step = Math.max(1, Math.min(HOOK_STEP, this.opts.budget));
    const mask = lua.LUA_MASKCOUNT | (this.lineListener ? lua.LUA_MASKLINE : 0);
    lua.lua_sethook(L, this.hook, mask, step);
  }

  private readonly hook: LuaHook = (L, ar) => {
    if (ar.event === lua.LUA_HOOKLINE) {
      if (!this.killed && this.lineListener && this.inUserScript(L)) this.lineListener(ar.currentline);
    } else if (!this.killed) {
      this.used += Math.max(1, Math.min(HOOK_STEP, this.opts.budget));
      if (this.used > this.opts.budget) {
        this.killed = true;
        this.killLine = this.userLine(L);
        // from now on every instruction of every thread raises, so pcall, xpcall and coroutines
        // cannot swallow the stop (Redis re-arms its hook the same way for SCRIPT KILL)
        lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, 1);
        lua.lua_sethook(this.L, this.hook, lua.LUA_MASKCOUNT, 1);
      }
    }
    if (this.killed) {
      lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, 1);
      lua.lua_pushstring(L, lit('script killed by the instruction budget'));
      lua.lua_error(L);
    }
  };

  private inUserScript(L: LuaState): boolean {
    const ar = new lua.lua_Debug();
    if (!lua.lua_getstack(L, 0, ar)) return false;
    lua.lua_getinfo(L, lit('S'), ar);
    return ar.source !== null && jsBytes(ar.source) === '@user_script';
  }

  /** Line of the innermost user_script frame (what Redis puts after "@user_script:"). */
  private userLine(L: LuaState): number {
    const ar = new lua.lua_Debug();
    for (let level = 0; lua.lua_getstack(L, level, ar); level++) {
      lua.lua_getinfo(L, lit('Sl'), ar);
      if (ar.source !== null && jsBytes(ar.source) === '@user_script' && ar.currentline > 0)
        return ar.currentline;
    }
    return 0;
  }

  private killReply(sha: string): Reply {
    return error(`${budgetErrorText(this.opts.budget)} script: ${sha}, on @user_script:${this.killLine}.`);
  }

  // ---------------------------------------------------------------------------------------------
  // errors

  /**
   * The message handler every script runs under (eval.c `__redis__err__handler`): a non-table
   * error becomes {err='ERR '..tostring(e)}; the table gets the source and line of the function
   * that raised it, skipping a C function (error, redis.call) to reach the Lua caller.
   */
  private readonly errorHandler: LuaCFunction = (L) => {
    const ar = new lua.lua_Debug();
    let have = lua.lua_getstack(L, 1, ar) !== 0;
    if (have) {
      lua.lua_getinfo(L, lit('nSl'), ar);
      if (ar.what !== null && jsBytes(ar.what) === 'J') {
        // fengari calls its C functions "J" (JavaScript)
        have = lua.lua_getstack(L, 2, ar) !== 0;
        if (have) lua.lua_getinfo(L, lit('nSl'), ar);
      }
    }
    if (lua.lua_type(L, 1) !== lua.LUA_TTABLE) {
      const msg = lua51Message(luaToString(L, 1));
      lua.lua_createtable(L, 0, 3);
      pushBytes(L, `ERR ${msg}`);
      lua.lua_setfield(L, -2, lit('err'));
      lua.lua_replace(L, 1);
    }
    lua.lua_settop(L, 1);
    if (have) {
      if (ar.source !== null) {
        // fengari names its JS-implemented functions "=[JS]" where C Lua says "=[C]"
        const src = jsBytes(ar.source);
        pushBytes(L, src === '=[JS]' ? '=[C]' : src);
        lua.lua_setfield(L, 1, lit('source'));
      }
      lua.lua_pushinteger(L, ar.currentline);
      lua.lua_setfield(L, 1, lit('line'));
    }
    return 1;
  };

  /** The error value left by a failed run -> Redis's error reply (luaCallFunction). */
  private errorReply(L: LuaState, sha: string): Reply {
    if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) {
      const msg = lua.lua_isstring(L, -1) ? (toBytes(L, -1) ?? '') : 'execution failure';
      return error(mapCRLF(`ERR Error running script ${sha}, ${msg.slice(0, 100)}`));
    }
    lua.lua_getfield(L, -1, lit('err'));
    const msg = lua.lua_isstring(L, -1) ? toBytes(L, -1) : null;
    lua.lua_pop(L, 1);
    lua.lua_getfield(L, -1, lit('source'));
    const source = lua.lua_isstring(L, -1) ? toBytes(L, -1) : null;
    lua.lua_pop(L, 1);
    lua.lua_getfield(L, -1, lit('line'));
    const line = lua.lua_isstring(L, -1) ? toBytes(L, -1) : null;
    lua.lua_pop(L, 1);
    // Redis 7.0.15 dereferences a NULL message here and crashes (error({}) kills the server);
    // LockScope answers with an error instead.
    const text = msg ?? 'ERR script raised an error object without an err field';
    const suffix = line !== null && source !== null ? ` script: ${sha}, on ${source}:${line}.` : '';
    return error(mapCRLF(text + suffix));
  }

  // ---------------------------------------------------------------------------------------------
  // conversions

  /**
   * Pushes a byte string. Lock names, field names, "OK" and small numbers come back on every call;
   * keeping one Lua string per distinct short value (bounded) spares fengari a copy and a rehash
   * each time. Strings are values in Lua, so sharing them is invisible to scripts.
   */
  private pushString(L: LuaState, s: string): void {
    if (s.length > INTERN_MAX_LENGTH) {
      lua.lua_pushstring(L, luaBytes(s));
      return;
    }
    const ref = this.interned.get(s);
    if (ref !== undefined) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
      return;
    }
    lua.lua_pushstring(L, luaBytes(s));
    if (this.interned.size < INTERN_MAX_ENTRIES) {
      lua.lua_pushvalue(L, -1);
      this.interned.set(s, lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX));
    }
  }

  /**
   * A Lua string as a byte string. Constants of a compiled script ('hincrby') and interned values
   * are the same Uint8Array on every call, so their decoding is remembered per array.
   */
  private decode(a: LuaString): string {
    const run = this.runBytes;
    for (let i = 0; i < run.length; i++) if (run[i] === a) return this.runStrings[i];
    let s = this.decoded.get(a);
    if (s === undefined) {
      s = jsBytes(a);
      if (a.length <= INTERN_MAX_LENGTH) this.decoded.set(a, s);
    }
    return s;
  }

  /** t[name] = top, with the field name interned (lua_setfield would build a new key string each time) */
  private setField(L: LuaState, t: number, name: string): void {
    this.pushString(L, name);
    lua.lua_insert(L, -2);
    lua.lua_rawset(L, t < 0 ? t - 1 : t);
  }

  private pushStringArray(L: LuaState, items: readonly string[]): void {
    lua.lua_createtable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      this.pushArg(L, items[i]);
      lua.lua_rawseti(L, -2, i + 1);
    }
  }

  /** pushString for a KEYS/ARGV value; a long one is remembered for decode while the run lasts. */
  private pushArg(L: LuaState, s: string): void {
    if (s.length <= INTERN_MAX_LENGTH || this.runBytes.length >= RUN_ARGS_MAX) {
      this.pushString(L, s);
      return;
    }
    // lua_pushstring copies the bytes and returns fengari's own array, the one scripts will hand back
    this.runBytes.push(lua.lua_pushstring(L, luaBytes(s)));
    this.runStrings.push(s);
  }

  /** Redis reply -> Lua value (redisProtocolToLuaType, RESP2; setresp(3) changes nil). */
  private pushReply(L: LuaState, r: Reply, depth: number): void {
    switch (r.t) {
      case 'int':
        // a double, as every Lua 5.1 number is: arithmetic on it cannot wrap at fengari's 2^31
        lua.lua_pushnumber(L, typeof r.v === 'bigint' ? Number(r.v) : r.v);
        return;
      case 'bulk':
        if (r.v === null) this.pushNull(L);
        else this.pushString(L, r.v);
        return;
      case 'status':
        lua.lua_createtable(L, 0, 1);
        this.pushString(L, 'ok');
        this.pushString(L, r.v);
        lua.lua_rawset(L, -3);
        return;
      case 'error':
        lua.lua_createtable(L, 0, 1);
        pushBytes(L, luaErrorField(r.v));
        this.setField(L, -2, 'err');
        return;
      case 'array': {
        if (r.v === null) {
          this.pushNull(L);
          return;
        }
        if (!lua.lua_checkstack(L, 4)) lauxlib.luaL_error(L, lit('reached lua stack limit'));
        const items = r.v;
        lua.lua_createtable(L, items.length, 0);
        for (let i = 0; i < items.length; i++) {
          this.pushReply(L, items[i], depth + 1);
          lua.lua_rawseti(L, -2, i + 1);
        }
        return;
      }
    }
  }

  /** RESP3 reply -> Lua value (redisProtocolToLuaType_* after redis.setresp(3)). */
  private pushResp3(L: LuaState, r: Resp3): void {
    if (!lua.lua_checkstack(L, 4)) lauxlib.luaL_error(L, lit('reached lua stack limit'));
    switch (r.t) {
      case 'null':
        lua.lua_pushnil(L);
        return;
      case 'double':
        lua.lua_createtable(L, 0, 1);
        lua.lua_pushnumber(L, r.v);
        this.setField(L, -2, 'double');
        return;
      case 'map':
        lua.lua_createtable(L, 0, 1);
        lua.lua_createtable(L, 0, r.v.length);
        for (const [k, v] of r.v) {
          this.pushResp3(L, k);
          this.pushResp3(L, v);
          lua.lua_rawset(L, -3);
        }
        this.setField(L, -2, 'map');
        return;
      case 'set':
        lua.lua_createtable(L, 0, 1);
        lua.lua_createtable(L, 0, r.v.length);
        for (const m of r.v) {
          this.pushResp3(L, m);
          lua.lua_pushboolean(L, true);
          lua.lua_rawset(L, -3);
        }
        this.setField(L, -2, 'set');
        return;
      case 'array3':
        lua.lua_createtable(L, r.v.length, 0);
        for (let i = 0; i < r.v.length; i++) {
          this.pushResp3(L, r.v[i]);
          lua.lua_rawseti(L, -2, i + 1);
        }
        return;
      default:
        this.pushReply(L, r, 0);
    }
  }

  private pushNull(L: LuaState): void {
    if (this.resp === 3) lua.lua_pushnil(L);
    else lua.lua_pushboolean(L, false);
  }

  /** Lua value -> Redis reply (luaReplyToRedisReply). Fields are read raw: metatables don't count. */
  private toReply(L: LuaState, idx: number, depth: number): Reply {
    switch (lua.lua_type(L, idx)) {
      case lua.LUA_TSTRING:
        return bulk(jsBytes(lua.lua_tolstring(L, idx)!));
      case lua.LUA_TBOOLEAN: {
        const b = lua.lua_toboolean(L, idx);
        if (this.resp === 2) return b ? int(1) : NIL;
        return int(b ? 1 : 0); // a RESP3 script answering a RESP2 caller: #t/#f become :1/:0
      }
      case lua.LUA_TNUMBER:
        return integerReply(lua.lua_tonumber(L, idx));
      case lua.LUA_TTABLE:
        return this.tableToReply(L, lua.lua_absindex(L, idx), depth);
      default:
        return NIL;
    }
  }

  private tableToReply(L: LuaState, t: number, depth: number): Reply {
    if (depth >= MAX_REPLY_DEPTH || !lua.lua_checkstack(L, 4)) return error('ERR reached lua stack limit');
    const field = (name: string): number => {
      lua.lua_pushstring(L, lit(name));
      return lua.lua_rawget(L, t);
    };
    if (field('err') === lua.LUA_TSTRING) {
      const v = toBytes(L, -1)!;
      lua.lua_pop(L, 1);
      return error(mapCRLF(v));
    }
    lua.lua_pop(L, 1);
    if (field('ok') === lua.LUA_TSTRING) {
      const v = toBytes(L, -1)!;
      lua.lua_pop(L, 1);
      return status(mapCRLF(v));
    }
    lua.lua_pop(L, 1);
    if (field('double') === lua.LUA_TNUMBER) {
      const v = lua.lua_tonumber(L, -1);
      lua.lua_pop(L, 1);
      return bulk(formatG(v, 17));
    }
    lua.lua_pop(L, 1);
    if (field('big_number') === lua.LUA_TSTRING) {
      const v = toBytes(L, -1)!;
      lua.lua_pop(L, 1);
      return bulk(mapCRLF(v));
    }
    lua.lua_pop(L, 1);
    if (field('map') === lua.LUA_TTABLE) {
      const out = this.pairsToReply(L, lua.lua_absindex(L, -1), depth, true);
      lua.lua_pop(L, 1);
      return { t: 'array', v: out };
    }
    lua.lua_pop(L, 1);
    if (field('set') === lua.LUA_TTABLE) {
      const out = this.pairsToReply(L, lua.lua_absindex(L, -1), depth, false);
      lua.lua_pop(L, 1);
      return { t: 'array', v: out };
    }
    lua.lua_pop(L, 1);
    const out: Reply[] = [];
    for (let j = 1; ; j++) {
      if (lua.lua_rawgeti(L, t, j) === lua.LUA_TNIL) {
        lua.lua_pop(L, 1);
        break;
      }
      out.push(this.toReply(L, -1, depth + 1));
      lua.lua_pop(L, 1);
    }
    return { t: 'array', v: out };
  }

  /** RESP3 map/set shapes flattened for a RESP2 caller (key, value, key, value... / members). */
  private pairsToReply(L: LuaState, t: number, depth: number, withValues: boolean): Reply[] {
    const out: Reply[] = [];
    lua.lua_pushnil(L);
    while (lua.lua_next(L, t)) {
      out.push(this.toReply(L, -2, depth + 1));
      if (withValues) out.push(this.toReply(L, -1, depth + 1));
      lua.lua_pop(L, 1);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // the redis table

  /** redis.call / redis.pcall (luaRedisGenericCommand). */
  private genericCall(L: LuaState, raise: boolean): number {
    const argc = lua.lua_gettop(L);
    if (argc === 0)
      return this.fail(L, raise, 'Please specify at least one argument for this redis lib call');
    const argv = new Array<string>(argc);
    for (let i = 0; i < argc; i++) {
      const t = lua.lua_type(L, i + 1);
      if (t === lua.LUA_TSTRING) argv[i] = this.decode(lua.lua_tolstring(L, i + 1)!);
      else if (t === lua.LUA_TNUMBER) {
        argv[i] = lua.lua_isinteger(L, i + 1)
          ? String(lua.lua_tointeger(L, i + 1))
          : redisArgFromNumber(lua.lua_tonumber(L, i + 1));
      } else return this.fail(L, raise, 'Lua redis lib command arguments must be strings or integers');
    }
    const reply = this.bridge.call(argv);
    if (reply.t === 'error') {
      this.pushReply(L, reply, 0);
      if (raise) return lua.lua_error(L);
      return 1;
    }
    if (this.resp === 3) this.pushResp3(L, toResp3(argv, reply));
    else this.pushReply(L, reply, 0);
    return 1;
  }

  private fail(L: LuaState, raise: boolean, msg: string): number {
    lua.lua_createtable(L, 0, 1);
    pushBytes(L, `ERR ${msg}`);
    lua.lua_setfield(L, -2, lit('err'));
    if (raise) return lua.lua_error(L);
    return 1;
  }

  private openRedis(L: LuaState): void {
    lua.lua_createtable(L, 0, 32);
    const fn = (name: string, f: LuaCFunction): void => {
      lua.lua_pushcfunction(L, f);
      lua.lua_setfield(L, -2, lit(name));
    };
    const num = (name: string, v: number): void => {
      lua.lua_pushinteger(L, v);
      lua.lua_setfield(L, -2, lit(name));
    };
    fn('call', (L) => this.genericCall(L, true));
    fn('pcall', (L) => this.genericCall(L, false));
    fn('log', (L) => {
      const argc = lua.lua_gettop(L);
      if (argc < 2) return this.fail(L, true, 'redis.log() requires two arguments or more.');
      if (!lua.lua_isnumber(L, 1)) return this.fail(L, true, 'First argument must be a number (log level).');
      const level = lua.lua_tonumber(L, 1);
      if (!(level >= 0 && level <= 3)) return this.fail(L, true, 'Invalid debug level.');
      const parts: string[] = [];
      for (let j = 2; j <= argc; j++) {
        const s = lua.lua_isstring(L, j) ? luaToString(L, j) : null;
        if (s !== null) parts.push(s);
      }
      this.bridge.log(LOG_LEVELS[Math.trunc(level)], parts.join(' '));
      return 0;
    });
    num('LOG_DEBUG', 0);
    num('LOG_VERBOSE', 1);
    num('LOG_NOTICE', 2);
    num('LOG_WARNING', 3);
    fn('setresp', (L) => {
      if (lua.lua_gettop(L) !== 1) return this.fail(L, true, 'redis.setresp() requires one argument.');
      const v = lua.lua_tonumber(L, 1);
      if (v !== 2 && v !== 3) return this.fail(L, true, 'RESP version must be 2 or 3.');
      this.resp = v;
      return 0;
    });
    fn('sha1hex', (L) => {
      if (lua.lua_gettop(L) !== 1) return this.fail(L, true, 'wrong number of arguments');
      const s = lua.lua_isstring(L, 1) ? toBytes(L, 1)! : '';
      pushBytes(L, sha1hex(s));
      return 1;
    });
    fn('error_reply', (L) => {
      if (lua.lua_gettop(L) !== 1 || lua.lua_type(L, 1) !== lua.LUA_TSTRING) {
        return this.fail(L, false, 'wrong number or type of arguments');
      }
      const s = toBytes(L, 1)!;
      lua.lua_createtable(L, 0, 1);
      pushBytes(L, luaErrorField(s.startsWith('-') ? s.slice(1) : s));
      lua.lua_setfield(L, -2, lit('err'));
      return 1;
    });
    fn('status_reply', (L) => {
      if (lua.lua_gettop(L) !== 1 || lua.lua_type(L, 1) !== lua.LUA_TSTRING) {
        return this.fail(L, false, 'wrong number or type of arguments');
      }
      lua.lua_createtable(L, 0, 1);
      lua.lua_pushvalue(L, 1);
      lua.lua_setfield(L, -2, lit('ok'));
      return 1;
    });
    fn('set_repl', (L) => {
      if (lua.lua_gettop(L) !== 1) return this.fail(L, true, 'redis.set_repl() requires two arguments.');
      const flags = lua.lua_tonumber(L, 1);
      if (!(flags >= 0 && flags <= 3) || (flags | 0) !== flags) {
        return this.fail(
          L,
          true,
          'Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.',
        );
      }
      // effects replication is the replication layer's business; the flag itself has no reader yet
      return 0;
    });
    num('REPL_NONE', 0);
    num('REPL_AOF', 1);
    num('REPL_SLAVE', 2);
    num('REPL_REPLICA', 2);
    num('REPL_ALL', 3);
    fn('replicate_commands', (L) => {
      lua.lua_pushboolean(L, true);
      return 1;
    });
    fn('acl_check_cmd', (L) => {
      const argc = lua.lua_gettop(L);
      if (argc === 0)
        return this.fail(L, true, 'Please specify at least one argument for this redis lib call');
      for (let j = 1; j <= argc; j++) {
        if (!lua.lua_isstring(L, j)) {
          return this.fail(L, true, 'Lua redis lib command arguments must be strings or integers');
        }
      }
      const name = (toBytes(L, 1) ?? '').toLowerCase();
      if (!this.bridge.commandExists(name))
        return this.fail(L, true, 'Invalid command passed to redis.acl_check_cmd()');
      lua.lua_pushboolean(L, true); // the simulated default user may run everything
      return 1;
    });
    fn('breakpoint', (L) => {
      lua.lua_pushboolean(L, false); // no debugging session (SCRIPT DEBUG) in the simulator
      return 1;
    });
    fn('debug', () => 0);
    lua.lua_pushstring(L, lit(REDIS_VERSION));
    lua.lua_setfield(L, -2, lit('REDIS_VERSION'));
    num('REDIS_VERSION_NUM', REDIS_VERSION_NUM);
  }

  // ---------------------------------------------------------------------------------------------
  // the sandbox

  private buildSandbox(): void {
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
    // getmetatable(_G) shows this table (read-only, like Redis's error metatable)
    lua.lua_pushvalue(L, -1);
    this.errMetaProxyRef = this.protect(L);
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

    set('pcall', this.luaPcall);
    const xpcall = this.wrapCatching(xpcallRef);
    set('xpcall', (L) => {
      // the handler runs behind a guard: once the budget stopped the script, Lua re-enters the
      // message handler for the stop itself, with hooks off, and a looping handler would never end
      lauxlib.luaL_checkany(L, 2);
      lua.lua_pushvalue(L, 2);
      lua.lua_pushcclosure(L, this.guardedHandler, 1);
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
    set('__redis__err__handler', this.errorHandler);

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
    // strings index the protected string table; the string metatable itself is read-only too
    lua.lua_pushvalue(L, -1);
    const stringProxy = this.protectAndKeep(L); // leaves proxy on stack
    lua.lua_setfield(L, G, lit('string'));
    lua.lua_pop(L, 1);
    lua.lua_pushstring(L, lit(''));
    lua.lua_getmetatable(L, -1);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, stringProxy);
    lua.lua_setfield(L, -2, lit('__index'));
    lua.lua_pushvalue(L, -1);
    this.stringMetaProxyRef = this.protect(L);
    lua.lua_pop(L, 2);

    // math (5.1 names, Redis's PRNG)
    lua.lua_getfield(L, scratch, lit('math'));
    const math = lua.lua_gettop(L);
    lua.lua_createtable(L, 0, 32);
    for (const name of MATH53_KEPT) {
      lua.lua_getfield(L, math, lit(name));
      lua.lua_setfield(L, -2, lit(name));
    }
    addFunctions(L, MATH51);
    lua.lua_pushcfunction(L, this.mathRandom);
    lua.lua_setfield(L, -2, lit('random'));
    lua.lua_pushcfunction(L, this.mathRandomseed);
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
      lua.lua_pushcclosure(L, this.countCoroutines, 1);
      lua.lua_setfield(L, -2, lit(name));
    }
    lua.lua_getfield(L, co, lit('resume'));
    const resumeRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    lua.lua_pushcfunction(L, this.wrapCatching(resumeRef));
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
    this.openRedis(L);
    this.protectInto(L, G, 'redis');

    // _G is the read-only face of G; chunks compiled from now on see it as their _ENV
    lua.lua_pushvalue(L, G);
    const pg = this.protectAndKeep(L);
    this.proxyGlobalsRef = pg;
    lua.lua_pushvalue(L, -1);
    lua.lua_setfield(L, G, lit('_G'));
    lua.lua_rawseti(L, lua.LUA_REGISTRYINDEX, lua.LUA_RIDX_GLOBALS);
    lua.lua_pushvalue(L, G);
    this.globalsRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    // fengari names a function in argument errors by searching the loaded-modules table ("bad
    // argument #1 to 'string.sub'"); Lua 5.1 says '?' when the call site gives no name. Emptying
    // the table also leaves fengari's original library tables unreachable.
    lua.lua_pushnil(L);
    lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, lit('_LOADED'));
    lua.lua_settop(L, 0);
  }

  /** Replaces the table on top with nothing and returns the registry ref of its read-only proxy. */
  private protect(L: LuaState): number {
    const ref = this.protectAndKeep(L);
    lua.lua_pop(L, 1);
    return ref;
  }

  /** Pops the table on top, pushes its read-only proxy, returns the proxy's registry ref. */
  private protectAndKeep(L: LuaState): number {
    const real = lua.lua_absindex(L, -1);
    lua.lua_createtable(L, 0, 0);
    const proxy = lua.lua_gettop(L);
    lua.lua_createtable(L, 0, 3);
    lua.lua_pushvalue(L, real);
    lua.lua_setfield(L, -2, lit('__index'));
    lua.lua_pushcfunction(L, readonlyError);
    lua.lua_setfield(L, -2, lit('__newindex'));
    lua.lua_pushcfunction(L, this.proxyPairs);
    lua.lua_setfield(L, -2, lit('__pairs'));
    lua.lua_setmetatable(L, proxy);
    lua.lua_pushvalue(L, real);
    const realRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    this.proxies.set(lua.lua_topointer(L, proxy)!, realRef);
    lua.lua_remove(L, real);
    lua.lua_pushvalue(L, -1);
    return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  /** Pops a library table and stores its proxy as G[name]. */
  private protectInto(L: LuaState, G: number, name: string): void {
    this.protectAndKeep(L);
    lua.lua_setfield(L, G, lit(name));
  }

  /** If the value at idx is a sandbox proxy, push the table behind it and return true. */
  private pushReal(L: LuaState, idx: number): boolean {
    if (lua.lua_type(L, idx) !== lua.LUA_TTABLE) return false;
    const ref = this.proxies.get(lua.lua_topointer(L, idx)!);
    if (ref === undefined) return false;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
    return true;
  }

  private isProtected(L: LuaState, idx: number): boolean {
    return lua.lua_type(L, idx) === lua.LUA_TTABLE && this.proxies.has(lua.lua_topointer(L, idx)!);
  }

  /** Redis's pcall (luaRedisPcall): an error table is returned as its err string. */
  private readonly luaPcall: LuaCFunction = (L) => {
    lauxlib.luaL_checkany(L, 1);
    const argc = lua.lua_gettop(L);
    lua.lua_pushboolean(L, true);
    lua.lua_insert(L, 1);
    const st = lua.lua_pcall(L, argc - 1, lua.LUA_MULTRET, 0);
    if (this.killed) return this.raiseKilled(L);
    if (st !== lua.LUA_OK) {
      lua.lua_remove(L, 1);
      if (st === NATIVE_ERROR_STATUS) {
        lua.lua_pop(L, 1);
        pushBytes(L, nativeErrorText());
      }
      if (lua.lua_type(L, -1) === lua.LUA_TTABLE) {
        lua.lua_getfield(L, -1, lit('err'));
        if (lua.lua_isstring(L, -1)) lua.lua_replace(L, -2);
        else lua.lua_pop(L, 1);
      } else if (lua.lua_type(L, -1) === lua.LUA_TSTRING) {
        const msg = toBytes(L, -1)!;
        const msg51 = lua51Message(msg);
        if (msg51 !== msg) {
          lua.lua_pop(L, 1);
          pushBytes(L, msg51);
        }
      }
      lua.lua_pushboolean(L, false);
      lua.lua_insert(L, 1);
    }
    return lua.lua_gettop(L);
  };

  /** Calls a catching function (xpcall, coroutine.resume) and re-raises a budget stop it caught. */
  private wrapCatching(ref: number): LuaCFunction {
    return (L) => {
      const argc = lua.lua_gettop(L);
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
      lua.lua_insert(L, 1);
      lua.lua_call(L, argc, lua.LUA_MULTRET);
      if (this.killed) return this.raiseKilled(L);
      return lua.lua_gettop(L);
    };
  }

  private readonly guardedHandler: LuaCFunction = (L) => {
    if (this.killed) return 1;
    const argc = lua.lua_gettop(L);
    lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
    lua.lua_insert(L, 1);
    lua.lua_call(L, argc, 1);
    return 1;
  };

  private raiseKilled(L: LuaState): number {
    lua.lua_pushstring(L, lit('script killed by the instruction budget'));
    return lua.lua_error(L);
  }

  private readonly luaGetmetatable: LuaCFunction = (L) => {
    lauxlib.luaL_checkany(L, 1);
    if (lua.lua_type(L, 1) === lua.LUA_TSTRING) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.stringMetaProxyRef);
      return 1;
    }
    if (this.isProtected(L, 1)) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.proxyGlobalsRef);
      const isGlobals = lua.lua_rawequal(L, 1, -1);
      lua.lua_pop(L, 1);
      if (isGlobals) lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.errMetaProxyRef);
      else lua.lua_pushnil(L);
      return 1;
    }
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
    if (this.isProtected(L, 1)) return raisePlain(L, 'Attempt to modify a readonly table');
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
    if (this.pushReal(L, 1)) lua.lua_replace(L, 1);
    lua.lua_rawget(L, 1);
    return 1;
  };

  private readonly luaRawset: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lauxlib.luaL_checkany(L, 2);
    lauxlib.luaL_checkany(L, 3);
    if (this.isProtected(L, 1)) return raisePlain(L, 'Attempt to modify a readonly table');
    lua.lua_settop(L, 3);
    lua.lua_rawset(L, 1);
    return 1;
  };

  private readonly luaNext: LuaCFunction = (L) => {
    lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
    lua.lua_settop(L, 2);
    if (this.pushReal(L, 1)) lua.lua_replace(L, 1);
    if (lua.lua_next(L, 1)) return 2;
    lua.lua_pushnil(L);
    return 1;
  };

  /** pairs over a proxy walks the real table but hands out only the proxy, never the table behind it. */
  private readonly proxyPairs: LuaCFunction = (L) => {
    lua.lua_pushcfunction(L, this.luaNext);
    lua.lua_pushvalue(L, 1);
    lua.lua_pushnil(L);
    return 3;
  };

  private wrapPairs(ref: number): LuaCFunction {
    return (L) => {
      lauxlib.luaL_checkany(L, 1);
      if (lua.lua_type(L, 1) === lua.LUA_TTABLE && !this.isProtected(L, 1) && !lua.lua_getmetatable(L, 1)) {
        // plain table: Lua 5.1's pairs returns next, t, nil
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

  /**
   * coroutine.create/wrap, at most MAX_COROUTINES per run: each coroutine carries its own stack,
   * so a loop creating them would hold far more memory per instruction than the budget expects.
   */
  private readonly countCoroutines: LuaCFunction = (L) => {
    if (++this.coroutines > MAX_COROUTINES) {
      return raiseWithPosition(L, `too many coroutines (LockScope allows ${MAX_COROUTINES} per script run)`);
    }
    const argc = lua.lua_gettop(L);
    lua.lua_pushvalue(L, lua.lua_upvalueindex(1));
    lua.lua_insert(L, 1);
    lua.lua_call(L, argc, 1);
    return 1;
  };

  private readonly mathRandom: LuaCFunction = (L) => {
    const r = this.rand.nextDouble();
    switch (lua.lua_gettop(L)) {
      case 0:
        lua.lua_pushnumber(L, r);
        return 1;
      case 1: {
        const u = checkInt51(L, 1);
        if (!(u >= 1)) lauxlib.luaL_argerror(L, 1, lit('interval is empty'));
        pushNumber(L, Math.floor(r * u) + 1);
        return 1;
      }
      case 2: {
        const l = checkInt51(L, 1);
        const u = checkInt51(L, 2);
        if (!(l <= u)) lauxlib.luaL_argerror(L, 2, lit('interval is empty'));
        pushNumber(L, Math.floor(r * (u - l + 1)) + l);
        return 1;
      }
      default:
        return lauxlib.luaL_error(L, lit('wrong number of arguments'));
    }
  };

  private readonly mathRandomseed: LuaCFunction = (L) => {
    this.rand.seed(checkInt51(L, 1));
    return 0;
  };
}

// -------------------------------------------------------------------------------------------------
// sandbox functions that need no engine state

/** Lua 5.1's luaL_checkint: a number (or numeric string) truncated toward zero to a C int. */
function checkInt51(L: LuaState, arg: number): number {
  const n = lauxlib.luaL_checknumber(L, arg);
  return Math.trunc(n) | 0;
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

/** A Lua error for a string that would pass the script string limit. */
function refuse(L: LuaState, bytes: number): number {
  return raiseWithPosition(L, new ScriptMemoryError(bytes).message);
}

/** Error without a position prefix, as Redis's patched lapi.c raises for rawset/setmetatable. */
function raisePlain(L: LuaState, msg: string): number {
  pushBytes(L, msg);
  return lua.lua_error(L);
}

const readonlyError: LuaCFunction = (L) => lauxlib.luaL_error(L, lit('Attempt to modify a readonly table'));

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

const ipairs51: LuaCFunction = (L) => {
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lua.lua_pushcfunction(L, ipairsAux);
  lua.lua_pushvalue(L, 1);
  lua.lua_pushinteger(L, 0);
  return 3;
};

/** tonumber, but every result a double like all 5.1 numbers (so later sums cannot wrap at 2^31). */
const tonumberAsDouble: LuaCFunction = (L) => {
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
const stringFindFixed: LuaCFunction = (L) => {
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

const luaTostring51: LuaCFunction = (L) => {
  lauxlib.luaL_checkany(L, 1);
  pushBytes(L, luaToString(L, 1));
  return 1;
};

/** 5.1 error(): numbers get a position too (5.3 only prefixes strings). */
const luaError51: LuaCFunction = (L) => {
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

const luaCollectgarbage: LuaCFunction = (L) => {
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

const luaGcinfo: LuaCFunction = (L) => {
  lua.lua_pushinteger(L, NOMINAL_HEAP_KB);
  return 1;
};

/** 5.1 coroutine.running(): nil in the main thread. */
const coroutineRunning51: LuaCFunction = (L) => {
  if (lua.lua_pushthread(L)) {
    lua.lua_pop(L, 1);
    lua.lua_pushnil(L);
  }
  return 1;
};

/**
 * Turns a JS exception thrown by a JS-implemented function (an allocation failure, say) into a Lua
 * error. Exceptions inside the VM loop skip this (see lua_memguard.ts) and are reported through
 * nativeErrorText instead.
 */
const nativeError: LuaCFunction = (L) => {
  const e = lua.lua_touserdata(L, 1);
  pushBytes(L, e instanceof ScriptMemoryError || e instanceof RangeError ? e.message : 'not enough memory');
  return 1;
};

function nativeErrorText(): string {
  return takeRefusal()?.message ?? 'not enough memory';
}

/** string.rep(s, n) as 5.1 has it (no separator), refusing results past the string limit. */
const stringRep51: LuaCFunction = (L) => {
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
const gsubGuarded: LuaCFunction = (L) => {
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
const tableConcatGuarded: LuaCFunction = (L) => {
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

function addFunctions(L: LuaState, fns: Record<string, LuaCFunction>): void {
  for (const name of Object.keys(fns)) {
    lua.lua_pushcfunction(L, fns[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
}

/** table functions Lua 5.1 has and 5.3 dropped */
const TABLE51: Record<string, LuaCFunction> = {
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
const MATH53_KEPT = [
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
  'max',
  'min',
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

/** math functions Lua 5.1 has and 5.3 dropped */
const MATH51: Record<string, LuaCFunction> = {
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
function chunkId51(source: string): string {
  if (source.startsWith('=') || source.startsWith('@')) return source.slice(1);
  const LUA_IDSIZE = 60;
  const max = LUA_IDSIZE - 15; // room for [string "..."] and the terminator
  let len = source.search(/[\r\n\0]/);
  if (len < 0) len = source.length;
  const cut = len > max || (len < source.length && source[len] !== '\0');
  const first = source.slice(0, Math.min(len, max));
  return `[string "${first}${cut ? '...' : ''}"]`;
}

export { REDIS_LRAND48_MAX };
