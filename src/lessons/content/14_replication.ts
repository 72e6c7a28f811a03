import {
  absent,
  atLeast,
  choice,
  holds,
  none,
  noV1Goal,
  openV1,
  replyOf,
  threadHolds,
  yourTurn,
} from './common';
import { acquired, cmd, ev, violationStart } from './events';
import type { EventSelector, Lesson } from '../types';

const bAcquire = cmd('B:1', 'EVAL', { key: 'myLock' });
const replica2Promoted: EventSelector = { kind: 'failover.promote', node: 'replica-2' };

const lesson: Lesson = {
  id: 'replication',
  title: {
    en: 'Async replication loses the lock, and what WAIT does',
    zh: '异步复制丢锁，以及 WAIT 能做什么',
  },
  minutes: 10,
  steps: [
    {
      claims: ['C32'],
      scenario: { builtin: 'failover-wait-helps' },
      at: { kind: 'repl.apply', node: 'replica-1' },
      text: {
        en:
          'In production the lock’s Redis has replicas and Sentinels, for availability (高可用). Replication ' +
          'is **asynchronous**: the master answers the client first and ships the write afterwards. Here ' +
          'replica-1 applies the lock write 20 ms later; replica-2, on a slow link, has not yet got it.',
        zh:
          '生产环境里锁所在的 Redis 有从节点和哨兵，为的是高可用。复制是**异步**的：主节点先回复客户端，之后才把写入发出去。' +
          '这里 replica-1 在 20 毫秒后应用了加锁的写入；链路较慢的 replica-2 还没收到。',
      },
      highlight: { lanes: ['A:1', 'master', 'replica-1', 'replica-2'], keys: ['myLock'] },
      checks: [
        holds('myLock', 'A:1', 1, { node: 'master' }),
        holds('myLock', 'A:1', 1, { node: 'replica-1' }),
        absent('myLock', 'replica-2'),
      ],
    },
    {
      claims: ['C38'],
      at: acquired('A:1'),
      text: {
        en:
          'Recent Redisson (`checkLockSyncedSlaves`, on by default) adds a `WAIT` after the lock script: the ' +
          'master blocks until the replicas acknowledge the write, or until `slavesSyncTimeout`. Only then is ' +
          '`lock()` told it succeeded. A:1 waited 800 ms, until both replicas had the lock.',
        zh:
          '较新的 Redisson（`checkLockSyncedSlaves`，默认开启）在加锁脚本之后加了一个 `WAIT`：主节点会阻塞，直到从节点确认收到写入，' +
          '或者等到 `slavesSyncTimeout`。之后 `lock()` 才被告知成功。A:1 等了 800 毫秒，直到两个从节点都有了这把锁。',
      },
      checks: [
        atLeast(1, ev('wait.result', 'A:1', { where: { acked: 2 } })),
        holds('myLock', 'A:1', 1, { node: 'replica-2' }),
      ],
    },
    {
      claims: ['C38', 'C35'],
      at: ev('lock.wait', 'B:1'),
      text: {
        en:
          'The master crashes at 1 s and Sentinel promotes replica-2. It has A:1’s lock, so B:1 gets a TTL and ' +
          'waits. The failover did not break mutual exclusion.',
        zh: '主节点在第 1 秒崩溃，哨兵把 replica-2 提升为主。它上面有 A:1 的锁，所以 B:1 拿到的是 TTL，只能等待。这次主从切换没有破坏互斥。',
      },
      checks: [
        atLeast(1, replica2Promoted),
        holds('myLock', 'A:1', 1, { node: 'replica-2' }),
        { thread: 'B:1', state: 'waiting' },
        { verdict: 'safe' },
      ],
    },
    {
      claims: ['C33', 'C32'],
      scenario: { builtin: 'failover-lost-lock' },
      at: { kind: 'node.crash', node: 'master' },
      text: {
        en:
          'Now the same with Redisson 3.11, before the `WAIT`. A:1 locks at 1 ms and is told “yours” at once. ' +
          'The master dies at 10 ms, 30 ms before the write would have reached the replicas. This is the ' +
          '主从一致性 (master–replica consistency) problem the tutorials name.',
        zh:
          '换成 Redisson 3.11，那时还没有 `WAIT`。A:1 在第 1 毫秒加锁，马上被告知“锁是你的”。主节点在第 10 毫秒挂了，' +
          '比写入到达从节点早了 30 毫秒。这就是教程说的主从一致性问题。',
      },
      checks: [
        threadHolds('A:1', 'myLock', 1),
        absent('myLock', 'replica-1'),
        absent('myLock', 'replica-2'),
        none({ kind: 'repl.apply' }),
      ],
    },
    {
      claims: ['C33'],
      at: { kind: 'failover.promote' },
      text: {
        en:
          'Five seconds later the Sentinels agree the master is down and promote replica-1. Both clients switch ' +
          'to it. It has no `myLock`: as far as Redis knows, nobody holds the lock.',
        zh: '五秒后，哨兵们一致认为主节点挂了，把 replica-1 提升为主。两个客户端都切换过去。它上面没有 `myLock`：在 Redis 看来，没有人持有这把锁。',
      },
      checks: [absent('myLock', 'replica-1'), threadHolds('A:1', 'myLock', 1)],
    },
    {
      claims: ['C33', 'C35'],
      at: violationStart('V1', 'myLock'),
      question: {
        prompt: {
          en: 'At 7 s B:1 calls `lock()` on the new master. What does its lock script return?',
          zh: '第 7 秒，B:1 在新的主节点上调用 `lock()`。它的加锁脚本返回什么？',
        },
        choices: [
          choice('nil', null, '`nil`: B:1 gets the lock', '`nil`：B:1 拿到了锁'),
          choice('ttl', 'ttl', 'A TTL: A:1 still holds it', '一个 TTL：A:1 还持有锁'),
        ],
        answer: replyOf(bAcquire),
        feedback: {
          en:
            'The new master never saw A:1’s lock, so `exists` is `0` and B:1 takes it. A:1 is still working, ' +
            'sure it holds the lock: two holders. Safety, as usually defined (at any time only one client ' +
            'holds the lock), is broken by a perfectly normal failover.',
          zh:
            '新的主节点从没见过 A:1 的锁，`exists` 为 `0`，B:1 拿到了锁。A:1 还在干活，坚信自己持有锁：两个持有者。' +
            '通常定义的安全性（任意时刻只有一个客户端持有锁）被一次再正常不过的主从切换打破了。',
        },
      },
      text: {
        en:
          'Two holders, `V1`, for 13 s. A:1 only finds out at 10 s, when its watchdog’s renewal finds no lock ' +
          'and stops, and its `unlock()` at 20 s fails.',
        zh: '两个持有者，`V1`，持续 13 秒。A:1 直到第 10 秒才察觉：看门狗续期时发现锁不在了，于是停止；它在第 20 秒的 `unlock()` 也失败了。',
      },
      checks: [openV1('myLock', 'A:1', 'B:1')],
      task: {
        prompt: yourTurn(
          'upgrade to a Redisson with `checkLockSyncedSlaves` (set `redisson` to version `3.27` with ' +
            '`checkLockSyncedSlaves: true`).',
          '升级到带 `checkLockSyncedSlaves` 的 Redisson（把 `redisson` 设为版本 `3.27`，并设置 `checkLockSyncedSlaves: true`）。',
        ),
        ...noV1Goal('myLock'),
        solution: [
          { op: 'replace', path: '/redisson', value: { version: '3.27', checkLockSyncedSlaves: true } },
        ],
        success: {
          en:
            'The master died before any replica acknowledged, so A:1’s `WAIT` never returned and its `lock()` ' +
            'failed instead of lying. An error is better than two holders.',
          zh: '主节点在任何从节点确认之前就挂了，所以 A:1 的 `WAIT` 一直没返回，它的 `lock()` 失败了，而不是谎报成功。报错总比两个持有者好。',
        },
      },
    },
    {
      claims: ['C38', 'C35'],
      scenario: { builtin: 'failover-wait-wrong-replica' },
      at: acquired('A:1'),
      text: {
        en:
          '`WAIT` narrows the window but does not close it. Here replica-2’s link is cut: A:1’s `WAIT 2 1000` ' +
          'times out with only 1 ack, and Redisson accepts a partial sync (only 0 acks fails the lock). Then ' +
          'the master dies, replica-1 is cut off from the Sentinels, and they promote… replica-2.',
        zh:
          '`WAIT` 缩小了窗口，却没有关上它。这里 replica-2 的链路被切断：A:1 的 `WAIT 2 1000` 超时，只得到 1 个确认，' +
          'Redisson 接受部分同步（只有 0 个确认才算失败）。随后主节点挂了，replica-1 又与哨兵隔绝，哨兵提升的却是……replica-2。',
      },
      checks: [
        // the WAIT behind the lock script (4.7.0 first sends a once-per-client probe, WAIT 0 0)
        { reply: 1, of: cmd('A:1', 'WAIT', { after: cmd('A:1', 'EVALSHA', { key: 'myLock' }) }) },
        threadHolds('A:1', 'myLock', 1),
        absent('myLock', 'replica-2'),
      ],
    },
    {
      claims: ['C38', 'C33'],
      at: violationStart('V1', 'myLock'),
      text: {
        en:
          'replica-2 never had the lock, B:1 takes it, and A:1 and B:1 hold it together again. `WAIT` makes ' +
          'the write more durable; it does not make Redis replication consistent. For a lock that must never be ' +
          'held twice, protect the resource (fencing, lesson 12) or use a consensus system.',
        zh:
          'replica-2 从来没有这把锁，B:1 拿到了它，A:1 和 B:1 又一次同时持有。`WAIT` 让写入更持久，却不能让 Redis 的复制变成一致的。' +
          '如果一把锁绝不能被同时持有两次，就要保护资源（fencing，第 12 课），或者使用基于共识的系统。',
      },
      checks: [atLeast(1, replica2Promoted), openV1('myLock', 'A:1', 'B:1')],
    },
  ],
};

export default lesson;
