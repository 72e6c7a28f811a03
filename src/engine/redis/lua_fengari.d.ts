/**
 * The slice of fengari-web's API the scripting layer uses (fengari ships no typings). Lua strings
 * are Uint8Array byte arrays; a lua_State is opaque to us except for the hook, which only passes
 * it back.
 */
declare module 'fengari-web' {
  export type LuaState = { readonly __luaState: unique symbol };
  export type LuaString = Uint8Array;
  /**
   * fengari's string object (TString): immutable bytes. `lockscope_js` is the patch's (v4) field
   * for the engine string those bytes spell, undefined until the host sets it.
   */
  export interface LuaStringObject {
    readonly realstring: LuaString;
    lockscope_js: string | undefined;
  }
  export type LuaCFunction = (L: LuaState) => number;
  export type LuaHook = (L: LuaState, ar: LuaDebug) => void;

  export interface LuaDebug {
    event: number;
    currentline: number;
    source: LuaString | null;
    short_src: LuaString | null;
    what: LuaString | null;
    linedefined: number;
  }

  export interface LuaApi {
    readonly LUA_OK: number;
    readonly LUA_YIELD: number;
    readonly LUA_ERRRUN: number;
    readonly LUA_ERRSYNTAX: number;
    readonly LUA_ERRMEM: number;
    readonly LUA_ERRERR: number;
    readonly LUA_MULTRET: number;
    readonly LUA_REGISTRYINDEX: number;
    readonly LUA_RIDX_GLOBALS: number;
    readonly LUA_TNONE: number;
    readonly LUA_TNIL: number;
    readonly LUA_TBOOLEAN: number;
    readonly LUA_TLIGHTUSERDATA: number;
    readonly LUA_TNUMBER: number;
    readonly LUA_TSTRING: number;
    readonly LUA_TTABLE: number;
    readonly LUA_TFUNCTION: number;
    readonly LUA_TUSERDATA: number;
    readonly LUA_TTHREAD: number;
    readonly LUA_MASKCOUNT: number;
    readonly LUA_MASKLINE: number;
    readonly LUA_HOOKCOUNT: number;
    readonly LUA_HOOKLINE: number;
    lua_Debug: new () => LuaDebug;

    lua_absindex(L: LuaState, idx: number): number;
    lua_atnativeerror(L: LuaState, f: LuaCFunction | null): LuaCFunction | null;
    lua_call(L: LuaState, nargs: number, nresults: number): void;
    lua_checkstack(L: LuaState, n: number): boolean;
    lua_concat(L: LuaState, n: number): void;
    lua_createtable(L: LuaState, narr: number, nrec: number): void;
    lua_error(L: LuaState): never;
    lua_getfield(L: LuaState, idx: number, k: LuaString | string): number;
    lua_gettable(L: LuaState, idx: number): number;
    lua_getglobal(L: LuaState, name: LuaString | string): number;
    lua_getinfo(L: LuaState, what: LuaString | string, ar: LuaDebug): number;
    lua_getmetatable(L: LuaState, idx: number): boolean;
    lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
    lua_gettop(L: LuaState): number;
    lua_insert(L: LuaState, idx: number): void;
    lua_isinteger(L: LuaState, idx: number): boolean;
    lua_isnumber(L: LuaState, idx: number): boolean;
    lua_isstring(L: LuaState, idx: number): boolean;
    lua_load(
      L: LuaState,
      reader: (L: LuaState, data: unknown) => LuaString | null,
      data: unknown,
      chunkname: LuaString | string,
      mode: LuaString | string | null,
    ): number;
    lua_newtable(L: LuaState): void;
    lua_newuserdata(L: LuaState, size: number): unknown;
    lua_next(L: LuaState, idx: number): boolean;
    lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
    lua_pop(L: LuaState, n: number): void;
    lua_pushboolean(L: LuaState, b: boolean | number): void;
    lua_pushcfunction(L: LuaState, f: LuaCFunction): void;
    lua_pushcclosure(L: LuaState, f: LuaCFunction, n: number): void;
    lua_pushinteger(L: LuaState, n: number): void;
    lua_pushlightuserdata(L: LuaState, p: unknown): void;
    lua_pushliteral(L: LuaState, s: string): void;
    lua_pushnil(L: LuaState): void;
    lua_pushnumber(L: LuaState, n: number): void;
    lua_pushstring(L: LuaState, s: LuaString): LuaString;
    /** LockScope's install-time patch (docs/fengari-patch.md): pushes `s` itself, not a copy. */
    lockscope_pushownedstring?: (L: LuaState, s: LuaString) => LuaString;
    /** The patch (v4): a string object wrapping `s` itself, not pushed. */
    lockscope_newstring?: (L: LuaState, s: LuaString) => LuaStringObject;
    /** The patch (v4): pushes a string object made by lockscope_newstring or read by lockscope_tostringobject. */
    lockscope_pushstringobject?: (L: LuaState, ts: LuaStringObject) => void;
    /** The patch (v4): the string object at idx; null for anything else (numbers are not converted). */
    lockscope_tostringobject?: (L: LuaState, idx: number) => LuaStringObject | null;
    lua_pushthread(L: LuaState): boolean;
    lua_pushvalue(L: LuaState, idx: number): void;
    lua_rawequal(L: LuaState, a: number, b: number): boolean;
    lua_rawget(L: LuaState, idx: number): number;
    lua_rawgeti(L: LuaState, idx: number, n: number): number;
    lua_rawlen(L: LuaState, idx: number): number;
    lua_rawset(L: LuaState, idx: number): void;
    lua_rawseti(L: LuaState, idx: number, n: number): void;
    lua_remove(L: LuaState, idx: number): void;
    lua_replace(L: LuaState, idx: number): void;
    lua_setfield(L: LuaState, idx: number, k: LuaString | string): void;
    lua_setglobal(L: LuaState, name: LuaString | string): void;
    lua_sethook(L: LuaState, f: LuaHook | null, mask: number, count: number): void;
    lua_setmetatable(L: LuaState, idx: number): void;
    lua_settable(L: LuaState, idx: number): void;
    lua_settop(L: LuaState, idx: number): void;
    lua_setupvalue(L: LuaState, funcindex: number, n: number): LuaString | null;
    lua_toboolean(L: LuaState, idx: number): boolean;
    lua_tointeger(L: LuaState, idx: number): number;
    lua_tolstring(L: LuaState, idx: number): LuaString | null;
    lua_tonumber(L: LuaState, idx: number): number;
    lua_topointer(L: LuaState, idx: number): object | null;
    lua_tothread(L: LuaState, idx: number): LuaState | null;
    lua_touserdata(L: LuaState, idx: number): unknown;
    lua_type(L: LuaState, idx: number): number;
    lua_upvalueindex(n: number): number;
  }

  export interface LauxApi {
    luaL_newstate(): LuaState;
    luaL_ref(L: LuaState, t: number): number;
    luaL_unref(L: LuaState, t: number, ref: number): void;
    luaL_requiref(L: LuaState, name: LuaString | string, f: LuaCFunction, glb: number): void;
    luaL_checkany(L: LuaState, arg: number): void;
    luaL_checkinteger(L: LuaState, arg: number): number;
    luaL_checknumber(L: LuaState, arg: number): number;
    luaL_checklstring(L: LuaState, arg: number): LuaString;
    luaL_checkstring(L: LuaState, arg: number): LuaString;
    luaL_checktype(L: LuaState, arg: number, t: number): void;
    luaL_optinteger(L: LuaState, arg: number, def: number): number;
    luaL_optnumber(L: LuaState, arg: number, def: number): number;
    luaL_argerror(L: LuaState, arg: number, extramsg: LuaString | string): never;
    luaL_error(L: LuaState, fmt: LuaString | string, ...args: unknown[]): never;
    luaL_getmetafield(L: LuaState, obj: number, e: LuaString | string): number;
    luaL_loadbufferx(
      L: LuaState,
      buff: LuaString,
      size: number,
      name: LuaString | string,
      mode: LuaString | string | null,
    ): number;
    luaL_tolstring(L: LuaState, idx: number): LuaString;
    luaL_typename(L: LuaState, idx: number): LuaString;
    luaL_where(L: LuaState, level: number): void;
  }

  export interface LualibApi {
    luaopen_base: (L: LuaState) => number;
    luaopen_table: (L: LuaState) => number;
    luaopen_string: (L: LuaState) => number;
    luaopen_math: (L: LuaState) => number;
    luaopen_coroutine: (L: LuaState) => number;
  }

  const fengari: {
    lua: LuaApi;
    lauxlib: LauxApi;
    lualib: LualibApi;
    to_luastring(s: string, cache?: boolean): LuaString;
    to_jsstring(s: LuaString): string;
  };
  export default fengari;
}
