/**
 * The readable text form of a trace for `npm run sim`: one line per event
 * ("    t  actor         what happened") and a summary with the verdict and the violations.
 */
import { formatReply, quoteBytes } from '../engine/redis/cli_format';
import { DEFAULT_RUN_CAP_MS } from '../engine/scenario/defaults';
import type { Reply } from '../engine/redis/reply';
import { replyFromJson, type ReplyJson } from '../engine/sim/reply_json';
import {
  isLiveness,
  LIVELOCK_MS,
  NO_LOCK,
  STARVATION_OVERTAKES,
  type Trace,
  type TraceEvent,
  type Violation,
} from '../engine/trace/types';

const MAX_ARG = 40;

/** An argument as redis-cli would quote it when needed, cut to MAX_ARG characters (scripts are long). */
function arg(s: string): string {
  const plain = /^[\x21-\x7e]+$/.test(s) && !s.includes('"') && !s.includes('\\');
  const p = plain ? s : quoteBytes(s);
  return p.length > MAX_ARG ? `${p.slice(0, MAX_ARG - 1)}…` : p;
}

/**
 * A `cmd` event's reply as redis-cli prints it (the engine's formatter, one home for that
 * rendering), on one line: an array's elements go between brackets instead of on numbered lines.
 */
function reply(j: ReplyJson): string {
  return oneLine(replyFromJson(j));
}

function oneLine(r: Reply): string {
  if (r.t === 'array' && r.v !== null && r.v.length > 0) return `[${r.v.map(oneLine).join(', ')}]`;
  const text = formatReply(r, 'tty').replace(/\n$/, '');
  // Only bulk strings are cut (scripts, long values); the quotes do not count.
  return r.t === 'bulk' && text.length > MAX_ARG + 2 ? `${text.slice(0, MAX_ARG + 1)}…` : text;
}

const FIXED = new Set(['t', 'seq', 'kind', 'actor']);

function extras(ev: TraceEvent): string {
  const parts: string[] = [];
  for (const k of Object.keys(ev)) {
    if (FIXED.has(k)) continue;
    parts.push(`${k}=${typeof ev[k] === 'string' ? arg(ev[k] as string) : JSON.stringify(ev[k])}`);
  }
  return parts.join(' ');
}

function describe(ev: TraceEvent): string {
  const lock = ev.lock ?? '';
  switch (ev.kind) {
    case 'cmd':
      return `${ev.node} ran ${ev.argv.map(arg).join(' ')} → ${reply(ev.reply)}`;
    case 'lock.request':
      return `requests ${lock}${ev.type ? ` (${ev.type})` : ''}`;
    case 'lock.acquired':
      return `acquired ${lock} (hold count ${ev.holdCount})`;
    case 'lock.wait':
      return `waits for ${lock} (ttl ${String(ev.ttl)} ms)`;
    case 'waiter.wakeup':
      return `wakes up (${ev.cause})`;
    case 'lock.failed':
      return `gave up on ${lock}`;
    case 'unlock.request':
      return `unlocks ${lock} (holds left once it succeeds ${String(ev.holdCount)})`;
    case 'lock.released':
      return `released ${lock} (holds left ${ev.holdCount})`;
    case 'lock.error':
      return `${ev.op} ${lock} failed: ${ev.error}`;
    case 'resource.use':
      return `resource write ${ev.accepted ? 'accepted' : 'REJECTED'} (value ${ev.value}${
        ev.token !== null ? `, token ${ev.token}` : ''
      })`;
    case 'key.expired':
      return `key ${arg(ev.key)} expired (${ev.how})`;
    case 'pubsub.publish':
      return `published ${arg(ev.message)} on ${arg(ev.channel)} → ${ev.receivers} receiver(s)`;
    case 'pubsub.deliver':
      return `received ${arg(String(ev.message))} on ${arg(String(ev.channel))}`;
    case 'thread.result':
      return `result ${JSON.stringify(ev.result)}`;
    case 'work.start':
      return `${ev.op} for ${ev.ms} ms${ev.critical ? ' (critical section)' : ''}`;
    case 'thread.done':
      return ev.outcome === 'exception'
        ? `ends with uncaught ${ev.exception ?? ''}${ev.message ? `: ${ev.message}` : ''}`
        : 'ends';
    case 'exception.caught':
      return `catches ${ev.exception}${ev.message ? `: ${ev.message}` : ''}`;
    default:
      return `${ev.kind}${extras(ev) ? ` ${extras(ev)}` : ''}`;
  }
}

/** One line for an event (null: not shown). */
export function formatEvent(ev: TraceEvent): string | null {
  if (ev.kind === 'violation.start' && ev.violation === 'V3')
    return line(ev.t, '!!', `VIOLATION: V3 ${describeV3(ev)}`);
  if (ev.kind === 'violation.end' && ev.violation === 'V3') return null; // a V3 is one moment: its end repeats its start
  if ((ev.kind === 'violation.start' || ev.kind === 'violation.end') && ev.violation === 'L1') {
    const what = ev.kind === 'violation.start' ? 'STUCK' : 'no longer stuck';
    return line(
      ev.t,
      '!!',
      `${what}: ${describeL1({ lock: ev.lock, holders: ev.holders, waiting: ev.waiting ?? [] })}`,
    );
  }
  if ((ev.kind === 'violation.start' || ev.kind === 'violation.end') && isLiveness(ev.violation)) {
    const what = ev.kind === 'violation.start' ? 'STUCK' : 'no longer stuck';
    return line(ev.t, '!!', `${what}: ${describeLiveness({ ...ev, kind: ev.violation })}`);
  }
  if (ev.kind === 'violation.start' || ev.kind === 'violation.end') {
    const what = ev.kind === 'violation.start' ? 'VIOLATION STARTS' : 'violation ends';
    return line(ev.t, '!!', `${what}: ${ev.violation} on ${ev.lock} held by ${ev.holders.join(', ')}`);
  }
  return line(ev.t, ev.actor ?? '', describe(ev));
}

/** An L1 in words: the gone owner(s), and who waits for them forever. */
function describeL1(v: Pick<Violation, 'lock' | 'holders' | 'waiting'>): string {
  const waiting = v.waiting ?? [];
  const owners = v.holders.filter((h) => !waiting.includes(h));
  return `${v.lock} has no TTL and its owner ${owners.join(', ')} is gone; ${waiting.join(', ')} wait${waiting.length > 1 ? '' : 's'} forever (liveness L1)`;
}

/** An L2–L7 in words (docs/trace-format.md, "The liveness kinds in detail"). */
function describeLiveness(
  v: Pick<Violation, 'kind' | 'lock' | 'holders' | 'waiting' | 'cause' | 'serverHolds' | 'clientHolds'>,
): string {
  const who = v.holders.join(', ');
  switch (v.kind) {
    case 'L2':
      if (v.cause === 'hung')
        return `${who}'s acquire of ${v.lock} hangs: nothing scheduled will ever answer its call (liveness L2)`;
      return v.cause === 'dead-ahead'
        ? `${who} wait${v.holders.length > 1 ? '' : 's'} while ${v.lock} is free: the FairLock queue starts with a thread that is gone (liveness L2)`
        : `${who} wait${v.holders.length > 1 ? '' : 's'} for ${v.lock}, which is free, and nothing scheduled will wake ${v.holders.length > 1 ? 'them' : 'it'} (liveness L2)`;
    case 'L3':
      return `the watchdog keeps ${v.lock} alive for ${who}, which ${v.cause === 'ended' ? 'ended holding it' : 'no longer believes it holds it'} (liveness L3)`;
    case 'L4':
      return `${v.lock}: the server counts ${v.serverHolds} hold(s) of ${who}, the thread believes ${v.clientHolds} (liveness L4)`;
    case 'L5':
      return v.cause === 'upgrade'
        ? `${who} waits for ${v.lock} while its own hold blocks it, for ever (liveness L5)`
        : `${who} wait for each other's holds (${v.lock} and more), for ever (liveness L5)`;
    case 'L6':
      return `${who} have retried ${v.lock} for ${LIVELOCK_MS} ms or more and nobody acquired it (liveness L6, livelock)`;
    case 'L7': {
      const waiting = v.waiting ?? v.holders.slice(0, 1);
      const others = v.holders.filter((h) => !waiting.includes(h));
      return `${waiting.join(', ')} overtaken ${STARVATION_OVERTAKES} times on FairLock ${v.lock} by ${others.join(', ')} (liveness L7, starvation)`;
    }
    default:
      return `${v.kind} on ${v.lock}: ${who}`;
  }
}

/** A V3 in words: who wrote, and whom the write wronged (check/monitor.ts, `cause`). */
function describeV3(v: Pick<Violation, 'lock' | 'holders' | 'cause'>): string {
  const [writer, ...others] = v.holders;
  const them = others.join(', ');
  switch (v.cause) {
    case 'stale':
      return `on ${v.lock}: ${writer} wrote as a stale holder after newer holder${others.length > 1 ? 's' : ''} ${them} had used the resource (fencing would refuse it)`;
    case 'unlocked':
      return v.lock === NO_LOCK
        ? `with no lock held: ${writer}'s read-modify-write overlapped those of ${them} (lost update)`
        : `on ${v.lock}: ${writer} wrote under a shared read lock, overlapping ${them}'s read-modify-write (lost update)`;
    case 'lost-update':
      return `on ${v.lock}: ${writer}'s write erased ${them}'s (lost update)`;
    default:
      return `on ${v.lock}: ${v.holders.join(', ')}`;
  }
}

function line(t: number, actor: string, what: string): string {
  return `${String(t).padStart(8)}  ${actor.padEnd(12)}  ${what}`;
}

const CUT_REASON: Record<NonNullable<Trace['truncatedBy']>, string> = {
  events: 'it hit the event cap (a runaway program)',
  tasks: 'it hit the kernel\'s task cap (a program looping without recording anything)',
  instant: 'virtual time stopped passing (too many tasks at one instant): a bug in the model',
  time: `it had not ended by ${DEFAULT_RUN_CAP_MS / 1000} s of virtual time, the limit of a run without \`until\``,
};

export function formatSummary(trace: Trace, endedAt: number): string[] {
  const cut = trace.truncated === true;
  const verdict = cut && trace.verdict === 'safe' ? 'cut short (nothing broken before the cut)' : trace.verdict;
  const out = [`verdict: ${verdict} (${trace.events.length} events, ended at t=${endedAt})`];
  if (cut) out.push(`the run was stopped before its end: ${CUT_REASON[trace.truncatedBy ?? 'events']}`);
  for (const v of trace.violations)
    out.push(
      v.kind === 'V3'
        ? `  V3 at ${v.from} ${describeV3(v)}`
        : v.kind === 'L1'
          ? `  L1 stuck from ${v.from} to ${v.to ?? 'the end'}: ${describeL1(v)}`
          : isLiveness(v.kind)
            ? `  ${v.kind} stuck from ${v.from} to ${v.to ?? 'the end'}: ${describeLiveness(v)}`
            : `  ${v.kind} on ${v.lock}: ${v.holders.join(', ')} from ${v.from} to ${v.to ?? 'the end'}`,
    );
  const r = trace.final.resource;
  out.push(`resource: value ${r.value}, ${r.accepted} accepted, ${r.rejected} rejected`);
  if (r.lost !== undefined && r.lost > 0)
    out.push(
      `  ${r.lost} of the ${r.accepted} accepted writes were lost (overwritten by a write that read before them)`,
    );
  return out;
}
