/**
 * One process of the bench's scale figure (bench_scale.ts): runs the watchdog-cost scenario on
 * the engine of this tree, or of `DIR/src` (`--engine DIR`), first in a fresh process (what a
 * page's first open of it costs the engine) and then twice more warm, and prints one JSON line:
 * times, events, and the process's peak resident memory after the first run.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateScenario } from '../engine/scenario/schema';
import { WATCHDOG_COST_FULL, watchdogCostScenario } from '../engine/scenario/scale/watchdog_cost';
import type { runScenario as RunScenario } from '../engine/scenario/run';

const args = process.argv.slice(2);
const dir = args[0] === '--engine' ? args[1] : null;
const { runScenario } = (await import(
  dir === null ? '../engine/scenario/run.ts' : pathToFileURL(join(dir, 'src/engine/scenario/run.ts')).href
)) as { runScenario: typeof RunScenario };
// this tree's schema: a baseline from before issue 23 refuses more than 256 threads, and the
// validated scenario is the same data either way
const v = validateScenario(watchdogCostScenario(WATCHDOG_COST_FULL));
if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
const time = () => {
  const t0 = performance.now();
  const events = runScenario(v.scenario).trace.events.length;
  return { ms: Math.round(performance.now() - t0), events };
};
const first = time();
const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
const warm = Math.min(time().ms, time().ms);
console.log(JSON.stringify({ firstMs: first.ms, warmMs: warm, events: first.events, peakRssMb: peakMb }));
