/**
 * Real against model, at one of two levels:
 *   exact       the same commands per client in the same order (scripts' own commands included),
 *               the same Java outcomes, times within the tolerance, the same final keyspace and
 *               resource;
 *   invariants  for racy scenarios: every call's outcome (acquired or not, hold counts, the
 *               exception class), how each thread ended, whether two threads ever held the same
 *               lock at once, the resource, and which keys are left.
 */
import type { Level, NormCall, NormCommand, NormKey, NormRun, Tolerance } from './shape';

export interface Difference {
  /** where: "commands A #3", "calls B:1 step 2", "keyspace master myLock" */
  where: string;
  real: string;
  model: string;
}

export interface Comparison {
  level: Level;
  differences: Difference[];
}

function close(a: number, b: number, tol: Tolerance): boolean {
  return Math.abs(a - b) <= tol.ms + tol.relative * Math.max(Math.abs(a), Math.abs(b));
}

/** Tokens equal, except `@<ms>` times, which may differ within the tolerance. */
/**
 * A latch id's number says in which order a client drew its ids; two threads of one client that
 * unlock within the tolerance of each other draw them in either order, so only the client counts.
 */
function unnumbered(s: string): string {
  return s.replace(/-latch\d+>/g, '-latch>');
}

function sameArgs(a: readonly string[], b: readonly string[], tol: Tolerance): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i] || unnumbered(a[i]) === unnumbered(b[i])) continue;
    if (a[i].startsWith('@') && b[i].startsWith('@') && close(Number(a[i].slice(1)), Number(b[i].slice(1)), tol)) continue;
    // `~n` (the model's computed TTL) against the real number
    const [x, y] = [a[i], b[i]];
    if ((x.startsWith('~') || y.startsWith('~')) && close(Number(x.replace('~', '')), Number(y.replace('~', '')), tol)) continue;
    return false;
  }
  return true;
}

export function showCommand(c: NormCommand | undefined): string {
  if (!c) return '(none)';
  const argv = c.argv.map((a) => (a.length > 48 ? `${a.slice(0, 45)}…` : a)).join(' ');
  const lua = c.lua ? ` {${c.lua.map((l) => l.join(' ')).join('; ')}}` : '';
  return `${c.t.toFixed(1)} ${c.node} ${argv}${lua}`;
}

function showCall(c: NormCall | undefined): string {
  if (!c) return '(none)';
  const out = c.error ? `throws ${c.error}` : 'result' in c ? `→ ${JSON.stringify(c.result)}` : '';
  return `step ${c.step} ${c.op} ${c.t0.toFixed(1)}..${c.t1 === null ? 'never' : c.t1.toFixed(1)} ${out}`.trim();
}

function sameCommand(a: NormCommand, b: NormCommand, tol: Tolerance, timed: boolean): boolean {
  if (a.node !== b.node || !sameArgs(a.argv, b.argv, tol)) return false;
  const la = a.lua ?? [];
  const lb = b.lua ?? [];
  if (la.length !== lb.length || la.some((l, i) => !sameArgs(l, lb[i], tol))) return false;
  // MONITOR shows a command when it arrives, the model's trace when it is answered: for WAIT,
  // which blocks, the two are apart by the wait itself, so only its place in the order counts
  return !timed || a.argv[0]?.toUpperCase() === 'WAIT' || close(a.t, b.t, tol);
}

/**
 * An exception class by its simple name: the model names some qualified and some not, and no two
 * classes a lock call throws share a simple name.
 */
export function simpleClass(name: string): string {
  return name.replace(/(^|\s)[\w$.]*\.([\w$]+)/g, '$1$2');
}

/**
 * The first position at which the client's commands stop matching, or null. A model command
 * matches the earliest unmatched real command with the same content within the time tolerance:
 * the commands of two threads of one client sent within a few ms of each other have no order to
 * keep, every other command keeps its place.
 */
function unmatched(a: readonly NormCommand[], b: readonly NormCommand[], tol: Tolerance): number | null {
  const used = new Array<boolean>(a.length).fill(false);
  let free = 0;
  for (let j = 0; j < b.length; j++) {
    let found = -1;
    for (let i = free; i < a.length; i++) {
      if (used[i]) continue;
      if (a[i].t > b[j].t && !close(a[i].t, b[j].t, tol)) break;
      if (sameCommand(a[i], b[j], tol, true)) {
        found = i;
        break;
      }
    }
    if (found < 0) return j;
    used[found] = true;
    while (free < a.length && used[free]) free++;
  }
  return free < a.length ? free : null;
}

function sameResult(c: NormCall, d: NormCall, tol: Tolerance, level: Level): boolean {
  if (simpleClass(c.error ?? '') !== simpleClass(d.error ?? '')) return false;
  if ('result' in c !== 'result' in d) return false;
  if (c.op === 'remainTimeToLive' && typeof c.result === 'number' && typeof d.result === 'number')
    return level === 'invariants' || c.result < 0 === d.result < 0 && close(c.result, d.result, tol);
  return JSON.stringify(c.result) === JSON.stringify(d.result);
}

export function compareRuns(real: NormRun, model: NormRun, level: Level, tol: Tolerance): Comparison {
  const diffs: Difference[] = [];
  const exact = level === 'exact';
  if (exact) {
    for (const client of union(Object.keys(real.commands), Object.keys(model.commands))) {
      const a = real.commands[client] ?? [];
      const b = model.commands[client] ?? [];
      const miss = unmatched(a, b, tol);
      if (miss !== null)
        diffs.push({ where: `commands ${client} #${miss + 1}`, real: showCommand(a[miss]), model: showCommand(b[miss]) });
    }
  }
  for (const actor of union(Object.keys(real.calls), Object.keys(model.calls))) {
    const a = real.calls[actor] ?? [];
    const b = model.calls[actor] ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      const ok =
        x !== undefined &&
        y !== undefined &&
        x.step === y.step &&
        sameResult(x, y, tol, level) &&
        (x.t1 === null) === (y.t1 === null) &&
        (!exact || (close(x.t0, y.t0, tol) && (x.t1 === null || y.t1 === null || close(x.t1, y.t1, tol))));
      if (ok) continue;
      diffs.push({ where: `calls ${actor} #${i + 1}`, real: showCall(x), model: showCall(y) });
      break;
    }
    if (simpleClass(real.done[actor] ?? 'never') !== simpleClass(model.done[actor] ?? 'never'))
      diffs.push({ where: `end of ${actor}`, real: real.done[actor] ?? 'never', model: model.done[actor] ?? 'never' });
  }
  if (!exact) {
    const ra = overlaps(real);
    const ma = overlaps(model);
    if (ra.join() !== ma.join()) diffs.push({ where: 'two holders at once', real: ra.join(', ') || 'none', model: ma.join(', ') || 'none' });
  }
  // invariants: how many writes were taken or refused and whether any was lost, not how many
  // (the number lost to unlocked read-modify-writes is the race itself)
  const res = (r: NormRun) =>
    JSON.stringify([exact ? r.resource.value : lostAny(r), r.resource.accepted, r.resource.rejected]);
  if (res(real) !== res(model)) diffs.push({ where: 'resource', real: JSON.stringify(real.resource), model: JSON.stringify(model.resource) });
  for (const node of union(Object.keys(real.keyspace), Object.keys(model.keyspace))) {
    const keyed = (ks: Record<string, NormKey> | undefined) =>
      ks && Object.fromEntries(Object.entries(ks).map(([k, v]) => [unnumbered(k), v]));
    const a = keyed(real.keyspace[node]);
    const b = keyed(model.keyspace[node]);
    if (!a || !b) continue; // a node down at the end on one side is already a different outcome above
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (!sameKey(a[key], b[key], tol, exact))
        diffs.push({ where: `keyspace ${node} ${key}`, real: showKey(a[key]), model: showKey(b[key]) });
    }
  }
  return { level, differences: diffs };
}

/** Some accepted write was lost: the value ended below its start plus the accepted writes. */
function lostAny(r: NormRun): boolean {
  return r.resource.value < (r.resource.initial ?? 0) + r.resource.accepted;
}

function sameKey(a: NormKey | undefined, b: NormKey | undefined, tol: Tolerance, exact: boolean): boolean {
  if (!a || !b) return a === b;
  if (a.type !== b.type) return false;
  if (!exact) return true;
  if ((a.expireAt === null) !== (b.expireAt === null)) return false;
  if (a.expireAt !== null && b.expireAt !== null && !close(a.expireAt, b.expireAt, tol)) return false;
  const flat = (v: unknown): string[] => (Array.isArray(v) ? v.flat(2).map(String) : [String(v)]);
  return sameArgs(flat(a.value), flat(b.value), tol);
}

function showKey(k: NormKey | undefined): string {
  if (!k) return '(absent)';
  return `${k.type} ${JSON.stringify(k.value)}${k.expireAt === null ? '' : ` expires at ${Math.round(k.expireAt)}`}`;
}

/**
 * Locks that two threads believed they held at the same time: from an acquire's return to the
 * unlock call of the same lock. Only what each side's threads did, so both sides are judged alike.
 */
export function overlaps(run: NormRun): string[] {
  const spans = new Map<string, { actor: string; from: number; to: number }[]>();
  for (const [actor, calls] of Object.entries(run.calls)) {
    const open = new Map<string, number>();
    for (const c of calls) {
      const lock = c.lock;
      if (lock === undefined) continue;
      if ((c.op === 'lock' || c.op === 'lockInterruptibly' || (c.op === 'tryLock' && c.result === true)) && !c.error && c.t1 !== null) {
        if (!open.has(lock)) open.set(lock, c.t1);
      } else if (c.op === 'unlock' && open.has(lock)) {
        spans.set(lock, [...(spans.get(lock) ?? []), { actor, from: open.get(lock)!, to: c.t0 }]);
        open.delete(lock);
      }
    }
    for (const [lock, from] of open) spans.set(lock, [...(spans.get(lock) ?? []), { actor, from, to: Infinity }]);
  }
  const out: string[] = [];
  for (const [lock, list] of spans) {
    const hit = list.some((x, i) => list.some((y, j) => j > i && x.actor !== y.actor && x.from < y.to && y.from < x.to));
    if (hit) out.push(lock);
  }
  return out.sort();
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/** Real and model side by side, the first difference of each kind marked with ▶. */
export function sideBySide(real: NormRun, model: NormRun, cmp: Comparison): string {
  const lines: string[] = [];
  const width = 70;
  const pad = (s: string) => (s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width));
  const marked = new Set(cmp.differences.map((d) => d.where));
  for (const client of union(Object.keys(real.commands), Object.keys(model.commands))) {
    lines.push(`── commands of client ${client} ${'─'.repeat(40)}`);
    lines.push(`   ${pad('real')} │ model`);
    const a = real.commands[client] ?? [];
    const b = model.commands[client] ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const mark = marked.has(`commands ${client} #${i + 1}`) ? '▶' : ' ';
      lines.push(`${mark}  ${pad(showCommand(a[i]))} │ ${showCommand(b[i])}`);
    }
  }
  for (const actor of union(Object.keys(real.calls), Object.keys(model.calls))) {
    lines.push(`── calls of ${actor} ${'─'.repeat(40)}`);
    const a = real.calls[actor] ?? [];
    const b = model.calls[actor] ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const mark = marked.has(`calls ${actor} #${i + 1}`) ? '▶' : ' ';
      lines.push(`${mark}  ${pad(showCall(a[i]))} │ ${showCall(b[i])}`);
    }
    lines.push(`   ${pad(`ends: ${real.done[actor] ?? 'never'}`)} │ ends: ${model.done[actor] ?? 'never'}`);
  }
  lines.push(`── resource: real ${JSON.stringify(real.resource)} │ model ${JSON.stringify(model.resource)}`);
  lines.push(`── run ends: real ${real.end} ms │ model ${model.end} ms`);
  return lines.join('\n');
}

export function describeDifferences(cmp: Comparison): string {
  if (cmp.differences.length === 0) return `agree at the ${cmp.level} level`;
  return [
    `${cmp.differences.length} difference(s) at the ${cmp.level} level:`,
    ...cmp.differences.map((d) => `  ${d.where}\n    real:  ${d.real}\n    model: ${d.model}`),
  ].join('\n');
}
