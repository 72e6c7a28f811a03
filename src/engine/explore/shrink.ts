/**
 * Shrinking a violating schedule: apply one simplification at a time (drop a change, shorten a
 * pause, a partition, a clock jump, a lag, a latency spike's delay or window or a node's down time, move a time to a rounder value),
 * keep it while the same violation (kind and lock) still happens, until no single one keeps it.
 * The result is 1-minimal with respect to `simplifications`: every one of them loses the violation.
 */
import type { Fault, Scenario } from '../scenario/schema';
import type { Violation } from '../trace/types';
import { applyChanges, type Change, type SearchPlan, type Variant } from './plan';
import { changesViolation } from './search';

export interface Simplification {
  changes: Change[];
  /** what it did, for the report ("removed pause of A at 1006 ms for 31500 ms") */
  what: string;
}

export interface ShrinkResult {
  scenario: Scenario;
  changes: Change[];
  violation: Violation;
  /** simplifications kept */
  steps: number;
  /** runs made while shrinking */
  runs: number;
  /** what each kept simplification did, in order */
  removed: string[];
}

export function describeFault(f: Fault): string {
  switch (f.kind) {
    case 'pause':
      return `pause of ${f.client} at ${f.at} ms for ${f.ms} ms`;
    case 'crash':
      return f.client !== undefined
        ? `crash of client ${f.client} at ${f.at} ms`
        : `crash of ${f.node} at ${f.at} ms`;
    case 'restart':
      return `restart of ${f.node} at ${f.at} ms`;
    case 'partition':
      return (
        `partition ${f.groups.map((g) => `[${g.join(', ')}]`).join(' | ')} at ${f.at} ms` +
        (f.healAt === undefined ? ', never healed' : `, healed at ${f.healAt} ms`) +
        (f.reset === true ? ', resetting the connections it cuts' : '')
      );
    case 'clock':
      return `clock jump of ${f.node} by ${f.jumpMs} ms at ${f.at} ms`;
    case 'interrupt':
      return `interrupt of ${f.client}:${f.thread} at ${f.at} ms`;
    case 'cancel':
      return `cancel of ${f.client}:${f.thread}'s acquire at ${f.at} ms`;
    case 'stall':
      return `stall of ${f.node} at ${f.at} ms for ${f.ms} ms`;
    case 'starve':
      return `event-loop starvation of ${f.client} at ${f.at} ms for ${f.ms} ms`;
    case 'latency':
      return (
        `latency spike of +${f.ms} ms on ${f.endpoints === undefined ? 'every link' : `links of ${f.endpoints.join(', ')}`}` +
        ` from ${f.at} ms to ${f.endAt} ms`
      );
  }
}

export function describeChange(plan: SearchPlan, c: Change): string {
  if (c.kind === 'add') return describeFault(c.fault);
  if (c.kind === 'move') return `${describeFault(plan.base.faults[c.index])} moved to ${c.at} ms`;
  return `replica-${c.replica} lag ${c.lagMs} ms (was ${plan.base.redis.replicas[c.replica - 1].lagMs} ms)`;
}

/**
 * The lengths a change has that a shorter one would make a smaller fault: each with the change
 * it becomes at another length (a latency spike has two, its delay and its window).
 */
function lengthsOf(c: Change, all: readonly Change[]): { len: number; set: (len: number) => Change }[] {
  if (c.kind === 'lag') return [{ len: c.lagMs, set: (lagMs) => ({ ...c, lagMs }) }];
  if (c.kind !== 'add') return [];
  const f = c.fault;
  const one = (len: number, fault: (len: number) => Fault) => [
    { len, set: (l: number) => ({ ...c, fault: fault(l) }) },
  ];
  if (f.kind === 'pause') return one(f.ms, (ms) => ({ ...f, ms }));
  if (f.kind === 'partition')
    return f.healAt === undefined ? [] : one(f.healAt - f.at, (len) => ({ ...f, healAt: f.at + len }));
  if (f.kind === 'clock')
    return one(Math.abs(f.jumpMs), (len) => ({ ...f, jumpMs: Math.sign(f.jumpMs) * len }));
  if (f.kind === 'latency')
    return [
      ...one(f.ms, (ms) => ({ ...f, ms })),
      ...one(f.endAt - f.at, (len) => ({ ...f, endAt: f.at + len })),
    ];
  if (f.kind === 'restart') {
    // the node's down time: from the latest crash of that node before the restart
    const crash = all
      .filter(
        (x) => x.kind === 'add' && x.fault.kind === 'crash' && x.fault.node === f.node && x.fault.at <= f.at,
      )
      .map((x) => (x as { fault: Fault }).fault.at);
    if (crash.length === 0) return [];
    const down = f.at - Math.max(...crash);
    return one(down, (len) => ({ ...f, at: f.at - (down - len) }));
  }
  return [];
}

function withAt(c: Change, at: number): Change {
  if (c.kind === 'move') return { ...c, at };
  if (c.kind !== 'add') return c;
  const f = c.fault;
  if (f.kind === 'partition' && f.healAt !== undefined)
    return { ...c, fault: { ...f, at, healAt: f.healAt + (at - f.at) } };
  if (f.kind === 'latency') return { ...c, fault: { ...f, at, endAt: f.endAt + (at - f.at) } };
  return { ...c, fault: { ...f, at } };
}

/**
 * Every single simplification of a schedule, the biggest first: drop one change; shorten one
 * length by half, a quarter, … down to 1 ms; move one time to a rounder value (a multiple of
 * 1000, 100 or 10 ms, when that is earlier).
 */
export function simplifications(plan: SearchPlan, changes: readonly Change[]): Simplification[] {
  const out: Simplification[] = [];
  const replace = (j: number, c: Change) => changes.map((x, k) => (k === j ? c : x));
  changes.forEach((c, j) =>
    out.push({ changes: changes.filter((_, k) => k !== j), what: `removed ${describeChange(plan, c)}` }),
  );
  changes.forEach((c, j) => {
    for (const { len, set } of lengthsOf(c, changes)) {
      for (let step = Math.floor(len / 2); step >= 1; step = Math.floor(step / 2)) {
        const shorter = set(len - step);
        if (shorter.kind === 'add' && shorter.fault.at < 0) continue;
        out.push({
          changes: replace(j, shorter),
          what: `shortened ${describeChange(plan, c)} to ${len - step} ms`,
        });
      }
    }
  });
  changes.forEach((c, j) => {
    if (c.kind === 'lag') return;
    const at = c.kind === 'move' ? c.at : c.fault.at;
    const tried = new Set<number>();
    for (const unit of [1000, 100, 10]) {
      const rounder = Math.floor(at / unit) * unit;
      if (rounder === at || tried.has(rounder)) continue;
      tried.add(rounder);
      out.push({
        changes: replace(j, withAt(c, rounder)),
        what: `moved ${describeChange(plan, c)} to ${rounder} ms`,
      });
    }
  });
  return out;
}

export interface ShrinkOptions {
  /** at most this many runs (default 2000): a bound on a pathological shrink, not a tuning knob */
  maxRuns?: number;
}

export function shrink(
  plan: SearchPlan,
  variant: Pick<Variant, 'changes'>,
  violation: Violation,
  opts: ShrinkOptions = {},
): ShrinkResult {
  const maxRuns = opts.maxRuns ?? 2000;
  const same = (v: Violation) => v.kind === violation.kind && v.lock === violation.lock;
  let changes = variant.changes.slice();
  let current = violation;
  let steps = 0;
  let runs = 0;
  const removed: string[] = [];
  const breaks = (cs: readonly Change[]): Violation | null => {
    runs++;
    return changesViolation(plan, cs, same);
  };
  const keep = (cs: Change[], v: Violation, what: string) => {
    changes = cs;
    current = v;
    steps++;
    removed.push(what);
  };
  // Drop what is not needed first: the lengths of what stays are then searched once.
  for (let j = changes.length - 1; j >= 0 && runs < maxRuns; j--) {
    const without = changes.filter((_, k) => k !== j);
    const v = breaks(without);
    if (v !== null) keep(without, v, `removed ${describeChange(plan, changes[j])}`);
  }
  // Each length by bisection (a violation usually needs a length above some threshold); the
  // sweep below catches what the assumption misses.
  for (let j = 0; j < changes.length && runs < maxRuns; j++) {
    for (let d = 0; d < lengthsOf(changes[j], changes).length && runs < maxRuns; d++) {
      // the change as it is now (an earlier dimension may have shortened it)
      const c = changes[j];
      const { len, set } = lengthsOf(c, changes)[d];
      let lo = 1;
      let hi = len;
      let best: { cs: Change[]; v: Violation } | null = null;
      while (lo < hi && runs < maxRuns) {
        const mid = Math.floor((lo + hi) / 2);
        const cs = changes.map((x, k) => (k === j ? set(mid) : x));
        const v = cs[j].kind === 'add' && (cs[j] as { fault: Fault }).fault.at < 0 ? null : breaks(cs);
        if (v !== null) {
          hi = mid;
          best = { cs, v };
        } else lo = mid + 1;
      }
      if (best !== null) keep(best.cs, best.v, `shortened ${describeChange(plan, c)} to ${hi} ms`);
    }
  }
  for (let progress = true; progress && runs < maxRuns;) {
    progress = false;
    for (const s of simplifications(plan, changes)) {
      if (runs >= maxRuns) break;
      const v = breaks(s.changes);
      if (v === null) continue;
      keep(s.changes, v, s.what);
      progress = true;
      break;
    }
  }
  return { scenario: applyChanges(plan.base, changes), changes, violation: current, steps, runs, removed };
}
