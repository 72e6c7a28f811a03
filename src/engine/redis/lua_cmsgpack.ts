/**
 * The `cmsgpack` library Redis bundles (lua-cmsgpack 0.4.0, deps/lua/src/lua_cmsgpack.c): the same
 * encodings (smallest integer form, float32 when exact, array vs map by the keys 1..n test, nesting
 * cut to nil at 16 levels) and the same errors.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState } from 'fengari-web';
import { lit, pushNumber, raiseWithPosition } from './lua_strings';
import { MAX_SCRIPT_STRING, ScriptMemoryError } from './lua_vmpatch';

const { lua, lauxlib } = fengari;

const MAX_NESTING = 16;

const f32 = new Float32Array(1);
const f64 = new Float64Array(1);
const f32b = new Uint8Array(f32.buffer);
const f64b = new Uint8Array(f64.buffer);

function pushBE(out: number[], v: bigint | number, bytes: number): void {
  let b = BigInt.asUintN(bytes * 8, BigInt(v));
  const tmp = new Array<number>(bytes);
  for (let i = bytes - 1; i >= 0; i--) {
    tmp[i] = Number(b & 0xffn);
    b >>= 8n;
  }
  out.push(...tmp);
}

/** a type byte followed by a big-endian length or value */
function tagged(out: number[], tag: number, v: bigint | number, bytes: number): void {
  out.push(tag);
  pushBE(out, v, bytes);
}

function encodeInt(out: number[], n: number): void {
  if (n >= 0) {
    if (n <= 127) out.push(n);
    else if (n <= 0xff) out.push(0xcc, n);
    else if (n <= 0xffff) tagged(out, 0xcd, n, 2);
    else if (n <= 0xffffffff) tagged(out, 0xce, n, 4);
    else tagged(out, 0xcf, BigInt(n), 8);
  } else {
    if (n >= -32) out.push(n & 0xff);
    else if (n >= -128) out.push(0xd0, n & 0xff);
    else if (n >= -32768) tagged(out, 0xd1, n, 2);
    else if (n >= -2147483648) tagged(out, 0xd2, n, 4);
    else tagged(out, 0xd3, BigInt(n), 8);
  }
}

function encodeNumber(out: number[], n: number): void {
  // IS_INT64_EQUIVALENT: finite and unchanged by a cast to int64
  if (Number.isFinite(n) && Math.trunc(n) === n && n >= -9223372036854775808 && n < 9223372036854775808) {
    encodeInt(out, n);
    return;
  }
  f32[0] = n;
  if (f32[0] === n) {
    out.push(0xca);
    for (let i = 3; i >= 0; i--) out.push(f32b[i]);
  } else {
    f64[0] = n;
    out.push(0xcb);
    for (let i = 7; i >= 0; i--) out.push(f64b[i]);
  }
}

function encodeBytes(out: number[], s: Uint8Array): void {
  const len = s.length;
  if (out.length + len > MAX_SCRIPT_STRING) throw new ScriptMemoryError(out.length + len);
  if (len < 32) out.push(0xa0 | len);
  else if (len <= 0xff) out.push(0xd9, len);
  else if (len <= 0xffff) tagged(out, 0xda, len, 2);
  else tagged(out, 0xdb, len, 4);
  for (let i = 0; i < len; i++) out.push(s[i]);
}

/** table_is_an_array: every key a positive integer and max key == count */
function isArray(L: LuaState, t: number): boolean {
  let count = 0;
  let max = 0;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, t)) {
    lua.lua_pop(L, 1);
    if (lua.lua_type(L, -1) !== lua.LUA_TNUMBER) {
      lua.lua_pop(L, 1);
      return false;
    }
    const n = lua.lua_tonumber(L, -1);
    if (n <= 0 || Math.trunc(n) !== n || n > 2147483647) {
      lua.lua_pop(L, 1);
      return false;
    }
    if (n > max) max = n;
    count++;
  }
  return max === count;
}

function encodeValue(L: LuaState, out: number[], idx: number, level: number): void {
  let t = lua.lua_type(L, idx);
  if (t === lua.LUA_TTABLE && level === MAX_NESTING) t = lua.LUA_TNIL;
  switch (t) {
    case lua.LUA_TSTRING:
      encodeBytes(out, lua.lua_tolstring(L, idx)!);
      return;
    case lua.LUA_TBOOLEAN:
      out.push(lua.lua_toboolean(L, idx) ? 0xc3 : 0xc2);
      return;
    case lua.LUA_TNUMBER:
      encodeNumber(out, lua.lua_tonumber(L, idx));
      return;
    case lua.LUA_TTABLE: {
      const tab = lua.lua_absindex(L, idx);
      if (!lua.lua_checkstack(L, 3)) lauxlib.luaL_error(L, lit('stack overflow'));
      if (isArray(L, tab)) {
        const len = lua.lua_rawlen(L, tab);
        if (len <= 15) out.push(0x90 | len);
        else if (len <= 0xffff) tagged(out, 0xdc, len, 2);
        else tagged(out, 0xdd, len, 4);
        for (let j = 1; j <= len; j++) {
          lua.lua_rawgeti(L, tab, j);
          encodeValue(L, out, -1, level + 1);
          lua.lua_pop(L, 1);
        }
      } else {
        let len = 0;
        lua.lua_pushnil(L);
        while (lua.lua_next(L, tab)) {
          lua.lua_pop(L, 1);
          len++;
        }
        if (len <= 15) out.push(0x80 | len);
        else if (len <= 0xffff) tagged(out, 0xde, len, 2);
        else tagged(out, 0xdf, len, 4);
        lua.lua_pushnil(L);
        while (lua.lua_next(L, tab)) {
          encodeValue(L, out, -2, level + 1);
          encodeValue(L, out, -1, level + 1);
          lua.lua_pop(L, 1);
        }
      }
      return;
    }
    default:
      out.push(0xc0); // nil, functions, userdata, threads
  }
}

const pack: LuaCFunction = (L) => {
  const nargs = lua.lua_gettop(L);
  if (nargs === 0) return lauxlib.luaL_argerror(L, 0, lit('MessagePack pack needs input.'));
  const out: number[] = [];
  try {
    for (let i = 1; i <= nargs; i++) encodeValue(L, out, i, 0);
  } catch (e) {
    if (e instanceof ScriptMemoryError) return raiseWithPosition(L, e.message);
    throw e;
  }
  lua.lua_pushstring(L, Uint8Array.from(out));
  return 1;
};

class Truncated extends Error {}
class BadFormat extends Error {}

class Decoder {
  constructor(
    readonly L: LuaState,
    readonly s: Uint8Array,
    public p: number,
  ) {}

  need(n: number): void {
    if (this.p + n > this.s.length) throw new Truncated();
  }

  uint(bytes: number): number {
    this.need(bytes);
    let v = 0n;
    for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(this.s[this.p + i]);
    this.p += bytes;
    return Number(v);
  }

  int(bytes: number): number {
    this.need(bytes);
    let v = 0n;
    for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(this.s[this.p + i]);
    this.p += bytes;
    return Number(BigInt.asIntN(bytes * 8, v));
  }

  bytes(len: number): void {
    this.need(len);
    lua.lua_pushstring(this.L, this.s.slice(this.p, this.p + len));
    this.p += len;
  }

  array(len: number): void {
    const L = this.L;
    if (!lua.lua_checkstack(L, 3)) lauxlib.luaL_error(L, lit('stack overflow'));
    lua.lua_createtable(L, len, 0);
    for (let i = 1; i <= len; i++) {
      this.value();
      lua.lua_rawseti(L, -2, i);
    }
  }

  map(len: number): void {
    const L = this.L;
    if (!lua.lua_checkstack(L, 3)) lauxlib.luaL_error(L, lit('stack overflow'));
    lua.lua_createtable(L, 0, len);
    for (let i = 0; i < len; i++) {
      this.value();
      this.value();
      if (lua.lua_type(L, -2) === lua.LUA_TNIL) {
        lua.lua_pop(L, 2); // a nil key cannot be stored; the C library's lua_settable would raise
        continue;
      }
      lua.lua_settable(L, -3);
    }
  }

  value(): void {
    const L = this.L;
    this.need(1);
    const c = this.s[this.p++];
    if (c <= 0x7f) return pushNumber(L, c);
    if (c >= 0xe0) return pushNumber(L, c - 256);
    if (c >= 0x80 && c <= 0x8f) return this.map(c & 0x0f);
    if (c >= 0x90 && c <= 0x9f) return this.array(c & 0x0f);
    if (c >= 0xa0 && c <= 0xbf) return this.bytes(c & 0x1f);
    // uint 8/16/32/64 are 0xcc-0xcf and int 8/16/32/64 0xd0-0xd3: the low two bits are log2(width)
    if (c >= 0xcc && c <= 0xcf) return pushNumber(L, this.uint(1 << (c & 3)));
    if (c >= 0xd0 && c <= 0xd3) return pushNumber(L, this.int(1 << (c & 3)));
    switch (c) {
      case 0xc0:
        return lua.lua_pushnil(L);
      case 0xc2:
        return lua.lua_pushboolean(L, false);
      case 0xc3:
        return lua.lua_pushboolean(L, true);
      case 0xca: {
        this.need(4);
        for (let i = 3; i >= 0; i--) f32b[i] = this.s[this.p++];
        return lua.lua_pushnumber(L, f32[0]);
      }
      case 0xcb: {
        this.need(8);
        for (let i = 7; i >= 0; i--) f64b[i] = this.s[this.p++];
        return lua.lua_pushnumber(L, f64[0]);
      }
      case 0xc4:
      case 0xd9:
        return this.bytes(this.uint(1));
      case 0xc5:
      case 0xda:
        return this.bytes(this.uint(2));
      case 0xc6:
      case 0xdb:
        return this.bytes(this.uint(4));
      case 0xdc:
        return this.array(this.uint(2));
      case 0xdd:
        return this.array(this.uint(4));
      case 0xde:
        return this.map(this.uint(2));
      case 0xdf:
        return this.map(this.uint(4));
      default:
        throw new BadFormat();
    }
  }
}

function unpackFull(L: LuaState, limit: number, offset: number): number {
  const s = lauxlib.luaL_checklstring(L, 1);
  const len = s.length;
  const decodeAll = limit === 0 && offset === 0;
  if (offset < 0 || limit < 0) {
    return raiseWithPosition(L, `Invalid request to unpack with offset of ${offset} and limit of ${len}.`);
  }
  if (offset > len) return raiseWithPosition(L, `Start offset ${offset} greater than input length ${len}.`);
  if (decodeAll) limit = 2147483647;
  const d = new Decoder(L, s, offset);
  let cnt = 0;
  for (; d.p < len && cnt < limit; cnt++) {
    const top = lua.lua_gettop(L);
    try {
      d.value();
    } catch (e) {
      if (e instanceof Truncated || e instanceof BadFormat) {
        lua.lua_settop(L, top);
        return lauxlib.luaL_error(
          L,
          lit(e instanceof Truncated ? 'Missing bytes in input.' : 'Bad data format in input.'),
        );
      }
      throw e;
    }
  }
  if (!decodeAll) {
    lua.lua_pushinteger(L, d.p >= len ? -1 : d.p);
    lua.lua_insert(L, 2);
    cnt++;
  }
  return cnt;
}

const unpack: LuaCFunction = (L) => unpackFull(L, 0, 0);

const unpackOne: LuaCFunction = (L) => {
  const offset = lua.lua_type(L, 2) > lua.LUA_TNIL ? lauxlib.luaL_checkinteger(L, 2) : 0;
  lua.lua_settop(L, 1);
  return unpackFull(L, 1, offset);
};

const unpackLimit: LuaCFunction = (L) => {
  const limit = lauxlib.luaL_checkinteger(L, 2);
  const offset = lua.lua_type(L, 3) > lua.LUA_TNIL ? lauxlib.luaL_checkinteger(L, 3) : 0;
  lua.lua_settop(L, 1);
  return unpackFull(L, limit, offset);
};

/** Pushes the cmsgpack library table. */
export function openCmsgpack(L: LuaState): void {
  lua.lua_createtable(L, 0, 8);
  const fns: Record<string, LuaCFunction> = {
    pack,
    unpack,
    unpack_one: unpackOne,
    unpack_limit: unpackLimit,
  };
  for (const name of Object.keys(fns)) {
    lua.lua_pushcfunction(L, fns[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
  const info: Record<string, string> = {
    _NAME: 'cmsgpack',
    _VERSION: 'lua-cmsgpack 0.4.0',
    _COPYRIGHT: 'Copyright (C) 2012, Salvatore Sanfilippo',
    _DESCRIPTION: 'MessagePack C implementation for Lua',
  };
  for (const k of Object.keys(info)) {
    lua.lua_pushstring(L, lit(info[k]));
    lua.lua_setfield(L, -2, lit(k));
  }
}
