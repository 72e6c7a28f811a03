/**
 * `npm run bench [-- --json] [--time MS] [--baseline DIR] [--dist DIR] [--only lockscope,lockscopeShipped,lockscopeBaseline,ioredisMock,redisServer,sim,explore,scale,bundle]`:
 * how fast Redisson's lock and unlock scripts run by EVALSHA on (1) the simulated node
 * (RedisServer.exec, no network) with fengari as LockScope patches it, (2) the same with fengari as
 * shipped as far as the engine allows (the stack-slot hunks reverted; the engine needs the others:
 * see docs/fengari-patch.md), (3) ioredis-mock (Lua via fengari too)
 * and (4) a real redis-server on loopback, pipelined in batches of 1000. Sides 1, 2 and 4 run in
 * turns, one batch each (see measureInterleaved); ioredis-mock, a hundred times slower, runs alone.
 *
 * Every side runs the same workload and must return the replies Redisson expects (acquire: nil,
 * re-enter: nil, first unlock: 0, second unlock: 1), and every lock must be free at the end;
 * a side that answers anything else is reported as a failure, not as a figure.
 *
 * The JSON line is built from `sections` in order; a new section (the simulation's own figures,
 * say) is one more entry there.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import RedisMock from 'ioredis-mock';
import { ManualClock } from '../engine/clock';
import type { Reply } from '../engine/redis/reply';
import { RedisServer } from '../engine/redis/server';
import { fengariStackPatchApplied } from '../engine/redis/lua_vmpatch';
import { startRealRedis, findExecutable } from '../testing/redis/real_redis';
import { RespClient } from '../testing/redis/resp_client';
import { simSection } from './bench_sim';
import { exploreSection } from './bench_explore';
import { scaleSection } from './bench_scale';
import { bundleSection } from './bench_bundle';
import { table, targetsSection } from './bench_targets';
import { HUNKS, fengariWebBundle, patchProblems, revertPatch } from '../../scripts/patch-fengari.mjs';
import { LOCK, UNLOCK } from '../engine/redisson/scripts/RedissonLock';

const lockLua = LOCK.at('4.7.0').text;
const unlockLua = UNLOCK.at('4.7.0').text;

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

// ---------------------------------------------------------------------------------------------
// The workload

const CLIENT_ID = '8743c9c0-0795-4907-87fd-6c719a6b4586';
const LEASE = '30000';
const LATCH_TTL = '16000';
const LOCK_NAMES = 64;
const THREADS = 8;
const BATCH = 1000; // commands per batch, a multiple of the 4 commands of one unit
const UNIT = 4;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const LOCK_SHA = sha1(lockLua);
const UNLOCK_SHA = sha1(unlockLua);

/** A reply reduced to what the check needs: nil, an integer, or anything else (a failure). */
type Outcome = null | number | 'other';

/** Expected outcomes of one unit: acquire, re-enter, unlock (still held), unlock (released). */
const EXPECTED: readonly Outcome[] = [null, null, 0, 1];

function lockName(unit: number): string {
  return `bench:lock:${unit % LOCK_NAMES}`;
}

/** The 4 EVALSHA commands of unit `u`: a different lock and thread each time, so both branches of
 * the acquire script (first acquire, re-entry) and of unlock (count > 0, released) run. */
function unitCommands(u: number): string[][] {
  const name = lockName(u);
  const owner = `${CLIENT_ID}:${1 + (u % THREADS)}`;
  const channel = `redisson_lock__channel:{${name}}`;
  const latch = (n: number) =>
    `redisson_unlock_latch:{${name}}:${(u * 2 + n).toString(16).padStart(32, '0')}`;
  const lock = ['EVALSHA', LOCK_SHA, '1', name, LEASE, owner];
  const unlock = (n: number) => [
    'EVALSHA',
    UNLOCK_SHA,
    '3',
    name,
    channel,
    latch(n),
    '0',
    LEASE,
    owner,
    'PUBLISH',
    LATCH_TTL,
  ];
  return [lock, lock, unlock(0), unlock(1)];
}

function batchCommands(firstUnit: number): string[][] {
  const out: string[][] = [];
  for (let u = firstUnit; u < firstUnit + BATCH / UNIT; u++) out.push(...unitCommands(u));
  return out;
}

function outcomeOfReply(r: Reply): Outcome {
  if (r.t === 'bulk' && r.v === null) return null;
  if (r.t === 'int') return Number(r.v);
  return 'other';
}

/** One way of running commands: a simulated node, ioredis-mock, or a real server. */
interface Driver {
  /** CPU seconds used so far by whatever executes the scripts, or null if unknown */
  cpuSeconds(): number | null;
  /** load the scripts and start from an empty keyspace */
  setup(): Promise<void>;
  run(commands: string[][]): Promise<Outcome[]> | Outcome[];
  /** how many of the lock keys still exist */
  locksHeld(): Promise<number>;
  close(): Promise<void>;
}

export interface SideResult {
  evalPerSec: number;
  /** evals per CPU second of the executing process: steadier than wall time on a shared machine */
  evalPerCpuSec: number | null;
  evals: number;
  acquisitions: number;
  seconds: number;
}

/** Batches a driver keeps in flight: the real server works on one while the client checks the last. */
const DEPTH = 2;

/** Throws unless every reply of a batch is the expected one; returns the acquisitions in it. */
function checkBatch(firstUnit: number, cmds: string[][], outcomes: Outcome[]): number {
  if (outcomes.length !== cmds.length)
    throw new Error(`${outcomes.length} replies to ${cmds.length} commands`);
  let acquisitions = 0;
  for (let i = 0; i < outcomes.length; i++) {
    const expected = EXPECTED[i % UNIT];
    if (outcomes[i] !== expected) {
      throw new Error(
        `unexpected reply to ${cmds[i][0]} #${i % UNIT} of unit ${firstUnit + Math.floor(i / UNIT)}: ` +
          `${String(outcomes[i])}, expected ${String(expected)}`,
      );
    }
    if (i % UNIT === 0) acquisitions++;
  }
  return acquisitions;
}

async function measure(driver: Driver, windowMs: number, warmupMs: number): Promise<SideResult> {
  await driver.setup();
  let unit = 0;
  let acquisitions = 0;
  const check = (firstUnit: number, cmds: string[][], outcomes: Outcome[]): number => {
    acquisitions += checkBatch(firstUnit, cmds, outcomes);
    return outcomes.length;
  };
  const startBatch = async (): Promise<number> => {
    const first = unit;
    unit += BATCH / UNIT;
    const cmds = batchCommands(first);
    return check(first, cmds, await driver.run(cmds));
  };
  const runFor = async (ms: number): Promise<[number, number]> => {
    const start = performance.now();
    let now = start;
    let evals = 0;
    const inflight: Promise<number>[] = [];
    while (now - start < ms) {
      inflight.push(startBatch());
      if (inflight.length >= DEPTH) evals += await inflight.shift()!;
      now = performance.now();
    }
    for (const p of inflight) evals += await p;
    return [evals, (performance.now() - start) / 1000];
  };
  await runFor(warmupMs);
  acquisitions = 0;
  const cpuStart = driver.cpuSeconds();
  const [evals, seconds] = await runFor(windowMs);
  const cpuEnd = driver.cpuSeconds();
  const cpu = cpuStart === null || cpuEnd === null ? null : cpuEnd - cpuStart;
  const held = await driver.locksHeld();
  await driver.close();
  if (held !== 0) throw new Error(`${held} lock(s) still held after the run`);
  return {
    evalPerSec: Math.round(evals / seconds),
    evalPerCpuSec: cpu ? Math.round(evals / cpu) : null,
    evals,
    acquisitions,
    seconds,
  };
}

/**
 * Several drivers measured in turns, one batch each, so that whatever else the machine does weighs
 * on all of them alike (on a loaded machine, two windows measured one after the other can differ by
 * more than the difference being measured). Each side's figures count only its own batches: wall
 * time and CPU time spent inside them, evals whose replies were checked. A real server is idle
 * between its batches, so its /proc CPU ticks, summed over many batches, are its own work.
 */
async function measureInterleaved(
  drivers: Driver[],
  windowMs: number,
  warmupMs: number,
): Promise<SideResult[]> {
  for (const d of drivers) await d.setup();
  const sides = drivers.map(() => ({ unit: 0, evals: 0, acquisitions: 0, wall: 0, cpu: 0 }));
  const round = async (count: boolean) => {
    for (let i = 0; i < drivers.length; i++) {
      const s = sides[i];
      const first = s.unit;
      s.unit += BATCH / UNIT;
      const cmds = batchCommands(first);
      const c0 = drivers[i].cpuSeconds() ?? 0;
      const t0 = performance.now();
      const outcomes = await drivers[i].run(cmds);
      const t1 = performance.now();
      const c1 = drivers[i].cpuSeconds() ?? 0;
      const acquisitions = checkBatch(first, cmds, outcomes);
      if (!count) continue;
      s.evals += outcomes.length;
      s.acquisitions += acquisitions;
      s.wall += (t1 - t0) / 1000;
      s.cpu += c1 - c0;
    }
  };
  for (const start = performance.now(); performance.now() - start < warmupMs;) await round(false);
  // every side gets windowMs of its own batches
  for (const start = performance.now(); performance.now() - start < windowMs * drivers.length;)
    await round(true);
  const results: SideResult[] = [];
  for (let i = 0; i < drivers.length; i++) {
    const held = await drivers[i].locksHeld();
    await drivers[i].close();
    if (held !== 0) throw new Error(`${held} lock(s) still held after the run`);
    const s = sides[i];
    results.push({
      evalPerSec: Math.round(s.evals / s.wall),
      evalPerCpuSec: s.cpu > 0 ? Math.round(s.evals / s.cpu) : null,
      evals: s.evals,
      acquisitions: s.acquisitions,
      seconds: s.wall,
    });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// The sides

/** This process's CPU time (user + system), for the in-process sides. */
function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** A process's CPU time from /proc (Linux); null elsewhere. */
function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // fields after the ")" that closes the command name: utime and stime are the 12th and 13th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
// USER_HZ: 100 on every mainstream Linux build
const CLOCK_TICKS_PER_SECOND = 100;

interface EngineModules {
  RedisServer: typeof RedisServer;
  ManualClock: typeof ManualClock;
}

function lockscopeDriver(engine: EngineModules = { RedisServer, ManualClock }): Driver {
  // The virtual clock stands still: the work is the scripts, not the passage of time.
  const server = new engine.RedisServer({ clock: new engine.ManualClock(0), seed: 1 });
  const conn = server.connect();
  return {
    cpuSeconds: ownCpuSeconds,
    async setup() {
      for (const lua of [lockLua, unlockLua]) {
        const r = server.exec(conn, ['SCRIPT', 'LOAD', lua]);
        if (r.t !== 'bulk') throw new Error(`SCRIPT LOAD failed: ${JSON.stringify(r)}`);
      }
    },
    run(commands) {
      const out: Outcome[] = new Array(commands.length);
      for (let i = 0; i < commands.length; i++) out[i] = outcomeOfReply(server.exec(conn, commands[i]));
      return out;
    },
    async locksHeld() {
      let n = 0;
      for (let i = 0; i < LOCK_NAMES; i++) n += Number(server.exec(conn, ['EXISTS', lockName(i)]).v);
      return n;
    },
    async close() {},
  };
}

function ioredisMockDriver(): Driver {
  const redis = new RedisMock();
  const toOutcome = (v: unknown): Outcome =>
    v === null || v === undefined ? null : typeof v === 'number' ? v : 'other';
  return {
    cpuSeconds: ownCpuSeconds,
    async setup() {
      await redis.flushall();
      // ioredis-mock has no SCRIPT LOAD: an EVAL registers the script for EVALSHA.
      await redis.eval(lockLua, 1, 'bench:setup', LEASE, 'setup:1');
      await redis.eval(unlockLua, 3, 'bench:setup', 'c', 'l', '0', LEASE, 'setup:1', 'PUBLISH', LATCH_TTL);
    },
    async run(commands) {
      const out: Outcome[] = [];
      for (const [, sha, numkeys, ...rest] of commands)
        out.push(toOutcome(await redis.evalsha(sha, numkeys, ...rest)));
      return out;
    },
    async locksHeld() {
      let n = 0;
      for (let i = 0; i < LOCK_NAMES; i++) n += await redis.exists(lockName(i));
      return n;
    },
    async close() {
      redis.disconnect();
    },
  };
}

async function realRedisDriver(): Promise<Driver | null> {
  if (!findExecutable('redis-server')) return null;
  const server = await startRealRedis();
  const client = await RespClient.connect(server.port);
  return {
    // the server's CPU, not this client's: the work measured is running the scripts
    cpuSeconds: () => procCpuSeconds(server.pid),
    async setup() {
      await client.pipeline([['FLUSHALL'], ['SCRIPT', 'LOAD', lockLua], ['SCRIPT', 'LOAD', unlockLua]]);
    },
    async run(commands) {
      return (await client.pipeline(commands)).map(outcomeOfReply);
    },
    async locksHeld() {
      const replies = await client.pipeline(
        Array.from({ length: LOCK_NAMES }, (_, i) => ['EXISTS', lockName(i)]),
      );
      return replies.reduce((n, r) => n + Number(r.v), 0);
    },
    async close() {
      client.close();
      await server.stop();
    },
  };
}

const SHIPPED_TAG = 'lockscope-fengari=shipped';

/**
 * The simulated node again, on fengari without the stack patch: a second copy of the engine's
 * modules, loaded with `import 'fengari-web'` pointed at the installed bundle with the stack-slot
 * hunks reverted (scripts/fengari-file-hooks.mjs). Same workload, same reply checks. A string says why not
 * (no patch installed: both sides would be the same).
 */
async function shippedLockscopeDriver(): Promise<Driver | string> {
  const { file } = fengariWebBundle(ROOT);
  const text = readFileSync(file, 'utf8');
  if (patchProblems(text).length > 0) return 'n/a (fengari patch not applied)';
  const dir = mkdtempSync(join(tmpdir(), 'lockscope-fengari-'));
  try {
    const shippedFile = join(dir, 'fengari-web.shipped.cjs');
    // the stack hunks only: the engine needs the owned-string push and the read-only flag
    const stackHunks = HUNKS.filter((h) => h.id.startsWith('stack-slot-'));
    writeFileSync(shippedFile, revertPatch(text, stackHunks));
    register('../../scripts/fengari-file-hooks.mjs', import.meta.url, { data: { shippedFile } });
    const load = (path: string): Promise<unknown> => import(`${path}?${SHIPPED_TAG}`);
    const server = (await load('../engine/redis/server.ts')) as typeof import('../engine/redis/server');
    const clock = (await load('../engine/clock.ts')) as typeof import('../engine/clock');
    const vm = (await load('../engine/redis/lua_vmpatch.ts')) as typeof import('../engine/redis/lua_vmpatch');
    if (vm.fengariStackPatchApplied()) throw new Error('the shipped-fengari copy loaded the patched bundle');
    return lockscopeDriver({ RedisServer: server.RedisServer, ManualClock: clock.ManualClock });
  } finally {
    // loaded by now: the module stays in memory
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The simulated node again, on engine sources from another tree (`--baseline DIR`: DIR/src is, say,
 * `git archive` of an earlier commit, next to a copy of package.json, so its .ts load as ES modules,
 * and DIR/node_modules linked to this one's). Measured in turns
 * with the current sources, so a change to the engine is compared with what it replaced in one run
 * and under the same load.
 */
async function baselineLockscopeDriver(dir: string): Promise<Driver | string> {
  const load = (path: string): Promise<unknown> => import(pathToFileURL(join(dir, path)).href);
  try {
    const server = (await load('src/engine/redis/server.ts')) as typeof import('../engine/redis/server');
    const clock = (await load('src/engine/clock.ts')) as typeof import('../engine/clock');
    return lockscopeDriver({ RedisServer: server.RedisServer, ManualClock: clock.ManualClock });
  } catch (e) {
    return `n/a (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}

// ---------------------------------------------------------------------------------------------
// Sections of the report

export interface Options {
  json: boolean;
  /** run only these sides (e.g. under --cpu-prof) */
  only: string[] | null;
  windowMs: number;
  warmupMs: number;
  /** a tree whose src/ is measured as the "baseline" side (see baselineLockscopeDriver) */
  baseline: string | null;
  /** the built app whose JavaScript the bundle section weighs (default: this tree's dist/) */
  dist: string;
}

export interface Section {
  readonly name: string;
  /** a section that runs only when --only is absent or names this key */
  readonly only?: string;
  run(opts: Options, log: (line: string) => void, report: Record<string, unknown>): Promise<unknown>;
}

/** Filled by the evalPerSec section, reported as their own keys. */
const perCpuSecond: Record<string, number | null> = {};
const sideResults: Record<string, SideResult> = {};

const evalPerSecSection: Section = {
  name: 'evalPerSec',
  async run(opts, log) {
    const wanted = (key: string) => !opts.only || opts.only.includes(key);
    // [key, label, make, measured in turns with the other such sides (see measureInterleaved)]
    const sides: [string, string, () => Promise<Driver | string>, boolean][] = [
      ['lockscope', 'LockScope simulated node (RedisServer.exec)', async () => lockscopeDriver(), true],
      [
        'lockscopeShipped',
        "  the same, stack-slot hunks reverted (fengari's delete)",
        shippedLockscopeDriver,
        true,
      ],
      ...(opts.baseline === null
        ? []
        : [
            [
              'lockscopeBaseline',
              `  the same, engine sources of ${opts.baseline}`,
              () => baselineLockscopeDriver(opts.baseline!),
              true,
            ] as [string, string, () => Promise<Driver | string>, boolean],
          ]),
      ['ioredisMock', 'ioredis-mock 8 (fengari)', async () => ioredisMockDriver(), false],
      [
        'redisServer',
        'redis-server 7 on loopback, pipelined x1000',
        async () => (await realRedisDriver()) ?? 'n/a (redis-server not found)',
        true,
      ],
    ];
    const outcome = new Map<string, SideResult | string>();
    const inTurns: [string, Driver][] = [];
    for (const [key, , make, turns] of sides) {
      if (!wanted(key) || !turns) continue;
      const d = await make();
      if (typeof d === 'string') outcome.set(key, d);
      else inTurns.push([key, d]);
    }
    const results = await measureInterleaved(
      inTurns.map((d) => d[1]),
      opts.windowMs,
      opts.warmupMs,
    );
    inTurns.forEach(([key], i) => outcome.set(key, results[i]));
    for (const [key, , make, turns] of sides) {
      if (!wanted(key) || turns) continue;
      const d = await make();
      outcome.set(key, typeof d === 'string' ? d : await measure(d, opts.windowMs, opts.warmupMs));
    }
    const figures: Record<string, number | null> = {};
    const rows: string[][] = [];
    const fmt = (n: number | null) => (n === null ? 'n/a' : n.toLocaleString('en-US'));
    for (const [key, label] of sides) {
      const r = outcome.get(key);
      if (r === undefined) continue;
      if (typeof r === 'string') {
        figures[key] = null;
        perCpuSecond[key] = null;
        rows.push([label, r, '', '', '']);
        continue;
      }
      sideResults[key] = r;
      figures[key] = r.evalPerSec;
      perCpuSecond[key] = r.evalPerCpuSec;
      rows.push([label, fmt(r.evalPerSec), fmt(r.evalPerCpuSec), String(r.evals), String(r.acquisitions)]);
    }
    log(table(['side', 'EVALSHA/s', 'per CPU-second', 'evals', 'acquisitions'], rows));
    log('(per CPU-second: of the process running the scripts; wall-clock figures sink on a busy machine)');
    log('(LockScope and redis-server sides ran in turns, one batch each, so the load weighs on them alike)');
    log('(every eval counted had its reply checked: nil, nil, 0, 1 per lock/re-enter/unlock/unlock)');
    const base = perCpuSecond.lockscopeBaseline;
    if (perCpuSecond.lockscope && base)
      log(
        `(these sources vs the baseline's, per CPU-second: ${(perCpuSecond.lockscope / base).toFixed(2)}x)`,
      );
    log('');
    return figures;
  },
};

const evalPerCpuSecSection: Section = {
  name: 'evalPerCpuSec',
  async run() {
    return perCpuSecond;
  },
};

/** Every measured side in full (evals = replies checked), for tools reading the JSON line. */
const sidesSection: Section = {
  name: 'sides',
  async run() {
    return sideResults;
  },
};

/** Whether the fengari the figures ran on carries LockScope's patch (docs/fengari-patch.md). */
const fengariPatchSection: Section = {
  name: 'fengariPatch',
  async run(_opts, log) {
    const { file, version } = fengariWebBundle(ROOT);
    // under LOCKSCOPE_FENGARI_FILE (scripts/fengari-file-loader.mjs) that file is what the engine loads
    const loaded = process.env.LOCKSCOPE_FENGARI_FILE ?? file;
    const problems = patchProblems(readFileSync(loaded, 'utf8'));
    // the file says what was installed; the probe says what the engine actually runs on
    const behaves = fengariStackPatchApplied();
    const applied = problems.length === 0 && behaves;
    const a = perCpuSecond.lockscope;
    const b = perCpuSecond.lockscopeShipped;
    // with vs without the stack-slot hunks, per CPU-second, from the interleaved measurement above
    const gain = a && b ? Math.round((a / b) * 100) / 100 : null;
    log(
      `fengari-web ${version}: LockScope patch ${applied ? 'applied' : 'NOT applied'}` +
        (gain === null ? '' : `; the stack-slot hunks gain ${gain}x per CPU-second`),
    );
    return { version, applied, behaviour: behaves, problems, gain };
  },
};

/** Add sections here; each becomes one key of the JSON line. A section can read the earlier ones. */
const sections: Section[] = [
  evalPerSecSection,
  evalPerCpuSecSection,
  sidesSection,
  fengariPatchSection,
  { ...simSection, only: 'sim' },
  { ...exploreSection, only: 'explore' },
  { ...scaleSection, only: 'scale' },
  { ...bundleSection, only: 'bundle' },
  targetsSection,
];

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    json: false,
    only: null,
    windowMs: 2000,
    warmupMs: 500,
    baseline: null,
    dist: join(ROOT, 'dist'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--time') opts.windowMs = Number(argv[++i]);
    else if (a === '--warmup') opts.warmupMs = Number(argv[++i]);
    else if (a === '--only') opts.only = (argv[++i] ?? '').split(',');
    else if (a === '--baseline') opts.baseline = resolve(argv[++i] ?? '');
    else if (a === '--dist') opts.dist = resolve(argv[++i] ?? '');
    else
      throw new Error(
        `unknown option ${a} (use --json, --time MS, --warmup MS, --baseline DIR, --dist DIR, --only lockscope,lockscopeShipped,lockscopeBaseline,ioredisMock,redisServer,sim,explore,scale,bundle)`,
      );
  }
  if (!(opts.windowMs > 0) || !(opts.warmupMs >= 0)) throw new Error('--time and --warmup take milliseconds');
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const log = opts.json ? () => {} : (line: string) => console.log(line);
  log(
    `Redisson lock + unlock by EVALSHA, ${opts.warmupMs} ms warm-up, ${opts.windowMs} ms window per side\n`,
  );
  const report: Record<string, unknown> = {};
  for (const s of sections) {
    if (s.only && opts.only && !opts.only.includes(s.only)) continue;
    report[s.name] = await s.run(opts, log, report);
  }
  if (opts.json) console.log(JSON.stringify(report));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
