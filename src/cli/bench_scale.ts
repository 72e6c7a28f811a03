/**
 * Issue 23's scale figure for `npm run bench`: 1,000 threads over 10,000 locks with the watchdog
 * on for 60 s (scenario/scale/watchdog_cost.ts), headless within 2 s in under 300 MB. Each
 * measurement is a fresh Node process (bench_scale_child.ts), so the peak memory is the run's and
 * not the bench's; with `--baseline DIR` DIR's engine runs it too, in turns.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCALE_TARGET_MS = 2000;
export const SCALE_TARGET_MB = 300;

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

interface ScaleRun {
  firstMs: number;
  warmMs: number;
  events: number;
  peakRssMb: number;
}

export interface ScaleBench extends ScaleRun {
  runs: ScaleRun[];
  withinTarget: boolean;
  baseline?: { dir: string; runs: ScaleRun[] } | string;
}

function child(engine: string | null): ScaleRun {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './scripts/raw-loader.mjs',
      'src/cli/bench_scale_child.ts',
      ...(engine === null ? [] : ['--engine', engine]),
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as ScaleRun;
}

/** `rounds` fresh processes per engine, in turns; the figure is the best first run and its memory. */
export function benchScale(rounds = 2, baselineDir: string | null = null): ScaleBench {
  const runs: ScaleRun[] = [];
  const base: ScaleRun[] = [];
  let baseError: string | null = null;
  for (let i = 0; i < rounds; i++) {
    runs.push(child(null));
    if (baselineDir !== null && baseError === null) {
      try {
        base.push(child(baselineDir));
      } catch (e) {
        baseError = `n/a (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
      }
    }
  }
  const best = runs.reduce((a, b) => (b.firstMs < a.firstMs ? b : a));
  return {
    ...best,
    runs,
    withinTarget: best.firstMs <= SCALE_TARGET_MS && best.peakRssMb < SCALE_TARGET_MB,
    ...(baselineDir === null ? {} : { baseline: baseError ?? { dir: baselineDir, runs: base } }),
  };
}

/** The `scale` section of npm run bench (shape of bench.ts's Section). */
export const scaleSection = {
  name: 'scale',
  async run(opts: { baseline: string | null }, log: (line: string) => void): Promise<ScaleBench> {
    const r = benchScale(2, opts.baseline);
    const fmt = (x: ScaleRun) => `${x.firstMs} ms (warm ${x.warmMs} ms), ${x.peakRssMb} MB`;
    log('');
    log(
      `Scale: 1,000 threads over 10,000 locks, watchdog, 60 s: ${r.events} events; fresh processes ${r.runs.map(fmt).join('; ')} ` +
        `(target <= ${SCALE_TARGET_MS} ms in < ${SCALE_TARGET_MB} MB: ${r.withinTarget ? 'met' : 'MISSED'})`,
    );
    if (typeof r.baseline === 'string') log(`  baseline: ${r.baseline}`);
    else if (r.baseline) log(`  baseline ${r.baseline.dir}: ${r.baseline.runs.map(fmt).join('; ')}`);
    return r;
  },
};
