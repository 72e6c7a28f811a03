/**
 * Number parsing and printing exactly as Redis 7.0 does it (util.c `string2ll`, object.c
 * `getDoubleFromObject`, networking.c `addReplyDouble`). Inputs and outputs are byte strings.
 */

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/**
 * util.c `string2ll`: no spaces, no '+', no leading zeros, no "-0", within int64. Returns a
 * number when it is a safe integer, a bigint beyond that, or null when Redis would refuse it.
 */
export function parseLongLong(s: string): number | bigint | null {
  const len = s.length;
  if (len === 0 || len > 20) return null;
  let i = 0;
  let neg = false;
  if (s.charCodeAt(0) === 45 /* - */) {
    neg = true;
    i = 1;
    if (len === 1) return null;
  } else if (len === 1 && s.charCodeAt(0) === 48) {
    return 0;
  }
  const first = s.charCodeAt(i);
  if (first < 49 || first > 57) return null;
  if (len - i <= 15) {
    let n = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      n = n * 10 + c;
    }
    return neg ? -n : n;
  }
  for (let j = i; j < len; j++) {
    const c = s.charCodeAt(j);
    if (c < 48 || c > 57) return null;
  }
  const b = BigInt(s);
  if (b > INT64_MAX || b < INT64_MIN) return null;
  return narrow(b);
}

/** A bigint as a number when that is exact, so the common path stays on plain numbers. */
export function narrow(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

export function inInt64(b: bigint): boolean {
  return b <= INT64_MAX && b >= INT64_MIN;
}

/** a + b if the result fits in int64 (the "increment or decrement would overflow" check), else null. */
export function addInt64(a: number | bigint, b: number | bigint): number | bigint | null {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  const r = BigInt(a) + BigInt(b);
  return inInt64(r) ? narrow(r) : null;
}

/** Decimal and hexadecimal spellings strtod accepts (no leading space; Redis rejects that anyway). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;
const INFINITY = /^([+-]?)(?:inf|infinity)$/i;
const NAN = /^[+-]?nan(?:\([0-9a-zA-Z_]*\))?$/i;
const NONZERO_MANTISSA = /[1-9]/;

/** The number a whole strtod spelling denotes (NaN for "nan"), or null when it is not one. */
function strtodWhole(s: string): number | null {
  if (DECIMAL.test(s)) return Number(s);
  const inf = INFINITY.exec(s);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  if (NAN.test(s)) return NaN;
  const hex = HEX.exec(s);
  if (hex && (hex[2].length > 0 || (hex[3] ?? '').length > 0)) {
    const digits = hex[2] + (hex[3] ?? '');
    let v = 0;
    for (let i = 0; i < digits.length; i++) v = v * 16 + parseInt(digits[i], 16);
    v *= Math.pow(2, Number(hex[4] ?? 0) - 4 * (hex[3] ?? '').length);
    return hex[1] === '-' ? -v : v;
  }
  return null;
}

/**
 * object.c `getDoubleFromObject`: the whole string must be a strtod number, not NaN, not
 * overflowing to ±inf and not underflowing to zero. "inf"/"-inf" are accepted.
 */
export function parseDouble(s: string): number | null {
  if (s.length === 0) return null;
  const v = strtodWhole(s);
  if (v === null || Number.isNaN(v)) return null;
  if (!Number.isFinite(v) && !INFINITY.test(s)) return null;
  if (v === 0 && DECIMAL.test(s) && NONZERO_MANTISSA.test(s.split(/[eE]/)[0])) return null;
  return v;
}

/**
 * t_zset.c `zslParseRange` bound: plain strtod, so leading spaces are skipped, overflow gives
 * ±inf, and an empty string reads as 0; only NaN and trailing junk are refused.
 */
export function parseRangeDouble(s: string): number | null {
  if (s.length === 0) return 0;
  let i = 0;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  if (i === s.length) return null;
  const v = strtodWhole(i === 0 ? s : s.slice(i));
  return v === null || Number.isNaN(v) ? null : v;
}

/** C isspace in the "C" locale. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** printf("%.17g") as Redis 7.0 prints doubles (ZSCORE, ZINCRBY, WITHSCORES); ±inf as "inf"/"-inf". */
export function formatDouble(d: number): string {
  if (d === 0) return '0';
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  if (Number.isNaN(d)) return 'nan';
  let digits: string;
  let exp: number;
  const full = d.toExponential(100);
  const neg = full.charCodeAt(0) === 45;
  const body = neg ? full.slice(1) : full;
  const ePos = body.indexOf('e');
  const all = body[0] + body.slice(2, ePos);
  exp = Number(body.slice(ePos + 1));
  // JS rounds exact halves away from zero; printf rounds them to even.
  let tie = all[17] === '5';
  for (let i = 18; tie && i < all.length; i++) if (all[i] !== '0') tie = false;
  if (tie) {
    digits = all.slice(0, 17);
    if ((digits.charCodeAt(16) - 48) % 2 === 1) {
      const bumped = (BigInt(digits) + 1n).toString();
      if (bumped.length > 17) {
        digits = bumped.slice(0, 17);
        exp++;
      } else digits = bumped;
    }
  } else {
    const e = Math.abs(d).toExponential(16);
    const p = e.indexOf('e');
    digits = e[0] + e.slice(2, p);
    exp = Number(e.slice(p + 1));
  }
  let out: string;
  if (exp < -4 || exp >= 17) {
    let m = digits[0] + '.' + digits.slice(1);
    m = trimFraction(m);
    const ae = Math.abs(exp);
    out = m + 'e' + (exp < 0 ? '-' : '+') + (ae < 10 ? '0' + ae : String(ae));
  } else if (exp >= 0) {
    out = trimFraction(digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1));
  } else {
    out = trimFraction('0.' + '0'.repeat(-exp - 1) + digits);
  }
  return neg ? '-' + out : out;
}

function trimFraction(s: string): string {
  if (s.indexOf('.') < 0) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
}
