/**
 * Test-only helpers of the built-ins' tests: run one by id, and check a moment's time with the few
 * ms of slack round trips take at the default 1 ms latency.
 */
import { expect } from 'vitest';
import { simulate, type Simulation } from '../../redisson/testing/simulate';
import type { TraceEvent } from '../../trace/types';
import { builtin } from '../builtins/index';

export function sim(id: string): Simulation {
  const b = builtin(id);
  if (!b) throw new Error(`no built-in ${id}`);
  return simulate(b.scenario);
}

/** An event's time; NaN when there is none, so any time check on it fails. */
export const at = (e: TraceEvent | undefined) => e?.t ?? NaN;

export function within(t: number, lo: number, hi: number): void {
  expect(t).toBeGreaterThanOrEqual(lo);
  expect(t).toBeLessThanOrEqual(hi);
}

/** `t` is `expected` or up to `slack` ms later. */
export const near = (t: number, expected: number, slack = 5) => within(t, expected, expected + slack);
