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
 * most; a request for a run ends the warming. It is bounded: at most WARM_RUNS re-runs, ended
 * early once they have taken WARM_BUDGET_MS in all or one took WARM_SLOW_MS (a slow re-run would
 * hold up the inspectors' requests behind it), and only for runs of up to WARM_MAX_EVENTS events.
 * A scenario is warmed once (by its title and its clients' threads, so an edit of a number does not
 * start it again). The worker's first run (the first screen's) is not: its re-runs would share the
 * machine with the first screen, and their garbage was still being collected in a contention-100
 * pick right after (its trace's JSON took about 40 ms longer, at load 10-12), which they did not
 * make faster. A re-run that throws ends the warming; nothing of it reaches the page.
 */
import { makeRun } from './engine-host';
import type { Request, Response } from './worker-protocol';

/** Re-runs after a scenario not warmed with yet. */
export const WARM_RUNS = 20;
/**
 * The re-runs of one scenario stop once they have taken this long in all. The slowest small
 * built-in in the page (incident-multilock-opposite-order, verbose: 3,539 events) needs about 20
 * re-runs of 10-40 ms before its edits' runs come down (docs/performance.md, "ninth pass: an edit's page side").
 */
export const WARM_BUDGET_MS = 400;
/** ... or once one re-run took this long (its first re-run in a fresh worker takes 30-55 ms). */
export const WARM_SLOW_MS = 80;
/** Only a run of up to this many events is re-run (the small built-ins have at most 3,539, verbose; contention-100 44,197). */
export const WARM_MAX_EVENTS = 4_000;

type RunRequest = Extract<Request, { type: 'run' }>;

export interface Warmup {
  /** after the worker answered `req` with `res`: warm with its scenario if it is small and new */
  after(req: Request, res: Response): void;
  /** a run was asked for: what is left of the warming is dropped */
  stop(): void;
}

export function createWarmup({
  runs = WARM_RUNS,
  schedule = (f: () => void) => void setTimeout(f, 0),
  once = (req: RunRequest) => void makeRun(req),
  now = () => performance.now(),
}: {
  runs?: number;
  schedule?: (f: () => void) => void;
  once?: (req: RunRequest) => void;
  now?: () => number;
} = {}): Warmup {
  let warmed: string | null = null;
  let generation = 0;
  let first = true;
  return {
    after(req, res) {
      if (runs <= 0 || req.type !== 'run' || res.type !== 'run' || !res.result.ok) return;
      if (first) {
        first = false;
        return;
      }
      const { scenario, outline } = res.result;
      const key = `${scenario.title ?? ''}\n${scenario.clients.map((c) => `${c.id}:${c.threads.length}`).join(',')}`;
      if ((outline?.events ?? res.result.trace.events.length) > WARM_MAX_EVENTS || key === warmed) return;
      warmed = key;
      const mine = ++generation;
      let left = runs;
      let spent = 0;
      const step = () => {
        if (mine !== generation) return;
        const t0 = now();
        try {
          once(req);
        } catch {
          return;
        }
        const took = now() - t0;
        spent += took;
        if (--left > 0 && spent < WARM_BUDGET_MS && took < WARM_SLOW_MS) schedule(step);
      };
      schedule(step);
    },
    stop() {
      generation++;
    },
  };
}
