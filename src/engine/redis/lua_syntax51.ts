/**
 * Makes fengari's Lua 5.3 parser accept exactly what Redis's Lua 5.1 accepts, by rewriting the
 * source before compiling it (same length per line, so line numbers in messages stay right):
 *
 * - Operators 5.1 does not have (`//`, `&`, `|`, `~`, `<<`, `>>`, `::`) are lexed by 5.1 as one or
 *   two ordinary characters, and its parser then stops at the first character it cannot use. We put
 *   an '@' (a character neither version accepts) where 5.1 stops, let the 5.3 parser fail at the
 *   same place with the same message, and put the original character back into the message.
 * - `goto` is a plain name in 5.1: it is renamed to a name 5.3 does not reserve. `_ENV` is a plain
 *   (missing) global in 5.1 but the environment itself in 5.3: renamed too, so it stays a global.
 * - Integer numerals are written as floats (`1` -> `1.0`, `0xff` -> `0xffp0`): 5.1 numbers are all
 *   doubles, fengari's integers are 32-bit and would wrap (`for i = 1, 2e5 do n = n + i end`).
 * - In quoted strings 5.1 keeps the character after an unknown escape (`"\x41"` is "x41", `"\q"` is
 *   "q"), where 5.3 decodes \x, \z, \u{} and rejects the rest: the backslash is dropped.
 */

export interface Rewritten {
  /** source for the 5.3 parser */
  readonly code: string;
  /** characters replaced by '@', in source order */
  readonly replaced: readonly string[];
}

const GOTO_STANDIN = 'g0to';
/** 5.3 resolves `_ENV` to the chunk's environment; in 5.1 it is an ordinary (undefined) global. */
export const ENV_STANDIN = '_EnV';

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

/** Length of a long bracket opener at i (`[[`, `[==[`), or 0. */
function longBracket(src: string, i: number): number {
  if (src[i] !== '[') return 0;
  let j = i + 1;
  while (src[j] === '=') j++;
  return src[j] === '[' ? j - i + 1 : 0;
}

export function rewriteFor53(src: string): Rewritten {
  const out: string[] = [];
  const replaced: string[] = [];
  let i = 0;
  const n = src.length;
  const mark = (original: string): void => {
    out.push('@');
    replaced.push(original);
  };
  while (i < n) {
    const c = src[i];
    // comments and long strings pass through untouched
    if (c === '-' && src[i + 1] === '-') {
      const open = longBracket(src, i + 2);
      let end: number;
      if (open > 0) {
        const close = ']' + '='.repeat(open - 2) + ']';
        const at = src.indexOf(close, i + 2 + open);
        end = at < 0 ? n : at + close.length;
      } else {
        const nl = src.indexOf('\n', i);
        end = nl < 0 ? n : nl;
      }
      out.push(src.slice(i, end));
      i = end;
      continue;
    }
    const open = longBracket(src, i);
    if (open > 0) {
      const close = ']' + '='.repeat(open - 2) + ']';
      const at = src.indexOf(close, i + open);
      const end = at < 0 ? n : at + close.length;
      out.push(src.slice(i, end));
      i = end;
      continue;
    }
    if (c === '"' || c === "'") {
      out.push(c);
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\' && i + 1 < n) {
          const e = src[i + 1];
          if ('abfnrtv\\"\'\n\r'.includes(e) || (e >= '0' && e <= '9')) out.push('\\' + e);
          else out.push(e); // 5.1 keeps the character, drops the backslash
          i += 2;
          continue;
        }
        out.push(src[i]);
        i++;
      }
      if (i < n && src[i] === c) {
        out.push(c);
        i++;
      }
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && src[i + 1] >= '0' && src[i + 1] <= '9')) {
      // a numeral, read as 5.3's lexer reads it
      const hex = c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X');
      const expo = hex ? 'Pp' : 'Ee';
      let j = hex ? i + 2 : i;
      while (j < n) {
        if (expo.includes(src[j])) {
          j++;
          if (src[j] === '+' || src[j] === '-') j++;
        } else if (/[0-9A-Fa-f.]/.test(src[j])) j++;
        else break;
      }
      const numeral = src.slice(i, j);
      // every 5.1 number is a double: integer literals become float literals, so arithmetic on
      // them cannot wrap at fengari's 32-bit integer limit (2147483647 + 1 is 2147483648)
      if (/^[0-9]+$/.test(numeral)) out.push(numeral + '.0');
      else if (/^0[xX][0-9A-Fa-f]+$/.test(numeral)) out.push(numeral + 'p0');
      else out.push(numeral);
      i = j;
      continue;
    }
    if (isNameChar(c)) {
      let j = i;
      while (isNameChar(src[j])) j++;
      const word = src.slice(i, j);
      out.push(word === 'goto' ? GOTO_STANDIN : word === '_ENV' ? ENV_STANDIN : word);
      i = j;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '//' || two === '<<' || two === '>>') {
      // 5.1 reads two one-character operators and fails on the second
      out.push(c);
      mark(src[i + 1]);
      i += 2;
      continue;
    }
    if (two === '::') {
      mark(':');
      out.push(':');
      i += 2;
      continue;
    }
    if (two === '~=') {
      out.push(two);
      i += 2;
      continue;
    }
    if (c === '&' || c === '|' || c === '~') {
      mark(c);
      i++;
      continue;
    }
    out.push(c);
    i++;
  }
  return { code: out.join(''), replaced };
}

/** A 5.3 compile message for rewritten code -> what 5.1 says for the original. */
export function restoreMessage(msg: string, rw: Rewritten): string {
  let m = msg;
  if (rw.replaced.length > 0) m = m.replace(/'@'/, `'${rw.replaced[0]}'`);
  return m
    .replace(/\bg0to\b/g, 'goto')
    .replace(/\b_EnV\b/g, '_ENV')
    .replace(/'([0-9]+)\.0'/g, "'$1'")
    .replace(/'(0[xX][0-9A-Fa-f]+)p0'/g, "'$1'");
}
