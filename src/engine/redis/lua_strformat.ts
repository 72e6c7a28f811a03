/**
 * string.format as Lua 5.1 has it (lstrlib.c str_format): flags "-+ #0", at most two digits of
 * width and of precision, %d/%i/%o/%u/%x/%X take any number and cast it like C ((long) / (unsigned
 * long)), %c an int, %e/%E/%f/%g/%G a double, %s a string (numbers converted, other types refused),
 * %q quoting with \000 for NUL. fengari's 5.3 version refuses 3.7 for %d and 2^31 for %d, prints
 * %g through JS and accepts any value for %s; scripts see 5.1's behaviour instead.
 */
import fengari from 'fengari-web';
import type { LuaCFunction } from 'fengari-web';
import { formatDouble, formatInteger, formatText, toInt64, toUint64 } from './lua_printf';
import type { Spec } from './lua_printf';
import { jsBytes, lit, luaBytes, raiseWithPosition } from './lua_strings';
import { MAX_SCRIPT_STRING, ScriptMemoryError, chargeStringBytes } from './lua_vmpatch';

const { lua, lauxlib } = fengari;

const FLAGS = '-+ #0';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

export const stringFormat51: LuaCFunction = (L) => {
  const top = lua.lua_gettop(L);
  let arg = 1;
  const fmt = jsBytes(lauxlib.luaL_checklstring(L, arg));
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const ch = fmt[i];
    if (ch !== '%') {
      out += ch;
      i++;
      continue;
    }
    i++;
    if (fmt[i] === '%') {
      out += '%';
      i++;
      continue;
    }
    if (++arg > top) lauxlib.luaL_argerror(L, arg, lit('no value'));
    // scanformat
    const start = i;
    while (i < fmt.length && FLAGS.includes(fmt[i])) i++;
    if (i - start >= FLAGS.length + 1) lauxlib.luaL_error(L, lit('invalid format (repeated flags)'));
    const flags = fmt.slice(start, i);
    let width = '';
    if (isDigit(fmt[i])) width += fmt[i++];
    if (isDigit(fmt[i])) width += fmt[i++];
    let precision = -1;
    if (fmt[i] === '.') {
      i++;
      let p = '';
      if (isDigit(fmt[i])) p += fmt[i++];
      if (isDigit(fmt[i])) p += fmt[i++];
      precision = p === '' ? 0 : Number(p);
    }
    if (isDigit(fmt[i])) lauxlib.luaL_error(L, lit('invalid format (width or precision too long)'));
    const spec: Spec = {
      minus: flags.includes('-'),
      plus: flags.includes('+'),
      space: flags.includes(' '),
      alt: flags.includes('#'),
      zero: flags.includes('0'),
      width: width === '' ? 0 : Number(width),
      precision,
    };
    const conv = fmt[i++];
    switch (conv) {
      case 'c': {
        const code = Number(toInt64(lauxlib.luaL_checknumber(L, arg)) & 0xffn);
        // %c of 0 writes a NUL, which C's strlen-based append then drops
        out += formatText(code === 0 ? '' : String.fromCharCode(code), { ...spec, precision: -1 });
        break;
      }
      case 'd':
      case 'i':
        out += formatInteger(toInt64(lauxlib.luaL_checknumber(L, arg)), conv, spec);
        break;
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        out += formatInteger(toUint64(lauxlib.luaL_checknumber(L, arg)), conv, spec);
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'g':
      case 'G':
        out += formatDouble(lauxlib.luaL_checknumber(L, arg), conv, spec);
        break;
      case 'q': {
        const s = jsBytes(lauxlib.luaL_checklstring(L, arg));
        out += '"';
        for (const c of s) {
          if (c === '"' || c === '\\' || c === '\n') out += '\\' + c;
          else if (c === '\r') out += '\\r';
          else if (c === '\0') out += '\\000';
          else out += c;
        }
        out += '"';
        break;
      }
      case 's': {
        const s = jsBytes(lauxlib.luaL_checklstring(L, arg));
        if (precision < 0 && s.length >= 100) out += s;
        else {
          // sprintf stops at the first NUL of a C string
          const nul = s.indexOf('\0');
          out += formatText(nul < 0 ? s : s.slice(0, nul), spec);
        }
        break;
      }
      default:
        raiseWithPosition(L, `invalid option '%${conv ?? ''}' to 'format'`);
    }
    if (out.length > MAX_SCRIPT_STRING) raiseWithPosition(L, new ScriptMemoryError(out.length).message);
  }
  const overRun = chargeStringBytes(out.length);
  if (overRun) raiseWithPosition(L, overRun.message);
  lua.lua_pushstring(L, luaBytes(out));
  return 1;
};
