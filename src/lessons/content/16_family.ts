import { actorOf, atLeast, choice, exactly, gap, none, threadHolds, tokenCounterIs2, why } from './common';
import { acquired, cmd, ev } from './events';
import type { Check, EventSelector, Lesson } from '../types';

const afterA: EventSelector = { kind: 'lock.acquired', after: ev('lock.released', 'A:1') };

const lesson: Lesson = {
  id: 'lock-family',
  title: {
    en: 'The rest of the family: fair, read/write, spin, fenced',
    zh: '锁家族的其他成员：公平锁、读写锁、自旋锁、防护锁',
  },
  minutes: 8,
  part: 3,
  objective: {
    en: 'Choose between the fair lock, the read-write lock, the spin lock and the fenced lock.',
    zh: '在公平锁、读写锁、自旋锁和防护锁之间做出选择。',
  },
  steps: [
    {
      claims: ['C40'],
      scenario: { builtin: 'fair-lock-fifo' },
      // Before A:1's unlock: the question is shown at this cursor, so the winner must not be on screen yet.
      at: ev('unlock.request', 'A:1'),
      question: {
        prompt: {
          en: 'B:1, C:1 and D:1 asked for the **fair** lock in that order while A:1 held it. Who gets it when A:1 unlocks?',
          zh: 'A:1 持有**公平锁**期间，B:1、C:1、D:1 依次来申请。A:1 解锁后谁拿到锁？',
        },
        choices: [
          choice('b', 'B:1', 'B:1, the first to ask', 'B:1，最先申请的'),
          choice(
            'd',
            'D:1',
            'D:1, the last to ask',
            'D:1，最后申请的',
            why(
              'A stack would serve the last one first, but a fair lock is a queue. The run shows B:1, the first to ask, getting the lock when A:1 unlocks.',
              '栈会先服务最后来的，但公平锁是队列。运行里 A:1 解锁后，最先申请的 B:1 拿到了锁。',
            ),
          ),
          choice(
            'race',
            'race',
            'Whoever is fastest',
            '谁快谁得',
            why(
              'That is what `RLock` does (lesson {lesson:unlock}). The fair lock’s script refuses anyone but the head of its queue: the run shows B:1 getting the lock, whoever’s retry arrives first.',
              '`RLock` 就是这样（第 {lesson:unlock} 课）。但公平锁的脚本只放行队首：运行里不管谁的重试先到，拿到锁的都是 B:1。',
            ),
          ),
        ],
        answer: actorOf(afterA),
        feedback: {
          en:
            '`RedissonFairLock` keeps a queue (`redisson_lock_queue:{fair}`) and a deadline per waiter; its script ' +
            'refuses anyone but the head of the queue, and unlock notifies only that waiter. First come, first served.',
          zh: '`RedissonFairLock` 维护一个队列（`redisson_lock_queue:{fair}`），每个等待者都有截止时间；加锁脚本只放行队首，解锁也只通知队首。先到先得。',
        },
      },
      text: {
        en:
          'Lesson {lesson:unlock} showed `RLock` promising no order. The fair lock keeps one: B:1, C:1 and D:1 wait in ' +
          '`redisson_lock_queue:{fair}` in the order they asked, and E:1, who only waited 500 ms, has already left ' +
          'the queue without disturbing it. Play on: A:1 unlocks, and B:1 takes the lock.',
        zh:
          '第 {lesson:unlock} 课说过 `RLock` 不保证顺序。公平锁保证：B:1、C:1、D:1 按申请顺序排在 `redisson_lock_queue:{fair}` 里；' +
          '只等了 500 毫秒的 E:1 已经离开队列，没有打乱顺序。继续播放：A:1 解锁，B:1 拿到锁。',
      },
      highlight: {
        lanes: ['A:1', 'B:1', 'C:1', 'D:1', 'E:1'],
        keys: ['redisson_lock_queue:{fair}', 'redisson_lock_timeout:{fair}'],
      },
      checks: [
        { thread: 'E:1', lastResult: false },
        threadHolds('A:1', 'fair', 1),
        ...['B:1', 'C:1', 'D:1'].map((thread): Check => ({ thread, state: 'waiting' })),
        { key: 'redisson_lock_queue:{fair}', is: 'list' },
        exactly(1, { kind: 'lock.acquired' }),
      ],
    },
    {
      claims: ['C40'],
      text: {
        en: 'The whole run: four holders, in arrival order.',
        zh: '整个运行：四个持有者，按到达顺序。',
      },
      checks: [
        // the first acquisition after A:1's release is B:1's
        gap(afterA, acquired('B:1'), { min: 0, max: 0 }),
        gap(acquired('B:1'), acquired('C:1'), { min: 1 }),
        gap(acquired('C:1'), acquired('D:1'), { min: 1 }),
        { noViolation: 'any' },
      ],
    },
    {
      claims: ['C40'],
      scenario: { builtin: 'rw-lock-readers-then-writer' },
      at: acquired('B:1'),
      text: {
        en:
          'A read/write lock (`getReadWriteLock`) lets readers share: A:1 and B:1 both hold the **read** lock ' +
          'at once. The hash `rw` records `mode` = `read` and one count per reader.',
        zh: '读写锁（`getReadWriteLock`）允许读者共享：A:1 和 B:1 同时持有**读**锁。哈希 `rw` 记录 `mode` = `read`，每个读者各有一个计数。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['rw'] },
      checks: [
        threadHolds('A:1', 'rw', 1),
        threadHolds('B:1', 'rw', 1),
        { key: 'rw', is: 'hash', fields: 3 },
        { noViolation: 'any' },
      ],
    },
    {
      claims: ['C40'],
      at: acquired('C:1'),
      text: {
        en: 'The writer C:1 waits until the last reader has left, then holds the lock alone.',
        zh: '写者 C:1 一直等到最后一个读者离开，才独自持有锁。',
      },
      checks: [
        threadHolds('A:1', 'rw', 0),
        threadHolds('B:1', 'rw', 0),
        gap(ev('lock.released', 'B:1'), acquired('C:1'), { min: 0 }),
      ],
    },
    {
      claims: ['C40'],
      scenario: { builtin: 'spin-lock-polling' },
      at: acquired('B:1'),
      text: {
        en:
          'A spin lock (`getSpinLock`) uses the same hash and script as `RLock` but no pub/sub at all: nobody ' +
          'subscribes, unlock publishes nothing, and waiters poll with a growing back-off. Useful when pub/sub ' +
          'is a burden (very many locks); the cost is repeated `EVALSHA`s and a lock that stays free until the ' +
          'next poll.',
        zh:
          '自旋锁（`getSpinLock`）和 `RLock` 用同样的哈希和脚本，但完全不用发布订阅：没人订阅，解锁也不发布，等待者以逐渐增大的间隔轮询。' +
          '适合发布订阅成为负担的场景（锁特别多）；代价是反复的 `EVALSHA`，以及锁在下一次轮询之前一直空着。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'] },
      checks: [
        none({ kind: 'pubsub.subscribe' }),
        none({ kind: 'pubsub.publish' }),
        atLeast(5, cmd('B:1', 'EVALSHA')),
      ],
    },
    {
      claims: ['C40', 'C39'],
      scenario: { builtin: 'fencing-saves-gc-pause' },
      at: acquired('B:1'),
      text: {
        en:
          'And the fenced lock (`getFencedLock`) of lesson {lesson:pauses-fencing}: every acquire increments a counter in the same ' +
          'script and hands back a token that only grows. A:1 got `1`, B:1 gets `2`.',
        zh: '还有第 {lesson:pauses-fencing} 课的防护锁（`getFencedLock`）：每次加锁都在同一个脚本里递增计数器，返回一个只增不减的令牌。A:1 拿到 `1`，B:1 拿到 `2`。',
      },
      checks: [
        exactly(1, ev('lock.acquired', 'A:1', { where: { token: 1 } })),
        exactly(1, ev('lock.acquired', 'B:1', { where: { token: 2 } })),
        tokenCounterIs2,
      ],
    },
  ],
};

export default lesson;
