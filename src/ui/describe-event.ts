/** One-line, human-readable summaries of trace events for tooltips and the event panel. */
import type { TraceEvent } from '../engine/trace';

const FIXED = new Set(['t', 'seq', 'kind', 'actor', 'lock', 'node']);

function short(v: unknown): string {
  if (typeof v === 'string') return v.length > 60 ? `${v.slice(0, 57)}…` : v;
  if (v && typeof v === 'object' && 't' in v && 'v' in v) {
    const r = v as { t: string; v: unknown };
    if (r.v === null) return '(nil)';
    if (r.t === 'int') return `(integer) ${String(r.v)}`;
    if (r.t === 'array') return `[${(r.v as unknown[]).map(short).join(', ')}]`;
    return short(String(r.v));
  }
  if (Array.isArray(v)) {
    const s = v.map((x) => (typeof x === 'string' && x.includes('\n') ? '<script>' : short(x))).join(' ');
    return s.length > 80 ? `${s.slice(0, 77)}…` : s;
  }
  return JSON.stringify(v) ?? String(v);
}

export function describeEvent(e: TraceEvent): { head: string; details: string[] } {
  const who = [e.actor, e.node && e.node !== e.actor ? `@${e.node}` : '', e.lock ? `[${e.lock}]` : '']
    .filter(Boolean)
    .join(' ');
  const details = Object.keys(e)
    .filter((k) => !FIXED.has(k))
    .map((k) => `${k}: ${short(e[k])}`);
  return { head: `${e.t} ms · ${e.kind}${who ? ` · ${who}` : ''}`, details };
}
