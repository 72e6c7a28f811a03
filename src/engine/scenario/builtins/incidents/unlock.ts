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
      keywords: [
        ...IMSE_KEYS,
        'leaseTime',
        'lease expired',
        '租期',
        '过期',
        '锁提前释放',
        'lost update',
        '更新丢失',
      ],
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
    links: [
      'https://github.com/redisson/redisson/issues/581',
      'https://github.com/redisson/redisson/issues/1485',
    ],
    reported: '2.2.x',
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
      client('A', [
        { op: 'lock', lock: 'lottery' },
        { op: 'use', ms: 12_000 },
        { op: 'unlock', lock: 'lottery' },
      ]),
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

const resentUnlock = {
  redisson: { version: '3.23.1' },
  clients: [
    client('A', [
      { op: 'lock', lock: 'rw' },
      { op: 'work', ms: 5000 },
      { op: 'unlock', lock: 'rw' },
    ]),
  ],
  // the unlock reaches the master at 5003 ms; its reply is held by a partition that outlasts the
  // 3 s response timeout (TCP delivers it at its retransmission at 11.2 s, after the re-send)
  faults: [{ at: 5003, kind: 'partition', groups: [['master'], ['A']], healAt: 9000 }],
};

export const resentUnlockImse = defineIncident(
  'incident-resent-unlock-imse',
  {
    title: 'The owner’s unlock throws IMSE: a re-sent unlock',
    titleZh: '持有者的 unlock 抛出 IMSE：重发的解锁',
    description:
      'Redisson 3.23.1. A:1 holds `rw` and unlocks at 5 s. The unlock script runs and deletes the lock, but a ' +
      'partition from 5 s to 9 s holds its reply: TCP keeps it and retransmits it with a back-off that doubles from ' +
      '0.2 s, so it arrives only at 11.2 s. After the 3 s response timeout and the 1.5 s retry interval Redisson sends ' +
      'the same unlock again (9.5 s, after the heal); this time the script finds no lock and returns nil, so the ' +
      'owner’s own unlock throws IllegalMonitorStateException although it released the lock. Nobody else was hurt: ' +
      'the run is safe, the exception is the whole incident. (A partition shorter than the response timeout would ' +
      'only have delayed the reply.)',
    descriptionZh:
      'Redisson 3.23.1。A:1 持有 `rw`，在 5 秒时解锁。解锁脚本执行并删除了锁，但 5 秒到 9 秒的网络分区扣住了它的回复：' +
      'TCP 保留这份数据，按从 0.2 秒起逐次翻倍的退避重传，所以回复直到 11.2 秒才到。经过 3 秒响应超时和 1.5 秒重试间隔，' +
      'Redisson 再次发送同一个解锁（9.5 秒，分区已恢复）；这次脚本找不到锁，返回 nil，于是持有者自己的 unlock ' +
      '抛出 IllegalMonitorStateException，尽管锁已经释放。没有别人受害：运行是安全的，这个异常就是事故的全部。' +
      '（比响应超时更短的分区只会让回复迟到。）',
    incident: {
      family: 'unlock',
      links: [
        'https://github.com/redisson/redisson/issues/4871',
        'https://github.com/redisson/redisson/issues/6532',
      ],
      reported: '3.23.1',
      fixedIn: '3.24.1',
      symptom: {
        en: 'In rare cases the owner thread’s unlock throws “attempt to unlock lock, not locked by current thread” (reported with a read lock).',
        zh: '极少数情况下，持有锁的线程调用 unlock 时抛出 “attempt to unlock lock, not locked by current thread”（报告中是读锁）。',
      },
      cause: {
        en: 'A re-sent unlock found the lock already deleted by its first, successful attempt. 3.24.1 (“attempt to unlock lock … occurs in rare cases even if RLock.unlock() called by lock owner thread”) makes the unlock script store its first answer in `redisson_unlock_latch:{name}:<requestId>`, and a re-sent unlock returns that answer. The run uses RLock, which the same fix covers.',
        zh: '重发的解锁发现锁已被第一次（成功的）尝试删除。3.24.1（“attempt to unlock lock … occurs in rare cases even if RLock.unlock() called by lock owner thread”）让解锁脚本把第一次的结果存进 `redisson_unlock_latch:{name}:<requestId>`，重发的解锁直接返回这个结果。本运行用的是 RLock，同一修复也覆盖它。',
      },
      keywords: [
        ...IMSE_KEYS,
        'retry',
        'response timeout',
        'RedisResponseTimeoutException',
        '重发',
        '重试',
        '超时',
        '偶发',
      ],
      verdict: 'safe',
    },
    scenario: { title: 'A re-sent unlock throws IMSE', ...resentUnlock },
  },
  {
    title: 'Fixed in 3.24.1: the unlock latch remembers the answer',
    titleZh: '3.24.1 修复：解锁 latch 记住结果',
    description:
      'The same late reply on Redisson 3.24.1. The first unlock also writes `redisson_unlock_latch:{rw}:<requestId>` ' +
      '= 1; the re-sent unlock carries the same request id, finds the latch and returns 1. The owner’s unlock succeeds.',
    descriptionZh:
      '在 Redisson 3.24.1 上同样的回复同样迟到。第一次解锁还写入 `redisson_unlock_latch:{rw}:<requestId>` = 1；' +
      '重发的解锁带着同一个请求 id，找到 latch 并返回 1。持有者的解锁成功。',
    verdict: 'safe',
    scenario: { title: 'Fixed: the unlock latch', ...onRelease(resentUnlock, '3.24.1') },
  },
);

const noSyncUnlock = {
  // long enough for the latch of the failed first attempt (never deleted) to live out its TTL
  until: 25_000,
  redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
  redisson: { version: '3.50.0' },
  clients: [
    client('A', [
      { op: 'lock', lock: 'job' },
      { op: 'work', ms: 5000 },
      { op: 'unlock', lock: 'job' },
    ]),
  ],
  // the only replica loses its link before the unlock and gets it back at 9 s
  faults: [
    { at: 4000, kind: 'partition', groups: [['master', 'A', 'sentinels'], ['replica-1']], healAt: 9000 },
  ],
};

export const noSyncedUnlockImse = defineIncident(
  'incident-nosynced-unlock-imse',
  {
    title: 'Long-running job: the owner’s unlock throws IMSE after WAIT 0',
    titleZh: '长任务：WAIT 返回 0 后持有者的 unlock 抛出 IMSE',
    description:
      'Redisson 3.50.0 with one replica, whose link to the master is down from 4 s to 9 s. A:1’s unlock at 5 s ' +
      'deletes the lock and writes its latch, but the WAIT that follows counts 0 replicas: NoSyncedSlavesException, ' +
      'and the unlock is retried. Each retry draws a new request id, so it never finds the first attempt’s latch; it ' +
      'finds no lock either and returns nil: IllegalMonitorStateException for the owner, whose thread ids match.',
    descriptionZh:
      'Redisson 3.50.0，一个从节点，它到主节点的链路在 4 秒到 9 秒之间断开。A:1 在 5 秒解锁：脚本删除了锁并写下 latch，' +
      '但随后的 WAIT 数到 0 个从节点：NoSyncedSlavesException，解锁被重试。每次重试都换一个新的请求 id，因此永远找不到第一次' +
      '尝试的 latch；锁也不在了，脚本返回 nil：持有者得到 IllegalMonitorStateException，尽管线程 id 对得上。',
    incident: {
      family: 'unlock',
      links: [
        'https://github.com/redisson/redisson/issues/6651',
        'https://github.com/redisson/redisson/issues/6747',
        'https://github.com/redisson/redisson/pull/6784',
      ],
      reported: '3.50.0',
      fixedIn: '3.52.0',
      symptom: {
        en: '“Long running processes”: the owner’s unlock throws IllegalMonitorStateException although the logged thread ids match (on Valkey, 3.44 to 3.51).',
        zh: '“长时间运行的任务”：持有者的 unlock 抛出 IllegalMonitorStateException，尽管日志里的线程 id 一致（Valkey，3.44 到 3.51）。',
      },
      cause: {
        en: '`unlockAsync` drew a new requestId inside each attempt, so the retry after NoSyncedSlavesException did not find the latch of the first, successful attempt. 3.52.0 uses one requestId per unlock.',
        zh: '`unlockAsync` 在每次尝试里都生成新的 requestId，所以 NoSyncedSlavesException 之后的重试找不到第一次（成功）尝试的 latch。3.52.0 起一次解锁只用一个 requestId。',
      },
      keywords: [
        ...IMSE_KEYS,
        'NoSyncedSlavesException',
        'None of slaves were synced',
        'Valkey',
        'requestId',
        '从节点',
        '长任务',
      ],
      verdict: 'safe',
    },
    scenario: { title: 'Unlock retried after WAIT 0', ...noSyncUnlock },
  },
  {
    title: 'Fixed in 3.52.0: one request id per unlock',
    titleZh: '3.52.0 修复：一次解锁一个请求 id',
    description:
      'The same replica outage on Redisson 3.52.0. The retried unlock carries the first attempt’s request id, finds ' +
      'its latch and returns its answer: the owner’s unlock succeeds.',
    descriptionZh:
      '在 Redisson 3.52.0 上发生同样的从节点故障。重试的解锁带着第一次尝试的请求 id，找到它的 latch 并返回其结果：持有者解锁成功。',
    verdict: 'safe',
    scenario: { title: 'Fixed: one request id', ...onRelease(noSyncUnlock, '3.52.0') },
  },
);

/** Two requests for order 1001, on two threads, each guarding its work with `lock`. */
const dataKey = (lock: string) => {
  const request = [
    { op: 'tryLock', lock, waitMs: 1000 },
    { op: 'work', ms: 500 },
    { op: 'unlock', lock },
  ];
  return {
    redisson: { version: '3.18.0' },
    clients: [
      client('P', [{ op: 'redis', argv: ['SET', 'order:1001', '{"status":"NEW"}'] }]),
      clientOf('A', thread(1, request, 100), thread(2, request, 200)),
    ],
  };
};

export const lockNameIsDataKey = defineIncident(
  'incident-lock-name-is-data-key',
  {
    title: 'The lock’s name is a data key: WRONGTYPE',
    titleZh: '锁名就是数据键：WRONGTYPE',
    description:
      'P:1 stores an order as a string at `order:1001`, as the application always did. Two requests for that order, ' +
      'A:1 and A:2, then ask for `getLock("order:1001")`: the acquire script runs `hexists` on a string and Redis ' +
      'stops the script with WRONGTYPE; every tryLock throws RedisException and nobody ever gets the lock.',
    descriptionZh:
      'P:1 像应用一贯做的那样，把订单以字符串存到 `order:1001`。随后针对这个订单的两个请求 A:1 和 A:2 调用 `getLock("order:1001")`：' +
      '加锁脚本对字符串执行 `hexists`，Redis 以 WRONGTYPE 终止脚本；每次 tryLock 都抛出 RedisException，谁也拿不到锁。',
    incident: {
      family: 'design',
      links: [
        'https://github.com/redisson/redisson/issues/5565',
        'https://github.com/redisson/redisson/issues/6285',
        'https://github.com/redisson/redisson/issues/480',
      ],
      reported: '3.18.0',
      symptom: {
        en: '“If there is already a key with a value of type String, tryLock results in an exception”: WRONGTYPE Operation against a key holding the wrong kind of value.',
        zh: '“如果已经有一个 String 类型的键，tryLock 就会抛异常”：`WRONGTYPE Operation against a key holding the wrong kind of value`。',
      },
      cause: {
        en: 'mrniko: two different types of objects can’t share the same name. An RLock is a hash at its name; a string already there makes the script’s hash commands fail. Give locks their own names (`lock:order:1001`).',
        zh: 'mrniko：两种不同类型的对象不能共用一个名字。RLock 是以其名字为键的哈希；那里已有字符串时，脚本的哈希命令就会失败。给锁起专用的名字（`lock:order:1001`）。',
      },
      keywords: [
        'WRONGTYPE',
        'RedisException',
        'wrong kind of value',
        'key collision',
        'lock name',
        '键冲突',
        '锁名',
        '类型错误',
      ],
      verdict: 'safe',
    },
    scenario: { title: 'Lock name is a data key', ...dataKey('order:1001') },
  },
  {
    title: 'The remedy: a lock name of its own',
    titleZh: '补救：锁用自己的名字',
    description:
      'The same order at `order:1001`, and the requests lock `lock:order:1001` instead: the acquire script finds no ' +
      'key and creates the hash; A:1 gets the lock at once, A:2 when A:1 unlocks.',
    descriptionZh:
      '订单仍在 `order:1001`，两个请求改为锁 `lock:order:1001`：加锁脚本找不到这个键，创建哈希；A:1 立即拿到锁，A:2 在 A:1 解锁后拿到。',
    verdict: 'safe',
    scenario: { title: 'Remedy: its own name', ...dataKey('lock:order:1001') },
  },
);

export const jvmFreezeImse = defineIncident('incident-jvm-freeze-imse', {
  title: 'CPU at 100 % freezes the JVM: the watchdog stops, IMSE',
  titleZh: 'CPU 100% 冻结 JVM：看门狗停了，IMSE',
  description:
    'Redisson 3.10.2 (the report’s 2.15.2 is its JDK 6 twin). A:1 takes `merchant:7` with `tryLock()` (the watchdog renews it) and starts booking. At 1 s ' +
    'the machine’s CPU is saturated and client A gets no time for 35 s: its threads and its watchdog stop alike. ' +
    'The lease expires at 30 s, B:1 takes the lock and books; when A runs again it still believes it holds the ' +
    'lock, writes a stale balance (V1, V3) and its `unlock()` throws IllegalMonitorStateException.',
  descriptionZh:
    'Redisson 3.10.2（报告中的 2.15.2 是它的 JDK 6 版本）。A:1 用 `tryLock()` 获取 `merchant:7`（看门狗为它续期）并开始记账。1 秒时机器 CPU 被占满，' +
    '客户端 A 在 35 秒内得不到运行时间：它的线程和看门狗一起停下。租期在 30 秒到期，B:1 拿到锁并记账；A 恢复运行时仍以为自己持有锁，' +
    '写入过期的余额（V1、V3），它的 `unlock()` 抛出 IllegalMonitorStateException。',
  incident: {
    family: 'unlock',
    links: [
      'https://github.com/redisson/redisson/issues/2665',
      'https://github.com/redisson/redisson/issues/2807',
    ],
    reported: '2.15.2',
    symptom: {
      en: 'The thread that got the lock throws “attempt to unlock lock, not locked by current thread” on unlock, after the server’s CPU sat at 100 % for minutes.',
      zh: '拿到锁的线程在 unlock 时抛出 “attempt to unlock lock, not locked by current thread”，当时服务器 CPU 持续 100% 好几分钟。',
    },
    cause: {
      en: 'mrniko: if the JVM freezes for longer than lockWatchdogTimeout the lock is released; with the CPU at 100 % the watchdog thread may not run, and the lock expires. The watchdog lives in the same process as the holder, so whatever stops one stops both.',
      zh: 'mrniko：JVM 冻结超过 lockWatchdogTimeout，锁就会被释放；CPU 100% 时看门狗线程可能得不到执行，锁随之过期。看门狗与持有者在同一个进程里，让其中一个停下的东西也会让另一个停下。',
    },
    keywords: [
      ...IMSE_KEYS,
      'GC pause',
      'JVM freeze',
      'CPU 100%',
      'stop-the-world',
      'watchdog',
      '看门狗',
      '停顿',
      '卡顿',
      'Full GC',
    ],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'A frozen JVM loses the lock',
    redisson: { version: '3.10.2' },
    clients: [
      client('A', [
        { op: 'tryLock', lock: 'merchant:7' },
        { op: 'use', ms: 2000 },
        { op: 'unlock', lock: 'merchant:7' },
      ]),
      client(
        'B',
        [
          { op: 'lock', lock: 'merchant:7' },
          { op: 'use', ms: 200 },
          { op: 'unlock', lock: 'merchant:7' },
        ],
        {
          start: 5000,
        },
      ),
    ],
    faults: [{ at: 1000, kind: 'pause', client: 'A', ms: 35_000 }],
  },
});

export const rlockAndReadLockShareName = defineIncident('incident-rlock-readlock-same-name', {
  title: 'An RLock and a ReadLock on one name: both acquire',
  titleZh: 'RLock 与 ReadLock 同名：两者都拿到锁',
  description:
    'Redisson 3.13.1. A:1 holds the plain lock `A`; A:2 asks for the read lock of a ReadWriteLock also named `A`. ' +
    'The read-lock script only looks at the hash’s `mode` field, finds none, and adds its own fields: both threads ' +
    'hold “the lock” at once (V1), and their writes overlap. When A:2 leaves it deletes the whole hash, so A:1’s ' +
    'unlock throws IllegalMonitorStateException.',
  descriptionZh:
    'Redisson 3.13.1。A:1 持有普通锁 `A`；A:2 请求一个同样名为 `A` 的读写锁的读锁。读锁脚本只看哈希的 `mode` 字段，' +
    '发现没有，就加上自己的字段：两个线程同时持有“这把锁”（V1），写入相互重叠。A:2 离开时删掉了整个哈希，于是 A:1 的 unlock ' +
    '抛出 IllegalMonitorStateException。',
  incident: {
    family: 'unlock',
    links: ['https://github.com/redisson/redisson/issues/4023'],
    reported: '3.13.1',
    symptom: {
      en: 'Thread x holds Lock “A”, thread y gets ReadLock “A” too; both acquired, and x’s unlock later throws “attempt to unlock lock, not locked by current thread”.',
      zh: '线程 x 持有 Lock “A”，线程 y 也拿到了 ReadLock “A”；两者都加锁成功，之后 x 的 unlock 抛出 “attempt to unlock lock, not locked by current thread”。',
    },
    cause: {
      en: 'Two lock objects of different kinds share one key: the read lock’s script treats a hash without `mode` as free and its unlock deletes the key. Redisson’s objects must not share a name (the same rule as #5565).',
      zh: '两种不同的锁对象共用一个键：读锁脚本把没有 `mode` 字段的哈希当作空闲，它的解锁又删掉了整个键。Redisson 的对象不能共用名字（与 #5565 是同一条规则）。',
    },
    keywords: [
      ...IMSE_KEYS,
      'ReadLock',
      'ReadWriteLock',
      'same name',
      '读写锁',
      '同名',
      '两个线程同时拿到锁',
    ],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'RLock and ReadLock on one name',
    redisson: { version: '3.13.1' },
    clients: [
      clientOf(
        'A',
        thread(1, [
          { op: 'lock', lock: 'A' },
          { op: 'use', ms: 3000 },
          { op: 'unlock', lock: 'A' },
        ]),
        thread(
          2,
          [
            { op: 'lock', lock: 'A', type: 'ReadLock' },
            { op: 'use', ms: 1000 },
            { op: 'unlock', lock: 'A', type: 'ReadLock' },
          ],
          500,
        ),
      ),
    ],
  },
});

export const unlockFromAnotherThread = defineIncident('incident-unlock-from-another-thread', {
  title: 'Unlocked from another thread: IMSE, and the lock stays',
  titleZh: '在另一个线程里解锁：IMSE，锁还在',
  description:
    'A:1 takes `order:9` and hands the rest of the job to a pool thread, A:2, which calls `unlock()` when it is done. ' +
    'The lock belongs to A:1 (`<uuid>:1`), so A:2’s unlock throws IllegalMonitorStateException and releases ' +
    'nothing. A:1 has ended; the client’s watchdog renews the lock for nobody (liveness L3) and B:1 never gets it.',
  descriptionZh:
    'A:1 拿到 `order:9`，把剩下的工作交给线程池里的 A:2，A:2 做完后调用 `unlock()`。锁属于 A:1（`<uuid>:1`），所以 A:2 的 ' +
    'unlock 抛出 IllegalMonitorStateException，什么也没释放。A:1 已经结束；客户端的看门狗为一个不存在的持有者续期（活性 L3），B:1 永远拿不到锁。',
  incident: {
    family: 'unlock',
    links: [
      'https://github.com/redisson/redisson/issues/2543',
      'https://github.com/redisson/redisson/issues/2807',
    ],
    reported: '3.11.x–3.12.0',
    symptom: {
      en: '“RLock unlock always throws an exception like ‘not locked by current thread’” when the unlock runs on another thread (an async callback, a pool thread).',
      zh: '解锁在另一个线程上执行时（异步回调、线程池线程），“RLock unlock 总是抛出 ‘not locked by current thread’ 之类的异常”。',
    },
    cause: {
      en: 'mrniko: by the Java Lock contract a lock is unlocked in the thread that locked it; the owner is `<client uuid>:<thread id>`. Use `unlockAsync(threadId)` with the locking thread’s id, or an RSemaphore, when the work moves between threads.',
      zh: 'mrniko：按 Java Lock 的约定，锁要在加锁的线程里解锁；持有者是 `<客户端 uuid>:<线程 id>`。工作需要跨线程时，用加锁线程的 id 调用 `unlockAsync(threadId)`，或改用 RSemaphore。',
    },
    keywords: [
      ...IMSE_KEYS,
      'another thread',
      'async',
      'thread pool',
      'CompletableFuture',
      'unlockAsync',
      '另一个线程',
      '异步',
      '线程池',
      '卡住',
    ],
    verdict: 'stuck',
  },
  scenario: {
    title: 'Unlocked from another thread',
    until: 90_000,
    clients: [
      clientOf(
        'A',
        thread(1, [
          { op: 'lock', lock: 'order:9' },
          { op: 'use', ms: 200 },
        ]),
        thread(
          2,
          [
            { op: 'work', ms: 100 },
            { op: 'unlock', lock: 'order:9' },
          ],
          300,
        ),
      ),
      client(
        'B',
        [
          { op: 'lock', lock: 'order:9' },
          { op: 'use', ms: 100 },
          { op: 'unlock', lock: 'order:9' },
        ],
        {
          start: 1000,
        },
      ),
    ],
  },
});

export const incidentsUnlock = [
  ...unlockFromAnotherThread,
  ...jvmFreezeImse,
  ...rlockAndReadLockShareName,
  ...leaseShorterThanWork,
  ...unlockAfterFailedTryLock,
  ...resentUnlockImse,
  ...noSyncedUnlockImse,
  ...lockNameIsDataKey,
];
