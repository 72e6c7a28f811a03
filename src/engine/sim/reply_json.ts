/**
 * The compact JSON form of a Reply used in `cmd` events: readable in a trace file and
 * JSON-serialisable (bigints become strings).
 *   bulk "x" → "x"      nil bulk / nil array → null      integer → number ({"int": "…"} beyond 2^53)
 *   status → {"status": "OK"}      error → {"error": "ERR …"}      array → [ … ]
 */
import type { Reply } from '../redis/reply';
import type { ReplyJson } from '../trace/types';

export type { ReplyJson };

export function replyToJson(r: Reply): ReplyJson {
  switch (r.t) {
    case 'bulk':
      return r.v;
    case 'int':
      return typeof r.v === 'bigint' ? { int: String(r.v) } : r.v;
    case 'status':
      return { status: r.v };
    case 'error':
      return { error: r.v };
    case 'array':
      return r.v === null ? null : r.v.map(replyToJson);
  }
}

/** The inverse of replyToJson, for readers of a trace (the console, the script view, tests). */
export function replyFromJson(j: ReplyJson): Reply {
  if (j === null) return { t: 'bulk', v: null };
  if (typeof j === 'string') return { t: 'bulk', v: j };
  if (typeof j === 'number') return { t: 'int', v: j };
  if (Array.isArray(j)) return { t: 'array', v: j.map(replyFromJson) };
  if ('status' in j) return { t: 'status', v: j.status };
  if ('error' in j) return { t: 'error', v: j.error };
  return { t: 'int', v: BigInt(j.int) };
}
