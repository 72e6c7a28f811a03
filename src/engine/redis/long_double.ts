/**
 * The x87 80-bit `long double` Redis uses for INCRBYFLOAT and HINCRBYFLOAT (util.c `string2ld`,
 * `ld2string` with LD_STR_HUMAN). JS has no such type, so values are kept exactly as
 * m * 2^e with a 64-bit significand and every result is rounded to nearest-even like the FPU
 * does: "0.1" + "0.2" must print "0.3" here as it does on Redis, not 0.30000000000000004.
 */
export type LongDouble =
  | { readonly inf: false; readonly neg: boolean; readonly m: bigint; readonly e: number }
  | { readonly inf: true; readonly neg: boolean };

const TWO63 = 1n << 63n;
const TWO64 = 1n << 64n;
// Beyond these decimal exponents an 80-bit value overflows (ERANGE, rejected) or underflows to 0.
const MAX_DEC_EXP = 4933;
const MIN_DEC_EXP = -4952;
const MAX_BIN_EXP = 16384;
const MAX_CHARS = 5 * 1024; // MAX_LONG_DOUBLE_CHARS

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;
const INFINITY = /^([+-]?)(?:inf|infinity)$/i;

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Rounds num/den (both > 0) to a 64-bit significand, ties to even; null on overflow. */
function fromRational(neg: boolean, num: bigint, den: bigint): LongDouble | null {
  if (num === 0n) return { inf: false, neg: false, m: 0n, e: 0 };
  let e = bitLength(num) - bitLength(den) - 64;
  let q: bigint;
  let r: bigint;
  let d: bigint;
  for (;;) {
    const n = e >= 0 ? num : num << BigInt(-e);
    d = e >= 0 ? den << BigInt(e) : den;
    q = n / d;
    r = n - q * d;
    if (q >= TWO64) e++;
    else if (q < TWO63) e--;
    else break;
  }
  const twice = r * 2n;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q++;
  if (q === TWO64) {
    q = TWO63;
    e++;
  }
  if (e + 64 > MAX_BIN_EXP) return null;
  return { inf: false, neg, m: q, e };
}

/** util.c `string2ld`: strtold over the whole string; NaN, overflow and underflow-to-zero refused. */
export function parseLongDouble(s: string): LongDouble | null {
  if (s.length === 0 || s.length >= MAX_CHARS) return null;
  const dec = DECIMAL.exec(s);
  if (dec) {
    const intPart = dec[2];
    const frac = dec[3] ?? '';
    if (intPart.length === 0 && frac.length === 0) return null;
    const neg = dec[1] === '-';
    const digits = BigInt((intPart + frac).replace(/^0+/, '') || '0');
    if (digits === 0n) return { inf: false, neg, m: 0n, e: 0 };
    const exp10 = Number(dec[4] ?? '0') - frac.length;
    const magnitude = exp10 + (intPart + frac).replace(/^0+/, '').length;
    if (magnitude > MAX_DEC_EXP) return null;
    if (magnitude < MIN_DEC_EXP) return null;
    return exp10 >= 0
      ? fromRational(neg, digits * 10n ** BigInt(exp10), 1n)
      : fromRational(neg, digits, 10n ** BigInt(-exp10));
  }
  const inf = INFINITY.exec(s);
  if (inf) return { inf: true, neg: inf[1] === '-' };
  const hex = HEX.exec(s);
  if (hex) {
    const intPart = hex[2];
    const frac = hex[3] ?? '';
    if (intPart.length === 0 && frac.length === 0) return null;
    const digits = BigInt('0x' + (intPart + frac || '0'));
    const exp2 = Number(hex[4] ?? '0') - 4 * frac.length;
    if (digits === 0n) return { inf: false, neg: hex[1] === '-', m: 0n, e: 0 };
    return exp2 >= 0
      ? fromRational(hex[1] === '-', digits << BigInt(exp2), 1n)
      : fromRational(hex[1] === '-', digits, 1n << BigInt(-exp2));
  }
  return null;
}

/** a + b rounded like the FPU; null for NaN (inf - inf). Overflow gives infinity. */
export function addLongDouble(a: LongDouble, b: LongDouble): LongDouble | null {
  if (a.inf || b.inf) {
    if (a.inf && b.inf && a.neg !== b.neg) return null;
    return a.inf ? a : b;
  }
  const e = Math.min(a.e, b.e);
  const sa = (a.neg ? -a.m : a.m) << BigInt(a.e - e);
  const sb = (b.neg ? -b.m : b.m) << BigInt(b.e - e);
  const sum = sa + sb;
  if (sum === 0n) return { inf: false, neg: false, m: 0n, e: 0 };
  const neg = sum < 0n;
  const mag = neg ? -sum : sum;
  const r = e >= 0 ? fromRational(neg, mag << BigInt(e), 1n) : fromRational(neg, mag, 1n << BigInt(-e));
  return r ?? { inf: true, neg };
}

export function isInfinite(v: LongDouble): boolean {
  return v.inf;
}

/** ld2string(LD_STR_HUMAN): "%.17Lf" with trailing zeros (and a bare '.') removed, "-0" as "0". */
export function formatLongDouble(v: LongDouble): string {
  if (v.inf) return v.neg ? '-inf' : 'inf';
  const SCALE = 10n ** 17n;
  let q: bigint;
  if (v.e >= 0) q = (v.m << BigInt(v.e)) * SCALE;
  else {
    const num = v.m * SCALE;
    const den = 1n << BigInt(-v.e);
    q = num / den;
    const twice = (num - q * den) * 2n;
    if (twice > den || (twice === den && (q & 1n) === 1n)) q++;
  }
  if (q === 0n) return '0';
  const digits = q.toString().padStart(18, '0');
  let out = digits.slice(0, -17) + '.' + digits.slice(-17);
  let end = out.length;
  while (out.charCodeAt(end - 1) === 48) end--;
  if (out.charCodeAt(end - 1) === 46) end--;
  out = out.slice(0, end);
  return v.neg ? '-' + out : out;
}
