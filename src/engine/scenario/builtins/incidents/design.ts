/** Design confusions: what a lock was never meant to do. */
import { client } from '../../build';
import { defineIncident } from './define';

const red = (op: string, extra: Record<string, unknown> = {}) => ({
  op,
  lock: 'red',
  type: 'RedLock',
  locks: ['l1', 'l2', 'l3'],
  ...extra,
});

export const redlockOnOneRedis = defineIncident('incident-redlock-one-redis', {
  title: 'RedLock over three names on one Redis',
  titleZh: '一个 Redis 上用三个名字做 RedLock',
  description:
    'Redisson 3.11.6. The application builds `new RedissonRedLock(l1, l2, l3)` from three locks of one client on ' +
    'one Redis. A:1 takes all three; at 1 s that Redis crashes and restarts empty (no persistence). The “majority” ' +
    'was one machine, so all three keys are gone together: B:1 takes the RedLock at 3 s while A:1 still works (V1, V3).',
  descriptionZh:
    'Redisson 3.11.6。应用用同一个客户端、同一个 Redis 上的三把锁构造 `new RedissonRedLock(l1, l2, l3)`。A:1 拿到全部三把；' +
    '1 秒时这台 Redis 崩溃并以空数据重启（没有持久化）。所谓“多数”其实是同一台机器，三个键一起消失：B:1 在 3 秒拿到 RedLock，' +
    '而 A:1 仍在工作（V1、V3）。',
  incident: {
    family: 'design',
    links: [
      'https://github.com/redisson/redisson/issues/1333',
      'https://github.com/redisson/redisson/issues/588',
      'https://github.com/redisson/redisson/issues/1159',
    ],
    reported: 'any',
    symptom: {
      en: 'What is RedLock for? Users build it from several locks of one Redisson instance on one Redis and expect it to survive a failure.',
      zh: 'RedLock 到底是做什么的？用户用同一个 Redisson 实例、同一个 Redis 上的几把锁构造它，并指望它能扛住故障。',
    },
    cause: {
      en: 'RedLock’s quorum only means something across independent masters (mrniko in #588: it is designed for N locks on N Redis nodes; #1159 points to redis.io’s distlock page). Locks on one node fail together, and a node restarted without persistence forgets them all.',
      zh: 'RedLock 的多数派只有在相互独立的主节点之间才有意义（mrniko 在 #588 中说：它是为 N 个 Redis 节点上的 N 把锁设计的；#1159 指向 redis.io 的 distlock 页面）。同一节点上的锁一起失效，没有持久化的节点重启后会全部忘掉。',
    },
    keywords: [
      'RedLock',
      'RedissonRedLock',
      'quorum',
      'restart',
      'persistence',
      '红锁',
      '多数派',
      '重启',
      '两个线程同时拿到锁',
    ],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'RedLock on one Redis',
    redisson: { version: '3.11.6' },
    clients: [
      client('A', [red('lock'), { op: 'use', ms: 8000 }, red('unlock')]),
      client('B', [red('lock'), { op: 'use', ms: 500 }, red('unlock')], { start: 3000 }),
    ],
    faults: [
      { at: 1000, kind: 'crash', node: 'master' },
      { at: 2000, kind: 'restart', node: 'master' },
    ],
  },
});

const DEADLOCK_KEYS = [
  'deadlock',
  'hang',
  'blocked forever',
  'stuck',
  '死锁',
  '卡住',
  '一直等待',
  '永远阻塞',
];
const rw = (type: 'ReadLock' | 'WriteLock', op: string) => ({ op, lock: 'config', type });

export const readToWriteUpgrade = defineIncident('incident-read-to-write-upgrade', {
  title: 'ReadWriteLock: upgrading a read lock to a write lock hangs',
  titleZh: '读写锁：把读锁升级为写锁会卡死',
  description:
    'A:1 holds the read lock of `config` and, still holding it, asks for the write lock to update the entry. A write ' +
    'lock waits until every read lock is released, and the only reader is A:1 itself, waiting: nothing scheduled ' +
    'can end this wait (liveness L5, a wait cycle). The watchdog keeps renewing the read lock meanwhile.',
  descriptionZh:
    'A:1 持有 `config` 的读锁，并在不释放读锁的情况下请求写锁来更新条目。写锁要等所有读锁释放，而唯一的读者正是在等待的 A:1 自己：' +
    '没有任何已安排的事情能结束这次等待（活性 L5，等待环）。与此同时看门狗一直在为读锁续期。',
  incident: {
    family: 'design',
    links: ['https://github.com/redisson/redisson/issues/4796'],
    reported: 'not stated',
    symptom: {
      en: 'A thread holding the read lock asks for the write lock of the same RReadWriteLock, and the application deadlocks.',
      zh: '持有读锁的线程再去请求同一个 RReadWriteLock 的写锁，应用就死锁了。',
    },
    cause: {
      en: 'mrniko: “It’s by design. Write lock can’t be acquired while read locks are acquired.” Redisson lets a writer take a read lock (downgrade), never a reader the write lock (upgrade): release the read lock first, then re-check after taking the write lock.',
      zh: 'mrniko：“这是设计如此。持有读锁时无法获取写锁。” Redisson 允许写者再拿读锁（降级），从不允许读者拿写锁（升级）：先释放读锁，拿到写锁后再重新检查。',
    },
    keywords: [
      ...DEADLOCK_KEYS,
      'ReadWriteLock',
      'RReadWriteLock',
      'upgrade',
      'read lock',
      'write lock',
      '读写锁',
      '锁升级',
      '读锁',
      '写锁',
    ],
    verdict: 'stuck',
  },
  scenario: {
    title: 'Read-to-write upgrade',
    until: 120_000,
    clients: [
      client('A', [
        rw('ReadLock', 'lock'),
        { op: 'work', ms: 100 },
        rw('WriteLock', 'lock'),
        { op: 'use', ms: 100 },
        rw('WriteLock', 'unlock'),
        rw('ReadLock', 'unlock'),
      ]),
    ],
  },
});

const nested = (first: string, second: string) => [
  { op: 'lock', lock: first },
  { op: 'work', ms: 100 },
  { op: 'lock', lock: second },
  { op: 'use', ms: 50 },
  { op: 'unlock', lock: second },
  { op: 'unlock', lock: first },
];

export const oppositeOrderDeadlock = defineIncident(
  'incident-opposite-order-deadlock',
  {
    title: 'Two locks taken in opposite orders: a deadlock',
    titleZh: '两把锁以相反顺序获取：死锁',
    description:
      'A:1 locks `lock:readingRecord:7` then `lock:myBook:7`; B:1, on another code path, takes them the other way ' +
      'round. Each gets its first lock and waits with `lock()` for the other’s: both wait for ever while their ' +
      'watchdogs keep both locks alive (liveness L5, a wait cycle). Redisson does not detect it.',
    descriptionZh:
      'A:1 先锁 `lock:readingRecord:7` 再锁 `lock:myBook:7`；B:1 在另一条代码路径上以相反顺序获取。各自拿到第一把锁后，' +
      '用 `lock()` 等待对方的锁：两者永远等下去，而它们的看门狗让两把锁一直有效（活性 L5，等待环）。Redisson 不会检测这种情况。',
    incident: {
      family: 'design',
      links: [
        'https://github.com/redisson/redisson/issues/4460',
        'https://github.com/redisson/redisson/issues/2547',
      ],
      reported: 'not stated',
      symptom: {
        en: '“Sometimes there are dead locks in redis” when a method uses two locks; thread 1 holds lock-a and waits for lock-b while thread 2 holds lock-b and waits for lock-a.',
        zh: '一个方法里用了两把锁时，“Redis 里有时会出现死锁”；线程 1 持有 lock-a 等 lock-b，线程 2 持有 lock-b 等 lock-a。',
      },
      cause: {
        en: 'Asked whether Redisson has deadlock detection, mrniko: “No, it doesn’t trace deadlocks.” With the watchdog neither lock ever expires. Take locks in one global order, or use tryLock with a wait time, or one MultiLock for both.',
        zh: '被问到 Redisson 是否有死锁检测时，mrniko 说：“没有，它不追踪死锁。” 有看门狗时两把锁都不会过期。应当按统一的全局顺序加锁，或用带等待时间的 tryLock，或用一个 MultiLock 同时锁两把。',
      },
      keywords: [...DEADLOCK_KEYS, 'lock order', 'two locks', 'nested locks', '加锁顺序', '两把锁', '嵌套锁'],
      verdict: 'stuck',
    },
    scenario: {
      title: 'Opposite-order locking',
      until: 120_000,
      clients: [
        client('A', nested('lock:readingRecord:7', 'lock:myBook:7')),
        client('B', nested('lock:myBook:7', 'lock:readingRecord:7'), { start: 10 }),
      ],
    },
  },
  {
    title: 'The remedy: one global lock order',
    titleZh: '补救：统一的全局加锁顺序',
    description:
      'The same two code paths, both taking `lock:myBook:7` before `lock:readingRecord:7`: B:1 waits for A:1’s first ' +
      'lock instead of holding the second, and both finish.',
    descriptionZh:
      '同样两条代码路径，都先锁 `lock:myBook:7` 再锁 `lock:readingRecord:7`：B:1 等待 A:1 的第一把锁，而不是占着第二把，两者都顺利完成。',
    verdict: 'safe',
    scenario: {
      title: 'Remedy: one lock order',
      until: 120_000,
      clients: [
        client('A', nested('lock:myBook:7', 'lock:readingRecord:7')),
        client('B', nested('lock:myBook:7', 'lock:readingRecord:7'), { start: 10 }),
      ],
    },
  },
);

const multi = (name: string, locks: string[]) => (op: string) => ({
  op,
  lock: name,
  type: 'MultiLock',
  locks,
});
const lockA = multi('lockA', ['lockSoundbox', 'lock2000']);
const lockB = multi('lockB', ['lock2000', 'lockSoundbox']);

export const multiLockOppositeOrder = defineIncident('incident-multilock-opposite-order', {
  title: 'Two MultiLocks over the same locks in opposite order',
  titleZh: '两个 MultiLock 以相反顺序包含同样的锁',
  description:
    '`lockA = new RedissonMultiLock(lockSoundbox, lock2000)` and `lockB = new RedissonMultiLock(lock2000, ' +
    'lockSoundbox)`; A:1 and B:1 call `lock()` at the same moment. Each takes its first lock and fails on the ' +
    'second; a MultiLock then gives back what it took and retries, and the two retry in step: for as long as the ' +
    'run lasts nobody gets both (liveness L6, a livelock). The simulator keeps the two in exact step; on the ' +
    'real client (the oracle, 3.27.2 and 4.7.0) the two JVMs drifted apart and both got through after 6–9 s of ' +
    'colliding rounds.',
  descriptionZh:
    '`lockA = new RedissonMultiLock(lockSoundbox, lock2000)`，`lockB = new RedissonMultiLock(lock2000, lockSoundbox)`；' +
    'A:1 和 B:1 同时调用 `lock()`。各自拿到第一把锁，在第二把上失败；MultiLock 于是归还已拿到的锁并重试，两者步调一致地重试：' +
    '整个运行期间谁也拿不齐两把锁（活性 L6，活锁）。模拟器让两者严格同步；在真实客户端上（oracle，3.27.2 与 4.7.0），' +
    '两个 JVM 的节奏逐渐错开，互相碰撞 6–9 秒后两者都拿到了锁。',
  incident: {
    family: 'design',
    links: ['https://github.com/redisson/redisson/issues/1160'],
    reported: 'not stated',
    symptom: {
      en: '“The deadlock of RedissonMultiLock”: two MultiLocks built from the same two locks in opposite order never both succeed in `lock()`.',
      zh: '“RedissonMultiLock 的死锁”：用同样两把锁、以相反顺序构造的两个 MultiLock，`lock()` 始终不能都成功。',
    },
    cause: {
      en: 'As the code shows: MultiLock.lock() tries its locks in the order it was given them, gives back the ones it took when one fails, and tries again after a short wait. Two MultiLocks with opposite orders keep taking one lock each. Build every MultiLock over the same locks in the same order.',
      zh: '从代码可以看出：MultiLock.lock() 按给定的顺序尝试各把锁，一把失败时归还已拿到的锁，短暂等待后重试。顺序相反的两个 MultiLock 会不断地各拿一把。应当让覆盖同样锁的 MultiLock 都使用同一顺序。',
    },
    keywords: [
      ...DEADLOCK_KEYS,
      'MultiLock',
      'RedissonMultiLock',
      'livelock',
      'retry',
      '活锁',
      '重试',
      '联锁',
    ],
    verdict: 'stuck',
  },
  scenario: {
    title: 'MultiLocks in opposite order',
    until: 60_000,
    clients: [
      client('A', [lockA('lock'), { op: 'use', ms: 100 }, lockA('unlock')]),
      client('B', [lockB('lock'), { op: 'use', ms: 100 }, lockB('unlock')]),
    ],
  },
});

export const incidentsDesign = [
  ...redlockOnOneRedis,
  ...readToWriteUpgrade,
  ...oppositeOrderDeadlock,
  ...multiLockOppositeOrder,
];
