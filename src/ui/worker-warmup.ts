/**
 * While the worker is idle after a small scenario's run, it runs that same scenario again a few
 * times and throws the results away: V8 optimises the engine's, the lanes' and the validator's hot
 * paths only once they have run for a while, so a fresh worker's runs are mostly unoptimised code
 * (docs/performance.md, "sixth pass: the page's side"). The next run the reader asks for (an edit
 * of this scenario, a pick of another) then finds much of that code compiled. Nothing is kept from
 * these runs but the compiled code: every answer is still a run of what was asked, made when it
 * was asked, and the scenario re-run is the one the reader already has on screen.
 *
 * Each re-run is a task of its own, so a request that arrives meanwhile waits for one re-run at
 * most, and a request for a run ends the warming. A scenario (by its title) is warmed once, so an
 * edit's run does not start it again; only a small run is re-run (a large run's paths are warm by
 * its end, and re-running it would hold the worker for as long as it takes). The worker's first
 * run (the first screen's) is not: its re-runs would share the machine with the first screen, and
 * their garbage was still being collected in a contention-100 pick right after (its trace's JSON
 * took about 40 ms longer, at load 10-12), which they did not make faster.
 */
import * as engine from './engine-adapter';
import { outlineOf } from './run-outline';
import { deriveRunModel } from './timeline/model';
import type { Request, Response } from './worker-protocol';

/** Re-runs after a scenario not warmed with yet. */
export const WARM_RUNS = 20;
/** Only a run of up to this many events is re-run (the small built-ins have fewer than 2,000; contention-100 44,197). */
export const WARM_MAX_EVENTS = 5_000;

export interface Warmup {
  /** after the worker answered `req` with `res`: warm with its scenario if it is small and new */
  after(req: Request, res: Response): void;
  /** a run was asked for: what is left of the warming is dropped */
  stop(): void;
}

/** One re-run, as the worker's host makes a run's answer (engine-host.ts), its results dropped. */
function rerun(scenario: unknown, verbose: boolean): void {
  const v = engine.validate(scenario);
  if (!v.ok) return;
  const result = engine.run(v.scenario, { verbose });
  deriveRunModel(v.scenario, result);
  result.stateAt(result.trace.events.length - 1);
  outlineOf(result.trace, verbose);
}

export function createWarmup({
  runs = WARM_RUNS,
  schedule = (f: () => void) => void setTimeout(f, 0),
  once = rerun,
}: {
  runs?: number;
  schedule?: (f: () => void) => void;
  once?: (scenario: unknown, verbose: boolean) => void;
} = {}): Warmup {
  let warmedTitle: string | null = null;
  let generation = 0;
  let first = true;
  return {
    after(req, res) {
      if (runs <= 0 || req.type !== 'run' || res.type !== 'run' || !res.result.ok) return;
      if (first) {
        first = false;
        return;
      }
      const { scenario, verbose, outline } = res.result;
      const title = scenario.title ?? '';
      if ((outline?.events ?? res.result.trace.events.length) > WARM_MAX_EVENTS || title === warmedTitle) return;
      warmedTitle = title;
      const mine = ++generation;
      let left = runs;
      const step = () => {
        if (mine !== generation) return;
        once(req.scenario, verbose);
        if (--left > 0) schedule(step);
      };
      schedule(step);
    },
    stop() {
      generation++;
    },
  };
}
