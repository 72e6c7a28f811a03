import { scaleLinear as d3Linear } from 'd3-scale';
import { zoom as d3zoom, zoomIdentity as d3Identity, type ZoomTransform as D3Transform } from 'd3-zoom';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaleLinear } from './linear-scale';
import { anchored, constrain, rescaleX, wheelDelta, zoomIdentity, type ZoomTransform } from './pan-zoom';

// The timeline's gestures replaced d3-zoom (docs/performance.md, "fourth pass: bytes"): its
// arithmetic must stay d3-zoom's, so a wheel, a drag or a link's window lands where it did.
const d3 = (t: ZoomTransform): D3Transform => d3Identity.translate(t.x, t.y).scale(t.k);
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);
const transform = fc.record({
  k: fc.double({ min: 1, max: 5000, noNaN: true }),
  x: fc.double({ min: -1e6, max: 1e3, noNaN: true }),
  y: fc.double({ min: -1e5, max: 1e3, noNaN: true }),
});

describe('pan-zoom keeps d3-zoom 3.0’s arithmetic', () => {
  it('rescaleX: the same domain as ZoomTransform.rescaleX', () => {
    fc.assert(
      fc.property(transform, fc.integer({ min: 200, max: 3000 }), (t, w) => {
        const ours = rescaleX(scaleLinear([0, 12_345], [6, w - 10]), t).domain();
        const theirs = d3(t)
          .rescaleX(d3Linear([0, 12_345], [6, w - 10]))
          .domain();
        close(ours[0], theirs[0]);
        close(ours[1], theirs[1]);
      }),
    );
    expect(rescaleX(scaleLinear().domain([0, 10]).range([0, 100]), zoomIdentity).domain()).toEqual([0, 10]);
  });

  it('constrain: d3-zoom’s default constraint with extent and translate extent [[0, 0], [w, h]]', () => {
    const theirs = d3zoom().constrain();
    fc.assert(
      fc.property(
        transform,
        fc.integer({ min: 200, max: 3000 }),
        fc.integer({ min: 50, max: 5000 }),
        (t, w, h) => {
          const e: [[number, number], [number, number]] = [
            [0, 0],
            [w, h],
          ];
          const a = constrain(t, w, h);
          const b = theirs(d3(t), e, e);
          close(a.k, b.k);
          close(a.x / w, b.x / w);
          close(a.y / h, b.y / h);
        },
      ),
    );
  });

  it('a wheel step and an anchored zoom: d3-zoom’s wheelDelta, scale and translate', () => {
    const theirs = d3zoom().wheelDelta();
    for (const ev of [
      { deltaY: 60, deltaMode: 0, ctrlKey: false },
      { deltaY: -60, deltaMode: 0, ctrlKey: true },
      { deltaY: 3, deltaMode: 1, ctrlKey: false },
      { deltaY: -1, deltaMode: 2, ctrlKey: false },
    ])
      expect(wheelDelta(ev)).toBeCloseTo(
        (theirs as unknown as (e: WheelEvent) => number)(ev as WheelEvent),
        12,
      );
    // zoom ×2 around pixel 300 of a view panned by -100 at k 1.5: the plot point stays at 300
    const t = { k: 1.5, x: -100, y: 0 };
    const l = [(300 - t.x) / t.k, 0] as const;
    const z = anchored(t, 3, [300, 0], l, [1, 5000]);
    expect(z).toEqual({ k: 3, x: 300 - l[0] * 3, y: 0 });
    expect(anchored(t, 9000, [300, 0], l, [1, 5000]).k).toBe(5000);
    expect(anchored(t, 0.5, [300, 0], l, [1, 5000]).k).toBe(1);
  });
});
