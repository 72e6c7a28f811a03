/**
 * The `bit` library Redis bundles (LuaBitOp 1.0.2, deps/lua/src/lua_bit.c): 32-bit operations on
 * Lua numbers. Arguments are reduced to int32 the way LuaBitOp does it (round to nearest, modulo
 * 2^32) and results are signed int32.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState } from 'fengari-web';
import { lit, luaBytes } from './lua_strings';

const { lua, lauxlib } = fengari;

/** LuaBitOp's barg: adding 2^52+2^51 to a double and keeping the low word rounds half to even. */
export function tobit(x: number): number {
  if (!Number.isFinite(x)) return 0;
  let r = Math.round(x);
  if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) r -= 1; // half to even
  const m = r % 4294967296;
  return m | 0;
}

function barg(L: LuaState, i: number): number {
  return tobit(lauxlib.luaL_checknumber(L, i));
}

function push(L: LuaState, v: number): number {
  lua.lua_pushinteger(L, v | 0);
  return 1;
}

function fold(op: (a: number, b: number) => number): LuaCFunction {
  return (L) => {
    let b = barg(L, 1);
    const n = lua.lua_gettop(L);
    for (let i = 2; i <= n; i++) b = op(b, barg(L, i));
    return push(L, b);
  };
}

function shift(op: (x: number, n: number) => number): LuaCFunction {
  return (L) => push(L, op(barg(L, 1), barg(L, 2) & 31));
}

const BIT: Record<string, LuaCFunction> = {
  tobit: (L) => push(L, barg(L, 1)),
  bnot: (L) => push(L, ~barg(L, 1)),
  band: fold((a, b) => a & b),
  bor: fold((a, b) => a | b),
  bxor: fold((a, b) => a ^ b),
  lshift: shift((x, n) => x << n),
  rshift: shift((x, n) => x >>> n),
  arshift: shift((x, n) => x >> n),
  rol: shift((x, n) => (x << n) | (x >>> (32 - n))),
  ror: shift((x, n) => (x >>> n) | (x << (32 - n))),
  bswap: (L) => {
    const b = barg(L, 1);
    return push(L, (b >>> 24) | ((b >>> 8) & 0xff00) | ((b & 0xff00) << 8) | (b << 24) | 0);
  },
  tohex: (L) => {
    const b = barg(L, 1);
    let n = lua.lua_type(L, 2) <= lua.LUA_TNIL ? 8 : barg(L, 2);
    let upper = false;
    if (n < 0) {
      n = -n;
      upper = true;
    }
    if (n > 8) n = 8;
    let s = (b >>> 0)
      .toString(16)
      .padStart(8, '0')
      .slice(8 - n);
    if (upper) s = s.toUpperCase();
    lua.lua_pushstring(L, luaBytes(s));
    return 1;
  },
};

/** Pushes the bit library table. */
export function openBit(L: LuaState): void {
  lua.lua_createtable(L, 0, 12);
  for (const name of Object.keys(BIT)) {
    lua.lua_pushcfunction(L, BIT[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
}
