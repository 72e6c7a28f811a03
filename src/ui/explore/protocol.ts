/**
 * Messages between the page and the search shards (explore/shard.ts, run in instances of the engine worker, worker.ts). Plain data only. One
 * worker per shard: shard k of n runs the variants whose index is ≡ k (mod n), so together they
 * cover the same indices as one sequential search and the lowest violating index is the answer.
 */
import type { Change } from '../../engine/explore';
import type { Fault } from '../../engine/scenario/schema';
import type { Violation } from '../../engine/trace/types';

export interface SearchOptions {
  /** how many schedules (variant indices 0 … budget-1) */
  budget: number;
  seed: number;
  /** fault kinds the search may add */
  faults: string[];
  /** the violation kinds that count (default all): a lesson's task may leave some out */
  violations?: string[];
}

export type ToWorker =
  /** shard 0 plans (runs the base once) and sends the plan back for the other shards */
  | { type: 'plan'; scenario: unknown; options: SearchOptions }
  | { type: 'search'; plan: unknown; shard: number; shards: number; budget: number }
  /** another shard found index `index`: indices above it can no longer be the answer */
  | { type: 'bound'; index: number }
  | { type: 'shrink'; plan: unknown; index: number };

export interface Hit {
  index: number;
  violation: Violation;
}

export interface ShrinkOutcome {
  /** the minimal counterexample: the user's document plus the changes (no defaults written in) */
  scenario: unknown;
  violation: Violation;
  /** simplifications shrinking kept */
  steps: number;
  /** what the minimal scenario changes in the base: the diff the panel lists */
  changes: Change[];
  /** how many changes the first violating schedule had, before shrinking */
  firstChanges: number;
  /** indices in the counterexample's faults of the ones the search added or moved */
  marked: number[];
  /** the base's faults and replica lags, to say what a move or a lag change was before */
  baseFaults: Fault[];
  baseReplicas: number[];
}

/** What a search draws its schedules from: said in full when it finds nothing. */
export interface SearchScope {
  /** kinds of change that apply to this scenario */
  kinds: string[];
  /** kinds asked for that cannot apply (no replica lag without replicas, …) */
  inapplicable: string[];
  maxChanges: number;
  /** fault times are drawn in [0, horizon] ms */
  horizon: number;
  /** how many interesting moments of the base run fault times are drawn at */
  moments: number;
  /** the times durations are drawn around, ms */
  scales: number[];
  /** violations the base run already has (not counted) */
  baseViolations: number;
}

export type FromWorker =
  | { type: 'plan'; plan: unknown; scope: SearchScope }
  | { type: 'progress'; tried: number; hits: number }
  | { type: 'done'; tried: number; hit: Hit | null }
  | { type: 'shrunk'; result: ShrinkOutcome }
  | { type: 'error'; message: string };
