/**
 * The simulation's own figures for `npm run bench`: wall time and events/s of `contention-100`
 * (target: at most 150 ms) and the re-run time of every other built-in scenario (target: each at
 * most 4 ms, a quarter of an animation frame, since the UI re-runs a scenario on every edit). The
 * targets are issue 13's table.
 *
 * Each figure is the fastest of several runs after a warm-up: on a shared machine the minimum is
 * the figure least disturbed by other work, and it is what a warm page sees. With `--baseline DIR`
 * the engine of DIR/src runs every scenario too, run for run in turns with this tree's, so a
 * change is compared with what it replaced under the same load.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario, type Scenario } from '../engine/scenario/schema';
import { bundledEngine } from './bench_bundle_engine';

export const CONTENTION_TARGET_MS = 150;
export const RERUN_TARGET_MS = 4;

/** this tree (its engine is bundled for the `bundled` figures) */
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

export interface SimBench {
  contention100: { ms: number; events: number; eventsPerSec: number; withinTarget: boolean };
  /** fastest re-run of each other built-in, ms */
  rerunMs: Record<string, number>;
  slowestRerun: { id: string; ms: number; events: number; withinTarget: boolean };
  /** `--baseline DIR`: the same figures on DIR's engine, measured in turns with these (or why not) */
  baseline?:
    | {
        dir: string;
        contention100Ms: number;
        rerunMs: Record<string, number>;
        slowestRerun: { id: string; ms: number; events: number };
      }
    | string;
  /**
   * The same figures with the engines bundled as the page's build bundles them (bench_bundle_engine.ts:
   * no tsx `keepNames` wrappers), measured after the figures above, in turns likewise; or why not.
   */
  bundled?: BundledFigures | string;
}

export interface BundledFigures {
  contention100Ms: number;
  rerunMs: Record<string, number>;
  slowestRerun: { id: string; ms: number; events: number; withinTarget: boolean };
  baseline?:
    | { contention100Ms: number; rerunMs: Record<string, number>; slowestRerun: { id: string; ms: number } }
    | string;
}

/** The engine modules a run needs: this tree's, or a baseline tree's (`--baseline DIR`). */
interface Engine {
  builtins: typeof builtins;
  runScenario: typeof runScenario;
  validateScenario: typeof validateScenario;
}

const thisEngine: Engine = { builtins, runScenario, validateScenario };

/**
 * The engine of another tree (DIR/src, as for the EVALSHA baseline in bench.ts), so a change is
 * measured against what it replaced in turns, in one process and under the same load.
 */
async function baselineEngine(dir: string): Promise<Engine | string> {
  const load = (path: string): Promise<unknown> => import(pathToFileURL(join(dir, path)).href);
  try {
    const b = (await load(
      'src/engine/scenario/builtins/index.ts',
    )) as typeof import('../engine/scenario/builtins/index');
    const r = (await load('src/engine/scenario/run.ts')) as typeof import('../engine/scenario/run');
    const v = (await load('src/engine/scenario/schema.ts')) as typeof import('../engine/scenario/schema');
    return { builtins: b.builtins, runScenario: r.runScenario, validateScenario: v.validateScenario };
  } catch (e) {
    return `n/a (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}

function scenarioOf(engine: Engine, id: string): Scenario {
  const b = engine.builtins.find((x) => x.id === id);
  if (b === undefined) throw new Error(`no built-in scenario ${id}`);
  const v = engine.validateScenario(b.scenario);
  if (!v.ok)
    throw new Error(
      `built-in ${id} is invalid: ${v.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  return v.scenario;
}

/**
 * Fastest of `runs` timed runs of built-in `id` on each engine after two warm-ups, the engines
 * taking turns run by run; also the event count (of the first engine).
 */
function time(engines: readonly Engine[], id: string, runs: number): { ms: number; events: number }[] {
  const scenarios = engines.map((e) => scenarioOf(e, id));
  const out = engines.map(() => ({ ms: Infinity, events: 0 }));
  for (let w = 0; w < 2; w++)
    engines.forEach((e, i) => (out[i].events = e.runScenario(scenarios[i]).trace.events.length));
  for (let r = 0; r < runs; r++)
    engines.forEach((e, i) => {
      const t0 = performance.now();
      out[i].events = e.runScenario(scenarios[i]).trace.events.length;
      out[i].ms = Math.min(out[i].ms, performance.now() - t0);
    });
  for (const o of out) o.ms = Math.round(o.ms * 10) / 10;
  return out;
}

interface Figures {
  contention100: { ms: number; events: number };
  rerunMs: Record<string, number>;
  slowestRerun: { id: string; ms: number; events: number };
}

function measureAll(engines: readonly Engine[], runs: number): Figures[] {
  const contention = time(engines, 'contention-100', engines.length > 1 ? 5 : 3);
  const figures: Figures[] = engines.map((_, i) => ({
    contention100: contention[i],
    rerunMs: {},
    slowestRerun: { id: '', ms: -1, events: 0 },
  }));
  for (const b of engines[0].builtins) {
    if (b.id === 'contention-100') continue;
    // a built-in the baseline does not have is measured on this tree alone
    const on = engines.filter((e, i) => i === 0 || e.builtins.some((x) => x.id === b.id));
    time(on, b.id, runs).forEach((r, i) => {
      const f = figures[engines.indexOf(on[i])];
      f.rerunMs[b.id] = r.ms;
      if (r.ms > f.slowestRerun.ms) f.slowestRerun = { id: b.id, ...r };
    });
  }
  return figures;
}

/** The figures again on both trees' engines bundled as the page bundles them. */
async function measureBundled(runs: number, baselineDir: string | null): Promise<BundledFigures | string> {
  const own = await bundledEngine(ROOT);
  if (typeof own === 'string') return own;
  const base = baselineDir === null ? null : await bundledEngine(baselineDir);
  const engines = base === null || typeof base === 'string' ? [own] : [own, base];
  const [f, b] = measureAll(engines, runs);
  const figures = (x: Figures) => ({
    contention100Ms: x.contention100.ms,
    rerunMs: x.rerunMs,
    slowestRerun: x.slowestRerun,
  });
  return {
    ...figures(f),
    slowestRerun: { ...f.slowestRerun, withinTarget: f.slowestRerun.ms <= RERUN_TARGET_MS },
    ...(base === null ? {} : { baseline: b === undefined ? (base as string) : figures(b) }),
  };
}

export async function benchSim(
  runs = 10,
  baselineDir: string | null = null,
  bundled = true,
): Promise<SimBench> {
  const base = baselineDir === null ? null : await baselineEngine(baselineDir);
  const engines = base === null || typeof base === 'string' ? [thisEngine] : [thisEngine, base];
  const [f, b] = measureAll(engines, runs);
  const c = f.contention100;
  const bundledFigures = bundled ? await measureBundled(runs, baselineDir) : undefined;
  return {
    contention100: {
      ...c,
      eventsPerSec: Math.round(c.events / (c.ms / 1000)),
      withinTarget: c.ms <= CONTENTION_TARGET_MS,
    },
    rerunMs: f.rerunMs,
    slowestRerun: { ...f.slowestRerun, withinTarget: f.slowestRerun.ms <= RERUN_TARGET_MS },
    ...(baselineDir === null
      ? {}
      : {
          baseline:
            b === undefined
              ? (base as string)
              : {
                  dir: baselineDir,
                  contention100Ms: b.contention100.ms,
                  rerunMs: b.rerunMs,
                  slowestRerun: b.slowestRerun,
                },
        }),
    ...(bundledFigures === undefined ? {} : { bundled: bundledFigures }),
  };
}

/** The `sim` section of npm run bench (shape of bench.ts's Section). */
export const simSection = {
  name: 'sim',
  async run(opts: { baseline: string | null }, log: (line: string) => void): Promise<SimBench> {
    const r = await benchSim(10, opts.baseline);
    const c = r.contention100;
    const b = typeof r.baseline === 'object' ? r.baseline : null;
    const vs = (now: number, then: number | undefined) =>
      then === undefined ? '' : ` (baseline ${then} ms: ${(then / now).toFixed(2)}x faster)`;
    log('');
    if (typeof r.baseline === 'string') log(`Baseline engine: ${r.baseline}`);
    else if (b !== null) log(`Baseline engine: ${b.dir}/src, run in turns with this tree's`);
    log(
      `Simulation: contention-100 ${c.ms} ms, ${c.events} events, ${c.eventsPerSec.toLocaleString('en-US')} events/s ` +
        `(target <= ${CONTENTION_TARGET_MS} ms: ${c.withinTarget ? 'met' : 'MISSED'})${vs(c.ms, b?.contention100Ms)}`,
    );
    const s = r.slowestRerun;
    log(
      `Slowest re-run of the other built-ins: ${s.id} ${s.ms} ms, ${s.events} events ` +
        `(target <= ${RERUN_TARGET_MS} ms: ${s.withinTarget ? 'met' : 'MISSED'})` +
        (b === null ? '' : ` (baseline's slowest: ${b.slowestRerun.id} ${b.slowestRerun.ms} ms)`),
    );
    const u = typeof r.bundled === 'object' ? r.bundled : null;
    const ub = typeof u?.baseline === 'object' ? u.baseline : null;
    if (typeof r.bundled === 'string') log(`Bundled as the page (no tsx keepNames): ${r.bundled}`);
    else if (u !== null)
      log(
        `Bundled as the page (Vite build, no tsx keepNames): contention-100 ${u.contention100Ms} ms, ` +
          `slowest re-run ${u.slowestRerun.id} ${u.slowestRerun.ms} ms ` +
          `(target <= ${RERUN_TARGET_MS} ms: ${u.slowestRerun.withinTarget ? 'met' : 'MISSED'})` +
          (ub === null
            ? ''
            : ` (baseline: ${ub.contention100Ms} ms, ${ub.slowestRerun.id} ${ub.slowestRerun.ms} ms)`),
      );
    const cell = (ms: number | undefined) => (ms === undefined ? '' : String(ms).padStart(7) + ' ms');
    log(
      `  ${'built-in'.padEnd(32)} ${'tsx'.padStart(10)}${b === null ? '' : '  baseline'.padEnd(12)}${u === null ? '' : '   bundled'}${ub === null ? '' : '  baseline'}`,
    );
    for (const [id, ms] of Object.entries(r.rerunMs))
      log(
        `  ${id.padEnd(32)} ${cell(ms)}` +
          (b === null ? '' : `  ${cell(b.rerunMs[id])}`) +
          (u === null ? '' : `  ${cell(u.rerunMs[id])}`) +
          (ub === null ? '' : `  ${cell(ub.rerunMs[id])}`),
      );
    return r;
  },
};
