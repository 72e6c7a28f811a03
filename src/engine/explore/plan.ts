/**
 * What variant generation needs from the base scenario and its run (`SearchPlan`), and variant i
 * as a pure function of the plan and i (`variantAt`). The plan is plain data: the page posts it
 * to Web Workers, each of which generates and runs its own share of the indices.
 */
import { prngFor, type Xoshiro128 } from '../sim/prng';
import { runScenario } from '../scenario/run';
import type { Fault, Op, Scenario } from '../scenario/schema';
import { LIMITS } from '../scenario/defaults';
import { nodeIds } from '../topology/nodes';
import { LIVENESS_KINDS, SAFETY_KINDS, type Trace, type Violation, type ViolationKind } from '../trace/types';
import { isThreadActor } from '../trace/actors';

import { EXPLORE_FAULT_KINDS, type ExploreFaultKind } from './kinds';

export { EXPLORE_FAULT_KINDS, type ExploreFaultKind };

/** Every checked kind: safety (V1–V3) and liveness (L1–L7). */
export const VIOLATION_KINDS: readonly ViolationKind[] = [...SAFETY_KINDS, ...LIVENESS_KINDS];

/** One change a variant makes to the base scenario. */
export type Change =
  /** a fault appended to the scenario's faults (a node crash and its restart are two) */
  | { kind: 'add'; tag: ExploreFaultKind; fault: Fault }
  /** the scenario's own fault `index` moved to `at` (a partition's heal moves with it) */
  | { kind: 'move'; index: number; at: number }
  /** replica `replica` (1-based, as in "replica-1") replicates `lagMs` late */
  | { kind: 'lag'; replica: number; lagMs: number };

export interface Variant {
  index: number;
  changes: Change[];
}

/** A time of the base run worth putting a fault at, and why. */
export interface Moment {
  t: number;
  why: string;
}

export interface SearchOptions {
  /** the search seed (not the scenario's): the same seed gives the same variants */
  seed?: number;
  /** kinds of change allowed (default: all that apply to the scenario) */
  faults?: readonly ExploreFaultKind[];
  /** violation kinds that count as found (default V1, V2, V3, L1) */
  violations?: readonly ViolationKind[];
  /** at most this many changes per schedule (default 3) */
  maxChanges?: number;
}

export interface SearchPlan {
  base: Scenario;
  seed: number;
  /** the allowed kinds that can apply to this scenario (no replica lag without replicas, …) */
  kinds: ExploreFaultKind[];
  /** allowed kinds that cannot apply here, for the report */
  inapplicable: ExploreFaultKind[];
  violations: ViolationKind[];
  maxChanges: number;
  /** violations the base run already has (`baseKey`): a variant must show another */
  baseKeys: string[];
  baseViolations: Violation[];
  /** faults are placed in [0, horizon]: the base run's end */
  horizon: number;
  moments: Moment[];
  /** the times (leases, timeouts, down-after) durations are drawn around, ascending */
  scales: number[];
  latencyMs: number;
  clients: { id: string; threads: number[] }[];
  /** data nodes (masters and replicas) */
  nodes: string[];
  /** ids a partition can name: data nodes, clients, and "sentinels" */
  endpoints: string[];
}

/** Distinct violations, for `collect`: by kind and lock. */
export function violationKey(v: Pick<Violation, 'kind' | 'lock'>): string {
  return `${v.kind} ${v.lock}`;
}

/**
 * A violation the base run already shows, down to who is involved: a variant where two other
 * threads overlap on the same lock has found something new.
 */
export function baseKey(v: Pick<Violation, 'kind' | 'lock' | 'holders'>): string {
  return `${v.kind} ${v.lock} ${v.holders.join(',')}`;
}

/** Runs the base once and gathers what variant generation needs. */
export function planSearch(base: Scenario, opts: SearchOptions = {}): SearchPlan {
  const run = runScenario(base);
  const sentinel = base.redis.topology === 'sentinel';
  const allowed = opts.faults ?? EXPLORE_FAULT_KINDS;
  const applies = (k: ExploreFaultKind): boolean =>
    k === 'replica-lag'
      ? base.redis.replicas.length > 0 && base.redis.topology !== 'independent'
      : k === 'move'
        ? base.faults.length > 0
        : true;
  const kinds = EXPLORE_FAULT_KINDS.filter((k) => allowed.includes(k) && applies(k));
  const inapplicable = EXPLORE_FAULT_KINDS.filter((k) => allowed.includes(k) && !applies(k));
  const all = nodeIds(base.redis);
  const nodes = all.filter((n) => !n.startsWith('sentinel-'));
  const clients = base.clients.map((c) => ({ id: c.id, threads: c.threads.map((t) => t.id) }));
  const violations = [...(opts.violations ?? VIOLATION_KINDS)];
  const baseViolations = run.trace.violations;
  const horizon = Math.max(1, Math.min(run.endedAt, base.until ?? LIMITS.ms));
  return {
    base,
    seed: opts.seed ?? 1,
    kinds,
    inapplicable,
    violations,
    maxChanges: Math.max(1, opts.maxChanges ?? 3),
    baseKeys: [...new Set(baseViolations.map(baseKey))],
    baseViolations,
    horizon,
    moments: momentsOf(run.trace, base.network.latencyMs, horizon),
    scales: scalesOf(base),
    latencyMs: base.network.latencyMs,
    clients,
    nodes,
    endpoints: [...nodes, ...clients.map((c) => c.id), ...(sentinel ? ['sentinels'] : [])],
  };
}

/** At most this many moments are kept (evenly spread), so a long trace does not crowd out the rest. */
const MAX_MOMENTS = 400;

/**
 * The interesting times of the base run: just after an acquire returns, while a thread waits
 * (and while WAIT blocks), between a lock's commands (a naive lock's GET and DEL, SETNX and
 * EXPIRE), just before a renewal, an unlock or an expiry, and during a failover.
 */
export function momentsOf(trace: Pick<Trace, 'events'>, latencyMs: number, horizon: number): Moment[] {
  const out: Moment[] = [];
  const seen = new Set<string>();
  const add = (t: number, why: string) => {
    const at = Math.round(t);
    if (at < 0 || at > horizon) return;
    const k = `${at} ${why}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ t: at, why });
  };
  for (const e of trace.events) {
    switch (e.kind) {
      case 'lock.acquired':
        add(e.t, 'after an acquire');
        break;
      case 'lock.request':
        // the acquire's reply is in flight (and WAIT blocks after the script)
        add(e.t + latencyMs, 'during an acquire');
        break;
      case 'lock.wait':
        add(e.t, 'while waiting');
        break;
      case 'cmd':
        // between a thread's commands: the reply is on its way back
        if (isThreadActor(e.actor)) add(e.t, 'between commands');
        if (e.argv[0]?.toUpperCase() === 'WAIT') add(e.t - 1, 'during WAIT');
        break;
      case 'watchdog.renew':
        add(e.t - latencyMs - 1, 'before a renewal');
        break;
      case 'unlock.request':
        add(e.t - 1, 'before an unlock');
        break;
      case 'key.expired':
        add(e.t - 1, 'before an expiry');
        break;
      case 'sentinel.sdown':
      case 'sentinel.odown':
      case 'failover.promote':
        add(e.t, 'during a failover');
        break;
      case 'work.start':
        if (e.critical) add(e.t, 'in a critical section');
        break;
      default:
        break;
    }
  }
  out.sort((a, b) => a.t - b.t || (a.why < b.why ? -1 : a.why > b.why ? 1 : 0));
  if (out.length <= MAX_MOMENTS) return out;
  const step = out.length / MAX_MOMENTS;
  return Array.from({ length: MAX_MOMENTS }, (_, i) => out[Math.floor(i * step)]);
}

function collectLeases(ops: readonly Op[], into: Set<number>): void {
  for (const op of ops) {
    if ('leaseMs' in op && op.leaseMs !== undefined) into.add(op.leaseMs);
    if ('waitMs' in op && op.waitMs !== undefined) into.add(op.waitMs);
    if (op.op === 'repeat') collectLeases(op.body, into);
    if (op.op === 'try') {
      collectLeases(op.body, into);
      collectLeases(op.catch ?? [], into);
      collectLeases(op.finally ?? [], into);
    }
  }
}

/** The scenario's own times: leases, the watchdog timeout, down-after plus failover, timeouts. */
function scalesOf(s: Scenario): number[] {
  const set = new Set<number>([s.redisson.lockWatchdogTimeout, s.redisson.timeoutMs]);
  for (const c of s.clients) for (const t of c.threads) collectLeases(t.program, set);
  if (s.redis.topology === 'sentinel') set.add(s.redis.sentinel.downAfterMs + s.redis.sentinel.failoverMs);
  if (s.redis.replicas.length > 0) set.add(s.redisson.slavesSyncTimeout);
  return [...set].filter((x) => x > 0).sort((a, b) => a - b);
}

/** Multiples of a scale a duration is drawn from: just under, just over, well over. */
const FACTORS = [0.1, 0.5, 0.9, 1.05, 1.2, 1.5, 2, 3];

function pick<T>(r: Xoshiro128, xs: readonly T[]): T {
  return xs[r.int(0, xs.length - 1)];
}

function duration(plan: SearchPlan, r: Xoshiro128): number {
  const max = plan.scales[plan.scales.length - 1] ?? 1000;
  const d =
    r.next() < 0.85
      ? Math.round(pick(r, plan.scales) * pick(r, FACTORS)) + r.int(0, 4 * Math.max(1, plan.latencyMs))
      : r.int(1, 3 * max);
  return Math.max(1, Math.min(d, LIMITS.ms));
}

/** Three faults in four go to a moment of the base run (give or take a few ms), the rest anywhere. */
function time(plan: SearchPlan, r: Xoshiro128): number {
  if (plan.moments.length > 0 && r.next() < 0.75) {
    const m = pick(r, plan.moments);
    const jitter = r.next() < 0.5 ? 0 : r.int(-1, 2 * Math.max(1, plan.latencyMs) + 2);
    return clampTime(plan, m.t + jitter);
  }
  return clampTime(plan, r.int(0, plan.horizon));
}

export function clampTime(plan: Pick<SearchPlan, 'horizon'>, t: number): number {
  return Math.max(0, Math.min(Math.round(t), plan.horizon));
}

/** Variant `index` of the search: which kinds this schedule enables (swarm testing), then its changes. */
export function variantAt(plan: SearchPlan, index: number): Variant {
  const r = prngFor(plan.seed, `explore/${index}`);
  if (plan.kinds.length === 0) return { index, changes: [] };
  // Swarm testing: each schedule enables a random subset of the allowed kinds, so a kind that
  // masks another (a crash hides a pause) is often absent.
  let enabled = plan.kinds.filter(() => r.next() < 0.5);
  if (enabled.length === 0) enabled = [pick(r, plan.kinds)];
  const n = Math.min(plan.maxChanges, r.next() < 0.5 ? 1 : r.int(1, plan.maxChanges));
  const changes: Change[] = [];
  for (let i = 0; i < n; i++) changes.push(...changeOf(plan, r, pick(r, enabled)));
  return { index, changes };
}

function changeOf(plan: SearchPlan, r: Xoshiro128, kind: ExploreFaultKind): Change[] {
  const add = (fault: Fault): Change => ({ kind: 'add', tag: kind, fault });
  const at = time(plan, r);
  switch (kind) {
    case 'pause':
      return [add({ kind: 'pause', at, client: pick(r, plan.clients).id, ms: duration(plan, r) })];
    case 'client-crash':
      return [add({ kind: 'crash', at, client: pick(r, plan.clients).id })];
    case 'node-crash': {
      const node = pick(r, plan.nodes);
      const crash = add({ kind: 'crash', at, node });
      if (r.next() < 0.5) return [crash];
      return [crash, add({ kind: 'restart', at: clampTime(plan, at + duration(plan, r)), node })];
    }
    case 'partition': {
      const alone = pick(r, plan.endpoints);
      // Sometimes a client stays on the isolated side (split brain: the old master keeps its holder).
      const company = plan.clients.map((c) => c.id).filter((c) => c !== alone && r.next() < 0.25);
      const side = [alone, ...company];
      const rest = plan.endpoints.filter((e) => !side.includes(e));
      if (rest.length === 0) return [];
      const fault: Fault = { kind: 'partition', at, groups: [side, rest] };
      if (r.next() < 0.85) fault.healAt = Math.min(at + duration(plan, r), LIMITS.ms);
      return [add(fault)];
    }
    case 'clock': {
      const jump = duration(plan, r);
      return [add({ kind: 'clock', at, node: pick(r, plan.nodes), jumpMs: r.next() < 0.8 ? jump : -jump })];
    }
    case 'replica-lag': {
      const replicas = plan.base.redis.replicas.length;
      return [{ kind: 'lag', replica: r.int(1, replicas), lagMs: duration(plan, r) }];
    }
    case 'interrupt': {
      const c = pick(r, plan.clients);
      return [add({ kind: 'interrupt', at, client: c.id, thread: pick(r, c.threads) })];
    }
    case 'move':
      return [{ kind: 'move', index: r.int(0, plan.base.faults.length - 1), at }];
    case 'latency': {
      // mostly one endpoint's links (a slow client, a slow node), sometimes every link
      const endpoints = r.next() < 0.8 ? [pick(r, plan.endpoints)] : undefined;
      const fault: Fault = {
        kind: 'latency',
        at,
        ms: duration(plan, r),
        endAt: Math.min(at + duration(plan, r), LIMITS.ms),
      };
      if (endpoints !== undefined) fault.endpoints = endpoints;
      return [add(fault)];
    }
  }
}

/** The scenario variant `changes` describe (the base is left alone). */
export function applyChanges(base: Scenario, changes: readonly Change[]): Scenario {
  let faults: Fault[] = base.faults;
  let replicas = base.redis.replicas;
  const added: Fault[] = [];
  for (const c of changes) {
    if (c.kind === 'add') added.push(c.fault);
    else if (c.kind === 'move') {
      if (faults === base.faults) faults = base.faults.slice();
      faults[c.index] = moved(faults[c.index], c.at);
    } else {
      if (replicas === base.redis.replicas) replicas = base.redis.replicas.map((x) => ({ ...x }));
      replicas[c.replica - 1].lagMs = c.lagMs;
    }
  }
  const redis = replicas === base.redis.replicas ? base.redis : { ...base.redis, replicas };
  return { ...base, redis, faults: [...faults, ...added] };
}

function moved(f: Fault, at: number): Fault {
  if (f.kind === 'partition' && f.healAt !== undefined)
    return { ...f, at, healAt: Math.min(f.healAt + (at - f.at), LIMITS.ms) };
  if (f.kind === 'latency') return { ...f, at, endAt: Math.min(f.endAt + (at - f.at), LIMITS.ms) };
  return { ...f, at };
}
