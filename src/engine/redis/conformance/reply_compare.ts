/**
 * Structural comparison of two Reply values (real server vs simulator) for the property test,
 * and a redis-cli style transcript of a command sequence for its counter-examples.
 */
import type { Reply } from '../reply';
import { quoteArg } from './corpus';

export interface CompareOptions {
  /** integers may differ by this much */
  tolerance?: number;
  /** compare a top-level array as a multiset */
  unordered?: boolean;
  /** options for each element of a top-level array (EXEC: one per queued command) */
  elements?: readonly CompareOptions[];
  /** a bulk "-0" from the simulator stands for Redis's "0" (known difference lua-float-mod-negative-zero) */
  negativeZeroMod?: boolean;
}

function sortKey(r: Reply): string {
  return JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

export function repliesMatch(real: Reply, sim: Reply, opts: CompareOptions = {}): boolean {
  if (real.t !== sim.t) return false;
  switch (real.t) {
    case 'int': {
      const a = real.v;
      const b = (sim as typeof real).v;
      if (a === b) return true;
      if (typeof a === 'bigint' || typeof b === 'bigint') return BigInt(a) === BigInt(b);
      return opts.tolerance !== undefined && Math.abs(a - b) <= opts.tolerance;
    }
    case 'array': {
      let a = real.v;
      let b = (sim as typeof real).v;
      if (a === null || b === null) return a === b;
      if (a.length !== b.length) return false;
      if (opts.unordered) {
        a = [...a].sort((x, y) => sortKey(x).localeCompare(sortKey(y)));
        b = [...b].sort((x, y) => sortKey(x).localeCompare(sortKey(y)));
      }
      const inner = { tolerance: opts.tolerance };
      return a.every((item, i) => repliesMatch(item, b[i], opts.elements?.[i] ?? inner));
    }
    case 'bulk': {
      const b = (sim as typeof real).v;
      if (real.v === b) return true;
      return opts.negativeZeroMod === true && real.v === '0' && b === '-0';
    }
    default:
      return real.v === (sim as typeof real).v;
  }
}

/** One command as typed at the redis-cli prompt. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ');
}
