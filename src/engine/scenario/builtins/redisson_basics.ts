/** RLock doing its everyday job: lock, reentry, waiting through pub/sub, giving up on time. */
import { client, clientOf, hold, thread } from '../build';
import { defineBuiltin } from './types';

export const basicLock = defineBuiltin('basic-lock', {
  group: 'basics',
  title: 'lock() and unlock()',
  titleZh: 'lock() 与 unlock()',
  description:
    'One thread takes myLock, works for a second and releases it. Watch the acquire script create a hash ' +
    '`myLock` with the field `<uuid>:1` = 1 and a 30 s TTL (no lease given, so the watchdog lease), and the ' +
    'unlock script delete it and publish 0 on `redisson_lock__channel:{myLock}`.',
  descriptionZh:
    '一个线程获取 myLock，工作 1 秒后释放。加锁脚本创建哈希 `myLock`，字段 `<uuid>:1` = 1，TTL 30 秒（未指定 leaseTime，' +
    '使用看门狗租期）；解锁脚本删除它，并向 `redisson_lock__channel:{myLock}` 发布 0。',
  scenario: {
    clients: [client('A', hold('myLock', 1000))],
  },
});

export const reentrant = defineBuiltin('reentrant', {
  group: 'basics',
  title: 'Reentrant locking: the hold count',
  titleZh: '可重入锁：持有次数',
  description:
    'A:1 locks myLock twice: the hash field counts 1, then 2, and each acquire resets the TTL. Meanwhile B:1 ' +
    'tries once (tryLock()) and gets false. The first unlock only decrements the count (the lock stays); the ' +
    'second deletes the key and publishes the unlock message.',
  descriptionZh:
    'A:1 两次获取 myLock：哈希字段计数从 1 变为 2，每次加锁都会重置 TTL。期间 B:1 尝试一次 tryLock()，返回 false。' +
    '第一次 unlock 只把计数减一（锁仍然存在），第二次才删除键并发布解锁消息。',
  scenario: {
    title: 'Reentrant locking',
    clients: [
      client('A', [
        { op: 'lock', lock: 'myLock' },
        { op: 'work', ms: 500 },
        { op: 'lock', lock: 'myLock' },
        { op: 'work', ms: 500 },
        { op: 'unlock', lock: 'myLock' },
        { op: 'work', ms: 500 },
        { op: 'unlock', lock: 'myLock' },
      ]),
      client('B', [{ op: 'tryLock', lock: 'myLock' }], { start: 700 }),
    ],
  },
});

export const contentionWakeup = defineBuiltin('contention-wakeup', {
  group: 'basics',
  title: 'Waiting without polling: the unlock message',
  titleZh: '不轮询的等待：解锁消息',
  description:
    'A:1 holds myLock for 2 s while A:2, B:1 and C:1 wait. Each waiting client subscribes once to the lock ' +
    'channel and its threads share one latch. When A:1 unlocks, the published 0 reaches every subscribed ' +
    'client and wakes one thread per client; they race, one wins, the others go back to waiting for the ' +
    "winner's TTL or the next message.",
  descriptionZh:
    'A:1 持有 myLock 2 秒，A:2、B:1、C:1 在等待。每个等待的客户端只订阅一次锁频道，它的线程共用一个信号量。' +
    'A:1 解锁时，发布的 0 到达每个订阅的客户端，每个客户端唤醒一个线程；它们竞争，一个获胜，其余线程继续等待获胜者的 TTL 或下一条消息。',
  scenario: {
    title: 'Waiting without polling',
    clients: [
      clientOf('A', thread(1, hold('myLock', 2000)), thread(2, hold('myLock', 300), 100)),
      client('B', hold('myLock', 300), { start: 200 }),
      client('C', hold('myLock', 300), { start: 300 }),
    ],
  },
});

export const trylockTimeout = defineBuiltin('trylock-timeout', {
  group: 'basics',
  title: 'tryLock(waitTime) gives up on time',
  titleZh: 'tryLock(waitTime) 按时放弃',
  description:
    'A:1 holds myLock for 5 s. B:1 calls tryLock with a 1 s wait: it waits on the latch for the remaining ' +
    'wait time (shorter than the TTL), then returns false, and skips the section the lock guards, its work ' +
    'and its unlock, as `if (lock.tryLock(1, SECONDS)) { try { … } finally { lock.unlock(); } }` does. ' +
    'B:2 waits up to 8 s and gets the lock when A:1 unlocks.',
  descriptionZh:
    'A:1 持有 myLock 5 秒。B:1 调用 tryLock，最多等 1 秒：它在信号量上等待剩余的等待时间（比 TTL 短），然后返回 false，' +
    '并跳过这把锁保护的代码段（其中的工作和 unlock），就像 `if (lock.tryLock(1, SECONDS)) { try { … } finally { lock.unlock(); } }`。' +
    'B:2 最多等 8 秒，在 A:1 解锁时拿到锁。',
  scenario: {
    title: 'tryLock gives up on time',
    clients: [
      client('A', hold('myLock', 5000)),
      clientOf(
        'B',
        thread(1, hold('myLock', 500, { acquire: 'tryLock', waitMs: 1000 }), 100),
        thread(2, hold('myLock', 500, { acquire: 'tryLock', waitMs: 8000 }), 200),
      ),
    ],
  },
});

export const unlockNotOwner = defineBuiltin('unlock-not-owner', {
  group: 'basics',
  title: "Unlocking someone else's lock",
  titleZh: '释放别人的锁',
  description:
    'A:1 holds myLock. A:2 (another thread of the same client) and B:1 call unlock: the unlock script finds ' +
    'no field `<uuid>:<thread>` of theirs and returns nil, which Redisson turns into ' +
    'IllegalMonitorStateException, which, uncaught, ends each of their threads. The lock stays with A:1; ' +
    'only the owning thread can release it.',
  descriptionZh:
    'A:1 持有 myLock。A:2（同一客户端的另一个线程）和 B:1 调用 unlock：解锁脚本找不到它们自己的字段 `<uuid>:<线程>`，' +
    '返回 nil，Redisson 抛出 IllegalMonitorStateException；这个异常没有被捕获，结束了它们的线程。锁仍归 A:1，只有持有锁的线程能释放它。',
  scenario: {
    clients: [
      clientOf('A', thread(1, hold('myLock', 3000)), thread(2, [{ op: 'unlock', lock: 'myLock' }], 1000)),
      client('B', [{ op: 'unlock', lock: 'myLock' }], { start: 1500 }),
    ],
  },
});
