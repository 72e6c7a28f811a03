/**
 * A task graded by the violation search (Task.search): the learner's scenario must run safe as it
 * is, and the search, with the task's fixed budget, seed and kinds, must find no violation of the
 * kinds the task lists. The CLI and the tests search here, sequentially; the page runs the same
 * search (same plan, same indices) on its workers and reads the same verdict.
 */
import { explore, validateScenario, type ExploreFaultKind, type Fault, type Violation } from './engine';
import type { ScenarioJson, TaskSearch } from './types';

export interface SearchVerdict {
  /** schedules tried */
  tried: number;
  /** the first violation found (shrunk), or null: none in the budget */
  violation: Violation | null;
  /** the faults the shrunk counterexample adds to the learner's scenario */
  added: Fault[];
  /** the shrunk counterexample, runnable (defaults filled in), or null */
  found: unknown;
}

/** The search the task asks for, over `json` as the learner left it. */
export function searchTask(json: ScenarioJson, search: TaskSearch): SearchVerdict {
  const v = validateScenario(json);
  if (!v.ok)
    throw new Error(`invalid scenario: ${v.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const r = explore(v.scenario, {
    budget: search.budget,
    seed: search.seed,
    faults: search.faults as ExploreFaultKind[] | undefined,
    violations: search.violations,
  });
  return { tried: r.tried, violation: r.violation, added: r.added, found: r.found };
}

/** One line for the CLI: what the search found, or that it found nothing in its budget. */
export function describeVerdict(s: SearchVerdict, search: TaskSearch): string {
  if (s.violation === null)
    return `no ${search.violations.join('/')} in ${s.tried} schedule(s) (seed ${search.seed})`;
  const v = s.violation;
  const faults = s.added.map(
    (f) => `${f.kind}${'client' in f && f.client ? ` of ${f.client}` : ''} at ${f.at} ms`,
  );
  return `${v.kind} on ${v.lock} (${v.holders.join(', ')}) after ${s.tried} schedule(s), by ${faults.join(' + ') || 'its own faults'}`;
}
