/**
 * The `cjson` library Redis bundles (lua-cjson 2.1.0, deps/lua/src/lua_cjson.c): encode and
 * decode with the same output format (`/` escaped, numbers as %.14g, empty tables as `{}`), the
 * same sparse-array rule and the same error texts. Settings (encode_max_depth, ...) belong to the
 * Lua state and survive between scripts, as the C library's do.
 */
import fengari from 'fengari-web';
import type { LuaCFunction, LuaState } from 'fengari-web';
import { formatG, jsBytes, lit, luaBytes, raiseWithPosition } from './lua_strings';
import { MAX_SCRIPT_STRING, ScriptMemoryError } from './lua_vmpatch';

const { lua, lauxlib } = fengari;

/** cjson.null: a light userdata every state shares, like the C library's NULL pointer. */
export const CJSON_NULL = Object.freeze({ cjson: 'null' });

interface CjsonConfig {
  encodeMaxDepth: number;
  decodeMaxDepth: number;
  precision: number;
  sparseConvert: boolean;
  sparseRatio: number;
  sparseSafe: number;
  encodeInvalidNumbers: boolean;
  decodeInvalidNumbers: boolean;
  keepBuffer: boolean;
}

function defaults(): CjsonConfig {
  return {
    encodeMaxDepth: 1000,
    decodeMaxDepth: 1000,
    precision: 14,
    sparseConvert: false,
    sparseRatio: 2,
    sparseSafe: 10,
    encodeInvalidNumbers: false,
    decodeInvalidNumbers: true,
    keepBuffer: true,
  };
}

const ESCAPES: string[] = [];
for (let c = 0; c < 256; c++) {
  if (c < 0x20 || c === 0x7f) ESCAPES.push(`\\u${c.toString(16).padStart(4, '0')}`);
  else ESCAPES.push(String.fromCharCode(c));
}
ESCAPES[0x08] = '\\b';
ESCAPES[0x09] = '\\t';
ESCAPES[0x0a] = '\\n';
ESCAPES[0x0c] = '\\f';
ESCAPES[0x0d] = '\\r';
ESCAPES[0x22] = '\\"';
ESCAPES[0x5c] = '\\\\';
ESCAPES[0x2f] = '\\/';

function escapeString(bytes: Uint8Array): string {
  let s = '"';
  for (let i = 0; i < bytes.length; i++) s += ESCAPES[bytes[i]];
  return s + '"';
}

function typeName(L: LuaState, idx: number): string {
  return jsBytes(lauxlib.luaL_typename(L, idx));
}

function encodeError(L: LuaState, idx: number, reason: string): never {
  return raiseWithPosition(L, `Cannot serialise ${typeName(L, idx)}: ${reason}`);
}

class Encoder {
  out: string[] = [];
  size = 0;
  constructor(
    readonly L: LuaState,
    readonly cfg: CjsonConfig,
  ) {}

  number(idx: number): void {
    const L = this.L;
    const n = lua.lua_tonumber(L, idx);
    if (!Number.isFinite(n) && !this.cfg.encodeInvalidNumbers) encodeError(L, idx, 'must not be NaN or Inf');
    this.out.push(lua.lua_isinteger(L, idx) ? String(n) : formatG(n, this.cfg.precision));
  }

  /** lua_array_length: the largest key if every key is a positive integer, else -1. */
  arrayLength(t: number): number {
    const L = this.L;
    let max = 0;
    let items = 0;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, t)) {
      if (lua.lua_type(L, -2) === lua.LUA_TNUMBER) {
        const k = lua.lua_tonumber(L, -2);
        if (Math.floor(k) === k && k >= 1) {
          if (k > max) max = k;
          items++;
          lua.lua_pop(L, 1);
          continue;
        }
      }
      lua.lua_pop(L, 2);
      return -1;
    }
    if (this.cfg.sparseRatio > 0 && max > items * this.cfg.sparseRatio && max > this.cfg.sparseSafe) {
      if (!this.cfg.sparseConvert) encodeError(L, t, 'excessively sparse array');
      return -1;
    }
    return max;
  }

  value(idx: number, depth: number): void {
    const L = this.L;
    switch (lua.lua_type(L, idx)) {
      case lua.LUA_TSTRING: {
        const piece = escapeString(lua.lua_tolstring(L, idx)!);
        this.size += piece.length;
        if (this.size > MAX_SCRIPT_STRING) raiseWithPosition(L, new ScriptMemoryError(this.size).message);
        this.out.push(piece);
        return;
      }
      case lua.LUA_TNUMBER:
        this.number(idx);
        return;
      case lua.LUA_TBOOLEAN:
        this.out.push(lua.lua_toboolean(L, idx) ? 'true' : 'false');
        return;
      case lua.LUA_TNIL:
        this.out.push('null');
        return;
      case lua.LUA_TLIGHTUSERDATA:
        if (lua.lua_touserdata(L, idx) === CJSON_NULL) {
          this.out.push('null');
          return;
        }
        break;
      case lua.LUA_TTABLE:
        this.table(lua.lua_absindex(L, idx), depth + 1);
        return;
    }
    encodeError(L, idx, 'type not supported');
  }

  table(t: number, depth: number): void {
    const L = this.L;
    if (depth > this.cfg.encodeMaxDepth) {
      raiseWithPosition(L, `Cannot serialise, excessive nesting (${depth})`);
    }
    if (!lua.lua_checkstack(L, 3)) lauxlib.luaL_error(L, lit('stack overflow'));
    const len = this.arrayLength(t);
    if (len > 0) {
      this.out.push('[');
      for (let i = 1; i <= len; i++) {
        if (i > 1) this.out.push(',');
        lua.lua_rawgeti(L, t, i);
        this.value(-1, depth);
        lua.lua_pop(L, 1);
      }
      this.out.push(']');
      return;
    }
    this.out.push('{');
    let first = true;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, t)) {
      if (!first) this.out.push(',');
      first = false;
      const kt = lua.lua_type(L, -2);
      if (kt === lua.LUA_TSTRING) {
        this.out.push(escapeString(lua.lua_tolstring(L, -2)!), ':');
      } else if (kt === lua.LUA_TNUMBER) {
        this.out.push('"');
        this.number(-2);
        this.out.push('":');
      } else encodeError(L, -2, 'table key must be a number or string');
      this.value(-1, depth);
      lua.lua_pop(L, 1);
    }
    this.out.push('}');
  }
}

type TokenType =
  | 'T_OBJ_BEGIN'
  | 'T_OBJ_END'
  | 'T_ARR_BEGIN'
  | 'T_ARR_END'
  | 'T_STRING'
  | 'T_NUMBER'
  | 'T_BOOLEAN'
  | 'T_NULL'
  | 'T_COLON'
  | 'T_COMMA'
  | 'T_END'
  | 'T_ERROR';

interface Token {
  type: TokenType;
  index: number;
  str?: Uint8Array;
  num?: number;
  bool?: boolean;
  error?: string;
}

const NUMBER_RE = /^-?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)/i;

class Decoder {
  pos = 0;
  constructor(
    readonly L: LuaState,
    readonly s: Uint8Array,
    readonly cfg: CjsonConfig,
  ) {}

  next(): Token {
    const s = this.s;
    while (
      this.pos < s.length &&
      (s[this.pos] === 0x20 || s[this.pos] === 0x09 || s[this.pos] === 0x0a || s[this.pos] === 0x0d)
    ) {
      this.pos++;
    }
    const index = this.pos;
    if (index >= s.length) return { type: 'T_END', index };
    const c = s[index];
    const single: Record<number, TokenType> = {
      0x7b: 'T_OBJ_BEGIN',
      0x7d: 'T_OBJ_END',
      0x5b: 'T_ARR_BEGIN',
      0x5d: 'T_ARR_END',
      0x3a: 'T_COLON',
      0x2c: 'T_COMMA',
    };
    if (single[c] !== undefined) {
      this.pos++;
      return { type: single[c], index };
    }
    if (c === 0x22) return this.string(index);
    if (this.word('true')) return { type: 'T_BOOLEAN', index, bool: true };
    if (this.word('false')) return { type: 'T_BOOLEAN', index, bool: false };
    if (this.word('null')) return { type: 'T_NULL', index };
    if (
      c === 0x2d ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2e ||
      c === 0x69 ||
      c === 0x49 ||
      c === 0x6e ||
      c === 0x4e
    ) {
      const rest = jsBytes(s.subarray(index, Math.min(s.length, index + 400)));
      const m = NUMBER_RE.exec(rest);
      const isSpecial = m !== null && /[iInNxX]/.test(m[0]);
      if (m !== null && (!isSpecial || this.cfg.decodeInvalidNumbers)) {
        this.pos = index + m[0].length;
        const txt = m[0];
        let num: number;
        if (/nan/i.test(txt)) num = NaN;
        else if (/inf/i.test(txt)) num = txt.startsWith('-') ? -Infinity : Infinity;
        else if (/0x/i.test(txt)) num = (txt.startsWith('-') ? -1 : 1) * parseInt(txt.replace(/^-/, ''), 16);
        else num = Number(txt);
        return { type: 'T_NUMBER', index, num };
      }
      return { type: 'T_ERROR', index, error: 'invalid number' };
    }
    return { type: 'T_ERROR', index, error: 'invalid token' };
  }

  word(w: string): boolean {
    for (let i = 0; i < w.length; i++) if (this.s[this.pos + i] !== w.charCodeAt(i)) return false;
    this.pos += w.length;
    return true;
  }

  string(index: number): Token {
    const s = this.s;
    const out: number[] = [];
    let i = index + 1;
    for (;;) {
      // json_set_token_error: errors point where the scan stopped
      if (i >= s.length) return { type: 'T_ERROR', index: i, error: 'unexpected end of string' };
      const c = s[i];
      if (c === 0x22) break;
      if (c !== 0x5c) {
        out.push(c);
        i++;
        continue;
      }
      const e = s[i + 1];
      const simple: Record<number, number> = {
        0x22: 0x22,
        0x5c: 0x5c,
        0x2f: 0x2f,
        0x62: 8,
        0x66: 12,
        0x6e: 10,
        0x72: 13,
        0x74: 9,
      };
      if (e !== undefined && simple[e] !== undefined) {
        out.push(simple[e]);
        i += 2;
        continue;
      }
      if (e === 0x75) {
        const cp = this.unicodeEscape(i);
        if (cp === null) return { type: 'T_ERROR', index: i, error: 'invalid unicode escape code' };
        pushUtf8(out, cp.codepoint);
        i += cp.length;
        continue;
      }
      return { type: 'T_ERROR', index: i, error: 'invalid escape code' };
    }
    this.pos = i + 1;
    return { type: 'T_STRING', index, str: Uint8Array.from(out) };
  }

  unicodeEscape(i: number): { codepoint: number; length: number } | null {
    const hex = (at: number): number | null => {
      const t = jsBytes(this.s.subarray(at, at + 4));
      return /^[0-9a-fA-F]{4}$/.test(t) ? parseInt(t, 16) : null;
    };
    const hi = hex(i + 2);
    if (hi === null) return null;
    if (hi >= 0xdc00 && hi <= 0xdfff) return null;
    if (hi >= 0xd800 && hi <= 0xdbff) {
      if (this.s[i + 6] !== 0x5c || this.s[i + 7] !== 0x75) return null;
      const lo = hex(i + 8);
      if (lo === null || lo < 0xdc00 || lo > 0xdfff) return null;
      return { codepoint: 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), length: 12 };
    }
    return { codepoint: hi, length: 6 };
  }

  fail(expected: string, tok: Token): never {
    const found = tok.type === 'T_ERROR' ? tok.error! : tok.type;
    return raiseWithPosition(this.L, `Expected ${expected} but found ${found} at character ${tok.index + 1}`);
  }

  value(tok: Token, depth: number): void {
    const L = this.L;
    switch (tok.type) {
      case 'T_STRING':
        lua.lua_pushstring(L, tok.str!);
        return;
      case 'T_NUMBER':
        lua.lua_pushnumber(L, tok.num!);
        if ((tok.num! | 0) === tok.num! && !Object.is(tok.num, -0)) {
          lua.lua_pop(L, 1);
          lua.lua_pushinteger(L, tok.num!);
        }
        return;
      case 'T_BOOLEAN':
        lua.lua_pushboolean(L, tok.bool!);
        return;
      case 'T_NULL':
        lua.lua_pushlightuserdata(L, CJSON_NULL);
        return;
      case 'T_OBJ_BEGIN':
        this.object(tok, depth + 1);
        return;
      case 'T_ARR_BEGIN':
        this.array(tok, depth + 1);
        return;
      default:
        this.fail('value', tok);
    }
  }

  checkDepth(tok: Token, depth: number): void {
    if (depth > this.cfg.decodeMaxDepth || !lua.lua_checkstack(this.L, 3)) {
      raiseWithPosition(
        this.L,
        `Found too many nested data structures (${depth}) at character ${tok.index + 1}`,
      );
    }
  }

  object(open: Token, depth: number): void {
    const L = this.L;
    for (let tok = this.open(open, depth, 'T_OBJ_END'); tok; tok = this.afterElement('T_OBJ_END', 'object')) {
      if (tok.type !== 'T_STRING') this.fail('object key string', tok);
      lua.lua_pushstring(L, tok.str!);
      const colon = this.next();
      if (colon.type !== 'T_COLON') this.fail('colon', colon);
      this.value(this.next(), depth);
      lua.lua_rawset(L, -3);
    }
  }

  array(open: Token, depth: number): void {
    let i = 1;
    for (let tok = this.open(open, depth, 'T_ARR_END'); tok; tok = this.afterElement('T_ARR_END', 'array')) {
      this.value(tok, depth);
      lua.lua_rawseti(this.L, -2, i++);
    }
  }

  /** The table an object or array decodes into, and its first element's token (null: it is empty). */
  private open(open: Token, depth: number, end: TokenType): Token | null {
    this.checkDepth(open, depth);
    lua.lua_newtable(this.L);
    const tok = this.next();
    return tok.type === end ? null : tok;
  }

  /** After an element: the container's end (null), or a comma and the next element's token. */
  private afterElement(end: TokenType, container: 'object' | 'array'): Token | null {
    const tok = this.next();
    if (tok.type === end) return null;
    if (tok.type !== 'T_COMMA') this.fail(`comma or ${container} end`, tok);
    return this.next();
  }
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
}

/** cjson.encode_* / decode_* setters: with no argument they report, with arguments they set. */
/** The config fields holding a `V`. */
type FieldOf<V> = { [K in keyof CjsonConfig]: CjsonConfig[K] extends V ? K : never }[keyof CjsonConfig];

function intSetting(cfg: CjsonConfig, field: FieldOf<number>, min: number, max: number): LuaCFunction {
  return (L) => {
    if (lua.lua_gettop(L) > 0 && lua.lua_type(L, 1) !== lua.LUA_TNIL) {
      const v = lauxlib.luaL_checkinteger(L, 1);
      if (v < min || v > max)
        lauxlib.luaL_argerror(L, 1, luaBytes(`expected integer between ${min} and ${max}`));
      cfg[field] = v;
    }
    lua.lua_pushinteger(L, cfg[field]);
    return 1;
  };
}

function boolSetting(cfg: CjsonConfig, field: FieldOf<boolean>): LuaCFunction {
  return (L) => {
    if (lua.lua_gettop(L) > 0 && lua.lua_type(L, 1) !== lua.LUA_TNIL) {
      if (lua.lua_type(L, 1) === lua.LUA_TBOOLEAN) cfg[field] = lua.lua_toboolean(L, 1);
      else {
        const s = lua.lua_type(L, 1) === lua.LUA_TSTRING ? jsBytes(lua.lua_tolstring(L, 1)!) : '';
        if (s === 'on') cfg[field] = true;
        else if (s === 'off') cfg[field] = false;
        else lauxlib.luaL_argerror(L, 1, luaBytes(`invalid option '${s}'`));
      }
    }
    lua.lua_pushboolean(L, cfg[field]);
    return 1;
  };
}

/** Pushes a cjson library table with its own settings. */
export function openCjson(L: LuaState): void {
  const cfg = defaults();
  const fns: Record<string, LuaCFunction> = {
    encode: (L) => {
      if (lua.lua_gettop(L) !== 1) lauxlib.luaL_argerror(L, 1, lit('expected 1 argument'));
      const enc = new Encoder(L, cfg);
      enc.value(1, 0);
      lua.lua_pushstring(L, luaBytes(enc.out.join('')));
      return 1;
    },
    decode: (L) => {
      if (lua.lua_gettop(L) !== 1) lauxlib.luaL_argerror(L, 1, lit('expected 1 argument'));
      const s = lauxlib.luaL_checklstring(L, 1);
      const dec = new Decoder(L, s, cfg);
      dec.value(dec.next(), 0);
      const end = dec.next();
      if (end.type !== 'T_END') dec.fail('the end', end);
      return 1;
    },
    encode_max_depth: intSetting(cfg, 'encodeMaxDepth', 1, 2147483647),
    decode_max_depth: intSetting(cfg, 'decodeMaxDepth', 1, 2147483647),
    encode_number_precision: intSetting(cfg, 'precision', 1, 14),
    encode_keep_buffer: boolSetting(cfg, 'keepBuffer'),
    encode_invalid_numbers: boolSetting(cfg, 'encodeInvalidNumbers'),
    decode_invalid_numbers: boolSetting(cfg, 'decodeInvalidNumbers'),
    encode_sparse_array: (L) => {
      if (lua.lua_gettop(L) > 0) {
        if (lua.lua_type(L, 1) !== lua.LUA_TNIL) cfg.sparseConvert = lua.lua_toboolean(L, 1);
        if (lua.lua_type(L, 2) > lua.LUA_TNIL) cfg.sparseRatio = lauxlib.luaL_checkinteger(L, 2);
        if (lua.lua_type(L, 3) > lua.LUA_TNIL) cfg.sparseSafe = lauxlib.luaL_checkinteger(L, 3);
      }
      lua.lua_pushboolean(L, cfg.sparseConvert);
      lua.lua_pushinteger(L, cfg.sparseRatio);
      lua.lua_pushinteger(L, cfg.sparseSafe);
      return 3;
    },
    new: (L) => {
      openCjson(L);
      return 1;
    },
  };
  lua.lua_createtable(L, 0, 16);
  for (const name of Object.keys(fns)) {
    lua.lua_pushcfunction(L, fns[name]);
    lua.lua_setfield(L, -2, lit(name));
  }
  lua.lua_pushlightuserdata(L, CJSON_NULL);
  lua.lua_setfield(L, -2, lit('null'));
  lua.lua_pushstring(L, lit('cjson'));
  lua.lua_setfield(L, -2, lit('_NAME'));
  lua.lua_pushstring(L, lit('2.1.0'));
  lua.lua_setfield(L, -2, lit('_VERSION'));
}
