/** One-line, human-readable summaries of trace events for tooltips and the event panel. */
import type { TraceEvent } from '../engine/trace/types';
import { replyText } from './reply-view';

const oneLine = (s: string) => {
  const flat = s.replace(/\n\s*/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
};

const FIXED = new Set(['t', 'seq', 'kind', 'actor', 'lock', 'node']);

function short(v: unknown): string {
  if (typeof v === 'string') return v.length > 60 ? `${v.slice(0, 57)}…` : v;
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
    .map((k) => `${k}: ${k === 'reply' ? oneLine(replyText(e[k])) : short(e[k])}`);
  return { head: `${e.t} ms · ${e.kind}${who ? ` · ${who}` : ''}`, details };
}
