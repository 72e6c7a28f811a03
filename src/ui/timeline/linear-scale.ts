/**
 * The timeline's time → pixel scale: d3-scale's `scaleLinear` for the numbers-only use the page
 * makes of it (domain, range, invert, copy, ticks), with d3-scale 4.0's arithmetic so every pixel
 * and tick lands where it did. d3-scale itself brings d3-interpolate, d3-color and d3-format
 * (about 8 KB gzip of the first screen) for colours and tick formats the timeline never asks for.
 */
import { ticks } from 'd3-array';

export interface LinearScale {
  (value: number): number;
  domain(): [number, number];
  domain(d: readonly number[]): LinearScale;
  range(): [number, number];
  range(r: readonly number[]): LinearScale;
  invert(px: number): number;
  copy(): LinearScale;
  /** about `count` round values across the domain (d3-array's ticks) */
  ticks(count?: number): number[];
}

/** d3-scale's normalize then d3-interpolate's interpolateNumber, reversed bounds included. */
function map(from: readonly [number, number], to: readonly [number, number]): (v: number) => number {
  let [d0, d1] = from;
  let [r0, r1] = to;
  if (d1 < d0) [d0, d1, r0, r1] = [d1, d0, r1, r0];
  const span = d1 - d0;
  return (v) => {
    const t = span ? (v - d0) / span : Number.isNaN(span) ? NaN : 0.5;
    return r0 * (1 - t) + r1 * t;
  };
}

export function scaleLinear(
  domain: readonly [number, number] = [0, 1],
  range: readonly [number, number] = [0, 1],
): LinearScale {
  const d: [number, number] = [+domain[0], +domain[1]];
  const r: [number, number] = [+range[0], +range[1]];
  let forward = map(d, r);
  let backward = map(r, d);
  const rescale = () => {
    forward = map(d, r);
    backward = map(r, d);
  };
  const scale = ((v: number) => forward(+v)) as LinearScale;
  // domain() and range(): read a copy, or set both ends and re-derive the mappings
  const ends = (pair: [number, number]) =>
    ((next?: readonly number[]) => {
      if (next === undefined) return [pair[0], pair[1]];
      [pair[0], pair[1]] = [+next[0], +next[next.length - 1]];
      rescale();
      return scale;
    }) as LinearScale['domain'];
  scale.domain = ends(d);
  scale.range = ends(r);
  scale.invert = (px) => backward(+px);
  scale.copy = () => scaleLinear(d, r);
  scale.ticks = (count = 10) => ticks(d[0], d[1], count);
  return scale;
}
