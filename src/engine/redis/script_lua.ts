/**
 * The Lua side of scripting, after Redis 7.0's script_lua.c: one fengari state per node, the two
 * conversions (Lua value <-> Redis reply), the error handler, the `redis` API, Redis's pcall and
 * math.random, the instruction budget and the line hook. EVAL/EVALSHA/SCRIPT parsing and the
 * command rules for redis.call live in eval.ts, which talks to this file through LuaBridge. The
 * sandbox (which libraries a script sees, read-only globals) is lua_sandbox.ts; the Lua 5.1
 * standard library emulated on 5.3 is lua_stdlib51.ts.
 *
 * fengari is Lua 5.3 with 32-bit integers; Redis embeds Lua 5.1 with doubles. What this file and
 * its siblings hide and what they cannot is listed in docs/lua-differences.md.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaHook, LuaState, LuaStringObject } from 'fengari-web';
import type { Reply } from './reply';
import { NIL, bulk, error, int, status } from './reply';
import {
  formatG,
  jsBytes,
  lit,
  luaBytes,
  luaStringObject,
  pushBytes,
  pushNumber,
  pushStringObject,
  raiseWithPosition,
  redisArgFromNumber,
  stringObject,
  toBytes,
} from './lua_strings';
import {
  NATIVE_ERROR_STATUS,
  ScriptMemoryError,
  installVmPatches,
  takeRefusal,
  withStringGuard,
} from './lua_vmpatch';
import { Rand48, REDIS_LRAND48_MAX } from './lua_random';
import { sha1hex } from './sha1';
import { scriptLayout } from './script_layout';
import { restoreMessage, rewriteFor53 } from './lua_syntax51';
import { toResp3 } from './lua_resp3';
import type { Resp3 } from './lua_resp3';
import { LuaSandbox } from './lua_sandbox';
import { checkInt51, lua51Message, luaToString } from './lua_stdlib51';

const { lua, lauxlib } = fengari;

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
  /**
   * short strings pushed before -> their Lua string object, so hot values are not re-created; the
   * objects belong to this state (a JavaScript reference keeps them alive, as a registry
   * reference did) and are dropped with it (reset)
   */
  private interned = new Map<string, LuaStringObject>();

  // per-run state
  private running = false;
  private used = 0;
  private killed = false;
  private killLine = 0;
  private resp: 2 | 3 = 2;
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
    this.interned = new Map();
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
      openRedis: (L) => this.openRedis(L),
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
        const proto = (lua.lua_topointer(L, -1) as unknown as LuaClosure).p;
        this.layout = this.lineListener ? (layoutLines.get(proto) ?? null) : null;
        this.layoutProto = proto;
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.sandbox.globalsRef);
        // the globals are read-only to scripts; Redis lifts the flag the same way to set these two
        const globals = this.sandbox.globals;
        globals.readonly = false;
        try {
          // key first, then value: no lua_insert to swap them (see setField)
          this.pushString(L, 'KEYS');
          this.pushStringArray(L, keys);
          lua.lua_rawset(L, -3);
          this.pushString(L, 'ARGV');
          this.pushStringArray(L, args);
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
    }
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
  // conversions

  /**
   * Pushes a byte string. Lock names, field names, "OK" and small numbers come back on every call;
   * keeping one Lua string per distinct short value (bounded) spares fengari a copy and a rehash
   * each time. Strings are values in Lua, so sharing them is invisible to scripts.
   */
  private pushString(L: LuaState, s: string): void {
    let ts = s.length > INTERN_MAX_LENGTH ? undefined : this.interned.get(s);
    if (ts === undefined) {
      ts = stringObject(L, s);
      if (s.length <= INTERN_MAX_LENGTH && this.interned.size < INTERN_MAX_ENTRIES) this.interned.set(s, ts);
    }
    pushStringObject(L, ts);
  }

  /**
   * A Lua string as a byte string. A value the bridge pushed (KEYS, ARGV, replies) carries the
   * engine string it was made from; a script's constants ('hincrby') are the same object on every
   * call, so a short one's decoding is remembered on it.
   */
  private decode(ts: LuaStringObject): string {
    let s = ts.lockscope_js;
    if (s === undefined) {
      s = jsBytes(ts.realstring);
      if (s.length <= INTERN_MAX_LENGTH) ts.lockscope_js = s;
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
      this.pushString(L, items[i]);
      lua.lua_rawseti(L, -2, i + 1);
    }
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
        this.pushTagged(L, 'map', r.v, ([k, v]) => {
          this.pushResp3(L, k);
          this.pushResp3(L, v);
        });
        return;
      case 'set':
        this.pushTagged(L, 'set', r.v, (m) => {
          this.pushResp3(L, m);
          lua.lua_pushboolean(L, true);
        });
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

  /** `{[tag] = t}`, t holding a field per entry: `pushPair` pushes the entry's key and value. */
  private pushTagged<E>(L: LuaState, tag: string, entries: readonly E[], pushPair: (e: E) => void): void {
    lua.lua_createtable(L, 0, 1);
    lua.lua_createtable(L, 0, entries.length);
    for (const e of entries) {
      pushPair(e);
      lua.lua_rawset(L, -3);
    }
    this.setField(L, -2, tag);
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
    // Pushes t[name] and keeps it when it has `type`; otherwise pops it again.
    const field = (name: string, type: number): boolean => {
      lua.lua_pushstring(L, lit(name));
      if (lua.lua_rawget(L, t) === type) return true;
      lua.lua_pop(L, 1);
      return false;
    };
    // The reply made from the field on top of the stack, which it then pops.
    const popped = (r: Reply): Reply => {
      lua.lua_pop(L, 1);
      return r;
    };
    const pairs = (withValues: boolean): Reply => ({
      t: 'array',
      v: this.pairsToReply(L, lua.lua_absindex(L, -1), depth, withValues),
    });
    if (field('err', lua.LUA_TSTRING)) return popped(error(mapCRLF(toBytes(L, -1)!)));
    if (field('ok', lua.LUA_TSTRING)) return popped(status(mapCRLF(toBytes(L, -1)!)));
    if (field('double', lua.LUA_TNUMBER)) return popped(bulk(formatG(lua.lua_tonumber(L, -1), 17)));
    if (field('big_number', lua.LUA_TSTRING)) return popped(bulk(mapCRLF(toBytes(L, -1)!)));
    if (field('map', lua.LUA_TTABLE)) return popped(pairs(true));
    if (field('set', lua.LUA_TTABLE)) return popped(pairs(false));
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
      const ts = luaStringObject(L, i + 1);
      if (ts !== null) argv[i] = this.decode(ts);
      else if (lua.lua_type(L, i + 1) === lua.LUA_TNUMBER) {
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
