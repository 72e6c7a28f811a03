/**
 * The violation search's figures for `npm run bench` (issue 12's targets): schedules per second
 * on a single-node two-client scenario (target >= 1000), the time to find and shrink the
 * failover loss from a fault-free Sentinel scenario with replication lag (<= 10 s, <= 2 faults
 * after shrinking), and the time to find a pause-induced V1 from basic-lock with a 30 s lease
 * (<= 2 s). Every figure is measured here, on this machine, with its load average beside it.
 */
import { cpuUsage } from 'node:process';
import { performance } from 'node:perf_hooks';
import { explore, planSearch, searchRange, type ExploreOptions } from '../engine/explore/index';
import { basicLock30s, sentinelLagNoFault } from '../engine/explore/testing/scenarios';
import { runScenario } from '../engine/scenario/run';
import type { Scenario } from '../engine/scenario/schema';

export const SCHEDULES_TARGET = 1000;
export const FAILOVER_TARGET_MS = 10_000;
export const FAILOVER_MAX_FAULTS = 2;
export const PAUSE_V1_TARGET_MS = 2000;
/** schedules run (and dropped) before the throughput is timed */
const WARMUP_SCHEDULES = 1000;

/**
 * The kinds of the classic failover loss (the master dies before the lock reaches a replica): a
 * client pause finds a different V1 first, a partition a split brain (V2).
 */
export const FAILOVER_KINDS: ExploreOptions['faults'] = ['node-crash', 'replica-lag'];

export interface ExploreBench {
  throughput: {
    schedules: number;
    perSec: number;
    perCpuSec: number;
    /** fault-free runs of the same scenario per second: the cost of a run itself */
    baseRunsPerSec: number;
    withinTarget: boolean;
  };
  failover: FindFigure & { withinTarget: boolean };
  pauseV1: FindFigure & { withinTarget: boolean };
}

interface FindFigure {
  found: boolean;
  tried: number;
  searchMs: number | null;
  shrinkMs: number | null;
  totalMs: number | null;
  faults: number;
  /** the fault kinds of the shrunk schedule */
  kinds: string[];
  violation: string | null;
}

function cpuMs(): number {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
}

function throughput(s: Scenario, schedules: number): ExploreBench['throughput'] {
  const plan = planSearch(s);
  // warm-up: the JIT, and the first runs of each fault kind. 50 schedules were not enough: the
  // figure then read 900-1,060/s in a fresh process and 1,200-1,330/s after the bench's `sim`
  // section, the same engine, so two trees compared in different processes seemed to differ
  searchRange(plan, { from: schedules, to: schedules + WARMUP_SCHEDULES, collect: Number.MAX_SAFE_INTEGER });
  const c0 = cpuMs();
  const t0 = performance.now();
  const r = searchRange(plan, { to: schedules, collect: Number.MAX_SAFE_INTEGER });
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  const b0 = performance.now();
  for (let i = 0; i < 100; i++) runScenario(s);
  const baseRunsPerSec = Math.round(100 / ((performance.now() - b0) / 1000));
  const perSec = Math.round(r.tried / (wall / 1000));
  return {
    schedules: r.tried,
    perSec,
    perCpuSec: Math.round(r.tried / (cpu / 1000)),
    baseRunsPerSec,
    withinTarget: perSec >= SCHEDULES_TARGET,
  };
}

function find(s: Scenario, opts: ExploreOptions): FindFigure {
  const r = explore(s, { budget: 5000, ...opts, clock: () => performance.now() });
  const v = r.violation;
  return {
    found: r.found !== null,
    tried: r.tried,
    searchMs: r.searchMs,
    shrinkMs: r.shrinkMs,
    totalMs: r.found === null || r.searchMs === null ? null : r.searchMs + (r.shrinkMs ?? 0),
    faults: r.added.length + r.moved.length + r.lags.length,
    kinds: r.added.map((f) => f.kind),
    violation:
      v === null
        ? null
        : `${v.kind} on ${v.lock} (${v.holders.join(', ')}) by ${r.added.map((f) => f.kind).join(', ') || 'moves and lags'}`,
  };
}

export function benchExplore(schedules = 500): ExploreBench {
  const t = throughput(basicLock30s(), schedules);
  const failover = find(sentinelLagNoFault(), { faults: FAILOVER_KINDS });
  const pauseV1 = find(basicLock30s(), {});
  return {
    throughput: t,
    failover: {
      ...failover,
      withinTarget:
        failover.totalMs !== null &&
        failover.totalMs <= FAILOVER_TARGET_MS &&
        failover.faults <= FAILOVER_MAX_FAULTS,
    },
    pauseV1: {
      ...pauseV1,
      withinTarget:
        pauseV1.searchMs !== null &&
        pauseV1.kinds.includes('pause') &&
        pauseV1.violation?.startsWith('V1') === true &&
        pauseV1.searchMs <= PAUSE_V1_TARGET_MS,
    },
  };
}

/** The `explore` section of npm run bench (shape of bench.ts's Section). */
export const exploreSection = {
  name: 'explore',
  async run(_opts: unknown, log: (line: string) => void): Promise<ExploreBench> {
    const r = benchExplore();
    const t = r.throughput;
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    log('');
    log(
      `Search: ${t.perSec.toLocaleString('en-US')} schedules/s (${t.perCpuSec.toLocaleString('en-US')} per CPU-second) ` +
        `over ${t.schedules} schedules of basic-lock with a 30 s lease and a second client; ` +
        `${t.baseRunsPerSec.toLocaleString('en-US')} fault-free runs/s (target >= ${SCHEDULES_TARGET}/s: ${met(t.withinTarget)})`,
    );
    const line = (what: string, f: FindFigure, target: string, ok: boolean) =>
      log(
        `${what}: ${f.found ? `${f.violation}, found in ${f.searchMs} ms (${f.tried} schedules), shrunk in ${f.shrinkMs} ms to ${f.faults} change(s)` : `not found in ${f.tried} schedules`} ` +
          `(target ${target}: ${met(ok)})`,
      );
    line(
      'Failover loss from a fault-free Sentinel scenario',
      r.failover,
      `<= ${FAILOVER_TARGET_MS} ms found + shrunk, <= ${FAILOVER_MAX_FAULTS} faults`,
      r.failover.withinTarget,
    );
    line(
      'Pause-induced V1 from basic-lock, 30 s lease',
      r.pauseV1,
      `<= ${PAUSE_V1_TARGET_MS} ms to find`,
      r.pauseV1.withinTarget,
    );
    return r;
  },
};

/** The search's rows of the bench's target table (null values when the section did not run). */
export function exploreTargetRows(r: ExploreBench | undefined) {
  const row = (figure: string, value: number | null, unit: string, target: string, met: boolean | null) => ({
    figure,
    value,
    unit,
    target,
    met,
    measuredBy: 'npm run bench',
  });
  return [
    row(
      'search schedules/s, single node, two clients',
      r?.throughput.perSec ?? null,
      '/s',
      `>= ${SCHEDULES_TARGET}`,
      r ? r.throughput.withinTarget : null,
    ),
    row(
      `failover loss found + shrunk to <= ${FAILOVER_MAX_FAULTS} faults${r ? ` (${r.failover.faults})` : ''}`,
      r?.failover.totalMs ?? null,
      'ms',
      `<= ${FAILOVER_TARGET_MS}`,
      r ? r.failover.withinTarget : null,
    ),
    row(
      'pause-induced V1 found, basic-lock 30 s lease',
      r?.pauseV1.searchMs ?? null,
      'ms',
      `<= ${PAUSE_V1_TARGET_MS}`,
      r ? r.pauseV1.withinTarget : null,
    ),
  ];
}
