/**
 * The sequential search the CLI and the tests call: plan, try variants until a violation (or
 * `collect` distinct ones), shrink the first, and say what was tried.
 */
import type { Fault, Scenario } from '../scenario/schema';
import type { Violation, ViolationKind } from '../trace/types';
import { planSearch, type Change, type ExploreFaultKind, type SearchOptions, type SearchPlan } from './plan';
import { searchRange, type Hit } from './search';
import { shrink } from './shrink';

export interface ExploreOptions extends SearchOptions {
  /** schedules to try at most (default 1000) */
  budget?: number;
  /** distinct violations (by kind and lock) to collect before stopping (default 1); the first is shrunk */
  collect?: number;
  /**
   * A wall clock in ms, passed in by the caller (the CLI, the bench, the page's worker) for
   * `perSec` and the timings. The engine reads no clock of its own; without this one those
   * figures are null and the report is a pure function of its input.
   */
  clock?: () => number;
}

/** What a search tried: enough to repeat it, and to say what was not tried. */
export interface Explored {
  schedules: number;
  budget: number;
  seed: number;
  /** kinds of change the schedules drew from (each schedule enables a random subset) */
  faultKinds: ExploreFaultKind[];
  /** kinds asked for that cannot apply to this scenario (no replicas: no replica lag, …) */
  inapplicable: ExploreFaultKind[];
  violationKinds: ViolationKind[];
  changesPerSchedule: [number, number];
  /** fault times were drawn in [from, to] ms, `moments` of them at interesting times of the base run */
  times: { from: number; to: number; moments: number };
  /** the times durations were drawn around (leases, timeouts, down-after + failover), ms */
  scales: number[];
  /** violations the base run already has (not counted as found) */
  baseViolations: Violation[];
  /** one sentence a person can read; never claims the scenario is safe */
  summary: string;
}

export interface ExploreReport {
  tried: number;
  /** schedules per second of wall time (null without `clock`) */
  perSec: number | null;
  /** the minimal scenario that breaks, or null */
  found: Scenario | null;
  violation: Violation | null;
  shrinkSteps: number;
  explored: Explored;
  /** the variant index the violation was found at */
  foundAt: number | null;
  /** the faults the minimal scenario adds to the base's (what the page marks) */
  added: Fault[];
  /** the base's faults the minimal scenario moved: index into base.faults, old and new time */
  moved: { index: number; from: number; to: number }[];
  /** replica lags the minimal scenario changed */
  lags: { replica: number; from: number; to: number }[];
  /** what shrinking took away, step by step */
  removed: string[];
  /** with `collect` > 1: every distinct violation found (unshrunk), by variant index */
  violations: { index: number; violation: Violation }[];
  /** wall ms spent searching and shrinking (null without `clock`) */
  searchMs: number | null;
  shrinkMs: number | null;
}

export function explore(base: Scenario, opts: ExploreOptions = {}): ExploreReport {
  const clock = opts.clock;
  const t0 = clock?.() ?? 0;
  const plan = planSearch(base, opts);
  const budget = Math.max(0, opts.budget ?? 1000);
  const range = searchRange(plan, { to: budget, collect: opts.collect ?? 1 });
  const t1 = clock?.() ?? 0;
  const first: Hit | undefined = range.hits[0];
  const explored = describeSearch(plan, budget, range.tried, first !== undefined);
  const report: ExploreReport = {
    tried: range.tried,
    perSec: clock === undefined ? null : Math.round(range.tried / Math.max(1e-3, (t1 - t0) / 1000)),
    found: null,
    violation: null,
    shrinkSteps: 0,
    explored,
    foundAt: null,
    added: [],
    moved: [],
    lags: [],
    removed: [],
    violations: range.hits.map((h) => ({ index: h.index, violation: h.violation })),
    searchMs: clock === undefined ? null : Math.round(t1 - t0),
    shrinkMs: null,
  };
  if (first === undefined) return report;
  const s = shrink(plan, first.variant, first.violation);
  const t2 = clock?.() ?? 0;
  return {
    ...report,
    found: s.scenario,
    violation: s.violation,
    shrinkSteps: s.steps,
    foundAt: first.index,
    ...diffOf(plan, s.changes),
    removed: s.removed,
    shrinkMs: clock === undefined ? null : Math.round(t2 - t1),
  };
}

/** What a change list does to the base, as the report lists it. */
export function diffOf(
  plan: Pick<SearchPlan, 'base'>,
  changes: readonly Change[],
): Pick<ExploreReport, 'added' | 'moved' | 'lags'> {
  const added: Fault[] = [];
  const moved: ExploreReport['moved'] = [];
  const lags: ExploreReport['lags'] = [];
  for (const c of changes) {
    if (c.kind === 'add') added.push(c.fault);
    else if (c.kind === 'move') moved.push({ index: c.index, from: plan.base.faults[c.index].at, to: c.at });
    else lags.push({ replica: c.replica, from: plan.base.redis.replicas[c.replica - 1].lagMs, to: c.lagMs });
  }
  return { added, moved, lags };
}

export function describeSearch(plan: SearchPlan, budget: number, tried: number, found: boolean): Explored {
  const times = { from: 0, to: plan.horizon, moments: plan.moments.length };
  const kinds = plan.kinds.length === 0 ? 'no applicable kind of change' : plan.kinds.join(', ');
  const summary = found
    ? `Found after ${tried} schedule(s) of ${kinds} (search seed ${plan.seed}).`
    : plan.kinds.length === 0
      ? `Nothing tried: none of the allowed kinds of change applies to this scenario.`
      : `No ${plan.violations.join('/')} violation in ${tried} schedule(s) of 1 to ${plan.maxChanges} ` +
        `change(s) drawn from ${kinds}, at times in ${times.from}…${times.to} ms (${times.moments} ` +
        `interesting moments of the base run), durations around ${plan.scales.join(', ')} ms ` +
        `(search seed ${plan.seed}). Other schedules, seeds or kinds of fault may still break it.`;
  return {
    schedules: tried,
    budget,
    seed: plan.seed,
    faultKinds: plan.kinds,
    inapplicable: plan.inapplicable,
    violationKinds: plan.violations,
    changesPerSchedule: [1, plan.maxChanges],
    times,
    scales: plan.scales,
    baseViolations: plan.baseViolations,
    summary,
  };
}
