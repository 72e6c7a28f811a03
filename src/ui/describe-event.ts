/** One-line, human-readable summaries of trace events for tooltips and the event panel. */
import type { TraceEvent } from '../engine/trace/types';
import type { Lang } from './i18n';
import { EVENT_FIELDS_ZH } from './i18n/event-fields';
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

/** In 中文 the unit and the field names are Chinese; the event kind stays the trace's own name. */
export function describeEvent(e: TraceEvent, lang: Lang = 'en'): { head: string; details: string[] } {
  const field = (k: string) => (lang === 'zh' ? (EVENT_FIELDS_ZH[k] ?? k) : k);
  const who = [e.actor, e.node && e.node !== e.actor ? `@${e.node}` : '', e.lock ? `[${e.lock}]` : '']
    .filter(Boolean)
    .join(' ');
  const details = Object.keys(e)
    .filter((k) => !FIXED.has(k))
    .map((k) => `${field(k)}: ${k === 'reply' ? oneLine(replyText(e[k])) : short(e[k])}`);
  return { head: `${e.t} ${lang === 'zh' ? '毫秒' : 'ms'} · ${e.kind}${who ? ` · ${who}` : ''}`, details };
}
