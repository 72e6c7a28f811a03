/**
 * The Lua side of scripting, after Redis 7.0's script_lua.c: one fengari state per node, a script
 * run, the error handler, Redis's pcall and math.random, the instruction budget and the line hook.
 * The two conversions (Lua value <-> Redis reply) are lua_convert.ts, the `redis` API
 * lua_redis_api.ts, the KEYS/ARGV tables lua_args_table.ts. EVAL/EVALSHA/SCRIPT parsing and the
 * command rules for redis.call live in eval.ts, which talks to this layer through LuaBridge. The
 * sandbox (which libraries a script sees, read-only globals) is lua_sandbox.ts; the Lua 5.1
 * standard library emulated on 5.3 is lua_stdlib51.ts.
 *
 * fengari is Lua 5.3 with 32-bit integers; Redis embeds Lua 5.1 with doubles. What this file and
 * its siblings hide and what they cannot is listed in docs/lua-differences.md.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaHook, LuaState } from 'fengari-web';
import type { Reply } from './reply';
import { error } from './reply';
import { jsBytes, lit, luaBytes, pushBytes, pushNumber, raiseWithPosition, toBytes } from './lua_strings';
import {
  NATIVE_ERROR_STATUS,
  ScriptMemoryError,
  installVmPatches,
  takeRefusal,
  enterStringGuard,
  leaveStringGuard,
} from './lua_vmpatch';
import { Rand48, REDIS_LRAND48_MAX } from './lua_random';
import { scriptLayout } from './script_layout';
import { restoreMessage, rewriteFor53 } from './lua_syntax51';
import { LuaSandbox } from './lua_sandbox';
import { LuaConverter, luaErrorField, mapCRLF } from './lua_convert';
import { RedisTable } from './lua_redis_api';
import { ArgsTables } from './lua_args_table';
import type { LogLevel, LuaBridge } from './lua_redis_api';

export { luaErrorField };
import { checkInt51, lua51Message, luaToString } from './lua_stdlib51';

const { lua, lauxlib } = fengari;

export type { LogLevel, LuaBridge };

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

const MAX_COROUTINES = 10_000;
/** Instructions between two budget checks: large so the fast path barely notices the hook. */
const HOOK_STEP = 10_000;

/** What fengari's Lua closure and function prototype are underneath lua_topointer. */
interface LuaProto {
  /** the functions defined inside this one */
  readonly p: readonly LuaProto[];
  /** the instructions */
  readonly code: readonly { readonly code: number }[];
  /** the source line of each instruction */
  readonly lineinfo: readonly number[];
}
/** What fengari's CallInfo of a running Lua function holds (the hook reads the current pc). */
interface LuaCallInfo {
  func: { value: { p?: LuaProto } };
  l_savedpc: number;
}

/** For a laid-out script (script_layout.ts): the layout line of each instruction of its prototype. */
const layoutLines = new WeakMap<LuaProto, readonly number[]>();
interface LuaClosure {
  p: LuaProto;
}

/**
 * Compiled script bodies, shared by every state: the same Redisson scripts are compiled again by
 * each node of each run. A prototype is read-only once parsed except for its closure cache (the
 * last closure OP_CLOSURE made from it, reused when the upvalues match), which could hand one
 * state's function to another; so only prototypes without nested functions are shared, and those
 * never go through OP_CLOSURE. Whether a body was cached does not change what a script sees.
 */
const compiledProtos = new Map<string, LuaProto>();
const COMPILED_PROTOS_MAX = 512;
const EMPTY_CHUNK = lit('return');

function rememberProto(body: string, proto: LuaProto): void {
  if (proto.p.length === 0 && compiledProtos.size < COMPILED_PROTOS_MAX) compiledProtos.set(body, proto);
}

interface ScriptFunction {
  ref: number;
}

/**
 * Script bodies known to leave nothing behind in a Lua state but registry references: Redisson's
 * own scripts (redisson/scripts.ts registers them), which only read KEYS/ARGV and call redis.call.
 * A state that compiled nothing else can serve another node after its run ends (see release),
 * since it then answers as a fresh one would (rebind also restores fengari's object-id counter,
 * which `tostring` prints); one that compiled any other text could have
 * changed what survives between scripts (cjson's settings, say), so it is never reused.
 */
const trustedBodies = new Set<string>();

export function trustScriptBodies(bodies: Iterable<string>): void {
  for (const b of bodies) trustedBodies.add(b);
}

/**
 * Lua states whose server is gone, ready for a new node. Building a state with its sandbox takes
 * about 2 ms, most of a small scenario's run (each node of each run built one) and much of the
 * garbage. The pool never changes what a script sees: only pristine states enter it.
 */
const idleStates: LuaScripting[] = [];
const IDLE_STATES_MAX = 32;

/** A Lua state for a node: an idle pristine one if there is one, else a new one. */
export function luaScripting(bridge: LuaBridge, opts: LuaOptions): LuaScripting {
  const s = idleStates.pop();
  if (s === undefined) return new LuaScripting(bridge, opts);
  s.rebind(bridge, opts);
  return s;
}

/** fengari's global state: the object-id counter behind the addresses `tostring` prints. */
function globalState(L: LuaState): { id_counter: number; ids: WeakMap<object, number> } {
  return (L as unknown as { l_G: { id_counter: number; ids: WeakMap<object, number> } }).l_G;
}

type Checked = { ok: true; fn: ScriptFunction } | { ok: false; error: Reply };

export class LuaScripting {
  private L!: LuaState;
  private sandbox!: LuaSandbox;
  private rand: Rand48;
  /**
   * trusted body -> its compiled function in this state: a reused state hands the next node the
   * function it compiled before (the same body compiles to the same function), sparing the parse
   */
  private trustedFns = new Map<string, { fn: ScriptFunction; ids: number }>();
  /**
   * fengari numbers every table, closure and coroutine from a per-state counter, and
   * `tostring({})` prints that number: the counter right after reset, which a reused state goes
   * back to (rebind), so the addresses a script prints do not depend on earlier runs
   */
  private idBase = 0;
  /** every script this state compiled is trusted (see trustedBodies) */
  private pristine = true;
  /** the conversions between replies and Lua values, with this state's interned strings */
  private conv = new LuaConverter();
  /** the KEYS and ARGV tables of the last run, filled again when a script left them as built */
  private keysTable = new ArgsTables();
  private argsTable = new ArgsTables();
  private readonly redisTable: RedisTable;

  // per-run state
  private running = false;
  private used = 0;
  private killed = false;
  private killLine = 0;
  private coroutines = 0;
  private lineListener: ((line: number) => void) | null = null;
  /** a traced laid-out script: the layout line of each instruction, the proto, the last pc, instructions run */
  private layout: readonly number[] | null = null;
  private layoutProto: LuaProto | null = null;
  private layoutPc = 0;
  private ticks = 0;

  constructor(
    private bridge: LuaBridge,
    private opts: LuaOptions,
  ) {
    this.rand = opts.seed === 0 ? new Rand48() : new Rand48(opts.seed);
    this.redisTable = new RedisTable({ bridge: () => this.bridge, conv: () => this.conv });
    this.reset();
  }

  /** An idle state takes a new node: what the constructor sets, on the state as it is. */
  rebind(bridge: LuaBridge, opts: LuaOptions): void {
    this.bridge = bridge;
    this.opts = opts;
    this.rand = opts.seed === 0 ? new Rand48() : new Rand48(opts.seed);
    this.lineListener = null;
    const g = globalState(this.L);
    g.id_counter = this.idBase;
    g.ids = new WeakMap();
  }

  /**
   * The node is gone and runs no script any more: a pristine state goes back to the pool. The
   * next node's script cache starts empty (eval.ts); the compiled trusted functions and interned
   * strings stay in the state, invisible to scripts until a node compiles the same text again.
   */
  release(): void {
    if (this.running || !this.pristine || idleStates.length >= IDLE_STATES_MAX) return;
    this.lineListener = null;
    idleStates.push(this);
  }

  /** A fresh Lua VM (SCRIPT FLUSH). Compiled functions are gone; the PRNG keeps going, as in Redis. */
  reset(): void {
    this.L = lauxlib.luaL_newstate();
    this.conv = new LuaConverter();
    this.keysTable = new ArgsTables();
    this.argsTable = new ArgsTables();
    this.trustedFns = new Map();
    this.pristine = true;
    installVmPatches(this.L);
    lua.lua_atnativeerror(this.L, nativeError);
    this.sandbox = new LuaSandbox(this.L, {
      luaPcall: this.luaPcall,
      wrapCatching: (ref) => this.wrapCatching(ref),
      guardedHandler: this.guardedHandler,
      errorHandler: this.errorHandler,
      mathRandom: this.mathRandom,
      mathRandomseed: this.mathRandomseed,
      countCoroutines: this.countCoroutines,
      openRedis: (L) => this.redisTable.open(L),
    });
    this.idBase = globalState(this.L).id_counter;
  }

  /** Called on every executed line while set (the tracer); null turns the line hook off. */
  setLineListener(fn: ((line: number) => void) | null): void {
    this.lineListener = fn;
  }

  /** Compiles a script body (luaCreateFunction). */
  compile(body: string): Checked {
    const L = this.L;
    const trusted = trustedBodies.has(body);
    if (!trusted) this.pristine = false;
    const known = trusted ? this.trustedFns.get(body) : undefined;
    const g = globalState(L);
    if (known !== undefined) {
      // the ids a fresh state's compile would have taken, so later objects number the same
      g.id_counter += known.ids;
      return { ok: true, fn: known.fn };
    }
    const idsBefore = g.id_counter;
    if (body.length > 0 && body.charCodeAt(0) === 0x1b) {
      // Redis's Lua refuses binary chunks by parsing them as text, which fails on the ESC byte
      return {
        ok: false,
        error: error(
          `ERR Error compiling script (new function): user_script:1: unexpected symbol near 'char(27)'`,
        ),
      };
    }
    const proto = compiledProtos.get(body);
    if (proto !== undefined) {
      // a closure of a one-statement chunk carries this state's _ENV upvalue; it takes the proto
      lauxlib.luaL_loadbufferx(L, EMPTY_CHUNK, EMPTY_CHUNK.length, lit('@user_script'), lit('t'));
      (lua.lua_topointer(L, -1) as unknown as LuaClosure).p = proto;
    } else {
      const rw = rewriteFor53(body);
      const bytes = luaBytes(rw.code);
      const st = lauxlib.luaL_loadbufferx(L, bytes, bytes.length, lit('@user_script'), lit('t'));
      if (st !== lua.LUA_OK) {
        const msg = lua51Message(restoreMessage(toBytes(L, -1) ?? 'unknown error', rw));
        lua.lua_pop(L, 1);
        return { ok: false, error: error(`ERR Error compiling script (new function): ${msg}`) };
      }
      const compiled = (lua.lua_topointer(L, -1) as unknown as LuaClosure).p;
      rememberProto(body, compiled);
      this.mapLayout(body, compiled);
    }
    const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    const fn = { ref };
    if (trusted) this.trustedFns.set(body, { fn, ids: g.id_counter - idsBefore });
    return { ok: true, fn };
  }

  /**
   * The layout line of each instruction of a laid-out body: its pieces compiled with a newline
   * between them give the same instructions (checked) under other line numbers.
   */
  private mapLayout(body: string, proto: LuaProto): void {
    const pieces = scriptLayout(body);
    if (pieces === undefined || proto.p.length > 0 || layoutLines.has(proto)) return;
    const L = this.L;
    const bytes = luaBytes(rewriteFor53(pieces.join('\n')).code);
    if (lauxlib.luaL_loadbufferx(L, bytes, bytes.length, lit('@user_script'), lit('t')) !== lua.LUA_OK) {
      lua.lua_pop(L, 1);
      return;
    }
    const shadow = (lua.lua_topointer(L, -1) as unknown as LuaClosure).p;
    lua.lua_pop(L, 1);
    const same =
      shadow.p.length === 0 &&
      shadow.code.length === proto.code.length &&
      shadow.code.every((c, i) => c.code === proto.code[i].code);
    if (same) layoutLines.set(proto, shadow.lineinfo);
  }

  /**
   * Runs a compiled script with KEYS and ARGV (luaCallFunction) and converts what it returns:
   * KEYS are `argv[first .. first + numkeys)`, ARGV the rest of `argv` (read in place, as
   * luaCreateArray reads c->argv: no copy of either per run).
   */
  run(fn: ScriptFunction, sha: string, argv: readonly string[], first: number, numkeys: number): Reply {
    if (this.running) return error('ERR LockScope: nested script run');
    this.running = true;
    this.used = 0;
    this.killed = false;
    this.killLine = 0;
    this.conv.resp = 2;
    this.coroutines = 0;
    enterStringGuard();
    try {
      return this.runGuarded(fn, sha, argv, first, numkeys);
    } finally {
      leaveStringGuard();
      this.running = false;
    }
  }

  private runGuarded(
    fn: ScriptFunction,
    sha: string,
    argv: readonly string[],
    first: number,
    numkeys: number,
  ): Reply {
    const L = this.L;
    lua.lua_settop(L, 0);
    lua.lua_pushcfunction(L, this.errorHandler);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, fn.ref);
    const proto = (lua.lua_topointer(L, -1) as unknown as LuaClosure).p;
    this.layout = this.lineListener ? (layoutLines.get(proto) ?? null) : null;
    this.layoutProto = proto;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.sandbox.globalsRef);
    // the globals are read-only to scripts; Redis lifts the flag the same way to set these two
    const globals = this.sandbox.globals;
    globals.readonly = false;
    try {
      // key first, then value: no lua_insert to swap them (see setField)
      this.conv.pushString(L, 'KEYS');
      this.keysTable.push(L, this.conv, argv, first, first + numkeys);
      lua.lua_rawset(L, -3);
      this.conv.pushString(L, 'ARGV');
      this.argsTable.push(L, this.conv, argv, first + numkeys, argv.length);
      lua.lua_rawset(L, -3);
    } finally {
      globals.readonly = true;
    }
    lua.lua_pop(L, 1);
    this.armHook(L);
    const st = lua.lua_pcall(L, 0, 1, 1);
    lua.lua_sethook(L, null, 0, 0);
    this.layout = null;
    this.layoutProto = null;
    let reply: Reply;
    if (this.killed) reply = this.killReply(sha);
    else if (st === lua.LUA_OK) reply = this.conv.toReply(L, -1, 0);
    else if (st === NATIVE_ERROR_STATUS)
      reply = error(`ERR Error running script ${sha}, ${nativeErrorText()}`);
    else reply = this.errorReply(L, sha);
    takeRefusal();
    lua.lua_settop(L, 0);
    return reply;
  }

  // ---------------------------------------------------------------------------------------------
  // budget and line hook

  private armHook(L: LuaState): void {
    const step = Math.max(1, Math.min(HOOK_STEP, this.opts.budget));
    if (this.layout !== null) {
      // every instruction, to map it to its layout line; the budget still counts in steps
      this.layoutPc = 0;
      this.ticks = 0;
      lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, 1);
      return;
    }
    const mask = lua.LUA_MASKCOUNT | (this.lineListener ? lua.LUA_MASKLINE : 0);
    lua.lua_sethook(L, this.hook, mask, step);
  }

  /**
   * A laid-out script's line events, as Lua's line hook would give them had the script been
   * written on its layout's lines: on entry, on a new line, and on a jump back.
   */
  private layoutTick(L: LuaState): boolean {
    const ci = (L as unknown as { ci: LuaCallInfo }).ci;
    const lines = this.layout!;
    if (ci.func.value.p === this.layoutProto) {
      const pc = ci.l_savedpc;
      const line = lines[pc - 1];
      if (pc === 1 || pc <= this.layoutPc || line !== lines[this.layoutPc - 1]) this.lineListener?.(line);
      this.layoutPc = pc;
    }
    this.ticks++;
    return this.ticks % Math.max(1, Math.min(HOOK_STEP, this.opts.budget)) === 0;
  }

  private readonly hook: LuaHook = (L, ar) => {
    if (this.layout !== null && !this.killed && ar.event === lua.LUA_HOOKCOUNT && !this.layoutTick(L)) return;
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
  // Redis's pcall and the catching functions, which must not swallow a budget stop

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

export { REDIS_LRAND48_MAX };
