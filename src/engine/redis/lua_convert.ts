/**
 * The two conversions between the engine and Lua, after Redis 7.0's script_lua.c: a Redis reply ->
 * a Lua value (redisProtocolToLuaType, RESP2 and RESP3) and a Lua value -> a Redis reply
 * (luaReplyToRedisReply), with the byte strings they carry. One converter per Lua state
 * (script_lua.ts): it keeps that state's interned strings, and the RESP version a script chose
 * with redis.setresp for the run in progress.
 */
import fengari from 'fengari-web';
import type { LuaState, LuaStringObject } from 'fengari-web';
import type { Reply } from './reply';
import { NIL, bulk, error, int, status } from './reply';
import { formatG, jsBytes, lit, pushBytes, pushStringObject, stringObject, toBytes } from './lua_strings';
import type { Resp3 } from './lua_resp3';

const { lua, lauxlib } = fengari;

/** Redis gives up converting a nested reply when the Lua C stack runs out (luaReplyToRedisReply). */
const MAX_REPLY_DEPTH = 2000;
/** Strings up to this length are interned (see pushString), up to this many distinct ones. */
const INTERN_MAX_LENGTH = 64;
const INTERN_MAX_ENTRIES = 4096;

/** CR and LF become spaces in status and error replies, as addReplyErrorFormat / luaReplyToRedisReply do. */
export function mapCRLF(s: string): string {
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

export class LuaConverter {
  /**
   * short strings pushed before -> their Lua string object, so hot values are not re-created; the
   * objects belong to this state (a JavaScript reference keeps them alive, as a registry
   * reference did) and go with it (a new state gets a new converter)
   */
  private readonly interned = new Map<string, LuaStringObject>();
  /** the RESP version of the running script (redis.setresp); 2 at the start of every run */
  resp: 2 | 3 = 2;

  /**
   * Pushes a byte string. Lock names, field names, "OK" and small numbers come back on every call;
   * keeping one Lua string per distinct short value (bounded) spares fengari a copy and a rehash
   * each time. Strings are values in Lua, so sharing them is invisible to scripts.
   */
  pushString(L: LuaState, s: string): void {
    pushStringObject(L, this.stringFor(L, s));
  }

  /** The Lua string object pushString pushes for `s`: the interned one, or a new one. */
  stringFor(L: LuaState, s: string): LuaStringObject {
    let ts = s.length > INTERN_MAX_LENGTH ? undefined : this.interned.get(s);
    if (ts === undefined) {
      ts = stringObject(L, s);
      if (s.length <= INTERN_MAX_LENGTH && this.interned.size < INTERN_MAX_ENTRIES) this.interned.set(s, ts);
    }
    return ts;
  }

  /**
   * A Lua string as a byte string. A value the bridge pushed (KEYS, ARGV, replies) carries the
   * engine string it was made from; a script's constants ('hincrby') are the same object on every
   * call, so a short one's decoding is remembered on it.
   */
  decode(ts: LuaStringObject): string {
    let s = ts.lockscope_js;
    if (s === undefined) {
      s = jsBytes(ts.realstring);
      if (s.length <= INTERN_MAX_LENGTH) ts.lockscope_js = s;
    }
    return s;
  }

  /** t[name] = top, with the field name interned (lua_setfield would build a new key string each time) */
  setField(L: LuaState, t: number, name: string): void {
    this.pushString(L, name);
    lua.lua_insert(L, -2);
    lua.lua_rawset(L, t < 0 ? t - 1 : t);
  }

  /** Redis reply -> Lua value (redisProtocolToLuaType, RESP2; setresp(3) changes nil). */
  pushReply(L: LuaState, r: Reply, depth: number): void {
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
  pushResp3(L: LuaState, r: Resp3): void {
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
  toReply(L: LuaState, idx: number, depth: number): Reply {
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
      this.pushString(L, name);
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
}
