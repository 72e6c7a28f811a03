/** The watchdog: a renewal that stops, and a holder the watchdog cannot reach Redis for. */
import { aThenB, client, clientOf, thread } from '../../build';
import { defineIncident, onRelease } from './define';

const renewalStops = {
  seed: 6,
  redis: {
    topology: 'sentinel',
    replicas: [{ lagMs: 5 }, { lagMs: 5 }],
    sentinel: { count: 3, quorum: 2, downAfterMs: 5000, failoverMs: 1000 },
  },
  // a 1 s response timeout and one retry: the renewal due at 10 s has failed by 13 s, while the
  // Sentinels are still deciding; the promoted replica's copy of the lock lives until 30 s
  redisson: { version: '3.2.3', timeoutMs: 1000, retryAttempts: 1, retryDelayMs: 1000 },
  clients: aThenB('job', { a: 60_000, b: 1000, bStart: 2000 }, { body: 'use' }),
  faults: [{ at: 9000, kind: 'crash', node: 'master' }],
};

export const failoverStopsRenewal = defineIncident(
  'incident-failover-stops-renewal',
  {
    title: 'One failed renewal during failover stops the watchdog',
    titleZh: '主从切换期间一次续期失败，看门狗就此停止',
    description:
      'Redisson 3.2.3 under Sentinel. A:1 holds `job` (watchdog) for a 60 s task; the lock is on both replicas. The ' +
      'master dies at 9 s; the renewal due at 10 s times out (RedisTimeoutException) before the Sentinels have ' +
      'promoted replica-1, and this release does not schedule another. The promoted replica’s copy expires at 30 s, ' +
      'B:1 takes the lock while A:1 works (V1, V3), and A’s unlock throws IllegalMonitorStateException.',
    descriptionZh:
      'Redisson 3.2.3，哨兵模式。A:1 以看门狗持有 `job`，执行 60 秒的任务；锁已复制到两个从节点。主节点在 9 秒宕机；' +
      '10 秒的续期在哨兵提升 replica-1 之前就超时了（RedisTimeoutException），而这个版本不再安排下一次续期。被提升的从节点上的锁在 ' +
      '30 秒过期，B:1 在 A:1 仍在工作时拿到锁（V1、V3），A 的 unlock 抛出 IllegalMonitorStateException。',
    incident: {
      family: 'watchdog',
      links: ['https://github.com/redisson/redisson/issues/775'],
      reported: '3.2.3',
      fixedIn: '3.44.0',
      symptom: {
        en: 'Locks held indefinitely (lock() with the watchdog) “disappear after a master/slave failover”.',
        zh: '无限期持有的锁（带看门狗的 lock()）“在主从切换之后消失了”。',
      },
      cause: {
        en: 'The reporter, confirmed by the code: renewExpiration reschedules itself only after a successful renewal; a RedisTimeoutException during the failover ends it for good. 3.44.0’s batched LockTask goes on with the next round (CHANGELOG: “lock watchdog doesn’t renew RLock if an exception has been thrown”).',
        zh: '报告者的分析，代码也证实：renewExpiration 只在续期成功后才安排下一次；切换期间的一次 RedisTimeoutException 就让它永远停下。3.44.0 的批量 LockTask 会继续下一轮（CHANGELOG：“lock watchdog doesn’t renew RLock if an exception has been thrown”）。',
      },
      keywords: [
        'watchdog',
        'renewal',
        'failover',
        'RedisTimeoutException',
        'lock disappears',
        '看门狗',
        '续期失败',
        '主从切换',
        '锁消失',
        'IllegalMonitorStateException',
      ],
      verdict: 'unsafe',
    },
    scenario: { title: 'Failover stops the watchdog', ...renewalStops },
  },
  {
    title: 'Fixed in 3.44.0: the next round renews on the new master',
    titleZh: '3.44.0 修复：下一轮在新主节点上续期',
    description:
      'The same failover on Redisson 3.44.0. The renewal at 10 s fails the same way, but the LockTask runs again ' +
      '10 s later, on the promoted replica, before its copy expires; A:1 keeps the lock and B:1 waits for its unlock.',
    descriptionZh:
      '在 Redisson 3.44.0 上发生同样的切换。10 秒的续期同样失败，但 LockTask 10 秒后再次运行，在被提升的从节点上、在锁过期之前续期；' +
      'A:1 保住了锁，B:1 等到它解锁。',
    verdict: 'safe',
    scenario: { title: 'Fixed: the next round renews', ...onRelease(renewalStops, '3.44.0') },
  },
);

export const holderLosesRedis = defineIncident('incident-holder-loses-redis', {
  title: 'The holder loses Redis, keeps working; another gets the lock',
  titleZh: '持有者连不上 Redis，仍在工作；别人拿到了锁',
  description:
    'A:1 holds `worker` with the watchdog for a 50 s task. From 5 s to 45 s client A cannot reach Redis while ' +
    'everything else still works. Its renewals time out, the lease ends at 30 s and B:1 takes the lock: both believe ' +
    'they hold it (V1). The heal at 45 s does not bring A’s connection back at once: TCP retransmits what it holds ' +
    'with a back-off that doubles from the first held send (the renewal at 10 s), so the next retransmission is at ' +
    '61 s, and everything A writes meanwhile waits behind it. A writes a stale value at 50 s (V3) and its unlock times ' +
    'out (RedisResponseTimeoutException).',
  descriptionZh:
    'A:1 以看门狗持有 `worker`，执行 50 秒的任务。从 5 秒到 45 秒客户端 A 连不上 Redis，其余一切正常。它的续期失败，' +
    '租期在 30 秒结束，B:1 拿到锁：两者都以为自己持有锁（V1）。45 秒分区恢复，A 的连接却没有马上恢复：TCP 重传它扣住的数据，' +
    '退避从第一次被扣的发送（10 秒的续期）起逐次翻倍，下一次重传在 61 秒，A 在此期间写出的一切都排在它后面。A 在 50 秒写入旧值（V3），' +
    '它的 unlock 超时（RedisResponseTimeoutException）。',
  incident: {
    family: 'watchdog',
    links: ['https://github.com/redisson/redisson/issues/3636'],
    reported: 'any',
    symptom: {
      en: 'Worker 1 holds the lock “until manual release”, loses its connection to Redis but keeps working on the data; the lock expires and Worker 2 acquires it: both think they hold it.',
      zh: 'Worker 1 “直到手动释放”地持有锁，与 Redis 断开连接却仍在处理数据；锁过期后 Worker 2 拿到了锁：两者都以为自己持有它。',
    },
    cause: {
      en: 'The watchdog can only renew while it reaches Redis; a lease that cannot be renewed ends, by design, so that a dead holder cannot block everyone. The holder is not told. Only fencing at the resource (RFencedLock’s token) protects the data.',
      zh: '看门狗只有在能连上 Redis 时才能续期；无法续期的锁按设计会在租期结束时过期，这样死掉的持有者才不会挡住所有人。持有者不会得到通知。只有资源端的防护令牌（RFencedLock 的 getToken）才能保护数据。',
    },
    keywords: [
      'network partition',
      'connection lost',
      'watchdog',
      'two holders',
      'fencing',
      '网络分区',
      '断网',
      '看门狗',
      '两个线程同时拿到锁',
      'IllegalMonitorStateException',
    ],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'The holder loses Redis',
    clients: aThenB('worker', { a: 50_000, b: 1000, bStart: 1000 }, { body: 'use' }),
    faults: [{ at: 5000, kind: 'partition', groups: [['A'], ['master', 'B']], healAt: 45_000 }],
  },
});

const WATCHDOG_KEYS = [
  'watchdog',
  'renewal',
  'not renewed',
  'EXPIRATION_RENEWAL_MAP',
  '看门狗',
  '不续期',
  '续期失败',
  '锁提前过期',
];
const hold = (lock: string, ms: number) => [
  { op: 'lock', lock },
  { op: 'use', ms },
  { op: 'unlock', lock },
];

const afterDelete = {
  redisson: { version: '3.12.5' },
  until: 80_000,
  clients: [
    clientOf(
      'A',
      thread(1, [
        { op: 'lock', lock: 'task' },
        { op: 'work', ms: 15_000 },
      ]),
      thread(2, hold('task', 40_000), 20_000),
    ),
    // an operator's cleanup script deletes the lock key at 5 s
    client('O', [{ op: 'redis', argv: ['DEL', 'task'] }], { start: 5000 }),
    client('B', hold('task', 1000), { start: 21_000 }),
  ],
};

export const renewalMapAfterZero = defineIncident(
  'incident-renewal-map-after-delete',
  {
    title: 'A lock deleted once is never renewed again (3.12.5)',
    titleZh: '锁被删过一次后再也不续期（3.12.5）',
    description:
      'Redisson 3.12.5. A:1 holds `task` with the watchdog; at 5 s a cleanup script deletes the key. The renewal at ' +
      '10 s answers 0 and the timer stops, but the lock’s entry stays in EXPIRATION_RENEWAL_MAP (A:1’s task ends at 15 s ' +
      'without an unlock, which would have cleared it). At 20 s A:2, a ' +
      'thread of the same client, locks `task` again: its lock() finds the entry, adds its thread id and starts no ' +
      'timer. The new lock expires at 50 s, B:1 takes it while A:2 works (V1, V3), and A:2’s unlock throws IMSE.',
    descriptionZh:
      'Redisson 3.12.5。A:1 以看门狗持有 `task`；5 秒时一个清理脚本删掉了这个键。10 秒的续期返回 0，定时器停止，但这把锁在 ' +
      'EXPIRATION_RENEWAL_MAP 里的条目还在。20 秒时同一客户端的线程 A:2 再次锁住 `task`：它的 lock() 找到这个条目，只加上自己的线程 id，' +
      '不启动定时器。新锁在 50 秒过期，B:1 在 A:2 仍在工作时拿到锁（V1、V3），A:2 的 unlock 抛出 IMSE。',
    incident: {
      family: 'watchdog',
      links: ['https://github.com/redisson/redisson/issues/3712'],
      reported: '3.12.5',
      fixedIn: '3.16.1',
      symptom: {
        en: 'After the lock expired or was deleted on the server and the application locked it again, the new lock is never renewed by the watchdog.',
        zh: '锁在服务器上过期或被删除、应用再次加锁之后，新锁再也不被看门狗续期。',
      },
      cause: {
        en: 'Until 3.16.0 renewExpiration stopped on a 0 answer but left the lock’s entry in EXPIRATION_RENEWAL_MAP, so the next lock() of that name only added a thread id and started no timer. 3.16.1 calls cancelExpirationRenewal(null) on a 0 answer.',
        zh: '直到 3.16.0，renewExpiration 收到 0 时停止，却把这把锁的条目留在 EXPIRATION_RENEWAL_MAP 里，于是同名锁的下一次 lock() 只加一个线程 id，不启动定时器。3.16.1 在收到 0 时调用 cancelExpirationRenewal(null)。',
      },
      keywords: [...WATCHDOG_KEYS, 'IllegalMonitorStateException', 'deleted', '被删除'],
      verdict: 'unsafe',
    },
    scenario: { title: 'Never renewed after a delete', ...afterDelete },
  },
  {
    title: 'Fixed in 3.16.1: a 0 answer clears the renewal entry',
    titleZh: '3.16.1 修复：返回 0 时清掉续期条目',
    description:
      'The same delete on Redisson 3.16.1: the 0 answer removes the entry, so A:2’s lock at 20 s starts a new timer, ' +
      'is renewed every 10 s, and B:1 waits for A:2’s unlock.',
    descriptionZh:
      '在 Redisson 3.16.1 上发生同样的删除：返回 0 时移除了条目，所以 A:2 在 20 秒加锁时启动新的定时器，每 10 秒续期，B:1 等到 A:2 解锁。',
    verdict: 'safe',
    scenario: { title: 'Fixed: the entry is cleared', ...onRelease(afterDelete, '3.16.1') },
  },
);

const afterOutage = {
  redisson: { version: '3.13.6' },
  until: 100_000,
  clients: [
    clientOf(
      'A',
      thread(1, [
        { op: 'lock', lock: 'task' },
        { op: 'work', ms: 30_000 },
      ]),
      thread(2, hold('task', 45_000), 35_000),
    ),
    client('B', hold('task', 1000), { start: 36_000 }),
  ],
  // client A loses Redis from 9 s to 27 s: the renewal due at 10 s ends in an error
  faults: [{ at: 9000, kind: 'partition', groups: [['A'], ['master']], healAt: 27_000 }],
};

export const renewalMapAfterError = defineIncident(
  'incident-renewal-map-after-error',
  {
    title: 'After a network outage a lock name is never renewed (3.13.6)',
    titleZh: '网络中断后同名锁再也不续期（3.13.6）',
    description:
      'Redisson 3.13.6. A:1 holds `task`; client A loses Redis from 9 s to 27 s, so the renewal at 10 s ends in an ' +
      'error (“Can’t update lock expiration”) and the lock expires at 30 s (the held renewals reach Redis only at ' +
      'TCP’s retransmission at 35.4 s and find no lock). The error left the entry in ' +
      'EXPIRATION_RENEWAL_MAP: when A:2 locks `task` at 35 s no timer starts, its lease runs out at 65 s and B:1 takes ' +
      'the lock while A:2 works (V1, V3).',
    descriptionZh:
      'Redisson 3.13.6。A:1 持有 `task`；客户端 A 在 9 秒到 27 秒之间连不上 Redis，10 秒的续期以错误结束（“Can’t update lock ' +
      'expiration”），锁在 30 秒过期（被扣住的续期直到 35.4 秒 TCP 重传时才到 Redis，发现锁已不在）。这个错误把条目留在了 EXPIRATION_RENEWAL_MAP 里：A:2 在 35 秒锁住 `task` 时没有启动定时器，' +
      '租期在 65 秒用完，B:1 在 A:2 仍在工作时拿到锁（V1、V3）。',
    incident: {
      family: 'watchdog',
      links: [
        'https://github.com/redisson/redisson/issues/3194',
        'https://github.com/redisson/redisson/pull/3195',
      ],
      reported: '3.13.6',
      fixedIn: '3.14.0',
      symptom: {
        en: 'After a network outage (“Can’t update lock … expiration”) the same lock name is never renewed again.',
        zh: '一次网络中断（“Can’t update lock … expiration”）之后，同名锁再也不续期。',
      },
      cause: {
        en: 'The same EXPIRATION_RENEWAL_MAP entry, left behind on an error. PR #3195 (3.14.0) removes it when the renewal fails (verified at tags 3.13.6 and 3.14.0).',
        zh: '同一个 EXPIRATION_RENEWAL_MAP 条目，在出错时被留下。PR #3195（3.14.0）在续期失败时删除它（已在 3.13.6 和 3.14.0 两个标签上核对）。',
      },
      keywords: [...WATCHDOG_KEYS, "Can't update lock expiration", 'network outage', '网络中断'],
      verdict: 'unsafe',
    },
    scenario: { title: 'Never renewed after an outage', ...afterOutage },
  },
  {
    title: 'Fixed in 3.14.0: an error clears the renewal entry',
    titleZh: '3.14.0 修复：出错时清掉续期条目',
    description:
      'The same outage on Redisson 3.14.0: the failed renewal removes the entry, A:2’s lock at 35 s gets its own ' +
      'timer and is renewed, and B:1 waits for A:2’s unlock.',
    descriptionZh:
      '在 Redisson 3.14.0 上发生同样的中断：失败的续期删除了条目，A:2 在 35 秒的加锁有了自己的定时器并被续期，B:1 等到 A:2 解锁。',
    verdict: 'safe',
    scenario: { title: 'Fixed: the entry is cleared', ...onRelease(afterOutage, '3.14.0') },
  },
);

const reentrantThenLock = {
  redisson: { version: '3.45.0' },
  until: 60_000,
  clients: [
    clientOf(
      'A',
      thread(1, [
        { op: 'lock', lock: 'task' },
        { op: 'lock', lock: 'task' },
        { op: 'unlock', lock: 'task' },
        { op: 'unlock', lock: 'task' },
      ]),
      thread(2, hold('task', 45_000), 1000),
    ),
    client('B', hold('task', 1000), { start: 2000 }),
  ],
};

export const reentrantWatchdogLeak = defineIncident(
  'incident-reentrant-watchdog-leak',
  {
    title: 'After a reentrant lock/unlock the watchdog fails (3.45.0)',
    titleZh: '重入加解锁之后看门狗失效（3.45.0）',
    description:
      'Redisson 3.45.0. A:1 locks `task` twice and unlocks twice. Each acquire added its thread id to the lock’s ' +
      'renewal entry, each unlock removed only one occurrence too few: the entry keeps a stale id first in line. A:2 ' +
      'locks `task` at 1 s; every renewal round fails, the lease ends at 31 s and B:1 takes the lock while A:2 ' +
      'works (V1, V3).',
    descriptionZh:
      'Redisson 3.45.0。A:1 两次锁住 `task`，再两次解锁。每次加锁都把线程 id 加进这把锁的续期条目，解锁却没能全部删掉：' +
      '条目里还留着一个过期的 id 排在最前面。A:2 在 1 秒锁住 `task`；每一轮续期都失败，租期在 31 秒结束，B:1 在 A:2 仍在工作时拿到锁（V1、V3）。',
    incident: {
      family: 'watchdog',
      links: [
        'https://github.com/redisson/redisson/issues/6144',
        'https://github.com/redisson/redisson/pull/6516',
      ],
      reported: '3.45.0',
      fixedIn: '3.46.0',
      symptom: {
        en: 'The watchdog fails to renew the lock after a reentrant lock/unlock; the lock expires under its holder.',
        zh: '重入加锁/解锁之后看门狗不再续期；锁在持有者手里过期。',
      },
      cause: {
        en: 'Commit a98cd54a (3.46.0, “Watchdog fails to renew on reentry locks”): LockEntry.removeThreadId removed one occurrence of the thread id while every reentrant acquire had added one; the fix removes them all (removeIf).',
        zh: '提交 a98cd54a（3.46.0，“Watchdog fails to renew on reentry locks”）：LockEntry.removeThreadId 只删掉线程 id 的一次出现，而每次重入加锁都会加一次；修复改为全部删除（removeIf）。',
      },
      keywords: [...WATCHDOG_KEYS, 'reentrant', 'LockEntry', 'NullPointerException', '重入', '可重入'],
      verdict: 'unsafe',
    },
    scenario: { title: 'Reentry breaks the watchdog', ...reentrantThenLock },
  },
  {
    title: 'Fixed in 3.46.0: every occurrence of the id is removed',
    titleZh: '3.46.0 修复：删除 id 的每一次出现',
    description:
      'The same lock taken twice and released twice on Redisson 3.46.0: the entry is emptied, A:2’s lock is renewed every 10 s, and ' +
      'B:1 waits for A:2’s unlock.',
    descriptionZh:
      '在 Redisson 3.46.0 上做同样的重入加解锁：条目被清空，A:2 的锁每 10 秒续期，B:1 等到 A:2 解锁。',
    verdict: 'safe',
    scenario: { title: 'Fixed: removeIf', ...onRelease(reentrantThenLock, '3.46.0') },
  },
);

const readOp = (op: string) => ({ op, lock: 'rw', type: 'ReadLock' });
const longReaders = {
  redisson: { version: '3.7.5' },
  clients: [
    clientOf(
      'A',
      thread(1, [readOp('lock'), { op: 'use', ms: 35_000 }, readOp('unlock')]),
      thread(2, [readOp('lock'), { op: 'work', ms: 35_000 }, readOp('unlock')], 10),
    ),
    client(
      'W',
      [
        { op: 'lock', lock: 'rw', type: 'WriteLock' },
        { op: 'use', ms: 100 },
        { op: 'unlock', lock: 'rw', type: 'WriteLock' },
      ],
      {
        start: 1000,
      },
    ),
  ],
};

export const readLockTimeoutKeys = defineIncident(
  'incident-read-lock-timeout-keys',
  {
    title: 'Read locks held past the watchdog timeout fail on unlock',
    titleZh: '读锁持有超过看门狗超时后解锁失败',
    description:
      'Redisson 3.7.5. A:1 and A:2 hold the read lock of `rw` for 35 s; W:1 waits for the write lock. The watchdog ' +
      'renews the hash `rw` but not each hold’s `rwlock_timeout` key, which expire at 30 s. When A:1 unlocks, the ' +
      'script sees no live read hold left and deletes `rw`: W:1 gets the write lock while A:2 still reads (V1), and ' +
      'A:2’s unlock throws IllegalMonitorStateException.',
    descriptionZh:
      'Redisson 3.7.5。A:1 和 A:2 持有 `rw` 的读锁 35 秒；W:1 等待写锁。看门狗续期了哈希 `rw`，却没有续期每个持有的 `rwlock_timeout` 键，' +
      '它们在 30 秒过期。A:1 解锁时，脚本认为已没有有效的读持有，删除了 `rw`：W:1 在 A:2 仍在读的时候拿到写锁（V1），A:2 的 unlock ' +
      '抛出 IllegalMonitorStateException。',
    incident: {
      family: 'watchdog',
      links: ['https://github.com/redisson/redisson/issues/1604'],
      reported: '3.7.5',
      fixedIn: '3.8.1',
      symptom: {
        en: 'Concurrent read locks held longer than lockWatchdogTimeout fail on unlock; the `{lock}:UUID:THREADID:rwlock_timeout:1` keys disappear while the main key is extended.',
        zh: '并发读锁持有时间超过 lockWatchdogTimeout 后解锁失败；主键被延长，而 `{lock}:UUID:THREADID:rwlock_timeout:1` 键消失了。',
      },
      cause: {
        en: 'The watchdog extended the read lock’s hash but not its rwlock_timeout keys (CHANGELOG 3.8.1: “Lock watchdog does not monitor read locks”, commit 387dd930).',
        zh: '看门狗延长了读锁的哈希，却没有延长它的 rwlock_timeout 键（CHANGELOG 3.8.1：“Lock watchdog does not monitor read locks”，提交 387dd930）。',
      },
      keywords: [
        ...WATCHDOG_KEYS,
        'ReadLock',
        'ReadWriteLock',
        'rwlock_timeout',
        'IllegalMonitorStateException',
        '读锁',
        '读写锁',
      ],
      verdict: 'unsafe',
    },
    scenario: { title: 'Read locks outlive their timeout keys', ...longReaders },
  },
  {
    title: 'Fixed in 3.8.1: the watchdog renews the timeout keys too',
    titleZh: '3.8.1 修复：看门狗也续期超时键',
    description:
      'The same readers on Redisson 3.8.1: each renewal extends every hold’s `rwlock_timeout` key with the hash, both ' +
      'unlocks succeed and W:1 gets the write lock after the last reader leaves.',
    descriptionZh:
      '在 Redisson 3.8.1 上同样的读者：每次续期都把每个持有的 `rwlock_timeout` 键与哈希一起延长，两次解锁都成功，W:1 在最后一个读者离开后拿到写锁。',
    verdict: 'safe',
    scenario: { title: 'Fixed: timeout keys renewed', ...onRelease(longReaders, '3.8.1') },
  },
);

export const threadEndsHolding = defineIncident('incident-thread-ends-holding', {
  title: 'A thread ends holding the lock: renewed for ever',
  titleZh: '线程持锁结束：锁被永远续期',
  description:
    'A:1 calls `lock()` and its task ends at 0.5 s without an unlock (an early return that skipped it). The thread ' +
    'is gone, the client is alive, and the watchdog belongs to the client: it renews `testthread` every 10 s for ' +
    'nobody (liveness L3). B:1’s `tryLock(60, SECONDS)` gives up.',
  descriptionZh:
    'A:1 调用 `lock()`，它的任务在 0.5 秒结束，却没有 unlock（一次提前返回跳过了它）。线程没了，客户端还活着，而看门狗属于客户端：' +
    '它每 10 秒为 `testthread` 续期，却是为了一个已不存在的持有者（活性 L3）。B:1 的 `tryLock(60, SECONDS)` 最终放弃。',
  incident: {
    family: 'watchdog',
    links: [
      'https://github.com/redisson/redisson/issues/2590',
      'https://github.com/redisson/redisson/issues/1626',
    ],
    reported: 'not stated',
    symptom: {
      en: 'The lock is not released when the thread that took it is no longer alive; other threads wait for ever (in #1626 the watchdog “never gets canceled … until the instance is restarted”).',
      zh: '拿锁的线程已经不在了，锁却没有释放；其他线程一直等（#1626 中看门狗“直到实例重启前都没有被取消”）。',
    },
    cause: {
      en: 'mrniko (#2590): the watchdog stops only when the client crashes; the lock then expires. A thread that ends without unlock is not a crash: the watchdog runs in the client and keeps renewing. Unlock in `finally`, or give the lock a leaseTime.',
      zh: 'mrniko（#2590）：只有客户端崩溃时看门狗才停止，锁随后过期。线程不调用 unlock 就结束并不是崩溃：看门狗运行在客户端里，会一直续期。应在 `finally` 中解锁，或给锁设置 leaseTime。',
    },
    keywords: [
      ...WATCHDOG_KEYS,
      'thread died',
      'renewed forever',
      'never released',
      'orphan',
      '线程结束',
      '永远续期',
      '锁不释放',
      '卡住',
    ],
    verdict: 'stuck',
  },
  scenario: {
    title: 'A thread ends holding the lock',
    until: 120_000,
    clients: [
      client('A', [
        { op: 'lock', lock: 'testthread' },
        { op: 'work', ms: 500 },
      ]),
      client(
        'B',
        [
          { op: 'tryLock', lock: 'testthread', waitMs: 60_000 },
          { op: 'use', ms: 100 },
          { op: 'unlock', lock: 'testthread' },
        ],
        {
          start: 1000,
        },
      ),
    ],
  },
});

const abandoned = {
  redisson: { version: '3.11.2' },
  // a 50 ms link, so the interrupt lands while the acquire's EVAL is on the wire
  network: { latencyMs: 50 },
  until: 90_000,
  clients: [
    client(
      'A',
      [
        {
          op: 'try',
          body: [
            { op: 'tryLock', lock: 'job', waitMs: 5000 },
            { op: 'work', ms: 100 },
            { op: 'unlock', lock: 'job' },
          ],
          catch: [],
        },
      ],
      { start: 100 },
    ),
    client(
      'B',
      [
        { op: 'tryLock', lock: 'job', waitMs: 60_000 },
        { op: 'work', ms: 100 },
        { op: 'unlock', lock: 'job' },
      ],
      {
        start: 1000,
      },
    ),
  ],
  faults: [{ at: 120, kind: 'interrupt', client: 'A', thread: 1 }],
};

export const interruptedAcquireRenewed = defineIncident(
  'incident-interrupted-acquire-renewed',
  {
    title: 'An interrupted tryLock still takes the lock, renewed for ever',
    titleZh: '被中断的 tryLock 仍然拿到了锁，并被永远续期',
    description:
      'Redisson 3.11.2, a 50 ms link. A:1’s `tryLock(5, SECONDS)` is interrupted at 120 ms while its acquire script is ' +
      'on the wire; the call throws, A:1 moves on believing it holds nothing. The script still takes the lock, and ' +
      'its reply starts the watchdog: `job` is renewed every 10 s for a thread that never learned it got it ' +
      '(liveness L3), and B:1’s `tryLock(60, SECONDS)` returns false.',
    descriptionZh:
      'Redisson 3.11.2，链路延迟 50 毫秒。A:1 的 `tryLock(5, SECONDS)` 在 120 毫秒被中断，此时它的加锁脚本还在路上；调用抛出异常，' +
      'A:1 以为自己什么也没拿到，继续往下走。脚本仍然拿到了锁，它的回复还启动了看门狗：`job` 每 10 秒被续期，而那个线程从来不知道自己拿到了它' +
      '（活性 L3），B:1 的 `tryLock(60, SECONDS)` 返回 false。',
    incident: {
      family: 'watchdog',
      links: [
        'https://github.com/redisson/redisson/issues/2714',
        'https://github.com/redisson/redisson/issues/4368',
      ],
      reported: '3.11.2',
      fixedIn: '3.16.3',
      symptom: {
        en: 'A `tryLock()` interrupted while its command is in flight: the lock is taken anyway and renewed for ever; nobody can acquire it until the application restarts.',
        zh: '命令还在途中时 `tryLock()` 被中断：锁照样被拿到，并被永远续期；在应用重启前谁也拿不到它。',
      },
      cause: {
        en: 'The acquire future was not cancelled, so its callback started the watchdog when the reply came. 3.16.3 cancels the future (CommandAsyncService.get: future.cancel(true), commit 6153d0557): the abandoned lock gets no watchdog and expires after its lease. The fix did not last: from 3.20.1 (65320f76f, #4822) tryAcquire runs through a retry wrapper whose own future is the one cancelled, and the inner callback starts the watchdog again; the real 3.27.2 and 4.7.0 clients renewed the abandoned lock (an oracle recording).',
        zh: '加锁的 future 没有被取消，回复到达时它的回调启动了看门狗。3.16.3 会取消这个 future（CommandAsyncService.get：future.cancel(true)，提交 6153d0557）：被放弃的锁没有看门狗，租期到了就过期。这个修复没有保持下去：从 3.20.1 起（65320f76f，#4822）tryAcquire 经由一层重试包装执行，被取消的是包装自己的 future，内层回调又会启动看门狗；真实的 3.27.2 和 4.7.0 客户端都为被放弃的锁续了期（见 oracle 录制）。',
      },
      keywords: [
        ...WATCHDOG_KEYS,
        'interrupt',
        'InterruptedException',
        'renewed forever',
        '中断',
        '永远续期',
        '卡住',
      ],
      verdict: 'stuck',
    },
    scenario: { title: 'An interrupted acquire renewed', ...abandoned },
  },
  {
    title: 'Fixed in 3.16.3 (until 3.20.1): the abandoned acquire gets no watchdog',
    titleZh: '3.16.3 修复（至 3.20.1 前）：被放弃的加锁没有看门狗',
    description:
      'The same interrupt on Redisson 3.16.3: the script still takes the lock, but no watchdog starts; the lock ' +
      'expires after its 30 s lease and B:1 gets it then.',
    descriptionZh:
      '在 Redisson 3.16.3 上发生同样的中断：脚本仍然拿到了锁，但没有启动看门狗；锁在 30 秒租期后过期，B:1 随即拿到它。',
    verdict: 'safe',
    scenario: { title: 'Fixed: no watchdog', ...onRelease(abandoned, '3.16.3') },
  },
);

export const incidentsWatchdog = [
  ...threadEndsHolding,
  ...interruptedAcquireRenewed,
  ...failoverStopsRenewal,
  ...holderLosesRedis,
  ...renewalMapAfterZero,
  ...renewalMapAfterError,
  ...reentrantWatchdogLeak,
  ...readLockTimeoutKeys,
];
