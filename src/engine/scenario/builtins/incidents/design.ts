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
    reported: 'any (asked 2016–2018)',
    symptom: {
      en: 'What is RedLock for? Users build it from several locks of one Redisson instance on one Redis and expect it to survive a failure.',
      zh: 'RedLock 到底是做什么的？用户用同一个 Redisson 实例、同一个 Redis 上的几把锁构造它，并指望它能扛住故障。',
    },
    cause: {
      en: 'RedLock’s quorum only means something across independent masters (mrniko in #588: it is designed for N locks on N Redis nodes; #1159 points to redis.io’s distlock page). Locks on one node fail together, and a node restarted without persistence forgets them all.',
      zh: 'RedLock 的多数派只有在相互独立的主节点之间才有意义（mrniko 在 #588 中说：它是为 N 个 Redis 节点上的 N 把锁设计的；#1159 指向 redis.io 的 distlock 页面）。同一节点上的锁一起失效，没有持久化的节点重启后会全部忘掉。',
    },
    keywords: ['RedLock', 'RedissonRedLock', 'quorum', 'restart', 'persistence', '红锁', '多数派', '重启', '两个线程同时拿到锁'],
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

export const incidentsDesign = [...redlockOnOneRedis];
