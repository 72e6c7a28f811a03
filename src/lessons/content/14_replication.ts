import {
  absent,
  atLeast,
  choice,
  dodge,
  holds,
  none,
  noV1Goal,
  openV1,
  replyOf,
  threadHolds,
  yourTurn,
  why,
} from './common';
import { acquired, cmd, ev, violationStart } from './events';
import type { EventSelector, Lesson } from '../types';

const bAcquire = cmd('B:1', 'EVAL', { key: 'myLock' });
const replica2Promoted: EventSelector = { kind: 'failover.promote', node: 'replica-2' };

/** The master still crashes (the failover the lesson is about). */
const masterDies = atLeast(1, { kind: 'node.crash', node: 'master' });
/** A:1's lock script is followed by a WAIT for the replicas (Redisson 3.12.5+ with replicas). */
const aWaits = atLeast(1, cmd('A:1', 'WAIT'));

const lesson: Lesson = {
  id: 'replication',
  title: {
    en: 'Async replication loses the lock, and what WAIT does',
    zh: '异步复制丢锁，以及 WAIT 能做什么',
  },
  minutes: 10,
  part: 3,
  objective: {
    en: 'Show how an asynchronous failover loses a lock, and what `WAIT` does and does not fix.',
    zh: '说明异步的主从切换如何丢掉一把锁，以及 `WAIT` 能解决什么、不能解决什么。',
  },
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
          'Since 3.12.5, when the master has replicas, Redisson sends the lock script and a `WAIT <replicas> ' +
          '<slavesSyncTimeout>` in one batch. `WAIT` blocks only **the client’s** connection, not the master: ' +
          'the master keeps serving everyone else while A:1 waits for the replicas to acknowledge the write, ' +
          'or for the timeout (1 s by default). Only then is `lock()` told it succeeded. A:1 waited 800 ms, ' +
          'until both replicas had the lock. `checkLockSyncedSlaves` (3.17+, on by default) only decides what ' +
          '**0** acknowledgements mean: an error instead of success.',
        zh:
          '从 3.12.5 起，只要主节点有从节点，Redisson 就把加锁脚本和一条 `WAIT <从节点数> <slavesSyncTimeout>` 放在一个批次里发送。' +
          '`WAIT` 阻塞的只是**客户端自己的**连接，而不是主节点：主节点照常服务其他客户端，A:1 则等待从节点确认收到写入，' +
          '或者等到超时（默认 1 秒）。之后 `lock()` 才被告知成功。A:1 等了 800 毫秒，直到两个从节点都有了这把锁。' +
          '`checkLockSyncedSlaves`（3.17 起，默认开启）只决定**0** 个确认意味着什么：报错，而不是成功。',
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
      teacher: {
        en: 'Ask what the new master knows about A:1’s lock. People assume replication is synchronous; the lag on the timeline shows it is not.',
        zh: '问大家新的主节点对 A:1 的锁知道些什么。人们以为复制是同步的；时间轴上的复制延迟说明并非如此。',
      },
      at: violationStart('V1', 'myLock'),
      question: {
        prompt: {
          en: 'At 7 s B:1 calls `lock()` on the new master. What does its lock script return?',
          zh: '第 7 秒，B:1 在新的主节点上调用 `lock()`。它的加锁脚本返回什么？',
        },
        choices: [
          choice('nil', null, '`nil`: B:1 gets the lock', '`nil`：B:1 拿到了锁'),
          choice(
            'ttl',
            'ttl',
            'A TTL: A:1 still holds it',
            '一个 TTL：A:1 还持有锁',
            why(
              'A:1 does still hold the lock as far as it knows, and the old master had the key. But the write never reached the replica that became master: the run shows `exists` returning `0` and B:1’s script replying `nil`.',
              '在 A:1 看来它确实还持有锁，旧主节点上也确实有这个键。但这次写入没传到后来成为主节点的从节点：运行里 `exists` 返回 `0`，B:1 的脚本返回 `nil`。',
            ),
          ),
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
          'upgrade to a Redisson that follows the lock script with a `WAIT` for the replicas: any release ' +
            'from 3.12.5 on (set `redisson.version`, e.g. `3.27`).',
          '升级到在加锁脚本之后跟一个 `WAIT` 等待从节点确认的 Redisson：3.12.5 及以后的任何版本（设置 `redisson.version`，例如 `3.27`）。',
        ),
        controls: [
          {
            kind: 'select',
            label: { en: 'Redisson release', zh: 'Redisson 版本' },
            paths: ['/redisson/version'],
            options: ['3.11', '3.12.4', '3.12.5', '3.27'],
          },
        ],
        goalText: {
          en:
            'No `V1` on `myLock`: the master still dies, A:1’s lock script is followed by a `WAIT`, and A:1 ' +
            'never reports the lock as taken before B:1 gets it on the new master.',
          zh: '`myLock` 上没有 `V1`：主节点照样挂掉，A:1 的加锁脚本后面跟着 `WAIT`，并且在 B:1 从新主节点拿到锁之前，A:1 从未报告加锁成功。',
        },
        goal: {
          all: [
            noV1Goal('myLock').goal,
            masterDies,
            aWaits,
            atLeast(1, acquired('B:1')),
            none(ev('lock.acquired', 'A:1', { before: acquired('B:1') })),
          ],
        },
        solution: [{ op: 'replace', path: '/redisson', value: { version: '3.27' } }],
        dodges: [
          dodge(
            { all: [noV1Goal('myLock').goal, { not: masterDies }] },
            'That works, but only because the master no longer dies: the lesson is what a failover does to ' +
              'a lock. Keep the crash.',
            '这样确实行，但只是因为主节点不再挂了：这一课讲的正是主从切换对锁做了什么。请保留崩溃。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            { all: [noV1Goal('myLock').goal, { not: aWaits }] },
            'That works, but your Redisson still sends no `WAIT`: the failover simply did not meet a second ' +
              'client this time (B:1 came later, or the lag shrank). Upgrade the client instead.',
            '这样确实行，但你的 Redisson 仍然不发 `WAIT`：只是这次主从切换没碰上第二个客户端（B:1 来得更晚，或者复制延迟变小了）。请升级客户端。',
            [{ op: 'replace', path: '/clients/1/threads/0/start', value: 21_000 }],
          ),
        ],
        success: {
          en:
            'A:1’s lock script went out with a `WAIT` behind it, and the master died before the `WAIT` could ' +
            'answer: A:1’s `lock()` never reported success on the old master. It retried on the new one, found ' +
            'B:1’s lock there and waited its turn. The client, not the master, was the one waiting, and a ' +
            'failed or slow `lock()` is better than two holders.',
          zh:
            'A:1 的加锁脚本后面跟着一个 `WAIT`，而主节点在 `WAIT` 返回之前就挂了：A:1 的 `lock()` 从未在旧主节点上报告成功。' +
            '它在新主节点上重试，发现 B:1 的锁，于是排队等待。在等的是客户端，不是主节点；失败或慢一点的 `lock()` 总比两个持有者好。',
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
          'held twice, protect the resource (fencing, lesson {lesson:pauses-fencing}) or use a consensus system.',
        zh:
          'replica-2 从来没有这把锁，B:1 拿到了它，A:1 和 B:1 又一次同时持有。`WAIT` 让写入更持久，却不能让 Redis 的复制变成一致的。' +
          '如果一把锁绝不能被同时持有两次，就要保护资源（防护令牌，第 {lesson:pauses-fencing} 课），或者使用基于共识的系统。',
      },
      checks: [atLeast(1, replica2Promoted), openV1('myLock', 'A:1', 'B:1')],
    },
  ],
};

export default lesson;
