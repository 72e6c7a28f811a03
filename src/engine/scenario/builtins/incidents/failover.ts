/** Failover and replicas: the lock lives on one master and reaches its replicas late, or not at all. */
import { aThenB, client } from '../../build';
import { sentinelTeaching } from '../replication';
import { defineIncident, onRelease } from './define';

const beforeWait = {
  // both replicas have the same offset; with this seed replica-1 wins the tie
  seed: 6,
  redis: sentinelTeaching,
  redisson: { version: '3.12.4' },
  clients: aThenB('job', { a: 20_000, b: 1000, bStart: 7000 }, { body: 'use' }),
  faults: [{ at: 10, kind: 'crash', node: 'master' }],
};

export const failoverBeforeWait = defineIncident(
  'incident-failover-before-wait',
  {
    title: 'Failover promotes a replica without the lock (3.12.4)',
    titleZh: '主从切换提升了没有锁的从节点（3.12.4）',
    description:
      'Redisson 3.12.4, Sentinel with two replicas 40 ms behind. A:1 locks at 0 ms and is told at once; the master ' +
      'dies at 10 ms, before replication delivered the lock. After down-after the Sentinels promote replica-1; B:1 ' +
      'locks there while A:1 still works: two holders (V1) and a lost update (V3). A’s watchdog finds no lock and ' +
      'stops, and its unlock throws IllegalMonitorStateException.',
    descriptionZh:
      'Redisson 3.12.4，哨兵模式，两个从节点落后 40 毫秒。A:1 在 0 毫秒加锁并立即得到成功；主节点在 10 毫秒宕机，复制还没把锁送到。' +
      '经过 down-after，哨兵提升 replica-1；B:1 在那里加锁成功，而 A:1 仍在工作：两个持有者（V1）和一次更新丢失（V3）。' +
      'A 的看门狗找不到锁而停止，它的 unlock 抛出 IllegalMonitorStateException。',
    incident: {
      family: 'failover',
      links: [
        'https://github.com/redisson/redisson/issues/2669',
        'https://github.com/redisson/redisson/issues/775',
      ],
      reported: '3.12.4',
      fixedIn: '3.12.5',
      symptom: {
        en: 'After a master/slave failover a lock that was held is gone: another instance acquires it while the first still works.',
        zh: '主从切换之后，原本持有的锁不见了：另一个实例在第一个实例仍在工作时拿到了锁。',
      },
      cause: {
        en: 'Replication is asynchronous: the master acknowledged the lock before any replica had it, and the promoted replica never saw it. 3.12.5 (#2669, “increased RLock reliability during failover”) follows every lock script with WAIT, so the client learns it holds the lock only once replicas have it; RedLock was deprecated at the same time.',
        zh: '复制是异步的：主节点在任何从节点拿到锁之前就确认了加锁，被提升的从节点从未见过它。3.12.5（#2669，“increased RLock reliability during failover”）在每个锁脚本之后发送 WAIT，客户端要等从节点有了锁才知道自己持有它；RedLock 同时被弃用。',
      },
      keywords: [
        'failover',
        'Sentinel',
        'replica',
        'WAIT',
        'lost lock',
        'two holders',
        '主从切换',
        '丢锁',
        '哨兵',
        '两个线程同时拿到锁',
        'IllegalMonitorStateException',
      ],
      verdict: 'unsafe',
    },
    scenario: { title: 'Failover before WAIT', ...beforeWait },
  },
  {
    title: 'Fixed in 3.12.5: WAIT before the lock is granted',
    titleZh: '3.12.5 修复：先 WAIT 再确认加锁',
    description:
      'The same crash on Redisson 3.12.5. The acquire script is followed by WAIT 2; the master dies before any ' +
      'replica acknowledges, so A:1 is never told it holds the lock and its acquire is retried on the new master. ' +
      'B:1 gets the lock first and A:1 after B’s unlock: one holder at a time.',
    descriptionZh:
      '在 Redisson 3.12.5 上发生同样的宕机。加锁脚本之后跟着 WAIT 2；主节点在任何从节点确认之前宕机，所以 A:1 从未被告知加锁成功，' +
      '它的加锁在新主节点上重试。B:1 先拿到锁，A:1 在 B 解锁后拿到：同一时刻只有一个持有者。',
    verdict: 'safe',
    scenario: { title: 'Fixed: WAIT', ...onRelease(beforeWait, '3.12.5') },
  },
);

const partialSync = {
  redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }, { lagMs: 5 }] },
  redisson: { version: '3.17.4' },
  clients: [
    client('A', [
      { op: 'tryLock', lock: 'cache', waitMs: 5000 },
      { op: 'work', ms: 1000 },
      { op: 'unlock', lock: 'cache' },
    ]),
  ],
  // replica-2 is cut off from the master for the whole run: WAIT 2 can only count replica-1
  faults: [{ at: 0, kind: 'partition', groups: [['master'], ['replica-2']] }],
};

export const onlySomeSlavesSynced = defineIncident(
  'incident-only-some-slaves-synced',
  {
    title: '“Only 1 of 2 slaves were synced”: tryLock throws',
    titleZh: '“Only 1 of 2 slaves were synced”：tryLock 抛异常',
    description:
      'Redisson 3.17.4, two replicas, one of them cut off from the master. A:1’s tryLock runs the acquire script and ' +
      'WAIT 2 1000; only replica-1 acknowledges, and this release fails the lock unless every replica did: ' +
      'RedisException caused by “Only 1 of 2 slaves were synced”. This release does not undo the acquire: the lock ' +
      'stays on the master, for a thread that has already ended with the exception, until its 30 s lease runs out.',
    descriptionZh:
      'Redisson 3.17.4，两个从节点，其中一个与主节点断开。A:1 的 tryLock 执行加锁脚本和 WAIT 2 1000；只有 replica-1 确认，' +
      '而这个版本要求每个从节点都确认，否则加锁失败：RedisException，原因是 “Only 1 of 2 slaves were synced”。这个版本不会撤销加锁：' +
      '锁留在主节点上，而那个线程已经带着异常结束了，直到 30 秒租期用完。',
    incident: {
      family: 'failover',
      links: [
        'https://github.com/redisson/redisson/issues/4646',
        'https://github.com/redisson/redisson/issues/4222',
        'https://github.com/redisson/redisson/issues/4305',
      ],
      reported: '3.17.4',
      fixedIn: '3.17.5',
      symptom: {
        en: '`tryLock` fails continuously with “java.lang.IllegalStateException: Only 2 of 17 slaves were synced” (AWS ElastiCache); the count keeps changing.',
        zh: '`tryLock` 持续失败：“java.lang.IllegalStateException: Only 2 of 17 slaves were synced”（AWS ElastiCache），数字不断变化。',
      },
      cause: {
        en: 'From 3.16.7 RLock compared WAIT’s answer with the number of replicas and failed unless all acknowledged; a replica that lags or is down fails every lock. 3.17.5 (“Lock synced slaves check”) fails only when none did; mrniko’s advice meanwhile: `checkLockSyncedSlaves = false`.',
        zh: '从 3.16.7 起，RLock 把 WAIT 的返回值与从节点数比较，不是全部确认就失败；一个落后或宕机的从节点会让每次加锁都失败。3.17.5（“Lock synced slaves check”）改为只有一个都没确认时才失败；在此之前 mrniko 的建议是 `checkLockSyncedSlaves = false`。',
      },
      keywords: [
        'slaves were synced',
        'Only 1 of 2 slaves were synced',
        'IllegalStateException',
        'checkLockSyncedSlaves',
        'WAIT',
        'ElastiCache',
        '从节点同步',
        '加锁失败',
      ],
      verdict: 'safe',
    },
    scenario: { title: 'Only 1 of 2 slaves synced', ...partialSync },
  },
  {
    title: 'Fixed in 3.17.5: one acknowledging replica is enough',
    titleZh: '3.17.5 修复：一个从节点确认就够了',
    description:
      'The same cut-off replica on Redisson 3.17.5: WAIT returns 1, which is no longer a failure, and tryLock returns true.',
    descriptionZh: '在 Redisson 3.17.5 上同样断开一个从节点：WAIT 返回 1，不再算失败，tryLock 返回 true。',
    verdict: 'safe',
    scenario: { title: 'Fixed: one replica is enough', ...onRelease(partialSync, '3.17.5') },
  },
);

const redisDown = {
  redisson: { version: '3.12.5' },
  until: 60_000,
  clients: [
    {
      id: 'A',
      threads: [
        {
          id: 1,
          start: 100,
          program: [
            { op: 'tryLock', lock: 'myLock', waitMs: 1000, leaseMs: 1000 },
            { op: 'use' },
            { op: 'unlock', lock: 'myLock' },
          ],
        },
      ],
    },
  ],
  faults: [{ at: 10, kind: 'crash', node: 'master' }],
};

export const tryLockHangsRedisDown = defineIncident(
  'incident-trylock-hangs-redis-down',
  {
    title: 'tryLock(1, 1, SECONDS) hangs for ever once Redis is down (3.12.5)',
    titleZh: 'Redis 宕机后 tryLock(1, 1, SECONDS) 永远卡住（3.12.5）',
    description:
      'Redisson 3.12.5, one master that dies at 10 ms and does not come back. A:1 calls tryLock with a 1 s wait at ' +
      '100 ms. The acquire script goes out in an EVAL batch; every attempt times out and the batch gives up, but this ' +
      'release fails only the batch’s own future, never the EVAL’s: the thread waits on a future that nothing will ' +
      'complete. Its 1 s wait does not help, because the wait timer only runs once the script has answered. Nothing ' +
      'is scheduled that could wake it: a lost waiter that hangs (L2), so the verdict is Stuck.',
    descriptionZh:
      'Redisson 3.12.5，唯一的主节点在 10 毫秒宕机且不再恢复。A:1 在 100 毫秒调用等待 1 秒的 tryLock。加锁脚本放在 EVAL 批次里发出；' +
      '每次尝试都超时，批次放弃，但这个版本只让批次自己的 future 失败，从不让 EVAL 的 future 结束：线程等待一个没有任何东西会完成的 future。' +
      '它的 1 秒等待也没用，因为等待计时要等脚本回复之后才开始。没有任何已安排的事件能唤醒它：一个卡住的等待者（L2），结论是“卡死”。',
    incident: {
      family: 'failover',
      links: [
        'https://github.com/redisson/redisson/issues/2801',
        'https://github.com/redisson/redisson/issues/2790',
      ],
      reported: '3.12.5',
      fixedIn: '3.13.0',
      symptom: {
        en: '`tryLock(1, 1, TimeUnit.SECONDS)` never returns once Redis is down; the thread hangs instead of getting an exception after the timeout.',
        zh: 'Redis 宕机后 `tryLock(1, 1, TimeUnit.SECONDS)` 再也不返回；线程一直卡住，而不是在超时后得到异常。',
      },
      cause: {
        en: 'From 3.12.5 RedissonLock sends its scripts through CommandBatchService (EVAL followed by WAIT). When the batch failed without a reply, only the batch’s promise was failed, not the EVAL’s, so the caller waited for ever. CHANGELOG 3.13.0: “Lock acquisition hangs if Redis failed (regression since 3.12.5)” (commit 1abb29e2, #2790).',
        zh: '从 3.12.5 起 RedissonLock 通过 CommandBatchService 发送脚本（EVAL 之后跟 WAIT）。批次在没有回复的情况下失败时，只有批次的 promise 失败，EVAL 的没有，于是调用方永远等待。3.13.0 的 CHANGELOG：“Lock acquisition hangs if Redis failed (regression since 3.12.5)”（提交 1abb29e2，#2790）。',
      },
      keywords: [
        'tryLock hangs',
        'hang',
        'Redis down',
        'never returns',
        'RedisTimeoutException',
        'RedisResponseTimeoutException',
        '卡住',
        '卡死',
        'Redis 宕机',
        '不返回',
      ],
      verdict: 'stuck',
    },
    scenario: { title: 'tryLock hangs (3.12.5)', ...redisDown },
  },
  {
    title: 'Fixed in 3.13.0: the timeout reaches the caller',
    titleZh: '3.13.0 修复：超时传到调用方',
    description:
      'The same dead master on Redisson 3.13.0: the failed batch fails the EVAL’s future too, so tryLock throws ' +
      'RedisResponseTimeoutException after its attempts and A:1 ends with it. Nobody hangs; the exception is the ' +
      'answer the application can handle.',
    descriptionZh:
      '在 Redisson 3.13.0 上同样的主节点宕机：失败的批次也让 EVAL 的 future 失败，tryLock 在重试用完后抛出 RedisResponseTimeoutException，' +
      'A:1 带着它结束。没有人卡住；这个异常是应用可以处理的答案。',
    verdict: 'safe',
    scenario: { title: 'Fixed: the timeout is thrown', ...onRelease(redisDown, '3.13.0') },
  },
);

export const incidentsFailover = [...failoverBeforeWait, ...onlySomeSlavesSynced, ...tryLockHangsRedisDown];
