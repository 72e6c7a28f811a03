/**
 * The `redis` table a script sees (script_lua.c luaRegisterRedisAPI): redis.call and redis.pcall
 * (luaRedisGenericCommand: the arguments to engine strings, the reply back to a Lua value), log,
 * setresp, sha1hex, the reply helpers, set_repl, acl_check_cmd and the version fields. The
 * commands themselves run through the LuaBridge that eval.ts gives the Lua state (script_lua.ts).
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState } from 'fengari-web';
import type { Reply } from './reply';
import { lit, luaStringObject, pushBytes, redisArgFromNumber, toBytes } from './lua_strings';
import { sha1hex } from './sha1';
import { toResp3 } from './lua_resp3';
import { luaToString } from './lua_stdlib51';
import type { LuaConverter } from './lua_convert';
import { luaErrorField } from './lua_convert';

const { lua } = fengari;

export type LogLevel = 'debug' | 'verbose' | 'notice' | 'warning';

/** What the Lua layer needs from eval.ts. */
export interface LuaBridge {
  /** One redis.call/redis.pcall. Rejections (unknown command, arity, ...) come back as error replies. */
  call(argv: string[]): Reply;
  log(level: LogLevel, message: string): void;
  /** redis.acl_check_cmd: undefined when the command does not exist */
  commandExists(name: string): boolean;
}

/** The Lua state's current bridge and converter: a pooled state takes a new bridge (rebind). */
export interface RedisTableHost {
  bridge(): LuaBridge;
  conv(): LuaConverter;
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'verbose', 'notice', 'warning'];
const REDIS_VERSION = '7.0.15';
const REDIS_VERSION_NUM = 0x07000f;

export class RedisTable {
  constructor(private readonly host: RedisTableHost) {}

  /** redis.call / redis.pcall (luaRedisGenericCommand). */
  private genericCall(L: LuaState, raise: boolean): number {
    const argc = lua.lua_gettop(L);
    if (argc === 0)
      return this.fail(L, raise, 'Please specify at least one argument for this redis lib call');
    const conv = this.host.conv();
    const argv = new Array<string>(argc);
    for (let i = 0; i < argc; i++) {
      const ts = luaStringObject(L, i + 1);
      if (ts !== null) argv[i] = conv.decode(ts);
      else if (lua.lua_type(L, i + 1) === lua.LUA_TNUMBER) {
        argv[i] = lua.lua_isinteger(L, i + 1)
          ? String(lua.lua_tointeger(L, i + 1))
          : redisArgFromNumber(lua.lua_tonumber(L, i + 1));
      } else return this.fail(L, raise, 'Lua redis lib command arguments must be strings or integers');
    }
    const reply = this.host.bridge().call(argv);
    if (reply.t === 'error') {
      conv.pushReply(L, reply, 0);
      if (raise) return lua.lua_error(L);
      return 1;
    }
    if (conv.resp === 3) conv.pushResp3(L, toResp3(argv, reply));
    else conv.pushReply(L, reply, 0);
    return 1;
  }

  private fail(L: LuaState, raise: boolean, msg: string): number {
    lua.lua_createtable(L, 0, 1);
    pushBytes(L, `ERR ${msg}`);
    lua.lua_setfield(L, -2, lit('err'));
    if (raise) return lua.lua_error(L);
    return 1;
  }

  /** Pushes the `redis` table (luaRegisterRedisAPI). */
  open(L: LuaState): void {
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
      this.host.bridge().log(LOG_LEVELS[Math.trunc(level)], parts.join(' '));
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
      this.host.conv().resp = v;
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
      if (!this.host.bridge().commandExists(name))
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
}
