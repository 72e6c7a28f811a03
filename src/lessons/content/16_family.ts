import { actorOf, atLeast, choice, exactly, gap, holds, none, threadHolds, tokenCounterIs2, why } from './common';
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
      teacher: {
        en: 'Ask the room to predict before playing; most pick “whoever is fastest” after lesson {lesson:unlock}. Point at the queue key and the timeout zset in the keyspace: the order is stored in Redis, not in the clients.',
        zh: '播放之前请大家预测；上完第 {lesson:unlock} 课，多数人会选“谁快谁得”。指给大家看键空间里的队列键和超时有序集合：顺序保存在 Redis 里，而不是客户端里。',
      },
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
      teacher: {
        en: 'Play to the end and read the holders in order with the room. Ask what fairness costs (more keys, more work per script, a slow waiter holds up the ones behind it).',
        zh: '播放到结尾，和大家一起按顺序念出持有者。问大家公平的代价是什么（更多的键、每个脚本更多的工作、一个慢吞吞的等待者会拖住后面的人）。',
      },
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
      teacher: {
        en: 'Ask why two readers may hold the lock together (reading does not change the data). Point at the hash `rw`: `mode` = `read` and one count per reader. People expect a read lock to be a different key; it is the same hash with a mode.',
        zh: '问大家为什么两个读者可以同时持有锁（读不会改变数据）。指给大家看哈希 `rw`：`mode` = `read`，每个读者一个计数。人们以为读锁是另一个键；其实是同一个哈希，多了一个模式字段。',
      },
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
      teacher: {
        en: 'Ask what would happen to the writer if readers kept arriving (it could wait a long time). Point at C:1 taking the lock only after the last reader left.',
        zh: '问大家：如果读者不断到来，写者会怎样（可能要等很久）。指给大家看 C:1 直到最后一个读者离开才拿到锁。',
      },
      at: acquired('C:1'),
      text: {
        en:
          'The writer C:1 (its lane marked) waits until the last reader has left, then holds the lock alone. ' +
          'In the keyspace the hash `rw` now says `mode` = `write`, beside C:1’s one field.',
        zh: '写者 C:1（它的泳道已标出）一直等到最后一个读者离开，才独自持有锁。键空间里的哈希 `rw` 现在是 `mode` = `write`，旁边只有 C:1 的一个字段。',
      },
      highlight: { lanes: ['C:1'], keys: ['rw'] },
      checks: [
        threadHolds('A:1', 'rw', 0),
        threadHolds('B:1', 'rw', 0),
        threadHolds('C:1', 'rw', 1),
        holds('rw', 'C:1', 1, { is: 'hash', fields: 2 }),
        gap(ev('lock.released', 'B:1'), acquired('C:1'), { min: 0 }),
      ],
    },
    {
      claims: ['C40'],
      teacher: {
        en: 'Ask what is missing from the lanes compared with lesson {lesson:waiting} (no subscribe, no message). Point at the growing gaps between polls. When would you pick this lock: very many locks, where pub/sub channels become the cost.',
        zh: '问大家和第 {lesson:waiting} 课相比，泳道上少了什么（没有订阅，没有消息）。指给大家看轮询之间越来越大的间隔。什么时候会选这种锁：锁非常多、发布订阅频道本身成了负担的时候。',
      },
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
      teacher: {
        en: 'A recap of lesson {lesson:pauses-fencing}: ask who checks the token (the store). Then point out that the token counter lives in the same script as the lock, so it costs no extra round trip.',
        zh: '复习第 {lesson:pauses-fencing} 课：问大家谁检查防护令牌（存储）。再指出令牌计数和锁在同一个脚本里，所以不多花一次往返。',
      },
      scenario: { builtin: 'fencing-saves-gc-pause' },
      at: acquired('B:1'),
      text: {
        en:
          'And the fenced lock (`getFencedLock`) of lesson {lesson:pauses-fencing}: every acquire increments a counter in the same ' +
          'script and hands back a token that only grows. A:1 got `1`, B:1 gets `2`.',
        zh: '还有第 {lesson:pauses-fencing} 课的防护锁（`getFencedLock`）：每次加锁都在同一个脚本里递增计数器，返回一个只增不减的防护令牌。A:1 拿到 `1`，B:1 拿到 `2`。',
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
