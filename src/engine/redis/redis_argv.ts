/**
 * Splits one line of redis-cli input into arguments exactly like redis-cli does (sds.c
 * `sdssplitargs`): blanks separate words; "double quotes" understand \xNN, \n, \r, \t, \b, \a
 * and \<any>; 'single quotes' only \'; a closing quote must be followed by a blank or the end.
 * The line and the result are byte strings. Returns null where redis-cli prints
 * "Invalid argument(s)".
 */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', a: '\x07' };

export function splitArgs(line: string): string[] | null {
  // C strings end at the first NUL byte.
  const nul = line.indexOf('\0');
  const s = nul >= 0 ? line.slice(0, nul) : line;
  const n = s.length;
  const out: string[] = [];
  let p = 0;
  for (;;) {
    while (p < n && isSpace(s.charCodeAt(p))) p++;
    if (p >= n) return out;
    let cur = '';
    // the open quote, '"' or "'", while inside one
    let quote = '';
    let done = false;
    while (!done) {
      const c = p < n ? s[p] : '';
      const next = p + 1 < n ? s[p + 1] : '';
      if (
        quote === '"' &&
        c === '\\' &&
        next === 'x' &&
        p + 3 < n &&
        hexValue(s.charCodeAt(p + 2)) >= 0 &&
        hexValue(s.charCodeAt(p + 3)) >= 0
      ) {
        cur += String.fromCharCode(hexValue(s.charCodeAt(p + 2)) * 16 + hexValue(s.charCodeAt(p + 3)));
        p += 3;
      } else if (quote === '"' && c === '\\' && next !== '') {
        p++;
        cur += ESCAPES[next] ?? next;
      } else if (quote === "'" && c === '\\' && next === "'") {
        p++;
        cur += "'";
      } else if (quote !== '' && c === quote) {
        if (next !== '' && !isSpace(next.charCodeAt(0))) return null;
        done = true;
      } else if (quote !== '' && c === '') {
        return null;
      } else if (quote === '' && (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '')) {
        done = true;
      } else if (quote === '' && (c === '"' || c === "'")) {
        quote = c;
      } else {
        cur += c;
      }
      if (p < n) p++;
    }
    out.push(cur);
  }
}
