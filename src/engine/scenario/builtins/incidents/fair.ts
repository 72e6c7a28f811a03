/** FairLock queues: a waiter nobody will ever wake. */
import { client } from '../../build';
import { defineIncident, onRelease } from './define';

const fairOp = (op: string, extra: Record<string, unknown> = {}) => ({
  op,
  lock: 'fair',
  type: 'FairLock',
  ...extra,
});
const FAIR_KEYS = [
  'FairLock',
  'RFairLock',
  'fair lock',
  'queue',
  '公平锁',
  '队列',
  '卡住',
  '一直等待',
  'stuck',
];

const deadWaiter = (type: 'FairLock' | 'RLock') => {
  const op = (name: string, extra: Record<string, unknown> = {}) =>
    type === 'FairLock' ? fairOp(name, extra) : { op: name, lock: 'fair', ...extra };
  return {
    redisson: { version: '3.13.6' },
    until: 400_000,
    clients: [
      client('A', [op('lock'), { op: 'work', ms: 2000 }, op('unlock')]),
      client('B', [op('lock'), { op: 'work', ms: 300 }, op('unlock')], { start: 100 }),
      client(
        'C',
        [op('tryLock', { waitMs: 300_000, leaseMs: 300_000 }), { op: 'work', ms: 300 }, op('unlock')],
        {
          start: 200,
        },
      ),
    ],
    // B's JVM dies while it waits in the queue
    faults: [{ at: 1000, kind: 'crash', client: 'B' }],
  };
};

export const fairLockDeadWaiter = defineIncident(
  'incident-fairlock-dead-waiter',
  {
    title: 'FairLock: a dead waiter holds the queue for 5 minutes',
    titleZh: 'FairLock：一个死掉的等待者把队列占住 5 分钟',
    description:
      'Redisson 3.13.6. A:1 holds the fair lock; B:1 and then C:1 queue behind it. B’s JVM dies at 1 s while it ' +
      'waits. A unlocks at 2 s: the lock is free, but the head of the queue is B, and the queue keeps B’s place until ' +
      'its threadWaitTime (5 min) runs out. C:1’s `tryLock(300, 300, SECONDS)` waits all that time for a free lock ' +
      '(liveness L2) and returns false.',
    descriptionZh:
      'Redisson 3.13.6。A:1 持有公平锁；B:1 和 C:1 依次在它后面排队。B 的 JVM 在 1 秒时死掉了。A 在 2 秒解锁：锁空了，' +
      '但队首是 B，队列要等 B 的 threadWaitTime（5 分钟）用完才放弃它的位置。C:1 的 `tryLock(300, 300, SECONDS)` 对着一把空闲的锁' +
      '等了这么久（活性 L2），最后返回 false。',
    incident: {
      family: 'fair',
      links: [
        'https://github.com/redisson/redisson/issues/3254',
        'https://github.com/redisson/redisson/issues/1353',
      ],
      reported: '3.13.6',
      symptom: {
        en: 'RedissonFairLock.tryLock(300, 300, SECONDS) returns false after almost 5 minutes, although the threads that held the lock released it long before.',
        zh: 'RedissonFairLock.tryLock(300, 300, SECONDS) 在将近 5 分钟后返回 false，尽管持有锁的线程早就释放了它。',
      },
      cause: {
        en: 'mrniko: it happens if one of the waiting threads was terminated. The fair queue keeps a waiter’s place until its threadWaitTime ends (#1353: “if some thread has died then Redisson waits its return”); since 3.13.3 that is 5 minutes per dead waiter. A non-fair RLock has no queue to hold.',
        zh: 'mrniko：如果某个等待线程被终止，就会这样。公平队列会一直为等待者保留位置，直到它的 threadWaitTime 结束（#1353：“如果某个线程死了，Redisson 会等它回来”）；从 3.13.3 起，每个死掉的等待者要等 5 分钟。非公平的 RLock 没有需要占位的队列。',
      },
      keywords: [...FAIR_KEYS, 'tryLock false', 'threadWaitTime', 'crashed waiter', '等待者', '返回 false'],
      verdict: 'stuck',
    },
    scenario: { title: 'A dead waiter holds the queue', ...deadWaiter('FairLock') },
  },
  {
    title: 'The remedy: a plain RLock has no queue to wait out',
    titleZh: '补救：普通 RLock 没有需要等完的队列',
    description:
      'The same crash with a non-fair RLock: B’s death leaves nothing behind, and C:1 gets the lock when A:1 unlocks.',
    descriptionZh: '用非公平的 RLock 发生同样的崩溃：B 死后什么也没留下，C:1 在 A:1 解锁时拿到锁。',
    verdict: 'safe',
    scenario: { title: 'Remedy: a plain RLock', ...deadWaiter('RLock') },
  },
);

const longHolder = {
  redisson: { version: '3.12.0' },
  until: 200_000,
  clients: [
    client('A', [fairOp('lock'), { op: 'work', ms: 40_000 }, fairOp('unlock')]),
    client('B', [fairOp('lock'), { op: 'work', ms: 300 }, fairOp('unlock')], { start: 1000 }),
    client('C', [fairOp('lock'), { op: 'work', ms: 300 }, fairOp('unlock')], { start: 2000 }),
  ],
};

export const fairLockNegativeTtl = defineIncident(
  'incident-fairlock-negative-ttl',
  {
    title: 'FairLock: a negative wait estimate blocks for ever',
    titleZh: 'FairLock：负的等待估计让线程永远阻塞',
    description:
      'Redisson 3.12.0 (threadWaitTime 5 s). A:1 holds the fair lock for 40 s under the watchdog; B:1 and C:1 queue. ' +
      'When their first waits run out, the acquire script’s estimate for a queued thread (its deadline − ' +
      'threadWaitTime − now) has gone negative, and a negative ttl makes `lock()` wait on its latch with no timeout. ' +
      'A unlocks at 40 s, but by then B and C had been dropped from the queue as expired, so the unlock publishes to ' +
      'nobody: both wait for ever on a free lock (liveness L2).',
    descriptionZh:
      'Redisson 3.12.0（threadWaitTime 为 5 秒）。A:1 在看门狗下持有公平锁 40 秒；B:1 和 C:1 排队。它们第一次等待结束时，' +
      '加锁脚本对排队线程的估计（截止时间 − threadWaitTime − 当前时间）已经变成负数，而负的 ttl 让 `lock()` 在信号量上无限期等待。' +
      'A 在 40 秒解锁，但 B 和 C 早已作为过期者被移出队列，解锁消息发给了没人：两者对着一把空闲的锁永远等下去（活性 L2）。',
    incident: {
      family: 'fair',
      links: [
        'https://github.com/redisson/redisson/issues/5503',
        'https://github.com/redisson/redisson/issues/6150',
      ],
      reported: '3.12.0',
      fixedIn: '3.32.0',
      symptom: {
        en: 'With a FairLock held for about 40 s (watchdog 30 s), the second thread computes a negative ttl and calls `getLatch().acquireUninterruptibly()`; after the first thread unlocks, the second blocks for ever.',
        zh: '公平锁被持有约 40 秒（看门狗 30 秒）时，第二个线程算出负的 ttl，调用 `getLatch().acquireUninterruptibly()`；第一个线程解锁后，第二个线程永远阻塞。',
      },
      cause: {
        en: 'mrniko: 3.32.0 fixes the incorrect calculation of the remaining ttl (CHANGELOG 3.32.0: “RFairLock doesn’t calculate remaining ttl properly before next acquisition attempt”): the estimate is never below 0, so the waiter always has a timer to try again.',
        zh: 'mrniko：3.32.0 修复了剩余 ttl 计算错误的问题（CHANGELOG 3.32.0：“RFairLock doesn’t calculate remaining ttl properly before next acquisition attempt”）：估计值不会小于 0，等待者总有一个定时器去重试。',
      },
      keywords: [
        ...FAIR_KEYS,
        'negative ttl',
        'acquireUninterruptibly',
        'blocks forever',
        'hang',
        '负数',
        '永远阻塞',
        '死锁',
      ],
      verdict: 'stuck',
    },
    scenario: { title: 'FairLock: negative ttl', ...longHolder },
  },
  {
    title: 'Fixed in 3.32.0: the estimate is never negative',
    titleZh: '3.32.0 修复：估计值不再为负',
    description:
      'The same 40 s hold on Redisson 3.32.0: the queued threads’ estimates stay positive, they wake on time, and A’s ' +
      'unlock hands the lock to B, then C.',
    descriptionZh:
      '在 Redisson 3.32.0 上同样持有 40 秒：排队线程的估计值保持为正，它们按时醒来，A 解锁后锁依次交给 B、C。',
    verdict: 'safe',
    scenario: { title: 'Fixed: max(0, pttl)', ...onRelease(longHolder, '3.32.0') },
  },
);

export const incidentsFair = [...fairLockDeadWaiter, ...fairLockNegativeTtl];
