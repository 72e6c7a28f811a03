/** The watchdog: a renewal that stops, and a holder the watchdog cannot reach Redis for. */
import { aThenB } from '../../build';
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
      keywords: ['watchdog', 'renewal', 'failover', 'RedisTimeoutException', 'lock disappears', '看门狗', '续期失败', '主从切换', '锁消失', 'IllegalMonitorStateException'],
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
    'everything else still works. Its renewals fail, the lease ends at 30 s and B:1 takes the lock: both believe they ' +
    'hold it (V1). When the link returns A’s watchdog finds the lock gone and stops silently; A writes a stale value ' +
    '(V3) and its unlock throws IllegalMonitorStateException.',
  descriptionZh:
    'A:1 以看门狗持有 `worker`，执行 50 秒的任务。从 5 秒到 45 秒客户端 A 连不上 Redis，其余一切正常。它的续期失败，' +
    '租期在 30 秒结束，B:1 拿到锁：两者都以为自己持有锁（V1）。链路恢复后，A 的看门狗发现锁已不在，悄悄停止；A 写入旧值（V3），' +
    '它的 unlock 抛出 IllegalMonitorStateException。',
  incident: {
    family: 'watchdog',
    links: ['https://github.com/redisson/redisson/issues/3636'],
    reported: 'any (asked in 2021)',
    symptom: {
      en: 'Worker 1 holds the lock “until manual release”, loses its connection to Redis but keeps working on the data; the lock expires and Worker 2 acquires it: both think they hold it.',
      zh: 'Worker 1 “直到手动释放”地持有锁，与 Redis 断开连接却仍在处理数据；锁过期后 Worker 2 拿到了锁：两者都以为自己持有它。',
    },
    cause: {
      en: 'The watchdog can only renew while it reaches Redis; a lease that cannot be renewed ends, by design, so that a dead holder cannot block everyone. The holder is not told. Only fencing at the resource (RFencedLock’s token) protects the data.',
      zh: '看门狗只有在能连上 Redis 时才能续期；无法续期的租约按设计会结束，这样死掉的持有者才不会挡住所有人。持有者不会得到通知。只有资源端的 fencing（RFencedLock 的 token）才能保护数据。',
    },
    keywords: ['network partition', 'connection lost', 'watchdog', 'two holders', 'fencing', '网络分区', '断网', '看门狗', '两个线程同时拿到锁', 'IllegalMonitorStateException'],
    verdict: 'unsafe',
  },
  scenario: {
    title: 'The holder loses Redis',
    clients: aThenB('worker', { a: 50_000, b: 1000, bStart: 1000 }, { body: 'use' }),
    faults: [{ at: 5000, kind: 'partition', groups: [['A'], ['master', 'B']], healAt: 45_000 }],
  },
});

export const incidentsWatchdog = [...failoverStopsRenewal, ...holderLosesRedis];
