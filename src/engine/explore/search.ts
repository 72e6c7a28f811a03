/**
 * Running variants: one schedule is one full run of the variant scenario, stopped at the first
 * violation that counts. `searchRange` walks indices from, from + stride, … so shards of a
 * parallel search (shard k of n: from k, stride n) together try exactly what a sequential
 * search tries, and the lowest violating index they find is the sequential answer.
 */
import { runScenario } from '../scenario/run';
import type { Scenario } from '../scenario/schema';
import type { Violation } from '../trace/types';
import {
  applyChanges,
  baseKey,
  variantAt,
  violationKey,
  type Change,
  type SearchPlan,
  type Variant,
} from './plan';

/** Does this violation count: a kind the search looks for, not already in the base run? */
export function counts(plan: SearchPlan, v: Violation): boolean {
  return plan.violations.includes(v.kind) && !plan.baseKeys.includes(baseKey(v));
}

/**
 * Runs a scenario and returns its first violation that counts (and that `want` accepts, when
 * given), or null.
 */
export function firstViolation(
  plan: SearchPlan,
  scenario: Scenario,
  want?: (v: Violation) => boolean,
): Violation | null {
  let found: Violation | null = null;
  runScenario(scenario, {
    stopAt: (v) => {
      if (found === null && counts(plan, v) && (want === undefined || want(v)))
        found = { ...v, holders: v.holders.slice() };
      return found !== null;
    },
  });
  return found;
}

export function changesViolation(
  plan: SearchPlan,
  changes: readonly Change[],
  want?: (v: Violation) => boolean,
): Violation | null {
  return firstViolation(plan, applyChanges(plan.base, changes), want);
}

export function runVariant(plan: SearchPlan, i: number): { variant: Variant; violation: Violation | null } {
  const variant = variantAt(plan, i);
  return { variant, violation: changesViolation(plan, variant.changes) };
}

export interface Hit {
  index: number;
  variant: Variant;
  violation: Violation;
}

export interface RangeOptions {
  from?: number;
  /** exclusive */
  to: number;
  stride?: number;
  /** distinct violations (by kind and lock) to collect before stopping; default 1 */
  collect?: number;
  /** asked before each variant (cancel, or another shard already found a lower index) */
  shouldStop?: (index: number) => boolean;
  /** called every `progressEvery` variants and at the end */
  onProgress?: (tried: number, hits: readonly Hit[]) => void;
  progressEvery?: number;
}

export interface RangeResult {
  tried: number;
  hits: Hit[];
  /** the next index this range would have tried (to resume), or null when it reached `to` */
  next: number | null;
}

export function searchRange(plan: SearchPlan, o: RangeOptions): RangeResult {
  const stride = Math.max(1, o.stride ?? 1);
  const collect = Math.max(1, o.collect ?? 1);
  const every = Math.max(1, o.progressEvery ?? 50);
  const hits: Hit[] = [];
  const keys = new Set<string>();
  let tried = 0;
  let i = o.from ?? 0;
  for (; i < o.to; i += stride) {
    if (hits.length >= collect || o.shouldStop?.(i) === true) break;
    const { variant, violation } = runVariant(plan, i);
    tried++;
    if (violation !== null && !keys.has(violationKey(violation))) {
      keys.add(violationKey(violation));
      hits.push({ index: i, variant, violation });
    }
    if (tried % every === 0) o.onProgress?.(tried, hits);
  }
  o.onProgress?.(tried, hits);
  return { tried, hits, next: i < o.to ? i : null };
}
