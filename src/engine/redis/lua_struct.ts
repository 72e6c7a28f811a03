/**
 * The `struct` library Redis bundles (Roberto Ierusalimschy's struct 0.2, deps/lua/src/lua_struct.c):
 * pack/unpack/size of binary records. Native settings are those of x86-64 Linux: little endian,
 * short 2, int 4, long and size_t 8, alignment 1 until `!` changes it (max 8). Integers go through
 * 64-bit C integers like the original, so sizes above 8 bytes carry zeros (or sign bits lost).
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState } from 'fengari-web';
import { jsBytes, lit, luaBytes, pushNumber, raiseWithPosition } from './lua_strings';
import { MAX_SCRIPT_STRING, ScriptMemoryError } from './lua_vmpatch';

const { lua, lauxlib } = fengari;

const MAXINTSIZE = 32;
const MAXALIGN = 8;
const INT_MAX = 2147483647;
const MASK64 = (1n << 64n) - 1n;

interface Header {
  little: boolean;
  align: number;
}

interface Cursor {
  fmt: string;
  i: number;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function getnum(L: LuaState, c: Cursor, df: number): number {
  if (!isDigit(c.fmt[c.i])) return df;
  let a = 0;
  do {
    const d = c.fmt.charCodeAt(c.i) - 48;
    if (a > Math.floor(INT_MAX / 10) || a * 10 > INT_MAX - d)
      lauxlib.luaL_error(L, lit('integral size overflow'));
    a = a * 10 + d;
    c.i++;
  } while (isDigit(c.fmt[c.i]));
  return a;
}

function optsize(L: LuaState, opt: string, c: Cursor): number {
  switch (opt) {
    case 'B':
    case 'b':
    case 'x':
      return 1;
    case 'H':
    case 'h':
      return 2;
    case 'L':
    case 'l':
    case 'T':
    case 'd':
      return 8;
    case 'f':
      return 4;
    case 'c':
      return getnum(L, c, 1);
    case 'i':
    case 'I': {
      const sz = getnum(L, c, 4);
      if (sz > MAXINTSIZE) {
        raiseWithPosition(L, `integral size ${sz} is larger than limit of ${MAXINTSIZE}`);
      }
      return sz;
    }
    default:
      return 0;
  }
}

function gettoalign(len: number, h: Header, opt: string, size: number): number {
  if (size === 0 || opt === 'c') return 0;
  if (size > h.align) size = h.align;
  return (size - (len & (size - 1))) & (size - 1);
}

function controloptions(L: LuaState, opt: string, c: Cursor, h: Header): void {
  switch (opt) {
    case ' ':
      return;
    case '>':
      h.little = false;
      return;
    case '<':
      h.little = true;
      return;
    case '!': {
      const a = getnum(L, c, MAXALIGN);
      if ((a & (a - 1)) !== 0 || a === 0) raiseWithPosition(L, `alignment ${a} is not a power of 2`);
      h.align = a;
      return;
    }
    default:
      lauxlib.luaL_argerror(L, 1, luaBytes(`invalid format option '${opt}'`));
  }
}

const INTEGER_OPTS = 'bBhHlLTiI';

function putInteger(L: LuaState, out: number[], arg: number, little: boolean, size: number): void {
  const n = lauxlib.luaL_checknumber(L, arg);
  // (Uinttype)(Inttype)n for negatives, (Uinttype)n otherwise: both a C truncation toward zero
  let v = Number.isFinite(n) ? BigInt(Math.trunc(n)) & MASK64 : 0n;
  const bytes = new Array<number>(size);
  for (let k = 0; k < size; k++) {
    bytes[little ? k : size - 1 - k] = Number(v & 0xffn);
    v >>= 8n;
  }
  out.push(...bytes);
}

function getInteger(data: Uint8Array, pos: number, little: boolean, signed: boolean, size: number): number {
  let l = 0n;
  for (let k = 0; k < size; k++) {
    const b = data[little ? pos + size - 1 - k : pos + k];
    l = ((l << 8n) | BigInt(b)) & MASK64;
  }
  if (!signed) return Number(l);
  const mask = (MASK64 << BigInt(size * 8 - 1)) & MASK64;
  if (l & mask) l |= mask;
  return Number(BigInt.asIntN(64, l));
}

const f32 = new Float32Array(1);
const f64 = new Float64Array(1);
const f32bytes = new Uint8Array(f32.buffer);
const f64bytes = new Uint8Array(f64.buffer);

function floatBytes(n: number, size: number, little: boolean): number[] {
  const src = size === 4 ? f32bytes : f64bytes;
  if (size === 4) f32[0] = n;
  else f64[0] = n;
  const b = Array.from(src);
  return little ? b : b.reverse();
}

function readFloat(data: Uint8Array, pos: number, size: number, little: boolean): number {
  const dst = size === 4 ? f32bytes : f64bytes;
  for (let k = 0; k < size; k++) dst[k] = data[little ? pos + k : pos + size - 1 - k];
  return size === 4 ? f32[0] : f64[0];
}

const pack: LuaCFunction = (L) => {
  const c: Cursor = { fmt: jsBytes(lauxlib.luaL_checkstring(L, 1)), i: 0 };
  const h: Header = { little: true, align: 1 };
  const out: number[] = [];
  let arg = 2;
  let total = 0;
  while (c.i < c.fmt.length && c.fmt.charCodeAt(c.i) !== 0) {
    const opt = c.fmt[c.i++];
    let size = optsize(L, opt, c);
    let toalign = gettoalign(total, h, opt, size);
    total += toalign;
    while (toalign-- > 0) out.push(0);
    if (INTEGER_OPTS.includes(opt)) putInteger(L, out, arg++, h.little, size);
    else if (opt === 'x') out.push(0);
    else if (opt === 'f' || opt === 'd')
      out.push(...floatBytes(lauxlib.luaL_checknumber(L, arg++), size, h.little));
    else if (opt === 'c' || opt === 's') {
      const s = lauxlib.luaL_checklstring(L, arg++);
      if (size === 0) size = s.length;
      if (s.length < size) lauxlib.luaL_argerror(L, arg, lit('string too short'));
      if (out.length + size > MAX_SCRIPT_STRING)
        raiseWithPosition(L, new ScriptMemoryError(out.length + size).message);
      for (let k = 0; k < size; k++) out.push(s[k]);
      if (opt === 's') {
        out.push(0);
        size++;
      }
    } else controloptions(L, opt, c, h);
    total += size;
  }
  lua.lua_pushstring(L, Uint8Array.from(out));
  return 1;
};

const unpack: LuaCFunction = (L) => {
  const c: Cursor = { fmt: jsBytes(lauxlib.luaL_checkstring(L, 1)), i: 0 };
  const data = lauxlib.luaL_checklstring(L, 2);
  const ld = data.length;
  let pos = (lua.lua_type(L, 3) > lua.LUA_TNIL ? lauxlib.luaL_checkinteger(L, 3) : 1) - 1;
  if (!(pos >= 0 && pos <= ld)) lauxlib.luaL_argerror(L, 3, lit('offset must be 1 or greater'));
  const h: Header = { little: true, align: 1 };
  let n = 0;
  while (c.i < c.fmt.length && c.fmt.charCodeAt(c.i) !== 0) {
    const opt = c.fmt[c.i++];
    let size = optsize(L, opt, c);
    pos += gettoalign(pos, h, opt, size);
    if (!(size <= ld - pos)) lauxlib.luaL_argerror(L, 2, lit('data string too short'));
    if (!lua.lua_checkstack(L, 2)) lauxlib.luaL_error(L, lit('stack overflow (too many results)'));
    if (INTEGER_OPTS.includes(opt)) {
      pushNumber(L, getInteger(data, pos, h.little, opt === opt.toLowerCase(), size));
      n++;
    } else if (opt === 'x') {
      // padding
    } else if (opt === 'f' || opt === 'd') {
      lua.lua_pushnumber(L, readFloat(data, pos, size, h.little));
      n++;
    } else if (opt === 'c') {
      if (size === 0) {
        if (n === 0 || !lua.lua_isnumber(L, -1))
          lauxlib.luaL_error(L, lit("format 'c0' needs a previous size"));
        size = Math.trunc(lua.lua_tonumber(L, -1));
        lua.lua_pop(L, 1);
        n--;
        if (!(size <= ld - pos)) lauxlib.luaL_argerror(L, 2, lit('data string too short'));
      }
      lua.lua_pushstring(L, data.slice(pos, pos + size));
      n++;
    } else if (opt === 's') {
      const e = data.indexOf(0, pos);
      if (e < 0) lauxlib.luaL_error(L, lit('unfinished string in data'));
      size = e - pos + 1;
      lua.lua_pushstring(L, data.slice(pos, e));
      n++;
    } else controloptions(L, opt, c, h);
    pos += size;
  }
  lua.lua_pushinteger(L, pos + 1);
  return n + 1;
};

const size: LuaCFunction = (L) => {
  const c: Cursor = { fmt: jsBytes(lauxlib.luaL_checkstring(L, 1)), i: 0 };
  const h: Header = { little: true, align: 1 };
  let pos = 0;
  while (c.i < c.fmt.length && c.fmt.charCodeAt(c.i) !== 0) {
    const opt = c.fmt[c.i++];
    const sz = optsize(L, opt, c);
    pos += gettoalign(pos, h, opt, sz);
    if (opt === 's') lauxlib.luaL_argerror(L, 1, lit("option 's' has no fixed size"));
    else if (opt === 'c' && sz === 0) lauxlib.luaL_argerror(L, 1, lit("option 'c0' has no fixed size"));
    if (!/[A-Za-z0-9]/.test(opt)) controloptions(L, opt, c, h);
    pos += sz;
  }
  lua.lua_pushinteger(L, pos);
  return 1;
};

/** Pushes the struct library table. */
export function openStruct(L: LuaState): void {
  lua.lua_createtable(L, 0, 3);
  const fns: Record<string, LuaCFunction> = { pack, unpack, size };
  for (const name of Object.keys(fns)) {
    lua.lua_pushcfunction(L, fns[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
}
