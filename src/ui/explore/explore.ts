/**
 * The Explore action: opens the panel, starts a search on the current scenario in workers, and
 * when it finds something opens the shrunk counterexample as the current scenario (an undoable
 * step like any edit), with the cursor and the zoom on its violation.
 */
import type { ScenarioDoc } from '../../engine/scenario/edit';
import { loadScenario } from '../controller';
import { jumpToViolation, usePlayground } from '../store';
import { SearchCancelled, shardCount, startSearch, type SearchHandle, type WorkerLike } from './coordinator';
import type { SearchOptions } from './protocol';
import { MAX_BUDGET, useExplore } from './store';

let current: SearchHandle | null = null;

/** A search shard: an instance of the engine worker (the lesson player's graded tasks use it too). */
export function spawnWorker(): WorkerLike {
  return new Worker(new URL('../worker.ts', import.meta.url), { type: 'module' }) as WorkerLike;
}

export function closeExplore(): void {
  cancelExplore();
  useExplore.setState({ open: false, prompt: null, status: { phase: 'idle' } });
}

export function setOptions(patch: Partial<SearchOptions>): void {
  useExplore.setState((s) => ({ options: { ...s.options, ...patch } }));
}

export function cancelExplore(): void {
  current?.cancel();
}

/** Budgets a person can type: whole, at least one, and not a week of work. */
export function clampBudget(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.min(MAX_BUDGET, Math.round(n))) : 1;
}

export async function startExplore(): Promise<void> {
  const base = usePlayground.getState().scenario;
  if (base === null || current !== null) return;
  const options = { ...useExplore.getState().options };
  options.budget = clampBudget(options.budget);
  const startedAt = performance.now();
  const handle = startSearch(base, options, spawnWorker, shardCount(navigator.hardwareConcurrency), (p) => {
    const seconds = (performance.now() - startedAt) / 1000;
    useExplore.setState({
      status: { ...p, startedAt, perSec: seconds > 0 ? p.tried / seconds : 0 },
    });
  });
  current = handle;
  try {
    const outcome = await handle.done;
    const seconds = (performance.now() - startedAt) / 1000;
    if (outcome.kind === 'none') {
      useExplore.setState({
        status: {
          phase: 'nothing',
          nothing: {
            tried: outcome.tried,
            budget: options.budget,
            seed: options.seed,
            scope: outcome.scope,
            seconds,
          },
        },
      });
      return;
    }
    const scenario = outcome.shrunk.scenario as ScenarioDoc;
    const found = {
      base,
      scenario,
      violation: outcome.shrunk.violation,
      shrunk: outcome.shrunk,
      index: outcome.hit.index,
      tried: outcome.tried,
      seconds,
    };
    useExplore.setState({ status: { phase: 'found', found } });
    await showCounterexample(scenario, found.violation);
  } catch (e) {
    useExplore.setState({
      status:
        e instanceof SearchCancelled
          ? { phase: 'cancelled', tried: triedSoFar() }
          : { phase: 'error', message: e instanceof Error ? e.message : String(e) },
    });
  } finally {
    current = null;
  }
}

function triedSoFar(): number {
  const s = useExplore.getState().status;
  return 'tried' in s ? s.tried : 0;
}

/** Loads the counterexample (an undo step back to the scenario before) and shows its violation. */
export async function showCounterexample(
  scenario: ScenarioDoc,
  violation: { kind: string; lock: string },
): Promise<void> {
  if (!(await loadScenario(scenario, { builtinId: null }))) return;
  const run = usePlayground.getState().run;
  if (!run) return;
  const v =
    run.trace.violations.find((x) => x.kind === violation.kind && x.lock === violation.lock) ??
    run.trace.violations[0];
  if (v) jumpToViolation(run.trace, v);
}
