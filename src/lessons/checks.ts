/** Evaluating and describing Checks (types.ts) against a run at a cursor. */
import { firstKeyMatching } from './key-pattern';
import {
  keyHashSlot,
  type Scenario,
  type ScenarioRun,
  type TraceEvent,
  type Violation,
  type VisibleState,
} from './engine';
import { shownVerdict } from './engine';
import { readPointer } from './patch';
import { describeSelector, findEvent, matchAll, SelectorError } from './select';
import type { Check, KeyCheck, SlotCheck, ThreadCheck } from './types';

/** A run seen from one event: what the checks read. */
export interface Cursor {
  run: ScenarioRun;
  /** index of the cursor's event in run.trace.events (-1: before the first) */
  index: number;
  state: VisibleState;
}

/** The scenario each run was made from (defaults filled in), for `setting` checks. */
const scenarios = new WeakMap<ScenarioRun, Scenario>();

export function rememberScenario(run: ScenarioRun, scenario: Scenario): void {
  scenarios.set(run, scenario);
}

export function cursorAt(run: ScenarioRun, index: number): Cursor {
  return { run, index, state: run.stateAt(index) };
}

export function endOf(run: ScenarioRun): Cursor {
  return cursorAt(run, run.trace.events.length - 1);
}

export interface CheckResult {
  what: string;
  ok: boolean;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The violations begun at or before the cursor, each with whether it was still open there. The
 * monitor records a violation and emits its violation.start together, so the k-th start event is
 * the k-th violation of the trace.
 */
export function violationsAt(c: Cursor): { v: Violation; open: boolean }[] {
  const events = c.run.trace.events;
  const out: { v: Violation; open: boolean }[] = [];
  let k = 0;
  for (let i = 0; i <= c.index; i++) {
    const ev = events[i];
    if (ev.kind !== 'violation.start') continue;
    const v = c.run.trace.violations[k++];
    if (v === undefined) break;
    let open = true;
    for (let j = i + 1; j <= c.index; j++) {
      const e = events[j];
      if (e.kind === 'violation.end' && e.violation === v.kind && e.lock === v.lock) {
        open = false;
        break;
      }
    }
    out.push({ v, open });
  }
  return out;
}

/**
 * The server-side identities `actor` stores for `lock` (the hash field "<uuid>:<thread>" of a
 * Redisson lock, the token of a naive lock): those of its latest acquisition (or request, which
 * names them too) at or before `upTo`, else its first in the run, else those it used for any lock.
 * A MultiLock / RedLock over several Redisson instances writes one field per instance (`owner`
 * plus `owners`); which instance talks to which node is not in the trace, but every one of these
 * fields is this thread's alone, so finding any of them on a node shows the thread holds it there.
 */
function ownerFields(
  events: readonly TraceEvent[],
  actor: string,
  lock: string,
  upTo: number,
): string[] | undefined {
  const mine = (e: TraceEvent) =>
    (e.kind === 'lock.acquired' || e.kind === 'lock.request') &&
    e.actor === actor &&
    (e.lock === lock || e.key === lock) &&
    typeof e.owner === 'string';
  const fields = (e: TraceEvent | undefined): string[] | undefined => {
    if (e === undefined || typeof e.owner !== 'string') return undefined;
    const others = Array.isArray(e.owners) ? (e.owners as unknown[]) : [];
    return [e.owner, ...others.filter((o): o is string => typeof o === 'string')];
  };
  for (let i = Math.min(upTo, events.length - 1); i >= 0; i--) if (mine(events[i])) return fields(events[i]);
  const found = fields(events.find(mine));
  if (found !== undefined) return found;
  // a MultiLock's parts are named only by the MultiLock's events; a Redisson thread has one
  // identity ("<uuid>:<thread>") per Redisson instance, whatever lock it takes
  return fields(
    events.find((e) => e.kind === 'lock.acquired' && e.actor === actor && typeof e.owner === 'string'),
  );
}

function keyCheck(c: Cursor, k: KeyCheck): string | null {
  const nodes = c.state.nodes;
  let nodeId = k.node;
  const named = (id: string) => firstKeyMatching(k.key, Object.keys(nodes[id].keys));
  if (nodeId === undefined) {
    const masters = Object.keys(nodes).filter((id) => nodes[id].role === 'master');
    nodeId = masters.find((id) => named(id) !== undefined) ?? masters[0];
  }
  const node = nodeId === undefined ? undefined : nodes[nodeId];
  if (node === undefined) return `no node ${nodeId ?? '(master)'}`;
  const name = named(nodeId!);
  const view = name === undefined ? undefined : node.keys[name];
  if (k.is === 'absent') return view === undefined ? null : `${k.key} exists on ${nodeId}`;
  if (view === undefined) return `${k.key} does not exist on ${nodeId}`;
  if (k.is !== undefined && view.type !== k.is) return `${k.key} is a ${view.type}`;
  if (k.value !== undefined && view.value !== k.value) return `value is ${JSON.stringify(view.value)}`;
  if (k.fields !== undefined || k.holder !== undefined) {
    if (view.type !== 'hash') return `${k.key} is a ${view.type}, not a hash`;
    const pairs = view.value as [string, string][];
    if (k.fields !== undefined && pairs.length !== k.fields) return `${pairs.length} field(s)`;
    if (k.holder !== undefined) {
      const ids = ownerFields(c.run.trace.events, k.holder.owner, k.key, c.index);
      if (ids === undefined) return `${k.holder.owner} never asked for ${k.key}`;
      const held = pairs.filter(([f]) => ids.includes(f));
      const want = k.holder.count === null ? undefined : String(k.holder.count);
      if (held.length > 1)
        return `${held.length} fields of ${k.holder.owner}: ${held.map(([f]) => f).join(', ')}`;
      const got = held[0]?.[1];
      if (got !== want) return `field ${held[0]?.[0] ?? ids.join(' / ')} is ${got ?? 'absent'}`;
    }
  }
  if (k.ownedBy !== undefined) {
    const ids = ownerFields(c.run.trace.events, k.ownedBy, k.key, c.index);
    if (ids === undefined) return `${k.ownedBy} never asked for ${k.key}`;
    const mine =
      view.type === 'string'
        ? ids.includes(view.value as string)
        : view.type === 'hash' && (view.value as [string, string][]).some(([f]) => ids.includes(f));
    if (!mine) return `${k.key} is not ${k.ownedBy}'s (${JSON.stringify(view.value)})`;
  }
  if (k.pttl !== undefined) {
    if (k.pttl === 'none') return view.expireAt === null ? null : `PTTL ${view.expireAt - c.state.t}`;
    if (view.expireAt === null) return 'no expiry (PTTL -1)';
    // expireAt is on the node's clock; lessons that check a PTTL do not jump clocks
    const pttl = view.expireAt - c.state.t;
    if ((k.pttl.min !== undefined && pttl < k.pttl.min) || (k.pttl.max !== undefined && pttl > k.pttl.max))
      return `PTTL ${pttl}`;
  }
  return null;
}

function threadCheck(c: Cursor, k: ThreadCheck): string | null {
  const th = c.state.threads[k.thread];
  if (th === undefined) return `no thread ${k.thread}`;
  if (k.state !== undefined) {
    const want = Array.isArray(k.state) ? k.state : [k.state];
    if (!want.includes(th.state)) return `state is ${th.state}`;
  }
  if (k.holds !== undefined) {
    const n = th.holds[k.holds.lock] ?? 0;
    if (n !== k.holds.count) return `holds ${k.holds.lock} ${n} time(s)`;
  }
  if (k.lastResult !== undefined) {
    const last = th.results[th.results.length - 1];
    if (!same(last, k.lastResult)) return `last result is ${JSON.stringify(last)}`;
  }
  return null;
}

const inRange = (n: number, min?: number, max?: number) =>
  (min === undefined || n >= min) && (max === undefined || n <= max);

function slotCheck(k: SlotCheck): string | null {
  const slot = keyHashSlot(k.slot);
  if (k.is !== undefined && slot !== k.is) return `${k.slot} is in slot ${slot}`;
  if (!inRange(slot, k.min, k.max)) return `${k.slot} is in slot ${slot}`;
  if (k.sameAs !== undefined && keyHashSlot(k.sameAs) !== slot)
    return `${k.slot} is in slot ${slot}, ${k.sameAs} in ${keyHashSlot(k.sameAs)}`;
  return null;
}

/** null when the check holds at the cursor, else why not (short, for the CLI). */
export function failure(c: Cursor, check: Check): string | null {
  const events = c.run.trace.events;
  try {
    if ('all' in check) {
      for (const x of check.all) {
        const f = failure(c, x);
        if (f !== null) return f;
      }
      return null;
    }
    if ('any' in check) {
      const fs = check.any.map((x) => failure(c, x));
      return fs.some((f) => f === null) ? null : fs.join('; ');
    }
    if ('not' in check) return failure(c, check.not) === null ? 'it holds' : null;
    if ('key' in check) return keyCheck(c, check);
    if ('thread' in check) return threadCheck(c, check);
    if ('slot' in check) return slotCheck(check);
    if ('violation' in check) {
      const hit = violationsAt(c).find(
        ({ v, open }) =>
          v.kind === check.violation &&
          (check.lock === undefined || v.lock === check.lock) &&
          (check.open === undefined || open === check.open) &&
          (check.holders === undefined || same(v.holders, check.holders)),
      );
      return hit === undefined ? 'none' : null;
    }
    if ('noViolation' in check) {
      const hit = violationsAt(c).find(
        ({ v }) =>
          (check.noViolation === 'any' || v.kind === check.noViolation) &&
          (check.lock === undefined || v.lock === check.lock),
      );
      return hit === undefined ? null : `${hit.v.kind} on ${hit.v.lock} from ${hit.v.from} ms`;
    }
    if ('reply' in check) {
      const i = check.of === undefined ? c.index : findEvent(events, check.of);
      const ev = events[i];
      if (ev === undefined || !('reply' in ev)) return `event #${i} has no reply`;
      return same(ev.reply, check.reply) ? null : `reply is ${JSON.stringify(ev.reply)}`;
    }
    if ('count' in check) {
      const n = matchAll(events, check.count, c.index).length;
      return inRange(n, check.min, check.max) ? null : `${n} event(s)`;
    }
    if ('gap' in check) {
      const d = events[findEvent(events, check.gap.to)].t - events[findEvent(events, check.gap.from)].t;
      return inRange(d, check.min, check.max) ? null : `${d} ms`;
    }
    if ('verdict' in check) {
      const v = shownVerdict(c.run.trace);
      return v === check.verdict ? null : `verdict is ${v}`;
    }
    if ('resource' in check) {
      const r = c.state.resource;
      for (const [k, want] of Object.entries(check.resource)) {
        const got = r[k as keyof typeof r] ?? 0;
        if (got !== want) return `resource ${k} is ${got}`;
      }
      return null;
    }
    if ('setting' in check) {
      const s = scenarios.get(c.run);
      if (s === undefined) return 'the run’s scenario is not known';
      const got = readPointer(s, check.setting) ?? null;
      return same(got, check.is) ? null : `${check.setting} is ${JSON.stringify(got)}`;
    }
    return 'unknown check';
  } catch (e) {
    if (e instanceof SelectorError) return e.message;
    throw e;
  }
}

const range = (min?: number, max?: number, unit = '') =>
  min !== undefined && max !== undefined
    ? `${min}..${max}${unit}`
    : min !== undefined
      ? `>= ${min}${unit}`
      : `<= ${max}${unit}`;

/** One line saying what a check asserts (the CLI's and the JSON's `what`). */
export function describeCheck(check: Check): string {
  if ('all' in check) return check.all.map(describeCheck).join(' and ');
  if ('any' in check) return `(${check.any.map(describeCheck).join(' or ')})`;
  if ('not' in check) return `not (${describeCheck(check.not)})`;
  if ('key' in check) {
    const on = check.node === undefined ? '' : ` on ${check.node}`;
    const parts: string[] = [];
    if (check.is !== undefined) parts.push(check.is === 'absent' ? 'is absent' : `is a ${check.is}`);
    if (check.value !== undefined) parts.push(`= ${JSON.stringify(check.value)}`);
    if (check.fields !== undefined) parts.push(`has ${check.fields} field(s)`);
    if (check.holder !== undefined)
      parts.push(
        check.holder.count === null
          ? `has no field of ${check.holder.owner}`
          : `field of ${check.holder.owner} = ${check.holder.count}`,
      );
    if (check.ownedBy !== undefined) parts.push(`belongs to ${check.ownedBy}`);
    if (check.pttl !== undefined)
      parts.push(check.pttl === 'none' ? 'has no TTL' : `PTTL ${range(check.pttl.min, check.pttl.max)}`);
    return `key ${check.key}${on} ${parts.join(', ') || 'exists'}`;
  }
  if ('thread' in check) {
    const parts: string[] = [];
    if (check.state !== undefined)
      parts.push(`is ${Array.isArray(check.state) ? check.state.join('|') : check.state}`);
    if (check.holds !== undefined) parts.push(`holds ${check.holds.lock} x${check.holds.count}`);
    if (check.lastResult !== undefined) parts.push(`last result ${JSON.stringify(check.lastResult)}`);
    return `thread ${check.thread} ${parts.join(', ')}`;
  }
  if ('violation' in check)
    return `${check.open === true ? 'open ' : ''}${check.violation}${check.lock === undefined ? '' : ` on ${check.lock}`}${check.holders === undefined ? '' : ` between ${check.holders.join(', ')}`}`;
  if ('noViolation' in check)
    return `no ${check.noViolation === 'any' ? 'violation' : check.noViolation}${check.lock === undefined ? '' : ` on ${check.lock}`} so far`;
  if ('reply' in check)
    return `reply of ${check.of === undefined ? 'the cursor event' : describeSelector(check.of)} is ${JSON.stringify(check.reply)}`;
  if ('count' in check) return `${range(check.min, check.max)} x ${describeSelector(check.count)} so far`;
  if ('gap' in check)
    return `${range(check.min, check.max, ' ms')} from ${describeSelector(check.gap.from)} to ${describeSelector(check.gap.to)}`;
  if ('verdict' in check) return `verdict ${check.verdict}`;
  if ('slot' in check) {
    const parts: string[] = [];
    if (check.is !== undefined) parts.push(`${check.is}`);
    if (check.min !== undefined || check.max !== undefined) parts.push(`in ${range(check.min, check.max)}`);
    if (check.sameAs !== undefined) parts.push(`the slot of ${check.sameAs}`);
    return `slot of ${check.slot} is ${parts.join(', ') || 'any'}`;
  }
  if ('setting' in check) return `setting ${check.setting} = ${JSON.stringify(check.is)}`;
  if ('resource' in check)
    return `resource ${Object.entries(check.resource)
      .map(([k, v]) => `${k} = ${v}`)
      .join(', ')}`;
  return 'unknown check';
}
