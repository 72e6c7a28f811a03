/**
 * The URL hash carries the whole moment: `#s=<lz-string>&c=<cursor>`, optionally `&v=<from>,<to>`
 * (the zoomed time window, ms), `&o=<built-in id>` (the built-in an edited scenario came from),
 * `&g=topology|both` (the topology view) and `&k=<built-in id>` (the built-in compared with it);
 * hand-written links may use `#json=<encodeURIComponent(JSON)>`. Keys are only ever added, so
 * old links keep opening. Decoding never throws: it returns a reason the error panel
 * can show in the user's language.
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import type { MessageKey } from './i18n';

export const MAX_HASH_CHARS = 200_000;
export const MAX_SCENARIO_BYTES = 1_000_000;
/**
 * Far deeper than any scenario (the schema allows 64 levels), and shallow enough for what runs
 * on the parsed value before the schema sees it: JSON.stringify and the structured clone into
 * the worker recurse, and overflow the stack somewhere past a few thousand levels.
 */
export const MAX_NESTING = 1_000;

/** How deeply `text` nests arrays and objects (outside strings), without parsing it. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export type LinkProblem = { key: MessageKey; params?: Record<string, string | number> };

/** What a link says about the view besides the scenario and the cursor. */
export interface LinkExtras {
  /** the visible time window, when the link was taken zoomed in */
  view?: [number, number];
  /** the built-in an edited scenario came from */
  origin?: string;
  /** `&g=`: the topology shown alone or beside the timeline (absent: the timeline only) */
  layout?: 'topology' | 'both';
  /** `&k=`: the built-in compared with this scenario */
  compare?: string;
  /** predict mode on (`&p=1`): the timeline after the cursor stays hidden */
  predict?: boolean;
}

export type DecodedLink =
  | { kind: 'none' }
  | ({ kind: 'ok'; scenario: unknown; cursor: number | null } & LinkExtras)
  | { kind: 'bad'; problem: LinkProblem; cursor: number | null };

export interface LinkOptions {
  embed?: boolean;
}

export function encodeHash(scenario: unknown, cursor: number, extras: LinkExtras = {}): string {
  return `#s=${compressToEncodedURIComponent(JSON.stringify(scenario))}&c=${cursor}${extrasSuffix(extras)}`;
}

/** The `&v=…&o=…` tail of a hash (empty when there is nothing to add). */
export function extrasSuffix(extras: LinkExtras): string {
  let out = '';
  if (extras.view) out += `&v=${Math.round(extras.view[0])},${Math.round(extras.view[1])}`;
  if (extras.origin && ORIGIN_RE.test(extras.origin)) out += `&o=${extras.origin}`;
  if (extras.layout) out += `&g=${extras.layout}`;
  if (extras.compare && ORIGIN_RE.test(extras.compare)) out += `&k=${extras.compare}`;
  if (extras.predict) out += '&p=1';
  return out;
}

const ORIGIN_RE = /^[a-z0-9][a-z0-9-]{0,80}$/;

function parseView(raw: string | undefined): [number, number] | undefined {
  const m = raw === undefined ? null : /^(\d{1,10}),(\d{1,10})$/.exec(raw);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return to > from ? [from, to] : undefined;
}

function parseExtras(params: Map<string, string>): LinkExtras {
  const out: LinkExtras = {};
  const view = parseView(params.get('v'));
  if (view) out.view = view;
  const origin = params.get('o');
  if (origin && ORIGIN_RE.test(origin)) out.origin = origin;
  const layout = params.get('g');
  if (layout === 'topology' || layout === 'both') out.layout = layout;
  const compare = params.get('k');
  if (compare && ORIGIN_RE.test(compare)) out.compare = compare;
  if (params.get('p') === '1') out.predict = true;
  return out;
}

export function shareUrl(location: Pick<Location, 'origin' | 'pathname' | 'search'>, hash: string): string {
  return `${location.origin}${location.pathname}${location.search}${hash}`;
}

function parseCursor(raw: string | null): number | null {
  if (raw === null || !/^-?\d{1,9}$/.test(raw)) return null;
  return Math.max(-1, Number(raw));
}

export function decodeHash(hash: string): DecodedLink {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!body) return { kind: 'none' };
  if (body.length > MAX_HASH_CHARS) {
    return {
      kind: 'bad',
      problem: { key: 'error.linkTooLong', params: { n: body.length, max: MAX_HASH_CHARS } },
      cursor: null,
    };
  }
  // Split by hand: URLSearchParams would turn '+' into spaces inside the compressed text.
  const params = new Map<string, string>();
  for (const part of body.split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const cursor = parseCursor(params.get('c') ?? null);
  let text: string | null;
  if (params.has('s')) {
    try {
      text = decompressFromEncodedURIComponent(params.get('s')!);
    } catch {
      text = null;
    }
    if (!text) return { kind: 'bad', problem: { key: 'error.linkCorrupt' }, cursor };
  } else if (params.has('json')) {
    try {
      text = decodeURIComponent(params.get('json')!);
    } catch {
      return { kind: 'bad', problem: { key: 'error.linkCorrupt' }, cursor };
    }
  } else {
    return { kind: 'none' };
  }
  if (text.length > MAX_SCENARIO_BYTES) {
    return {
      kind: 'bad',
      problem: { key: 'error.tooBig', params: { n: text.length, max: MAX_SCENARIO_BYTES } },
      cursor,
    };
  }
  if (nestingDepth(text) > MAX_NESTING) {
    return { kind: 'bad', problem: { key: 'error.tooDeep', params: { max: MAX_NESTING } }, cursor };
  }
  try {
    return { kind: 'ok', scenario: JSON.parse(text) as unknown, cursor, ...parseExtras(params) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { kind: 'bad', problem: { key: 'error.linkJson', params: { msg: msg.slice(0, 120) } }, cursor };
  }
}

export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

// player: `#lesson=<id>&step=<n>` (n from 1) opens a lesson at a step; `&p=1` keeps predict mode on
// for every step (a question step turns it on by itself); `&lang=en|zh` the language; `?present=1`
// the presenter

export interface LessonLink {
  lesson: string;
  /** 0-based */
  step: number;
  predict?: boolean;
  lang?: 'en' | 'zh';
  /** a course path's id ("25", "50", "90"): Next follows it across lessons */
  path?: string;
}

export function decodeLessonHash(hash: string): LessonLink | null {
  const m = /^#?lesson=([a-z0-9-]{1,64})(?:&step=(\d{1,4}))?(?:&|$)/.exec(hash);
  if (m === null) return null;
  const link: LessonLink = { lesson: m[1], step: Math.max(0, Number(m[2] ?? '1') - 1) };
  const params = new URLSearchParams(hash.slice(m[0].length));
  if (params.get('p') === '1') link.predict = true;
  const lang = params.get('lang');
  if (lang === 'en' || lang === 'zh') link.lang = lang;
  const path = params.get('path');
  if (path !== null && /^\d{1,3}$/.test(path)) link.path = path;
  return link;
}

export function encodeLessonHash(link: LessonLink): string {
  return `#lesson=${link.lesson}&step=${link.step + 1}${link.predict ? '&p=1' : ''}${link.path ? `&path=${link.path}` : ''}${link.lang ? `&lang=${link.lang}` : ''}`;
}

// `#scenario=<id>`: a built-in by its id, readable (`&c=<n>` a cursor, `&p=1` predict, `&lang=`)

export interface ScenarioLink {
  id: string;
  cursor?: number;
  predict?: boolean;
  lang?: 'en' | 'zh';
}

export function decodeScenarioHash(hash: string): ScenarioLink | null {
  const m = /^#?scenario=([a-z0-9-]{1,64})(?:&|$)/.exec(hash);
  if (m === null) return null;
  const link: ScenarioLink = { id: m[1] };
  const params = new URLSearchParams(hash.slice(m[0].length));
  const c = params.get('c');
  if (c !== null && /^-?\d{1,7}$/.test(c)) link.cursor = Number(c);
  if (params.get('p') === '1') link.predict = true;
  const lang = params.get('lang');
  if (lang === 'en' || lang === 'zh') link.lang = lang;
  return link;
}

export function encodeScenarioHash(link: ScenarioLink): string {
  return `#scenario=${link.id}${link.cursor === undefined ? '' : `&c=${link.cursor}`}${link.predict ? '&p=1' : ''}${link.lang ? `&lang=${link.lang}` : ''}`;
}

export function isPresent(search: string): boolean {
  return new URLSearchParams(search).get('present') === '1';
}
