import { scaleLinear as d3Linear } from 'd3-scale';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaleLinear } from './linear-scale';

// The page's linear scale replaced d3-scale's (docs/performance.md, "fourth pass: bytes"): every
// pixel, inverted time and tick must be d3-scale 4.0's, exactly, so the drawing does not move.
const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

describe('scaleLinear is d3-scale’s, bit for bit', () => {
  it('maps, inverts and ticks as d3-scale does', () => {
    fc.assert(
      fc.property(
        // times in ms (d3-array's ticks themselves fail on subnormal spans)
        fc
          .tuple(fc.integer({ min: -8e6, max: 8e6 }), fc.integer({ min: -8e6, max: 8e6 }))
          .map(([a, b]) => [a / 8, b / 8]),
        fc.tuple(finite(-5e3, 5e3), finite(-5e3, 5e3)),
        fc.array(finite(-2e6, 2e6), { maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        (domain, range, values, count) => {
          const ours = scaleLinear().domain(domain).range(range);
          const theirs = d3Linear().domain(domain).range(range);
          for (const v of values) {
            expect(Object.is(ours(v), theirs(v)) || ours(v) === theirs(v)).toBe(true);
            expect(Object.is(ours.invert(v), theirs.invert(v)) || ours.invert(v) === theirs.invert(v)).toBe(
              true,
            );
          }
          expect(ours.ticks(count)).toEqual(theirs.ticks(count));
          expect(ours.ticks()).toEqual(theirs.ticks());
          expect(ours.domain()).toEqual(theirs.domain());
          expect(ours.range()).toEqual(theirs.range());
        },
      ),
    );
  });

  it('copy is independent, and an empty domain maps to the middle of the range', () => {
    const a = scaleLinear().domain([0, 100]).range([6, 790]);
    const b = a.copy().domain([50, 60]);
    expect(a(50)).toBe(d3Linear().domain([0, 100]).range([6, 790])(50));
    expect(b(55)).toBe(d3Linear().domain([50, 60]).range([6, 790])(55));
    expect(scaleLinear().domain([3, 3]).range([0, 10])(3)).toBe(d3Linear().domain([3, 3]).range([0, 10])(3));
  });
});
