import { describe, expect, it } from 'vitest';
import { Rand48 } from './lua_random';

describe('Rand48 (Redis math.random)', () => {
  it('starts where a fresh redis-server 7.0.15 starts', () => {
    // EVAL "return {math.random(1000000), math.random(1000000)}" 0, twice, on a fresh server
    const r = new Rand48();
    const draw = () => Math.floor(r.nextDouble() * 1000000) + 1;
    expect([draw(), draw(), draw()]).toEqual([396465, 840486, 353337]);
  });

  it('reseeds like srand48 (math.randomseed(42); math.random(1000) is 745 on Redis)', () => {
    expect(Math.floor(new Rand48(42).nextDouble() * 1000) + 1).toBe(745);
  });

  it('is the 48-bit LCG a = 0x5DEECE66D, c = 0xB', () => {
    let x = 0x1234abcd330en;
    const r = new Rand48();
    for (let i = 0; i < 5000; i++) {
      x = (0x5deece66dn * x + 0xbn) & ((1n << 48n) - 1n);
      expect(r.next()).toBe(Number(x >> 17n));
    }
  });
});
