/**
 * Replies in trace events are in the engine's compact JSON form (sim/reply_json.ts). To print
 * them the way redis-cli does, turn them back into Replies and use the engine's formatter.
 */
import { formatReply } from '../engine/redis/cli_format';
import type { Reply } from '../engine/redis/reply';

export function replyFromJson(j: unknown): Reply {
  if (j === null || j === undefined) return { t: 'bulk', v: null };
  if (typeof j === 'string') return { t: 'bulk', v: j };
  if (typeof j === 'number') return { t: 'int', v: j };
  if (Array.isArray(j)) return { t: 'array', v: j.map(replyFromJson) };
  if (typeof j === 'object') {
    const o = j as Record<string, unknown>;
    if (typeof o.status === 'string') return { t: 'status', v: o.status };
    if (typeof o.error === 'string') return { t: 'error', v: o.error };
    if (typeof o.int === 'string') return { t: 'int', v: BigInt(o.int) };
    // A Reply object already (hand-written fixtures).
    if (typeof o.t === 'string' && 'v' in o) return o as unknown as Reply;
  }
  return { t: 'bulk', v: JSON.stringify(j) };
}

/** redis-cli's tty rendering of a trace reply, without the trailing newline. */
export function replyText(j: unknown): string {
  return formatReply(replyFromJson(j), 'tty').replace(/\n$/, '');
}
