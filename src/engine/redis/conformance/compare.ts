/**
 * Compares what real redis-cli printed for one corpus entry with what the simulator printed.
 * Exact by default; an entry's markers (corpus.ts) loosen exactly one thing each.
 */
import type { EntryMarkers } from './corpus';

// An integer reply line in either mode: "(integer) 42" (tty, possibly after "3) " prefixes) or a
// bare "42" (raw). Only these lines may differ under `tolerance`.
const INT_LINE = /^(.*?)(?:\(integer\) )?(-?\d+)$/;

function withinTolerance(real: string, sim: string, tolerance: number): boolean {
  const a = INT_LINE.exec(real);
  const b = INT_LINE.exec(sim);
  if (!a || !b) return false;
  const intA = real.slice(a[1].length).startsWith('(integer) ');
  const intB = sim.slice(b[1].length).startsWith('(integer) ');
  if (a[1] !== b[1] || intA !== intB) return false;
  return Math.abs(Number(a[2]) - Number(b[2])) <= tolerance;
}

// "12) " array index prefixes of a flat array; removed before comparing as a set.
function stripIndex(line: string): string {
  return line.replace(/^\s*\d+\) /, '');
}

export function outputsMatch(real: string, sim: string, markers: EntryMarkers): boolean {
  if (real === sim) return true;
  let a = real.split('\n');
  let b = sim.split('\n');
  if (a.length !== b.length) return false;
  if (markers.sort) {
    a = a.map(stripIndex).sort();
    b = b.map(stripIndex).sort();
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (markers.tolerance !== undefined && withinTolerance(a[i], b[i], markers.tolerance)) continue;
    return false;
  }
  return true;
}
