/** One-line, human-readable summaries of trace events for tooltips and the event panel. */
import type { TraceEvent } from '../engine/trace/types';
import { en } from './i18n/en';
import { translate, type Lang, type MessageKey } from './i18n';
import { EVENT_FIELDS_ZH, kindKey, valueKey } from './i18n/event-fields';
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

/** A key built at run time from the trace, translated when the dictionary has it. */
function word(lang: Lang, key: string | null): string | undefined {
  return key !== null && Object.hasOwn(en, key) ? translate(lang, key as MessageKey) : undefined;
}

export interface EventText {
  /** time, kind and who on one line (the timeline's tooltip) */
  head: string;
  /** `field: value`, one per field beyond the fixed ones */
  details: string[];
  /** "1006 ms" / "1006 毫秒" */
  at: string;
  /** the kind's name in the viewer's language (in English, said in words) */
  name: string;
  /** "A:1 @master [myLock]", or '' */
  who: string;
}

/**
 * In 中文 the unit, the kind, the field names and the enumerated values are Chinese, the raw kind
 * beside its name; in English the kind stays the trace's own name. Names, keys, ids, numbers and
 * Redis's replies stay as they are.
 */
export function describeEvent(e: TraceEvent, lang: Lang = 'en'): EventText {
  const zh = lang === 'zh';
  const field = (k: string) => (zh ? (EVENT_FIELDS_ZH[k] ?? k) : k);
  const value = (k: string, v: unknown) =>
    word(lang, valueKey(e.kind, k, v)) ?? (k === 'reply' ? oneLine(replyText(v)) : short(v));
  const who = [e.actor, e.node && e.node !== e.actor ? `@${e.node}` : '', e.lock ? `[${e.lock}]` : '']
    .filter(Boolean)
    .join(' ');
  const details = Object.keys(e)
    .filter((k) => !FIXED.has(k))
    .map((k) => `${field(k)}: ${value(k, e[k])}`);
  const at = translate(lang, 'unit.ms', { n: e.t });
  const name = word(lang, kindKey(e.kind)) ?? e.kind;
  const kind = zh ? `${name}（${e.kind}）` : e.kind;
  return { head: `${at} · ${kind}${who ? ` · ${who}` : ''}`, details, at, name, who };
}
