/** Unlock failures: the IllegalMonitorStateException family, each with its own cause. */
import { aThenB, client, clientOf, thread } from '../../build';
import { defineIncident, onRelease } from './define';

const IMSE = 'IllegalMonitorStateException';
const IMSE_KEYS = [IMSE, 'attempt to unlock lock, not locked by current thread', 'unlock 失败', '解锁异常'];

const leaseTooShort = {
  redisson: { version: '3.11.6' },
  clients: aThenB('order:42', { a: 12_000, b: 200, bStart: 1000 }, { body: 'use' }, { leaseMs: 10_000 }),
};

export const leaseShorterThanWork = defineIncident(
  'incident-lease-shorter-than-work',
  {
    title: 'lock(10, SECONDS), 12 s of work: unlock throws IMSE',
    titleZh: 'lock(10, SECONDS) 后工作 12 秒：unlock 抛出 IMSE',
    description:
      'Redisson 3.11.6, as reported. A:1 calls `lock(10, SECONDS)` and its work takes 12 s. An explicit lease ' +
      'means no watchdog: the key `order:42` expires at 10 s, B:1 (waiting since 1 s) takes the lock and writes, ' +
      'and A:1, still inside its critical section, writes its stale value over B’s. A:1’s unlock finds no field ' +
      'of its own and throws IllegalMonitorStateException: the exception the users saw, and the least of the damage.',
    descriptionZh:
      'Redisson 3.11.6，与报告一致。A:1 调用 `lock(10, SECONDS)`，工作用了 12 秒。显式租期意味着没有看门狗：键 `order:42` 在 ' +
      '10 秒时过期，从 1 秒起就在等待的 B:1 拿到锁并写入；仍在临界区里的 A:1 用旧值覆盖了 B 的结果。A:1 解锁时找不到自己的字段，' +
      '抛出 IllegalMonitorStateException：这是用户看到的异常，也是损失中最小的一部分。',
    incident: {
      family: 'unlock',
      links: [
        'https://github.com/redisson/redisson/issues/2468',
        'https://github.com/redisson/redisson/issues/2269',
        'https://github.com/redisson/redisson/issues/4405',
      ],
      reported: '3.11.6',
      symptom: {
        en: '`lock(10, TimeUnit.SECONDS)`, then a task of about ten seconds: `unlock()` always throws “attempt to unlock lock, not locked by current thread”.',
        zh: '`lock(10, TimeUnit.SECONDS)` 之后执行约十秒的任务：`unlock()` 总是抛出 “attempt to unlock lock, not locked by current thread”。',
      },
      cause: {
        en: 'With an explicit leaseTime Redisson starts no watchdog (mrniko in #4405: it expires in any case, so the watchdog is not needed). The key expires mid-work; another thread may take the lock; the unlock script finds no field for the thread and returns nil, which becomes IllegalMonitorStateException.',
        zh: '显式 leaseTime 时 Redisson 不启动看门狗（mrniko 在 #4405 中说：反正会过期，不需要看门狗）。键在工作中途过期，别的线程可能拿到锁；解锁脚本找不到该线程的字段，返回 nil，于是抛出 IllegalMonitorStateException。',
      },
      keywords: [...IMSE_KEYS, 'leaseTime', 'lease expired', '租期', '过期', '锁提前释放', 'lost update', '更新丢失'],
      verdict: 'unsafe',
    },
    scenario: { title: 'Lease shorter than the work', ...leaseTooShort },
  },
  {
    title: 'The remedy: lock() without a lease, the watchdog renews',
    titleZh: '补救：不带租期的 lock()，由看门狗续期',
    description:
      'The same two threads, but A:1 calls `lock()` without a lease. The watchdog renews `order:42` every 10 s, so ' +
      'B:1 waits until A:1’s unlock, which succeeds. The counter ends at 2.',
    descriptionZh:
      '同样两个线程，但 A:1 调用不带租期的 `lock()`。看门狗每 10 秒为 `order:42` 续期，B:1 一直等到 A:1 解锁，解锁成功，计数器最终为 2。',
    verdict: 'safe',
    scenario: {
      title: 'The remedy: the watchdog',
      redisson: { version: '3.11.6' },
      clients: aThenB('order:42', { a: 12_000, b: 200, bStart: 1000 }, { body: 'use' }),
    },
  },
);

export const unlockAfterFailedTryLock = defineIncident('incident-unlock-after-failed-trylock', {
  title: 'tryLock’s false ignored, unlock in finally: IMSE and a lost update',
  titleZh: '忽略 tryLock 的 false，在 finally 中解锁：IMSE 和更新丢失',
  description:
    'The code of the report: `try { lock.tryLock(10, 5, SECONDS); doWork(); } finally { lock.unlock(); }`. A:1 ' +
    'holds the lock (`lock()`, the watchdog) for 12 s of work; B:1’s tryLock waits 10 s and returns false, but ' +
    'nothing checks it: B:1 does the work anyway, without the lock, beside A:1 (a lost update, V3), and its unlock ' +
    'in `finally` throws IllegalMonitorStateException.',
  descriptionZh:
    '报告中的代码：`try { lock.tryLock(10, 5, SECONDS); doWork(); } finally { lock.unlock(); }`。A:1 以 `lock()` 持锁工作 12 秒；' +
    'B:1 的 tryLock 等了 10 秒返回 false，却没有人检查：B:1 照样在没有锁的情况下与 A:1 同时干活（更新丢失，V3），' +
    '它在 `finally` 里的 unlock 抛出 IllegalMonitorStateException。',
  incident: {
    family: 'unlock',
    links: ['https://github.com/redisson/redisson/issues/581', 'https://github.com/redisson/redisson/issues/1485'],
    reported: '2.2.x (2016)',
    symptom: {
      en: 'Under a stress test `tryLock(10, 5, SECONDS)` “throws” “attempt to unlock lock, not locked by current thread”; with `lock()` it does not.',
      zh: '压测时 `tryLock(10, 5, SECONDS)` “抛出” “attempt to unlock lock, not locked by current thread”；换成 `lock()` 就没有。',
    },
    cause: {
      en: 'tryLock returned false after its wait time, the code ignored the result and ran the business logic without the lock, and the `finally` block unlocked a lock the thread never held. The fix is in the caller: `if (lock.tryLock(…)) { try { … } finally { lock.unlock(); } }`.',
      zh: 'tryLock 在等待时间到后返回 false，代码忽略了结果，在没有锁的情况下执行业务逻辑，`finally` 又去释放一把从未持有的锁。修复在调用方：`if (lock.tryLock(…)) { try { … } finally { lock.unlock(); } }`。',
    },
    keywords: [...IMSE_KEYS, 'tryLock', 'finally', 'tryLock false', '加锁失败', '没拿到锁'],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'Unlock after a failed tryLock',
    clients: [
      client('A', [{ op: 'lock', lock: 'lottery' }, { op: 'use', ms: 12_000 }, { op: 'unlock', lock: 'lottery' }]),
      clientOf(
        'B',
        thread(
          1,
          [
            {
              op: 'try',
              body: [
                { op: 'tryLock', lock: 'lottery', waitMs: 10_000, leaseMs: 5000 },
                { op: 'use', ms: 500 },
              ],
              finally: [{ op: 'unlock', lock: 'lottery' }],
            },
          ],
          500,
        ),
      ),
    ],
  },
});

export const incidentsUnlock = [...leaseShorterThanWork, ...unlockAfterFailedTryLock];
export { IMSE_KEYS, onRelease };
