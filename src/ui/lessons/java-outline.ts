/**
 * Where a thread is in Redisson's own code, read from its recent trace events: a short
 * pseudo-Java outline of `lock()`, `tryLock()`, `unlock()` and the watchdog's renewal task
 * (written by us after RedissonLock, simplified: no async plumbing, no interrupt handling), and
 * which of its lines the thread's latest event belongs to. Pure: the trace in, a position out.
 */
import { NAIVE_LOCK_TYPES } from '../../engine/lock_types';
import type { TraceEvent } from '../../engine/trace/types';

export type OutlineId = 'caller' | 'callerFenced' | 'lock' | 'tryLock' | 'unlock' | 'renewal';

export interface OutlineLine {
  code: string;
  comment?: { en: string; zh: string };
}

const c = (en: string, zh: string) => ({ en, zh });

/** `titleZh`: the title in 中文 where it is words, not a Java name */
export const OUTLINES: Record<OutlineId, { title: string; titleZh?: string; lines: OutlineLine[] }> = {
  caller: {
    title: 'your code',
    titleZh: '你的代码',
    lines: [
      { code: 'RLock lock = redisson.getLock(name);' },
      { code: 'lock.lock();  // or tryLock(...)' },
      { code: 'try {' },
      { code: '    doWork();', comment: c('the critical section', '临界区') },
      { code: '} finally {' },
      { code: '    lock.unlock();' },
      { code: '}' },
    ],
  },
  // RFencedLock (3.26+): the token comes back from the acquire and goes with every write
  callerFenced: {
    title: 'your code',
    titleZh: '你的代码',
    lines: [
      { code: 'RFencedLock lock = redisson.getFencedLock(name);' },
      {
        code: 'Long token = lock.lockAndGetToken();',
        comment: c('the token only grows', '防护令牌只增不减'),
      },
      { code: 'try {' },
      {
        code: '    store.write(value, token);',
        comment: c('the store refuses an older token', '存储拒绝更旧的防护令牌'),
      },
      { code: '} finally {' },
      { code: '    lock.unlock();' },
      { code: '}' },
    ],
  },
  lock: {
    title: 'RedissonLock.lock()',
    lines: [
      { code: 'void lock(long leaseTime, TimeUnit unit) {' },
      { code: '    long threadId = Thread.currentThread().getId();' },
      {
        code: '    Long ttl = tryAcquire(-1, leaseTime, unit, threadId);',
        comment: c('EVAL the lock script', '执行加锁脚本（EVAL）'),
      },
      { code: '    if (ttl == null) return;', comment: c('null: the lock is ours', 'null：拿到锁了') },
      {
        code: '    subscribe(threadId);',
        comment: c('SUBSCRIBE redisson_lock__channel:{name}', '订阅 redisson_lock__channel:{name}'),
      },
      { code: '    try {' },
      { code: '        while (true) {' },
      {
        code: '            ttl = tryAcquire(-1, leaseTime, unit, threadId);',
        comment: c('try again: it may be free by now', '再试一次：锁可能已经释放'),
      },
      { code: '            if (ttl == null) break;', comment: c('acquired', '拿到锁了') },
      {
        code: '            latch.tryAcquire(ttl, MILLISECONDS);',
        comment: c('sleep until the unlock message or the TTL', '睡到解锁消息或 TTL 到期'),
      },
      { code: '        }' },
      { code: '    } finally {' },
      { code: '        unsubscribe(threadId);' },
      { code: '    }' },
      { code: '}' },
    ],
  },
  tryLock: {
    title: 'RedissonLock.tryLock()',
    lines: [
      { code: 'boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) {' },
      { code: '    long time = unit.toMillis(waitTime);' },
      {
        code: '    Long ttl = tryAcquire(waitTime, leaseTime, unit, threadId);',
        comment: c('EVAL the lock script', '执行加锁脚本（EVAL）'),
      },
      { code: '    if (ttl == null) return true;', comment: c('acquired', '拿到锁了') },
      {
        code: '    subscribe(threadId).get(time);',
        comment: c('SUBSCRIBE, within the wait time', '在等待时间内订阅'),
      },
      { code: '    try {' },
      { code: '        while (true) {' },
      {
        code: '            ttl = tryAcquire(waitTime, leaseTime, unit, threadId);',
        comment: c('try again', '再试一次'),
      },
      { code: '            if (ttl == null) return true;', comment: c('acquired', '拿到锁了') },
      {
        code: '            latch.tryAcquire(min(ttl, time), MILLISECONDS);',
        comment: c('sleep: the unlock message, the TTL or the wait time', '睡眠：等解锁消息、TTL 或等待时间'),
      },
      {
        code: '            if (time <= 0) return false;',
        comment: c('waited long enough: give up', '等够了：放弃'),
      },
      { code: '        }' },
      { code: '    } finally {' },
      { code: '        unsubscribe(threadId);' },
      { code: '    }' },
      { code: '}' },
    ],
  },
  unlock: {
    title: 'RedissonLock.unlock()',
    lines: [
      { code: 'void unlock() {' },
      {
        code: '    Boolean opStatus = unlockInnerAsync(threadId).get();',
        comment: c(
          'EVAL the unlock script: HINCRBY -1, PUBLISH at 0',
          '执行解锁脚本：HINCRBY -1，归零时 PUBLISH',
        ),
      },
      {
        code: '    cancelExpirationRenewal(threadId);',
        comment: c('stop the watchdog for this lock', '停掉这把锁的看门狗'),
      },
      { code: '    if (opStatus == null)' },
      {
        code: '        throw new IllegalMonitorStateException(...);',
        comment: c('not held by this thread', '这个线程并不持有锁'),
      },
      { code: '}' },
    ],
  },
  renewal: {
    title: 'RedissonBaseLock.renewExpiration() (before 3.44)',
    lines: [
      {
        code: '// 3.44+: one LockTask per client renews all its locks in one script',
        comment: c('same test: PEXPIRE only if our field is there', '判断相同：我们的字段还在才 PEXPIRE'),
      },
      { code: 'Timeout task = timer.newTimeout(timeout -> {' },
      {
        code: '    Boolean res = renewExpirationAsync(threadId).get();',
        comment: c('EVAL: PEXPIRE if our field is still there', 'EVAL：我们的字段还在就 PEXPIRE'),
      },
      {
        code: '    if (res) renewExpiration();',
        comment: c('renewed: schedule the next one', '续期成功：安排下一次'),
      },
      {
        code: '    else cancelExpirationRenewal(null);',
        comment: c('the lock is gone: stop', '锁已不在：停止'),
      },
      {
        code: '}, internalLockLeaseTime / 3, MILLISECONDS);',
        comment: c('every lockWatchdogTimeout / 3 (10 s)', '每 lockWatchdogTimeout / 3（10 秒）一次'),
      },
    ],
  },
};

export interface Where {
  actor: string;
  outline: OutlineId;
  /** 0-based line of OUTLINES[outline] */
  line: number;
  /** the event that placed it */
  index: number;
}

const isThread = (actor: unknown): actor is string => typeof actor === 'string' && actor.includes(':');

/** The thread the cursor is about: its event's, else the latest thread event before it. */
export function threadAt(events: readonly TraceEvent[], cursor: number): string | null {
  for (let i = Math.min(cursor, events.length - 1); i >= 0; i--)
    if (isThread(events[i].actor)) return events[i].actor as string;
  return null;
}

function isRedisson(type: unknown): boolean {
  return !(NAIVE_LOCK_TYPES as readonly unknown[]).includes(type);
}

/**
 * Where `actor` is in Redisson's code at `cursor`: walks its events since its latest lock call
 * (or unlock) and keeps the line the last of them belongs to. Null when the thread is not in a
 * Redisson lock call (a naive lock, no lock yet, finished).
 */
/** The lock type of `actor`'s latest lock request before `before`. */
function lastLockType(events: readonly TraceEvent[], before: number, actor: string): unknown {
  for (let i = before - 1; i >= 0; i--)
    if (events[i].actor === actor && events[i].kind === 'lock.request') return events[i].type;
  return undefined;
}

export function whereIs(events: readonly TraceEvent[], cursor: number, actor: string): Where | null {
  const end = Math.min(cursor, events.length - 1);
  const here = events[end];
  // The renewal runs on the client's timer, drawn on the lane of the thread whose lock it is; a
  // naive set-nx-px-renew lock's own renewal thread ("A/renewal") is not Redisson's code.
  if (here !== undefined && here.kind === 'watchdog.renew' && here.actor === actor) {
    if (String(here.timer).endsWith('/renewal')) return null;
    return { actor, outline: 'renewal', line: here.result === 1 ? 3 : here.result === 0 ? 4 : 2, index: end };
  }
  // Find where the latest call began.
  let start = -1;
  for (let i = end; i >= 0; i--) {
    const e = events[i];
    if (e.actor !== actor) continue;
    if (e.kind === 'lock.request' || e.kind === 'unlock.request' || e.kind === 'work.start') {
      start = i;
      break;
    }
    if (e.kind === 'thread.done' || e.kind === 'thread.start') return null;
  }
  if (start < 0) return null;
  const first = events[start];
  if (first.kind === 'work.start') {
    if (first.critical === false) return null;
    const fenced = lastLockType(events, start, actor) === 'FencedLock';
    return { actor, outline: fenced ? 'callerFenced' : 'caller', line: 3, index: start };
  }
  if (first.kind === 'unlock.request') {
    if (!isRedisson(first.type)) return null;
    let line = 1;
    let index = start;
    for (let i = start + 1; i <= end; i++) {
      const e = events[i];
      if (e.actor !== actor) continue;
      if (e.kind === 'watchdog.cancel') [line, index] = [2, i];
      else if (e.kind === 'lock.error') [line, index] = [4, i];
      else if (e.kind === 'cmd') [line, index] = [1, i];
    }
    return { actor, outline: 'unlock', line, index };
  }
  if (!isRedisson(first.type)) return null;
  const outline: OutlineId = first.op === 'tryLock' ? 'tryLock' : 'lock';
  let subscribed = false;
  let line = 2;
  let index = start;
  for (let i = start + 1; i <= end; i++) {
    const e = events[i];
    if (e.actor !== actor) continue;
    switch (e.kind) {
      case 'cmd':
        if (Array.isArray(e.argv) && /^evalsha?$/i.test(String(e.argv[0])))
          [line, index] = [subscribed ? 7 : 2, i];
        break;
      case 'pubsub.subscribe':
        subscribed = true;
        [line, index] = [4, i];
        break;
      case 'lock.wait':
      case 'waiter.wakeup':
        [line, index] = [9, i];
        break;
      case 'lock.acquired':
        [line, index] = [subscribed ? 8 : 3, i];
        break;
      case 'lock.failed':
        if (outline === 'tryLock') [line, index] = [10, i];
        break;
      case 'pubsub.unsubscribe':
        [line, index] = [outline === 'tryLock' ? 13 : 12, i];
        break;
    }
  }
  return { actor, outline, line, index };
}
