/**
 * The URL hash carries the whole moment: `#s=<lz-string>&c=<cursor>`; hand-written links may use
 * `#json=<encodeURIComponent(JSON)>`. Decoding never throws: it returns a reason the error panel
 * can show in the user's language.
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import type { MessageKey } from './i18n';

export const MAX_HASH_CHARS = 200_000;
export const MAX_SCENARIO_BYTES = 1_000_000;

export type LinkProblem = { key: MessageKey; params?: Record<string, string | number> };

export type DecodedLink =
  | { kind: 'none' }
  | { kind: 'ok'; scenario: unknown; cursor: number | null }
  | { kind: 'bad'; problem: LinkProblem; cursor: number | null };

export interface LinkOptions {
  embed?: boolean;
}

export function encodeHash(scenario: unknown, cursor: number): string {
  return `#s=${compressToEncodedURIComponent(JSON.stringify(scenario))}&c=${cursor}`;
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
  try {
    return { kind: 'ok', scenario: JSON.parse(text) as unknown, cursor };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { kind: 'bad', problem: { key: 'error.linkJson', params: { msg: msg.slice(0, 120) } }, cursor };
  }
}

export function isEmbed(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}
