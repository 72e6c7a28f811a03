/**
 * The search that grades a lesson's task (Task.search) in the page: the same search as the
 * lesson CLI's (same plan, seed, budget and kinds, so the same lowest violating schedule), run on
 * the Explore panel's workers, with its progress and, when it breaks the learner's scenario, the
 * shrunk counterexample. Its own store, so a progress tick re-renders the task and nothing else.
 */
import { create } from 'zustand';
import { EXPLORE_FAULT_KINDS } from '../../engine/explore/kinds';
import type { TaskSearch } from '../../lessons/types';
import {
  SearchCancelled,
  shardCount,
  startSearch,
  type SearchHandle,
  type SearchPhase,
} from '../explore/coordinator';
import { spawnWorker } from '../explore/explore';
import type { ShrinkOutcome } from '../explore/protocol';

export type TaskSearchStatus =
  | { phase: 'idle' }
  | { phase: 'running'; stage: SearchPhase; tried: number; budget: number }
  | { phase: 'found'; shrunk: ShrinkOutcome; index: number; tried: number }
  | { phase: 'clean'; tried: number }
  | { phase: 'error'; message: string };

export const useTaskSearch = create<{ status: TaskSearchStatus }>()(() => ({ status: { phase: 'idle' } }));

let current: SearchHandle | null = null;
let searchToken = 0;

/** Stops the search under way (a new edit, another step) and forgets what it showed. */
export function cancelTaskSearch(): void {
  current?.cancel();
  current = null;
  searchToken++;
  useTaskSearch.setState({ status: { phase: 'idle' } });
}

/** Runs the task's search over `scenario`; resolves to what it found, or null when cancelled. */
export async function runTaskSearch(scenario: unknown, search: TaskSearch): Promise<TaskSearchStatus | null> {
  cancelTaskSearch();
  const options = {
    budget: search.budget,
    seed: search.seed,
    faults: search.faults ?? [...EXPLORE_FAULT_KINDS],
    violations: search.violations,
  };
  useTaskSearch.setState({
    status: { phase: 'running', stage: 'planning', tried: 0, budget: search.budget },
  });
  // startSearch reports its first progress before it returns: a token, not the handle, says
  // whether this search is still the current one
  const my = ++searchToken;
  const handle = startSearch(
    scenario,
    options,
    spawnWorker,
    shardCount(navigator.hardwareConcurrency),
    (p) => {
      if (my === searchToken)
        useTaskSearch.setState({
          status: { phase: 'running', stage: p.phase, tried: p.tried, budget: search.budget },
        });
    },
  );
  current = handle;
  let status: TaskSearchStatus;
  try {
    const o = await handle.done;
    status =
      o.kind === 'none'
        ? { phase: 'clean', tried: o.tried }
        : { phase: 'found', shrunk: o.shrunk, index: o.hit.index, tried: o.tried };
  } catch (e) {
    if (e instanceof SearchCancelled || current !== handle) return null;
    status = { phase: 'error', message: e instanceof Error ? e.message : String(e) };
  }
  if (current !== handle) return null;
  current = null;
  useTaskSearch.setState({ status });
  return status;
}
