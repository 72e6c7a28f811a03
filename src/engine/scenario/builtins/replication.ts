/**
 * Replication and Sentinel failover: the lock lives on one master and reaches replicas late.
 */
import { aThenB } from '../build';
import { defineBuiltin } from './types';

/** The teaching preset of a Sentinel deployment (short numbers so it fits one screen). */
export const sentinelTeaching = {
  topology: 'sentinel',
  replicas: [{ lagMs: 40 }, { lagMs: 40 }],
  sentinel: { count: 3, quorum: 2, downAfterMs: 5000, failoverMs: 1000 },
} as const;

export const failoverLostLock = defineBuiltin('failover-lost-lock', {
  group: 'replication',
  title: 'Failover loses the lock',
  titleZh: '主从切换丢锁',
  description:
    'Redisson 3.11 (before WAIT). A:1 locks on the master at t=0; replication would reach the replicas 40 ms ' +
    'later, but the master loses power at t=10 ms. After down-after (5 s) the Sentinels agree the master is down, ' +
    'elect a leader and promote replica-1, which never saw the lock. B:1 locks on the new master while A:1 still ' +
    "works: two holders (V1). A's watchdog renewal finds no lock and stops silently; A's unlock at the end fails " +
    'with IllegalMonitorStateException, the first sign A ever gets.',
  descriptionZh:
    'Redisson 3.11（还没有 WAIT）。A:1 在 t=0 于主节点加锁；复制本应在 40 毫秒后到达从节点，但主节点在 t=10 毫秒断电。' +
    '经过 down-after（5 秒），哨兵们认定主节点下线，选出领头哨兵并提升从未见过这把锁的 replica-1。A:1 仍在工作时 B:1 ' +
    '在新主节点上加锁成功：两个持有者（V1）。A 的看门狗续期找不到锁，悄悄停止；A 最后解锁时抛出 ' +
    'IllegalMonitorStateException，这是 A 得到的第一个信号。',
  scenario: {
    // Both replicas have the same offset; run ids break the tie, and with this seed replica-1 wins.
    seed: 6,
    redis: sentinelTeaching,
    redisson: { version: '3.11' },
    clients: aThenB('myLock', { a: 20000, b: 15000, bStart: 7000 }),
    faults: [{ at: 10, kind: 'crash', node: 'master' }],
  },
});

export const failoverWaitHelps = defineBuiltin('failover-wait-helps', {
  group: 'replication',
  title: 'WAIT: the lock reaches the replicas before A is told it holds it',
  titleZh: 'WAIT：锁先到达从节点，A 才被告知加锁成功',
  description:
    'Redisson after 3.12.5 sends WAIT <replicas> 1000 after the acquire script. replica-1 acknowledges after ' +
    '20 ms, replica-2 after 800 ms, so WAIT returns 2 and A:1 holds the lock only at about 0.8 s (the price: ' +
    'a slower acquire). The master crashes at 1 s; whichever replica is promoted has the lock, so B:1 waits for ' +
    "A:1's unlock. Safe.",
  descriptionZh:
    'Redisson 3.12.5 之后，加锁脚本后面跟着 WAIT <从节点数> 1000。replica-1 在 20 毫秒后确认，replica-2 在 800 毫秒后确认，' +
    '所以 WAIT 返回 2，A:1 约在 0.8 秒才拿到锁（代价：加锁变慢）。主节点在 1 秒时崩溃；无论提升哪个从节点，它都有这把锁，' +
    '所以 B:1 等到 A:1 解锁。安全。',
  scenario: {
    title: 'WAIT helps',
    redis: { ...sentinelTeaching, replicas: [{ lagMs: 20 }, { lagMs: 800 }] },
    clients: aThenB('myLock', { a: 15000, b: 2000, bStart: 7000 }),
    faults: [{ at: 1000, kind: 'crash', node: 'master' }],
  },
});

export const failoverWaitWrongReplica = defineBuiltin('failover-wait-wrong-replica', {
  group: 'replication',
  title: 'WAIT, but the wrong replica is promoted',
  titleZh: 'WAIT 了，却提升了错误的从节点',
  description:
    "replica-2's link to the master is cut from the start. A:1's WAIT 2 1000 gets only replica-1's ack and " +
    'returns 1 at the timeout; Redisson accepts a partial sync (it only fails on 0) and A:1 holds the lock. At ' +
    '1.1 s the master crashes and replica-1 is cut off from the Sentinels, so they promote replica-2, which never ' +
    'had the lock. B:1 locks there while A:1 works: V1. WAIT narrows the window; it does not choose the replica.',
  descriptionZh:
    'replica-2 到主节点的链路一开始就断了。A:1 的 WAIT 2 1000 只得到 replica-1 的确认，超时时返回 1；Redisson 接受部分同步' +
    '（只有 0 才失败），A:1 拿到锁。1.1 秒时主节点崩溃，replica-1 又与哨兵隔绝，于是哨兵提升了从未有过这把锁的 replica-2。' +
    'A:1 仍在工作时 B:1 在那里加锁成功：V1。WAIT 缩小了窗口，但它不决定提升哪个从节点。',
  scenario: {
    title: 'WAIT, wrong replica promoted',
    seed: 1,
    redis: { ...sentinelTeaching, replicas: [{ lagMs: 20 }, { lagMs: 20 }] },
    clients: aThenB('myLock', { a: 15000, b: 10000, bStart: 8000 }),
    faults: [
      { at: 0, kind: 'partition', groups: [['master'], ['replica-2']] },
      { at: 1100, kind: 'crash', node: 'master' },
      { at: 1100, kind: 'partition', groups: [['replica-1'], ['sentinels', 'replica-2', 'A', 'B']] },
    ],
  },
});

export const splitBrainPartition = defineBuiltin('split-brain-partition', {
  group: 'replication',
  title: 'Split brain: the partitioned old master keeps serving the holder',
  titleZh: '脑裂：被隔离的旧主节点继续为持有者服务',
  description:
    'A:1 locks (WAIT: both replicas have it), then a partition isolates the master with A from the replicas, the ' +
    'Sentinels and B. The Sentinels promote a replica. A cannot reach a Sentinel, so it keeps talking to the old ' +
    'master: every watchdog renewal runs there (WAIT then reports 0 replicas, which the watchdog only logs). On the ' +
    "new master nobody renews A's copy; it expires at 30 s and B:1 takes the lock: two holders, two live leases on " +
    "two masters (V1, V2). A's unlock on the old master deletes its lease but fails with NoSyncedSlavesException. " +
    'After the partition heals, the Sentinels demote the old master and its data is replaced.',
  descriptionZh:
    'A:1 加锁（WAIT：两个从节点都有了），随后网络分区把主节点和 A 与从节点、哨兵、B 隔开。哨兵提升一个从节点。A 连不上哨兵，' +
    '于是继续使用旧主节点：看门狗每次续期都在那里执行（之后 WAIT 报告 0 个从节点，看门狗只记日志）。新主节点上没人为 A 的副本续期，' +
    '它在 30 秒时过期，B:1 拿到锁：两个持有者，两个主节点上各有一份仍在租期内的锁（V1、V2）。A 在旧主节点上的解锁删除了它的那一份，' +
    '却抛出 NoSyncedSlavesException。分区恢复后，哨兵把旧主节点降为从节点，其数据被替换。',
  scenario: {
    title: 'Split brain',
    until: 70000,
    redis: sentinelTeaching,
    clients: aThenB('myLock', { a: 45000, b: 20000, bStart: 7000 }),
    faults: [
      {
        at: 100,
        kind: 'partition',
        groups: [
          ['master', 'A'],
          ['replica-1', 'replica-2', 'sentinels', 'B'],
        ],
        healAt: 55000,
      },
    ],
  },
});
