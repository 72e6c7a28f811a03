/**
 * One shard of a search (see protocol.ts): plans, searches its indices, shrinks. The search runs
 * in slices of ~50 ms so the message that ends it early (another shard found a lower index) gets
 * in between slices.
 */
import { faultsOf, type ScenarioDoc } from '../../engine/scenario/edit';
import { validate } from '../engine-adapter';
import {
  applyChanges,
  planSearch,
  searchRange,
  shrink,
  variantAt,
  type Change,
  type ExploreFaultKind,
  type SearchPlan,
} from '../engine-adapter-search';
import type { ViolationKind } from '../../engine/trace/types';
import type { FromWorker, SearchScope, ShrinkOutcome, ToWorker } from './protocol';

const SLICE_MS = 50;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The counterexample as the user's own document plus the changes: no defaults written into it. */
function applyToDoc(plan: SearchPlan, base: ScenarioDoc, changes: readonly Change[]): ScenarioDoc {
  const faults = applyChanges({ ...plan.base, faults: [...faultsOf(base)] }, changes).faults;
  const out: ScenarioDoc = { ...structuredClone(base), faults };
  if (changes.some((c) => c.kind === 'lag'))
    out.redis = { ...out.redis, replicas: applyChanges(plan.base, changes).redis.replicas };
  return out;
}

/** Indices (in the counterexample's faults) of the faults the search added or moved. */
function markedOf(base: ScenarioDoc, changes: readonly Change[]): number[] {
  const marked = new Set<number>();
  let added = faultsOf(base).length;
  for (const c of changes) {
    if (c.kind === 'add') marked.add(added++);
    else if (c.kind === 'move') marked.add(c.index);
  }
  return [...marked].sort((a, b) => a - b);
}

function scopeOf(plan: SearchPlan): SearchScope {
  return {
    kinds: plan.kinds,
    inapplicable: plan.inapplicable,
    maxChanges: plan.maxChanges,
    horizon: plan.horizon,
    moments: plan.moments.length,
    scales: plan.scales,
    baseViolations: plan.baseViolations.length,
  };
}

function shrinkAt(plan: SearchPlan, base: ScenarioDoc, index: number): ShrinkOutcome {
  const first = variantAt(plan, index);
  const hit = searchRange(plan, { from: index, to: index + 1 }).hits[0];
  if (!hit) throw new Error(`schedule ${index} no longer breaks`);
  const r = shrink(plan, first, hit.violation);
  return {
    scenario: applyToDoc(plan, base, r.changes),
    violation: r.violation,
    steps: r.steps,
    changes: r.changes,
    firstChanges: first.changes.length,
    marked: markedOf(base, r.changes),
    baseFaults: plan.base.faults,
    baseReplicas: plan.base.redis.replicas.map((x) => x.lagMs),
  };
}

/**
 * The handler of one search worker; `post` sends to the page. The tests run it in-process with
 * the same messages.
 */
export function createShard(post: (m: FromWorker) => void): (m: ToWorker) => void {
  let doc: ScenarioDoc | null = null;
  /** indices above this cannot be the answer any more (another shard found a lower one) */
  let bound = Infinity;
  const fail = (e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) });

  const search = async (plan: SearchPlan, shard: number, shards: number, budget: number) => {
    let tried = 0;
    let from: number | null = shard;
    while (from !== null && from < budget && from <= bound) {
      const sliceEnd = performance.now() + SLICE_MS;
      const r = searchRange(plan, {
        from,
        to: budget,
        stride: shards,
        shouldStop: (i) => i > bound || performance.now() > sliceEnd,
      });
      tried += r.tried;
      const hit = r.hits[0];
      if (hit) return post({ type: 'done', tried, hit: { index: hit.index, violation: hit.violation } });
      from = r.next;
      post({ type: 'progress', tried, hits: 0 });
      await nextTask();
    }
    post({ type: 'done', tried, hit: null });
  };

  return (m) => {
    try {
      switch (m.type) {
        case 'plan': {
          const v = validate(m.scenario);
          if (!v.ok) return fail(new Error(v.issues.map((i) => i.message).join('; ')));
          doc = m.scenario as ScenarioDoc;
          const plan = planSearch(v.scenario, {
            seed: m.options.seed,
            faults: m.options.faults as ExploreFaultKind[],
            violations: m.options.violations as ViolationKind[] | undefined,
          });
          return post({ type: 'plan', plan, scope: scopeOf(plan) });
        }
        case 'search':
          search(m.plan as SearchPlan, m.shard, m.shards, m.budget).catch(fail);
          return;
        case 'bound':
          bound = Math.min(bound, m.index);
          return;
        case 'shrink': {
          const plan = m.plan as SearchPlan;
          return post({
            type: 'shrunk',
            result: shrinkAt(plan, doc ?? (plan.base as unknown as ScenarioDoc), m.index),
          });
        }
      }
    } catch (e) {
      fail(e);
    }
  };
}
