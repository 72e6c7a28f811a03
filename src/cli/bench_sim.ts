/**
 * The simulation's own figures for `npm run bench`: wall time and events/s of `contention-100`
 * (target: at most 150 ms) and the re-run time of every other built-in scenario (target: each at
 * most 4 ms, a quarter of an animation frame, since the UI re-runs a scenario on every edit). The
 * targets are issue 13's table.
 *
 * Each figure is the fastest of several runs after a warm-up: on a shared machine the minimum is
 * the figure least disturbed by other work, and it is what a warm page sees.
 */
import { performance } from 'node:perf_hooks';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario, type Scenario } from '../engine/scenario/schema';

export const CONTENTION_TARGET_MS = 150;
export const RERUN_TARGET_MS = 4;

export interface SimBench {
  contention100: { ms: number; events: number; eventsPerSec: number; withinTarget: boolean };
  /** fastest re-run of each other built-in, ms */
  rerunMs: Record<string, number>;
  slowestRerun: { id: string; ms: number; events: number; withinTarget: boolean };
}

function scenarioOf(id: string): Scenario {
  const b = builtins.find((x) => x.id === id);
  if (b === undefined) throw new Error(`no built-in scenario ${id}`);
  const v = validateScenario(b.scenario);
  if (!v.ok)
    throw new Error(
      `built-in ${id} is invalid: ${v.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  return v.scenario;
}

/** Fastest of `runs` timed runs after two warm-ups; also the event count. */
function time(s: Scenario, runs: number): { ms: number; events: number } {
  runScenario(s);
  let events = runScenario(s).trace.events.length;
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    events = runScenario(s).trace.events.length;
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: Math.round(best * 10) / 10, events };
}

export function benchSim(runs = 10): SimBench {
  const c = time(scenarioOf('contention-100'), 3);
  const rerunMs: Record<string, number> = {};
  let slowest = { id: '', ms: -1, events: 0 };
  for (const b of builtins) {
    if (b.id === 'contention-100') continue;
    const r = time(scenarioOf(b.id), runs);
    rerunMs[b.id] = r.ms;
    if (r.ms > slowest.ms) slowest = { id: b.id, ms: r.ms, events: r.events };
  }
  return {
    contention100: {
      ms: c.ms,
      events: c.events,
      eventsPerSec: Math.round(c.events / (c.ms / 1000)),
      withinTarget: c.ms <= CONTENTION_TARGET_MS,
    },
    rerunMs,
    slowestRerun: { ...slowest, withinTarget: slowest.ms <= RERUN_TARGET_MS },
  };
}

/** The `sim` section of npm run bench (shape of bench.ts's Section). */
export const simSection = {
  name: 'sim',
  async run(_opts: unknown, log: (line: string) => void): Promise<SimBench> {
    const r = benchSim();
    const c = r.contention100;
    log('');
    log(
      `Simulation: contention-100 ${c.ms} ms, ${c.events} events, ${c.eventsPerSec.toLocaleString('en-US')} events/s ` +
        `(target <= ${CONTENTION_TARGET_MS} ms: ${c.withinTarget ? 'met' : 'MISSED'})`,
    );
    const s = r.slowestRerun;
    log(
      `Slowest re-run of the other built-ins: ${s.id} ${s.ms} ms, ${s.events} events ` +
        `(target <= ${RERUN_TARGET_MS} ms: ${s.withinTarget ? 'met' : 'MISSED'})`,
    );
    for (const [id, ms] of Object.entries(r.rerunMs)) log(`  ${id.padEnd(32)} ${String(ms).padStart(7)} ms`);
    return r;
  },
};
