/**
 * The event of another run that plays the part a given event plays in its own: same kind, same
 * actor (and node), for a command the same command name, for a script line the same line number,
 * the same occurrence among such events since the actor's last step of its own (a lock request,
 * an unlock request…), and that step the same occurrence of its kind. A step re-run with another
 * Redisson release keeps its cursor on "A:1's EVALSHA after its unlock request" although the
 * commands around it (script loads, latch keys) differ.
 */
import type { TraceEvent } from '../../engine/trace/types';

function role(e: TraceEvent): string {
  const r = e as { argv?: unknown; line?: unknown; node?: unknown; reply?: unknown };
  // a script sent before its SHA was loaded plays no part: releases differ in EVAL vs EVALSHA
  const reply = r.reply as { error?: unknown } | null | undefined;
  if (typeof reply?.error === 'string' && reply.error.startsWith('NOSCRIPT')) return '';
  let argv = Array.isArray(r.argv) && typeof r.argv[0] === 'string' ? r.argv[0].toUpperCase() : '';
  if (argv === 'EVALSHA') argv = 'EVAL';
  return `${e.kind}|${e.actor ?? ''}|${String(r.node ?? '')}|${argv}|${String(r.line ?? '')}`;
}

/** A command or a script's line: what differs between releases, never an anchor. */
const wire = (e: TraceEvent) => e.kind === 'cmd' || e.kind.startsWith('script.');

/** Index of the `nth` (1-based) event with role `key` in `events` after index `from`, or null. */
function nthAfter(events: readonly TraceEvent[], key: string, nth: number, from: number): number | null {
  for (let i = from + 1; i < events.length; i++) if (role(events[i]) === key && --nth === 0) return i;
  return null;
}

/** How many events with `e`'s role lie in (from, to]. */
function occurrence(events: readonly TraceEvent[], from: number, to: number): number {
  const key = role(events[to]);
  if (key === '') return 0;
  let n = 0;
  for (let i = from + 1; i <= to; i++) if (role(events[i]) === key) n++;
  return n;
}

/** Index in `to` of the event playing the part `from[index]` plays; null when `to` has no such event. */
export function sameEvent(
  from: readonly TraceEvent[],
  index: number,
  to: readonly TraceEvent[],
): number | null {
  const e = from[index];
  if (e === undefined || role(e) === '') return null;
  let anchor = -1;
  if (wire(e))
    for (let i = index - 1; i >= 0; i--)
      if (from[i].actor === e.actor && !wire(from[i])) {
        anchor = i;
        break;
      }
  const anchorTo = anchor < 0 ? -1 : nthAfter(to, role(from[anchor]), occurrence(from, -1, anchor), -1);
  if (anchorTo === null) return null;
  return nthAfter(to, role(e), occurrence(from, anchor, index), anchorTo);
}
