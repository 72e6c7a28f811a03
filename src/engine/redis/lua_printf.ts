/**
 * C printf conversions for doubles and 64-bit integers, exactly as glibc prints them: every double
 * is expanded to its exact decimal value and rounded half-to-even, which is what glibc does and what
 * JS's toFixed/toExponential do not (they round ties up: printf("%.0f", 2.5) is "2", (2.5).toFixed(0)
 * is "3"). Used for Lua's tostring (%.14g), redis.call arguments (%.17g) and string.format.
 */

export interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  alt: boolean;
  zero: boolean;
  width: number;
  /** -1 = not given */
  precision: number;
}

export const PLAIN: Spec = {
  minus: false,
  plus: false,
  space: false,
  alt: false,
  zero: false,
  width: 0,
  precision: -1,
};

const view = new DataView(new ArrayBuffer(8));

/** |x| = digits * 10^-scale exactly (x finite). */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (bexp === 0) e2 = -1074;
  else {
    mant |= 1n << 52n;
    e2 = bexp - 1075;
  }
  if (mant === 0n) return { digits: 0n, scale: 0 };
  if (e2 >= 0) return { digits: mant << BigInt(e2), scale: 0 };
  return { digits: mant * 5n ** BigInt(-e2), scale: -e2 };
}

/** n / 10^k rounded half to even. */
function divRound(n: bigint, k: number): bigint {
  if (k <= 0) return n * 10n ** BigInt(-k);
  const d = 10n ** BigInt(k);
  const q = n / d;
  const r = n - q * d;
  const twice = r * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) return q + 1n;
  return q;
}

/** digits of |x| with exactly `prec` decimals (%f body, no sign) */
function fixedBody(x: number, prec: number): string {
  const { digits, scale } = exactDecimal(x);
  const n = divRound(digits, scale - prec);
  let s = n.toString();
  if (prec === 0) return s;
  if (s.length <= prec) s = '0'.repeat(prec - s.length + 1) + s;
  return `${s.slice(0, s.length - prec)}.${s.slice(s.length - prec)}`;
}

/** |x| rounded to p significant digits: the digit string (length p) and the decimal exponent */
function significant(x: number, p: number): { mant: string; exp: number } {
  const { digits, scale } = exactDecimal(x);
  if (digits === 0n) return { mant: '0'.repeat(p), exp: 0 };
  const len = digits.toString().length;
  let exp = len - 1 - scale;
  let n = divRound(digits, len - p);
  if (n.toString().length > p) {
    n /= 10n;
    exp++;
  }
  return { mant: n.toString(), exp };
}

function expBody(x: number, prec: number, upper: boolean, alt: boolean): string {
  const { mant, exp } = significant(x, prec + 1);
  const head = mant[0] + (prec > 0 || alt ? '.' : '') + mant.slice(1);
  const ae = Math.abs(exp);
  return `${head}${upper ? 'E' : 'e'}${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
}

function gBody(x: number, precision: number, upper: boolean, alt: boolean): string {
  const p = precision < 0 ? 6 : precision === 0 ? 1 : precision;
  const exp = x === 0 ? 0 : significant(x, p).exp;
  let body: string;
  if (exp < -4 || exp >= p) body = expBody(x, p - 1, upper, alt);
  else body = fixedBody(x, p - 1 - exp);
  if (!alt && body.includes('.')) {
    const e = body.search(/[eE]/);
    const mant = e < 0 ? body : body.slice(0, e);
    const rest = e < 0 ? '' : body.slice(e);
    body = mant.replace(/\.?0+$/, '') + rest;
  }
  return body;
}

function pad(sign: string, body: string, spec: Spec, zeroAllowed: boolean): string {
  const len = sign.length + body.length;
  if (len >= spec.width) return sign + body;
  const fill = spec.width - len;
  if (spec.minus) return sign + body + ' '.repeat(fill);
  if (spec.zero && zeroAllowed) return sign + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + sign + body;
}

/** %e %E %f %F %g %G of a double */
export function formatDouble(x: number, conv: string, spec: Spec): string {
  const negative = x < 0 || Object.is(x, -0) || (Number.isNaN(x) && conv !== 'F');
  const sign = negative ? '-' : spec.plus ? '+' : spec.space ? ' ' : '';
  const upper = conv === 'E' || conv === 'G' || conv === 'F';
  if (!Number.isFinite(x)) {
    // glibc prints the x86 default NaN (0/0) as "-nan"; the 0 flag does not apply
    const word = Number.isNaN(x) ? 'nan' : 'inf';
    return pad(sign, upper ? word.toUpperCase() : word, spec, false);
  }
  let body: string;
  switch (conv) {
    case 'f':
    case 'F':
      body = fixedBody(x, spec.precision < 0 ? 6 : spec.precision);
      if (spec.alt && !body.includes('.')) body += '.';
      break;
    case 'e':
    case 'E':
      body = expBody(x, spec.precision < 0 ? 6 : spec.precision, upper, spec.alt);
      break;
    default:
      body = gBody(x, spec.precision, upper, spec.alt);
  }
  return pad(sign, body, spec, true);
}

/** %d %i %u %o %x %X of a 64-bit integer (given as bigint, already cast as C would) */
export function formatInteger(v: bigint, conv: string, spec: Spec): string {
  const signed = conv === 'd' || conv === 'i';
  const negative = signed && v < 0n;
  const mag = negative ? -v : v;
  let digits = mag.toString(conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10);
  if (conv === 'X') digits = digits.toUpperCase();
  if (spec.precision === 0 && mag === 0n) digits = '';
  if (spec.precision > digits.length) digits = '0'.repeat(spec.precision - digits.length) + digits;
  let prefix = negative ? '-' : signed && spec.plus ? '+' : signed && spec.space ? ' ' : '';
  if (spec.alt && conv === 'o' && !digits.startsWith('0')) digits = '0' + digits;
  if (spec.alt && (conv === 'x' || conv === 'X') && mag !== 0n) prefix += conv === 'x' ? '0x' : '0X';
  return pad(prefix, digits, spec, spec.precision < 0);
}

/** %s / %c: plain padding (precision cuts %s) */
export function formatText(s: string, spec: Spec): string {
  const body = spec.precision >= 0 ? s.slice(0, spec.precision) : s;
  return pad('', body, spec, false);
}

/** printf("%.<precision>g", x) with glibc's spelling of NaN and infinities. */
export function formatG(x: number, precision: number): string {
  // fast path: integers whose every digit fits the precision print as themselves
  if (Number.isInteger(x) && Math.abs(x) < 1e14 && !Object.is(x, -0)) return String(x);
  return formatDouble(x, 'g', { ...PLAIN, precision });
}

/** C's (long long)x cast on x86-64: truncation, with out-of-range and NaN giving INT64_MIN. */
export function toInt64(x: number): bigint {
  if (!Number.isFinite(x) || x >= 9223372036854775808 || x < -9223372036854775808)
    return -9223372036854775808n;
  return BigInt(Math.trunc(x));
}

/** C's (unsigned long long)x as gcc compiles it on x86-64 (negatives wrap through the signed cast). */
export function toUint64(x: number): bigint {
  if (Number.isFinite(x) && x >= 9223372036854775808 && x < 18446744073709551616)
    return BigInt(Math.trunc(x));
  return BigInt.asUintN(64, toInt64(x));
}
