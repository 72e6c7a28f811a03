import { bisector } from 'd3-array';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../engine/trace/types';
import { clampIndex, indexAtTime } from './cursor-index';

describe('cursor-index', () => {
  it('lands a virtual time on the last event at or before it, as d3-array bisector.right - 1', () => {
    const right = bisector((e: TraceEvent) => e.t).right;
    // times with runs of equal values, as a trace has many events in one ms
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 40; n++) {
      let t = 0;
      const events = Array.from(
        { length: n },
        (_, i) =>
          ({ t: (t += rand() < 0.5 ? 0 : 1 + Math.floor(rand() * 3)), seq: i }) as unknown as TraceEvent,
      );
      for (let q = -2; q <= t + 2; q += 0.5)
        expect(indexAtTime({ events }, q), `${n} ${q}`).toBe(right(events, q) - 1);
    }
  });

  it('clamps a cursor to -1 .. the last event, rounded', () => {
    expect(clampIndex(10, 99)).toBe(9);
    expect(clampIndex(10, -5)).toBe(-1);
    expect(clampIndex(10, 2.6)).toBe(3);
    expect(clampIndex(0, 3)).toBe(-1);
  });
});
