/**
 * Key moments: the few events of a run a teacher points at (the first acquire, the first wait,
 * the first renewal, an expiry, a fault, a failover, each kind of violation). They are found in
 * the trace rather than written next to each built-in, so they stay true when a scenario's
 * timings change or a user edits it.
 */
import type { Trace, TraceEvent } from './types';

export type KeyMomentKind =
  | 'unlock-refused'
  | 'acquire-threw'
  | 'moved'
  | 'acquire'
  | 'release'
  | 'wait'
  | 'renew'
  | 'renew-failed'
  | 'pause'
  | 'client-crash'
  | 'node-crash'
  | 'clock-jump'
  | 'partition'
  | 'latency'
  | 'expire'
  | 'wakeup'
  | 'failover'
  | 'takeover'
  | 'gave-up'
  | 'refused'
  | 'write'
  | 'violation';

export interface KeyMoment {
  kind: KeyMomentKind;
  /** index of the event in trace.events */
  index: number;
  t: number;
  /** a short name for a button, in each language */
  en: string;
  zh: string;
}

/** More than this and the row of buttons stops being "one click away". */
export const MAX_KEY_MOMENTS = 10;

/** Keys Redisson creates for its own bookkeeping: their expiry is not a lesson. */
function bookkeepingKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith('redisson_unlock_latch');
}

function str(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '?';
}

/**
 * The key moments of a run, in trace order. Each kind counts once (its first occurrence), except
 * violations (the first of each of V1/V2/V3) and the takeover (the first acquire by a thread
 * other than the first holder, which is where a lost lock shows).
 */
export function keyMoments(trace: Pick<Trace, 'events'>): KeyMoment[] {
  const out: KeyMoment[] = [];
  const seen = new Set<string>();
  let firstHolder: string | null = null;
  const add = (key: string, kind: KeyMomentKind, index: number, e: TraceEvent, en: string, zh: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ kind, index, t: e.t, en, zh });
  };
  trace.events.forEach((e, i) => {
    const who = str(e.actor);
    switch (e.kind) {
      case 'lock.acquired':
        if (firstHolder === null) {
          firstHolder = who;
          add('acquire', 'acquire', i, e, `${who} acquires ${str(e.lock)}`, `${who} 获得 ${str(e.lock)}`);
        } else if (who !== firstHolder) {
          add('takeover', 'takeover', i, e, `${who} acquires ${str(e.lock)}`, `${who} 获得 ${str(e.lock)}`);
        }
        break;
      case 'lock.released':
        if (e.holdCount === 0)
          add('release', 'release', i, e, `${who} releases ${str(e.lock)}`, `${who} 释放 ${str(e.lock)}`);
        break;
      case 'lock.wait':
        add('wait', 'wait', i, e, `${who} waits`, `${who} 开始等待`);
        break;
      case 'watchdog.renew':
        // a hand-made renewal thread (set-nx-px-renew, timer "<client>/renewal") is not a watchdog
        if (e.result === 1 && str(e.timer).endsWith('/renewal'))
          add('renew', 'renew', i, e, `${who}'s renewal thread renews`, `${who} 的续期线程续期`);
        else if (e.result === 1) add('renew', 'renew', i, e, `${who}'s watchdog renews`, `${who} 的看门狗续期`);
        else add('renew-failed', 'renew-failed', i, e, `${who}'s renewal fails`, `${who} 续期失败`);
        break;
      case 'client.pause':
        add('pause', 'pause', i, e, `${str(e.client)} pauses`, `${str(e.client)} 暂停`);
        break;
      case 'client.crash':
        add('client-crash', 'client-crash', i, e, `${str(e.client)} crashes`, `${str(e.client)} 崩溃`);
        break;
      case 'node.crash':
        add('node-crash', 'node-crash', i, e, `${str(e.node)} crashes`, `${str(e.node)} 宕机`);
        break;
      case 'node.clock':
        add('clock-jump', 'clock-jump', i, e, `${str(e.node)}'s clock jumps`, `${str(e.node)} 时钟跳变`);
        break;
      case 'net.partition':
        add('partition', 'partition', i, e, 'network partition', '网络分区');
        break;
      case 'net.latency':
        add('latency', 'latency', i, e, `links +${str(e.ms)} ms`, `链路 +${str(e.ms)} 毫秒`);
        break;
      case 'key.expired':
        if (!bookkeepingKey(e.key))
          add('expire', 'expire', i, e, `${str(e.key)} expires`, `${str(e.key)} 过期`);
        break;
      case 'waiter.wakeup':
        add('wakeup', 'wakeup', i, e, `${who} wakes up`, `${who} 被唤醒`);
        break;
      case 'failover.promote':
        add('failover', 'failover', i, e, `${str(e.node)} promoted`, `${str(e.node)} 被提升为主`);
        break;
      case 'cluster.promoted':
        add(
          'failover',
          'failover',
          i,
          e,
          `${str(e.node)} takes slots ${str(e.slots)}`,
          `${str(e.node)} 接管槽 ${str(e.slots)}`,
        );
        break;
      case 'cmd': {
        const reply = e.reply as { error?: unknown } | null;
        const error = typeof reply === 'object' && reply !== null ? reply.error : undefined;
        if (typeof error === 'string' && error.startsWith('MOVED '))
          add('moved', 'moved', i, e, `${who} redirected (MOVED)`, `${who} 被重定向（MOVED）`);
        break;
      }
      case 'lock.failed':
        add('gave-up', 'gave-up', i, e, `${who} gives up`, `${who} 放弃`);
        break;
      case 'lock.error':
        // an acquire that threw (WRONGTYPE, a failed WAIT, …): the thread never got the lock
        if (e.op !== 'unlock')
          add(
            `acquire-threw:${who}`,
            'acquire-threw',
            i,
            e,
            `${who}'s ${str(e.op)} throws`,
            `${who} 的 ${str(e.op)} 抛出异常`,
          );
        // an unlock Redis refused (the thread no longer, or never, held the lock), or one that got
        // no answer at all (a response timeout: a partition, a stalled node)
        if (e.op === 'unlock') {
          const refused = str(e.error).startsWith('IllegalMonitorStateException');
          add(
            `unlock-refused:${who}`,
            'unlock-refused',
            i,
            e,
            refused ? `${who}'s unlock refused` : `${who}'s unlock fails`,
            refused ? `${who} 的解锁被拒绝` : `${who} 的解锁失败`,
          );
        }
        break;
      case 'resource.use':
        if (e.accepted === false)
          add('refused', 'refused', i, e, `${who}'s write refused`, `${who} 的写入被拒绝`);
        else add('write', 'write', i, e, `${who} writes`, `${who} 写入资源`);
        break;
      case 'violation.start': {
        const v = str(e.violation);
        add(`violation:${v}`, 'violation', i, e, `${v} starts`, `${v} 开始`);
        break;
      }
      default:
        break;
    }
  });
  if (out.length <= MAX_KEY_MOMENTS) return out;
  // Keep what the lesson is about: violations and faults before the routine lock traffic.
  const rank = (m: KeyMoment) => (m.kind === 'violation' ? 0 : ROUTINE.has(m.kind) ? 2 : 1);
  const kept = new Set(
    [...out]
      .sort((a, b) => rank(a) - rank(b) || a.index - b.index)
      .slice(0, MAX_KEY_MOMENTS)
      .map((m) => m.index),
  );
  return out.filter((m) => kept.has(m.index));
}

const ROUTINE = new Set<KeyMomentKind>(['wait', 'wakeup', 'renew', 'takeover', 'release', 'write']);

/** A hold longer than this share of the run is shown from its start, not whole. */
const SHORT_HOLD_SHARE = 0.1;

/**
 * When the hold an acquire moment opens is short (B's 10 ms hold in a 12 s run), the time it
 * ends, so a jump can show the whole hold rather than a sliver at its start; otherwise the
 * moment's own time. The hold ends at the thread's release of that lock to a count of 0.
 */
export function momentEnd(trace: Pick<Trace, 'events'>, m: KeyMoment): number {
  if (m.kind !== 'acquire' && m.kind !== 'takeover') return m.t;
  const start = trace.events[m.index];
  const runEnd = trace.events[trace.events.length - 1]?.t ?? m.t;
  for (let i = m.index + 1; i < trace.events.length; i++) {
    const e = trace.events[i];
    if (e.t - m.t > runEnd * SHORT_HOLD_SHARE) break;
    if (e.kind === 'lock.released' && e.holdCount === 0 && e.actor === start.actor && e.lock === start.lock)
      return e.t;
  }
  return m.t;
}
