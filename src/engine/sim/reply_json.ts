/**
 * The compact JSON form of a Reply used in `cmd` events: readable in a trace file and
 * JSON-serialisable (bigints become strings).
 *   bulk "x" → "x"      nil bulk / nil array → null      integer → number ({"int": "…"} beyond 2^53)
 *   status → {"status": "OK"}      error → {"error": "ERR …"}      array → [ … ]
 */
import type { Reply } from '../redis/reply';

export type ReplyJson =
  string | number | null | { status: string } | { error: string } | { int: string } | ReplyJson[];

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
