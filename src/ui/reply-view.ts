/**
 * Replies in trace events are in the engine's compact JSON form (sim/reply_json.ts). To print
 * them the way redis-cli does, turn them back into Replies and use the engine's formatter.
 */
import { formatReply } from '../engine/redis/cli_format';
import type { Reply } from '../engine/redis/reply';
import { replyFromJson as fromTraceJson, type ReplyJson } from '../engine/sim/reply_json';

/** A trace reply back to a Reply; also accepts Reply objects as hand-written fixtures hold them. */
export function replyFromJson(j: unknown): Reply {
  if (j === undefined) return { t: 'bulk', v: null };
  if (Array.isArray(j)) return { t: 'array', v: j.map(replyFromJson) };
  if (typeof j === 'object' && j !== null && !Array.isArray(j)) {
    const o = j as Record<string, unknown>;
    if (typeof o.t === 'string' && 'v' in o) return o as unknown as Reply;
    if (typeof o.status !== 'string' && typeof o.error !== 'string' && typeof o.int !== 'string') {
      return { t: 'bulk', v: JSON.stringify(j) };
    }
  }
  return fromTraceJson(j as ReplyJson);
}

/** redis-cli's tty rendering of a trace reply, without the trailing newline. */
export function replyText(j: unknown): string {
  return formatReply(replyFromJson(j), 'tty').replace(/\n$/, '');
}
