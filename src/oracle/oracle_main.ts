/**
 * `npm run oracle -- <built-in id | file.json> [--release 4.7.0] [--record] [--compare] [--level exact|invariants]`
 *
 * Runs the scenario on real processes (redis-server, Redisson in one JVM per client; see
 * docs/oracle.md), and with --compare runs the model on it too and prints both side by side.
 * --record writes oracle/recordings/<id>@<release>.json, which `npm test` checks the model against.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { uptime } from 'node:os';
import { builtins } from '../engine/scenario/builtins/index';
import { findExecutable } from '../testing/redis/real_redis';
import { classpathFor } from './jvm';
import { ORACLE_RELEASES, refusals } from './refusals';
import { atRelease, runModel, validated } from './model_side';
import { needsNetns, runReal, type RealObservation } from './run_real';
import { netnsMissing } from './netns';
import { normaliseReal } from './normalise';
import { compareRuns, describeDifferences, sideBySide } from './compare';
import type { Level, Recording, Tolerance } from './shape';
import { NOT_RECORDED, RECORDINGS_DIR, coverageTable, loadRecordings } from './recordings';



const USAGE =
  'usage: npm run oracle -- <built-in id | file.json> [--release 4.7.0] [--record] [--compare] [--level exact|invariants] [--why "reason"] [--cut <ms>] [--raw out.json] [--replay out.json]';

/** Times may differ by this much: JVM and network jitter on a shared 2-core machine, plus load. */
export function toleranceFor(load1: number): Tolerance {
  return { ms: Math.round(25 + 10 * load1), relative: 0.01 };
}

interface Args {
  source: string;
  release: string;
  record: boolean;
  compare: boolean;
  level: Level | null;
  why?: string;
  /** write the unnormalised observation here (MONITOR lines, JVM events), to debug the harness */
  raw?: string;
  /** judge (and record) a real run written earlier with --raw instead of running one */
  replay?: string;
  /** cut the real run this many ms after time 0 instead of the model's length + 10 s */
  cutMs?: number;
}

function parseArgs(argv: string[]): Args | string {
  const a: Args = { source: '', release: '4.7.0', record: false, compare: false, level: null };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--record') a.record = true;
    else if (x === '--compare') a.compare = true;
    else if (x === '--release') a.release = argv[++i] ?? '';
    else if (x === '--level') a.level = argv[++i] as Level;
    else if (x === '--why') a.why = argv[++i];
    else if (x === '--raw') a.raw = argv[++i];
    else if (x === '--replay') a.replay = argv[++i];
    else if (x === '--cut') a.cutMs = Number(argv[++i]);
    else if (x.startsWith('--')) return `unknown option ${x}`;
    else a.source = x;
  }
  if (!a.source) return USAGE;
  if (!(ORACLE_RELEASES as readonly string[]).includes(a.release))
    return `release ${a.release}: the oracle knows ${ORACLE_RELEASES.join(', ')}`;
  if (a.level !== null && a.level !== 'exact' && a.level !== 'invariants') return `--level exact or --level invariants`;
  if (a.cutMs !== undefined && !(a.cutMs > 0)) return '--cut <ms after time 0>';
  // a longer run only makes sense where times are not compared
  if (a.cutMs !== undefined && a.level !== 'invariants') return '--cut needs --level invariants (times are not compared there)';
  return a;
}

/** What is missing on this machine, one clear line each, with how to get it. */
export function missingTools(release: string): string[] {
  const out: string[] = [];
  if (!findExecutable('java') || !findExecutable('javac'))
    out.push('no JDK: java and javac must be on PATH (Debian: apt-get install openjdk-17-jdk-headless)');
  if (!findExecutable('redis-server') || !findExecutable('redis-cli'))
    out.push('no redis-server / redis-cli on PATH (Debian: apt-get install redis-server redis-tools)');
  if (!classpathFor(release))
    out.push(
      `no Redisson classpath: set LOCKSCOPE_REDISSON_CLASSPATH_${release.replace(/\./g, '_')} or LOCKSCOPE_REDISSON_CLASSPATH ` +
        `(e.g. from Maven Central: mvn dependency:build-classpath for org.redisson:redisson:${release}; see docs/oracle.md)`,
    );
  return out;
}

function loadSource(source: string): { id: string; json: unknown } {
  const b = builtins.find((x) => x.id === source);
  if (b && !existsSync(source)) return { id: b.id, json: b.scenario };
  if (!existsSync(source)) throw new Error(`not a built-in id nor a file: ${source}`);
  return { id: basename(source).replace(/\.json$/, ''), json: JSON.parse(readFileSync(source, 'utf8')) as unknown };
}

function redisServerVersion(): string {
  try {
    return /v=([\d.]+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** docs/oracle.md's coverage table, from the committed recordings and the refusal rules. */
export function printTable(): string {
  return coverageTable(
    loadRecordings().map((r) => r.rec),
    builtins.map((b) => b.id),
    (id, release) => {
      const b = builtins.find((x) => x.id === id)!;
      const why = refusals(validated(atRelease(b.scenario, release)), release);
      return why.length > 0 ? `refused: ${why[0]}` : (NOT_RECORDED[id] ?? 'not recorded');
    },
  );
}

/**
 * `--rejudge <recording.json> …`: the level of a committed recording judged again against the model
 * as it is now (after a model fix), from the real run the recording holds: no new real run, the
 * recording's own tolerance. The highest level at which they agree, as `--record` picks it.
 */
export function rejudge(files: readonly string[]): number {
  for (const file of files) {
    const rec = JSON.parse(readFileSync(file, 'utf8')) as Recording;
    const model = runModel(validated(rec.scenario));
    const exact = compareRuns(rec.real, model, 'exact', rec.tolerance);
    let next: Recording;
    if (exact.differences.length === 0) {
      next = { ...rec, level: 'exact', differences: [] };
      delete next.why;
    } else {
      const inv = compareRuns(rec.real, model, 'invariants', rec.tolerance);
      const first = exact.differences[0];
      const why = `racy: the exact level differs at ${first.where} (real ${first.real}; model ${first.model})`;
      next = { ...rec, level: 'invariants', differences: inv.differences.map((d) => d.where) };
      if (inv.differences.length === 0) next.why = why;
      else delete next.why;
    }
    writeFileSync(file, `${JSON.stringify(next, null, 1)}\n`);
    process.stdout.write(`${file}: ${rec.level} -> ${next.level}${next.differences.length ? ` (${next.differences.length} differences)` : ''}\n`);
  }
  return 0;
}

export async function oracleMain(argv: string[]): Promise<number> {
  if (argv[0] === '--table') {
    process.stdout.write(`${printTable()}\n`);
    return 0;
  }
  if (argv[0] === '--rejudge') return rejudge(argv.slice(1));
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`);
    return 2;
  }
  let src: { id: string; json: unknown };
  try {
    src = loadSource(args.source);
  } catch (e) {
    process.stderr.write(`oracle: ${(e as Error).message}\n`);
    return 2;
  }
  const json = atRelease(src.json, args.release);
  let scenario;
  try {
    scenario = validated(json);
  } catch (e) {
    process.stderr.write(`oracle: ${(e as Error).message}\n`);
    return 2;
  }
  const refused = refusals(scenario, args.release);
  if (refused.length > 0) {
    for (const r of refused) process.stderr.write(`oracle: refused: ${r}\n`);
    return 3;
  }
  const missing = args.replay ? [] : missingTools(args.release);
  const noNetns = needsNetns(scenario) && !args.replay ? netnsMissing() : null;
  if (noNetns !== null) missing.push(noNetns);
  if (missing.length > 0) {
    for (const m of missing) process.stderr.write(`oracle: ${m}\n`);
    return 4;
  }
  const log = (l: string) => process.stderr.write(`oracle: ${l}\n`);
  const model = runModel(scenario);
  const started = Date.now();
  let obs: RealObservation;
  try {
    if (args.replay) obs = JSON.parse(readFileSync(args.replay, 'utf8')) as RealObservation;
    else obs = await runReal(scenario, {
      release: args.release,
      cp: classpathFor(args.release)!.cp,
      modelEndMs: model.end,
      ...(args.cutMs === undefined ? {} : { cutMs: args.cutMs }),
      log,
    });
  } catch (e) {
    log(`the real run failed: ${(e as Error).message}`);
    return 1;
  }
  if (args.raw) writeFileSync(args.raw, JSON.stringify(obs, null, 1));
  log(`real run took ${((Date.now() - started) / 1000).toFixed(1)} s (load ${obs.load})`);
  const real = normaliseReal(obs, scenario);
  const load1 = Number(obs.load.split(',')[0]);
  const tol = toleranceFor(load1);
  // the level: as asked, else the highest at which real and model agree
  let level: Level = args.level ?? 'exact';
  let cmp = compareRuns(real, model, level, tol);
  const exactCmp = cmp;
  let why = args.why;
  if (args.level === null && cmp.differences.length > 0) {
    const first = cmp.differences[0];
    // agreeing at neither level: the recording keeps the invariants' differences (docs/oracle.md)
    const inv = compareRuns(real, model, 'invariants', tol);
    if (inv.differences.length === 0)
      why ??= `racy: the exact level differs at ${first.where} (real ${first.real}; model ${first.model})`;
    level = 'invariants';
    cmp = inv;
  }
  if (args.compare) {
    process.stdout.write(`${sideBySide(real, model, exactCmp)}\n\n`);
    process.stdout.write(`tolerance: ${tol.ms} ms + ${tol.relative * 100}% (load ${obs.load}, uptime ${Math.round(uptime())} s)\n`);
    if (cmp !== exactCmp) process.stdout.write(`${describeDifferences(exactCmp)}\n`);
    process.stdout.write(`${describeDifferences(cmp)}\n`);
  }
  if (args.record) {
    const rec: Recording = {
      format: 'lockscope-oracle/1',
      source: src.id,
      scenario: json,
      release: args.release,
      redisServer: obs.redisVersion || redisServerVersion(),
      level,
      tolerance: tol,
      ...(why !== undefined && level === 'invariants' ? { why } : {}),
      ...(args.cutMs === undefined ? {} : { cutMs: args.cutMs }),
      differences: cmp.differences.map((d) => d.where),
      load: obs.load,
      recordedAt: new Date().toISOString(),
      real,
    };
    mkdirSync(RECORDINGS_DIR, { recursive: true });
    const file = join(RECORDINGS_DIR, `${src.id}@${args.release}.json`);
    writeFileSync(file, `${JSON.stringify(rec, null, 1)}\n`);
    log(`recorded ${file} (${level})`);
  }
  return cmp.differences.length === 0 || !args.compare ? 0 : 5;
}
