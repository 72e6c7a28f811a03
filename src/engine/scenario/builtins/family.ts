/**
 * The rest of Redisson's lock family (FencedLock, FairLock, ReadWriteLock, SpinLock, MultiLock,
 * RedLock) and the failures fencing and Redlock are about (a paused holder, a down master, a
 * clock jump, a pause past the validity, a failover that loses the token counter).
 */
import { clientOf as client, hold, holdAs, lockOps, thread as threadOf } from '../build';
import { sentinelTeaching } from './replication';
import { defineBuiltin } from './types';

const thread = (id: number, start: number, program: unknown[]) => threadOf(id, program, start);

const fenced = lockOps('res', 'FencedLock');

export const fencingSavesGcPause = defineBuiltin('fencing-saves-gc-pause', {
  group: 'failures',
  title: 'Fencing tokens refuse a paused holder’s late write',
  titleZh: '防护令牌拒绝停顿持有者的迟到写入',
  description:
    'The GC pause of “A GC pause outlives the watchdog lease”, now with fencing. A:1 takes the FencedLock with a 10 s lease and token 1 ' +
    '(with tryLockAndGetToken(0, 10 s): Redisson’s lockAndGetToken(leaseTime) ignores its lease and keeps the lock with the watchdog), reads the store and is ' +
    'frozen by a 15 s GC pause. The lease expires; B:1 gets the lock with token 2 and writes. When A wakes ' +
    'it still believes it holds the lock (V1: two holders), but its write carries token 1, older than the ' +
    '2 the store has seen, so the store refuses it (the struck-through ring marked #1 on A’s lane, beside ' +
    'B’s accepted #2): no lost update (no V3). Fencing protects the data, not the lock.',
  descriptionZh:
    '“GC 停顿超过看门狗租期”中的 GC 停顿，这次加上防护令牌。A:1 以 10 秒租期获取 FencedLock，得到防护令牌 1' +
    '（用 tryLockAndGetToken(0, 10 秒)：Redisson 的 lockAndGetToken(leaseTime) 会忽略租期，改由看门狗续期），读取存储后被 15 秒的 GC 停顿冻结。' +
    '租期到期，B:1 拿到锁（防护令牌 2）并写入。A 醒来后仍以为自己持有锁（V1：两个持有者），但它的写入带着防护令牌 1，' +
    '比存储见过的 2 更旧，因此被拒绝（A 的泳道上标着 #1 的划线圆圈，旁边是 B 被接受的 #2）：没有更新丢失（没有 V3）。' +
    '防护令牌保护的是数据，而不是锁。',
  scenario: {
    title: 'Fencing refuses a paused holder',
    resource: { kind: 'fenced', initial: 7 },
    clients: [
      // tryLock (tryLockAndGetToken(0, 10 s)): lockAndGetToken(lease) drops its lease (3.19.0–4.7.0)
      client('A', thread(1, 0, holdAs(fenced, 2000, { body: 'use', acquire: 'tryLock', waitMs: 0, leaseMs: 10_000 }))),
      client('B', thread(1, 500, holdAs(fenced, 50, { body: 'use' }))),
    ],
    faults: [{ at: 30, kind: 'pause', client: 'A', ms: 15_000 }],
  },
});

const fair = lockOps('fair', 'FairLock');

export const fairLockFifo = defineBuiltin('fair-lock-fifo', {
  group: 'other',
  title: 'FairLock: first come, first served',
  titleZh: 'FairLock：先到先得',
  description:
    'A:1 holds the fair lock; B, C and D arrive in that order and join the list `redisson_lock_queue:{fair}`, ' +
    'each with a deadline in the zset `redisson_lock_timeout:{fair}` one threadWaitTime (5 min) after the one ' +
    'before. E:1 only waits 500 ms: its tryLock gives up, leaves the queue and hands its slot back. Each unlock ' +
    'publishes only to the head waiter’s own channel, so the lock goes to B, then C, then D.',
  descriptionZh:
    'A:1 持有公平锁；B、C、D 依次到达，加入列表 `redisson_lock_queue:{fair}`，并在有序集合 ' +
    '`redisson_lock_timeout:{fair}` 中各有一个截止时间，每个比前一个晚一个 threadWaitTime（5 分钟）。' +
    'E:1 只等 500 毫秒：tryLock 放弃后离开队列，把自己的时间槽还给后面的人。每次解锁只向队首等待者自己的频道发布消息，' +
    '所以锁依次交给 B、C、D。',
  scenario: {
    clients: [
      client('A', thread(1, 0, holdAs(fair, 2000))),
      client('B', thread(1, 100, holdAs(fair, 300))),
      client('E', thread(1, 150, [{ op: 'tryLock', lock: 'fair', type: 'FairLock', waitMs: 500 }])),
      client('C', thread(1, 200, holdAs(fair, 300))),
      client('D', thread(1, 300, holdAs(fair, 300))),
    ],
  },
});

const read = lockOps('rw', 'ReadLock');
const write = lockOps('rw', 'WriteLock');

export const rwLockReadersThenWriter = defineBuiltin('rw-lock-readers-then-writer', {
  group: 'other',
  title: 'ReadWriteLock: readers share, the writer waits',
  titleZh: '读写锁：读者共享，写者等待',
  description:
    'A:1 and B:1 take the read lock together: the hash `rw` says mode=read and counts each reader, and every ' +
    'read hold has its own timeout key `{rw}:<owner>:rwlock_timeout:1`. C:1 wants the write lock and waits ' +
    'until the last reader leaves; it holds `<owner>:write`. Readers D:1 and D:2 arrive during the write and ' +
    'wait; the writer’s unlock publishes 1 (READ_UNLOCK_MESSAGE), which wakes both at once.',
  descriptionZh:
    'A:1 和 B:1 同时获得读锁：哈希 `rw` 中 mode=read，并为每个读者计数；每次读持有都有自己的超时键 ' +
    '`{rw}:<owner>:rwlock_timeout:1`。C:1 要写锁，等到最后一个读者离开后才拿到，字段为 `<owner>:write`。' +
    '读者 D:1 和 D:2 在写期间到达并等待；写者解锁时发布 1（READ_UNLOCK_MESSAGE），同时唤醒两者。',
  scenario: {
    title: 'Readers share, the writer waits',
    clients: [
      client('A', thread(1, 0, holdAs(read, 1000))),
      client('B', thread(1, 100, holdAs(read, 1100))),
      client('C', thread(1, 200, holdAs(write, 500))),
      client('D', thread(1, 1400, holdAs(read, 300)), thread(2, 1450, holdAs(read, 300))),
    ],
  },
});

const spin = lockOps('spin', 'SpinLock');

export const spinLockPolling = defineBuiltin('spin-lock-polling', {
  group: 'other',
  title: 'SpinLock: polling with exponential back-off',
  titleZh: 'SpinLock：指数退避轮询',
  description:
    'SpinLock uses the same hash and acquire script as RLock, but no pub/sub: nobody subscribes and unlock ' +
    'publishes nothing. B:1 and C:1 poll instead, sleeping 1, 2, 4, ... up to 128 ms between tries (plus a ' +
    'little random jitter). After A:1 unlocks, the lock stays free until the next poll finds it.',
  descriptionZh:
    'SpinLock 与 RLock 使用相同的哈希和加锁脚本，但没有发布/订阅：没有人订阅，解锁也不发布消息。' +
    'B:1 和 C:1 改为轮询，每次尝试之间休眠 1、2、4……直到 128 毫秒（再加一点随机抖动）。' +
    'A:1 解锁后，锁一直空闲，直到下一次轮询发现它。',
  scenario: {
    title: 'SpinLock polling',
    clients: [
      client('A', thread(1, 0, holdAs(spin, 1000))),
      client('B', thread(1, 10, holdAs(spin, 200))),
      client('C', thread(1, 20, holdAs(spin, 200))),
    ],
  },
});

const multi = lockOps('multi', 'MultiLock', { locks: ['l1', 'l2', 'l3'] });

export const multilockAllOrNothing = defineBuiltin('multilock-all-or-nothing', {
  group: 'other',
  title: 'MultiLock: all of the locks or none',
  titleZh: 'MultiLock：要么全部，要么一个都不要',
  description:
    'B:1 holds l3. A:1’s tryLock() on the MultiLock [l1, l2, l3] takes l1 and l2, fails on l3 and gives ' +
    'both back, l1 then l2: false. A:1 then calls lock(): a round may wait up to 3 × 1500 ms, so it takes l1 ' +
    'and l2 again and waits for l3, holding the other two meanwhile (C:1’s tryLock on l1 fails). When B ' +
    'unlocks l3 A has all three; its unlock releases them one after another.',
  descriptionZh:
    'B:1 持有 l3。A:1 对 MultiLock [l1, l2, l3] 调用 tryLock()：拿到 l1 和 l2，在 l3 上失败，于是先还 l1 再还 l2，返回 false。' +
    'A:1 接着调用 lock()：每一轮最多等待 3 × 1500 毫秒，所以它再次拿到 l1 和 l2 并等待 l3，期间一直占着这两把锁' +
    '（C:1 对 l1 的 tryLock 失败）。B 释放 l3 后 A 拿齐三把锁；它的 unlock 逐个释放它们。',
  scenario: {
    title: 'MultiLock: all or nothing',
    clients: [
      client('B', thread(1, 0, hold('l3', 3000))),
      client(
        'A',
        thread(1, 100, [
          { op: 'tryLock', lock: 'multi', type: 'MultiLock', locks: ['l1', 'l2', 'l3'] },
          { op: 'sleep', ms: 100 },
          multi('lock'),
          { op: 'work', ms: 500 },
          multi('unlock'),
        ]),
      ),
      client('C', thread(1, 1500, [{ op: 'tryLock', lock: 'l1' }])),
    ],
  },
});

/** A RedLock over the same key on each of five independent masters. */
const red = lockOps('res', 'RedLock', { locks: ['res', 'res', 'res', 'res', 'res'] });
/** A 10 s RedLock taken with tryLock (waiting `waitMs`), held for `ms`, then unlocked. */
const redlock = (ms: number, waitMs: number, body: 'work' | 'use' = 'use') =>
  holdAs(red, ms, { body, acquire: 'tryLock', waitMs, leaseMs: 10_000 });
/**
 * Five masters, and a short response timeout: Redlock's "per-node timeout small compared to the
 * TTL". No command retries, so that giving back a lock on an unreachable master costs one timeout.
 */
const fiveMasters = {
  redis: { topology: 'independent', masters: 5 },
  redisson: { timeoutMs: 50, retryAttempts: 0 },
};

export const redlockHappy = defineBuiltin('redlock-happy', {
  group: 'failures',
  title: 'RedLock: a majority of five masters',
  titleZh: 'RedLock：五个主节点中的多数',
  description:
    'Five independent masters, master-5 is down. A:1 asks them one after another for the same key ' +
    '(10 s lease); master-5 costs it a 50 ms timeout, but 4 of 5 is a majority (N/2 + 1 = 3). Redisson then ' +
    'PEXPIREs every key to the lease, one master after another, and the acquire shows Redlock’s validity = ' +
    'lease − the time those PEXPIREs took − drift (1% + 2 ms). A unlocks the masters one at a time too; ' +
    'B:1 comes once A has let go everywhere and gets its own majority. Redisson deprecates RedLock in favour ' +
    'of RLock with WAIT.',
  descriptionZh:
    '五个相互独立的主节点，其中 master-5 宕机。A:1 依次向它们申请同一个键（租期 10 秒）；master-5 ' +
    '让它等了 50 毫秒超时，但 5 个中拿到 4 个就是多数（N/2 + 1 = 3）。随后 Redisson 逐个主节点用 PEXPIRE 把键设为租期，' +
    '加锁事件上给出 Redlock 的有效期 = 租期 − 这些 PEXPIRE 的耗时 − 漂移（1% + 2 毫秒）。' +
    'A 解锁时也是逐个主节点进行；B:1 在 A 放开所有节点之后到来，拿到自己的多数。' +
    'Redisson 已弃用 RedLock，推荐使用带 WAIT 的 RLock。',
  scenario: {
    title: 'RedLock: a majority of five',
    ...fiveMasters,
    // B after A's unlock (≈ 0.7 s in the model, 0.6–0.75 s on the real client), as recorded by the
    // oracle: the happy path alone (a B waiting meanwhile is safe too: the monitor's V2 does not count
    // A's keys while A gives them back one master after another, 3.15.1+ unlockInner)
    clients: [client('A', thread(1, 0, redlock(500, 1000))), client('B', thread(1, 1000, redlock(100, 5000)))],
    faults: [{ at: 0, kind: 'crash', node: 'master-5' }],
  },
});

export const redlockClockJump = defineBuiltin('redlock-clock-jump', {
  group: 'failures',
  title: 'RedLock: a clock jump on one master',
  titleZh: 'RedLock：一个主节点的时钟跳变',
  description:
    'Kleppmann’s counter-example. A:1 cannot reach master-4 and master-5 and locks 1, 2 and 3: a ' +
    'majority. At 1 s master-3’s clock steps 10 s forward, so A’s key there expires at once. Then the network ' +
    'changes: B:1 cannot reach master-1 and master-2, and locks 3, 4 and 5: a majority too. Nobody did anything ' +
    'wrong, yet both hold live keys (V2) and both believe they hold the lock (V1).',
  descriptionZh:
    'Kleppmann 的反例。A:1 连不上 master-4 和 master-5，锁住了 1、2、3：多数。第 1 秒 master-3 的时钟' +
    '向前跳 10 秒，A 在那里的键立即过期。随后网络变化：B:1 连不上 master-1 和 master-2，锁住 3、4、5：同样是多数。' +
    '谁都没有做错，但两者都持有有效的键（V2），也都相信自己持有锁（V1）。',
  scenario: {
    title: 'RedLock and a clock jump',
    ...fiveMasters,
    clients: [
      client('A', thread(1, 0, redlock(6000, 1000, 'work'))),
      client('B', thread(1, 2000, redlock(1000, 1000, 'work'))),
    ],
    faults: [
      { at: 0, kind: 'partition', groups: [['A'], ['master-4', 'master-5']] },
      { at: 1000, kind: 'clock', node: 'master-3', jumpMs: 10_000 },
      { at: 1500, kind: 'partition', groups: [['B'], ['master-1', 'master-2']], healAt: 8000 },
    ],
  },
});

export const redlockPauseAfterValidity = defineBuiltin('redlock-pause-after-validity', {
  group: 'failures',
  title: 'RedLock: a pause after the validity check',
  titleZh: 'RedLock：有效期检查之后的停顿',
  description:
    'A:1 gets all five masters and a validity of about 9.9 s, reads the counter, and is then ' +
    'frozen by a 12 s GC pause. The keys expire at 10 s, one master a few ms after the other (their leases ' +
    'were set one at a time), and B:1 takes them as they go: for those ms both own live keys (V2). B:1 gets ' +
    'the lock and increments the counter. A wakes and writes its stale value: V1 and a lost update (V3). ' +
    'Redlock’s second clock read catches a pause during acquisition, not one after it; only fencing at the ' +
    'resource could refuse A.',
  descriptionZh:
    'A:1 拿到全部五个主节点，有效期约 9.9 秒，读取计数器后被 12 秒的 GC 停顿冻结。' +
    '各节点的键在第 10 秒前后相隔几毫秒逐个过期（它们的租期是逐个设置的），B:1 随之逐个拿下：这几毫秒里两者都持有有效的键（V2）。' +
    'B:1 拿到锁并把计数器加一。A 醒来写入旧值：V1 和一次更新丢失（V3）。' +
    'Redlock 的第二次读时钟能发现加锁过程中的停顿，却发现不了之后的停顿；只有资源端的防护令牌才能拒绝 A。',
  scenario: {
    title: 'RedLock: pause after the validity check',
    ...fiveMasters,
    clients: [
      client('A', thread(1, 0, redlock(500, 1000))),
      client('B', thread(1, 100, redlock(10, 15_000))),
    ],
    // well inside A's 500 ms of use: its acquire (two rounds of five masters, one at a time) ends
    // near 60 ms in the model and between 45 and 75 ms on the real client
    faults: [{ at: 200, kind: 'pause', client: 'A', ms: 12_000 }],
  },
});

export const fencingAfterFailover = defineBuiltin('fencing-after-failover', {
  group: 'replication',
  title: 'Fencing tokens repeat after a failover',
  titleZh: '主从切换后防护令牌重复',
  description:
    'A setup thread, P:1, first sets the token counter `redisson_lock_token:{res}` to 33 (as if 33 locks had ' +
    'been taken before), on the master and, through replication, its replicas. A:1 takes the FencedLock and ' +
    'gets 34, but the replication links lag 2 s and the master dies before they deliver it. The Sentinels ' +
    'promote replica-2, where the counter is still 33 and there is no lock: B:1 gets the lock and ' +
    'token 34 again. The store accepts tokens greater than or equal to the newest it saw, so both writes go ' +
    'through and one increment is lost (V1 and V3 despite fencing). A token is only as safe as its counter.',
  descriptionZh:
    '准备线程 P:1 先把防护令牌计数器 `redisson_lock_token:{res}` 设为 33（好像之前已经加过 33 次锁），' +
    '写到主节点，并经复制到达从节点。A:1 获取 FencedLock 得到 34，' +
    '但复制链路延迟 2 秒，主节点在送达之前宕机。哨兵提升 replica-2，那里计数器仍是 33，也没有锁：B:1 拿到锁，' +
    '又得到防护令牌 34。存储接受不小于它见过的最新防护令牌的写入，所以两次写入都通过，一次加一丢失' +
    '（尽管有防护令牌，仍出现 V1 和 V3）。防护令牌的安全性取决于它的计数器。',
  scenario: {
    redis: { ...sentinelTeaching, replicas: [{ lagMs: 2000 }, { lagMs: 2000 }] },
    redisson: { checkLockSyncedSlaves: false },
    resource: { kind: 'fenced', initial: 10 },
    clients: [
      client('P', thread(1, 0, [{ op: 'redis', argv: ['SET', 'redisson_lock_token:{res}', '33'] }])),
      client('A', thread(1, 2500, holdAs(fenced, 9500, { body: 'use' }))),
      client('B', thread(1, 11_000, holdAs(fenced, 100, { body: 'use' }))),
    ],
    faults: [{ at: 4000, kind: 'crash', node: 'master' }],
  },
});
