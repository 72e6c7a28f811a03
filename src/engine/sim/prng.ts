/**
 * Seeded randomness. Every random draw of a run comes from a generator derived from the scenario
 * seed and a purpose string ("A/uuid", "master/lua", ...), so adding a draw for one purpose never
 * shifts the numbers another purpose sees, and a seed replays the whole run.
 *
 * xoshiro128** (Blackman & Vigna) seeded through splitmix32 from a 32-bit FNV-1a hash: small,
 * fast with 32-bit integer ops, and identical in every JS engine.
 */
import type { Prng } from './api';

/** 32-bit FNV-1a over the UTF-16 code units of `s`. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

const HEX = '0123456789abcdef';

export class Xoshiro128 implements Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const st = { s: seed | 0 };
    this.a = splitmix32(st);
    this.b = splitmix32(st);
    this.c = splitmix32(st);
    this.d = splitmix32(st);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next 32-bit unsigned integer. */
  nextU32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }

  next(): number {
    return this.nextU32() / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++) {
      const b = this.nextU32() & 0xff;
      s += HEX[b >>> 4] + HEX[b & 15];
    }
    return s;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** The generator for one purpose of a run with this seed. */
export function prngFor(seed: number, purpose: string): Xoshiro128 {
  // Seeds above 2^32 still matter: fold the high part into the hashed text.
  return new Xoshiro128(hash32(`${seed}\u0000${purpose}`));
}
