/**
 * Violation search with shrinking (issue 12; docs/explore.md): try fault schedules on a scenario,
 * stop at the first violation, shrink it to a 1-minimal schedule. TigerBeetle's VOPR and Jepsen
 * are the models: swarm testing (each schedule enables a random subset of the allowed fault
 * kinds), faults at the interesting moments of the base run, durations around the scenario's own
 * leases and timeouts. Everything is a pure function of its inputs: randomness comes only from
 * the search seed (sim/prng.ts), and wall time only from a clock the caller passes.
 *
 * The API (stable: the page's worker and the CLI build on it):
 *
 *   planSearch(base: Scenario, opts?: SearchOptions): SearchPlan
 *       Runs the base once and returns what variant generation needs. Plain data: post it to
 *       workers. SearchOptions = { seed?, faults?: ExploreFaultKind[], violations?: ViolationKind[],
 *       maxChanges? }.
 *   variantAt(plan, i): Variant                  { index, changes: Change[] }, pure in (plan, i)
 *   applyChanges(plan.base, changes): Scenario   the variant as a scenario
 *   runVariant(plan, i): { variant, violation: Violation | null }
 *   searchRange(plan, { from?, to, stride?, collect?, shouldStop?(i), onProgress?(tried, hits),
 *       progressEvery? }): { tried, hits: Hit[], next }
 *       Shard k of n: { from: k, stride: n }. The lowest `hits[0].index` over all shards is what
 *       a sequential search finds; a shard may stop once `shouldStop(i)` says another shard
 *       already found an index below i.
 *   shrink(plan, variant, violation, opts?): { scenario, changes, violation, steps, runs, removed[] }
 *   explore(base, opts?: ExploreOptions): ExploreReport   sequential: plan, search, shrink
 *       ExploreOptions = SearchOptions & { budget?, collect?, clock?: () => number }
 *   diffOf(plan, changes): { added, moved, lags }  what a schedule changes, for the page's diff
 *   describeChange(plan, change), describeFault(fault): one line of English each
 *
 * ExploreReport's JSON is the issue's: { tried, perSec, found, violation, shrinkSteps, explored }
 * plus foundAt, added, moved, lags, removed, violations, searchMs, shrinkMs.
 *
 * A variant only counts a violation whose kind is asked for and that the base run does not
 * already show (same kind, lock and holders: `baseKey`).
 */
export {
  EXPLORE_FAULT_KINDS,
  VIOLATION_KINDS,
  applyChanges,
  baseKey,
  clampTime,
  momentsOf,
  planSearch,
  variantAt,
  violationKey,
  type Change,
  type ExploreFaultKind,
  type Moment,
  type SearchOptions,
  type SearchPlan,
  type Variant,
} from './plan';
export {
  changesViolation,
  counts,
  firstViolation,
  runVariant,
  searchRange,
  type Hit,
  type RangeOptions,
  type RangeResult,
} from './search';
export {
  describeChange,
  describeFault,
  shrink,
  simplifications,
  type ShrinkOptions,
  type ShrinkResult,
  type Simplification,
} from './shrink';
export {
  describeSearch,
  diffOf,
  explore,
  type ExploreOptions,
  type ExploreReport,
  type Explored,
} from './explore';
