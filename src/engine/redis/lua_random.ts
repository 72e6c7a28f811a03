/**
 * Redis's own PRNG for math.random (rand.c: the classic 48-bit lrand48 linear congruential
 * generator). Redis 7.0 never reseeds it between scripts: the sequence starts from rand48's
 * built-in state when the server starts and continues across EVALs, and math.randomseed(n) sets it
 * like srand48(n). Reproducing it exactly makes `math.random` answer what a real node answers.
 */
// multiplier 0x5DEECE66D split as A_HI * 2^24 + A_LO
const A_HI = 0x5de;
const A_LO = 0xece66d;
const C = 0xb;
const TWO24 = 0x1000000;

export const REDIS_LRAND48_MAX = 2147483647;

export class Rand48 {
  // the 48-bit state as two 24-bit halves, so all arithmetic stays exact in doubles
  private hi: number;
  private lo: number;

  /** seed undefined = rand48's initial state 0x1234ABCD330E (what a fresh redis-server has) */
  constructor(seed?: number) {
    this.hi = 0x1234ab;
    this.lo = 0xcd330e;
    if (seed !== undefined) this.seed(seed);
  }

  /** srand48: state = seed(32 bits) << 16 | 0x330E */
  seed(seed: number): void {
    const s = seed >>> 0;
    this.hi = s >>> 8;
    this.lo = ((s & 0xff) << 16) | 0x330e;
  }

  /** lrand48: advance, return the top 31 bits */
  next(): number {
    // (hi*2^24 + lo) * (A_HI*2^24 + A_LO) + C mod 2^48; every product stays below 2^53
    const loProd = this.lo * A_LO + C;
    const loPart = loProd % TWO24;
    const carry = Math.floor(loProd / TWO24);
    const hiPart = (this.hi * A_LO + this.lo * A_HI + carry) % TWO24;
    this.hi = hiPart;
    this.lo = loPart;
    // top 31 bits of 48: hi (24 bits) << 7 | lo >> 17
    return this.hi * 128 + (this.lo >>> 17);
  }

  /** [0,1) as redis_math_random computes it */
  nextDouble(): number {
    return (this.next() % REDIS_LRAND48_MAX) / REDIS_LRAND48_MAX;
  }
}
