import {
  absent,
  choice,
  exactly,
  fieldOf,
  holds,
  none,
  replyOf,
  scriptLines,
  threadHolds,
  whether,
  why,
} from './common';
import { acquired, cmd, ev, secondAcquire } from './events';
import type { Lesson } from '../types';

/** the unlock script's last EVALSHA between the two releases (an earlier one may be answered NOSCRIPT) */
const firstUnlock = cmd('A:1', 'EVALSHA', {
  key: 'myLock',
  after: ev('unlock.request', 'A:1'),
  before: ev('unlock.request', 'A:1', { nth: 2 }),
  nth: -1,
});
const secondUnlock = cmd('A:1', 'EVALSHA', { key: 'myLock', after: ev('unlock.request', 'A:1', { nth: 2 }) });

/** A:1's op at program `step` answered `result`, once. */
const answered = (step: number, result: unknown) =>
  exactly(1, ev('thread.result', 'A:1', { where: { step, result } }));

/** `getHoldCount()` on myLock: a read-only op, it records the count as A:1's result */
const holdCount = { op: 'getHoldCount', lock: 'myLock' };

const lesson: Lesson = {
  id: 'reentrancy',
  title: { en: 'Reentrancy: the hold count', zh: '可重入：重入计数' },
  minutes: 6,
  part: 2,
  objective: {
    en: 'Explain the hold count: why a second `lock()` by the owner does not wait, and why every `lock()` needs its `unlock()`.',
    zh: '解释持有次数：为什么持有者第二次 `lock()` 不用等待，为什么每个 `lock()` 都要有对应的 `unlock()`。',
  },
  steps: [
    {
      claims: ['C15'],
      scenario: { builtin: 'reentrant' },
      at: acquired('A:1'),
      text: {
        en:
          'The tutorials list “不可重入” (not reentrant) among the problems of the hand-made lock: a method that holds ' +
          'the lock and calls another method that locks it again would wait for itself forever. A:1 takes ' +
          '`myLock` and, half a second later, takes it again.',
        zh:
          '教程把“不可重入”列为手写锁的问题之一：一个持有锁的方法调用另一个也要加这把锁的方法，就会永远等自己。' +
          'A:1 拿到 `myLock`，半秒后再拿一次。',
      },
      highlight: { lanes: ['A:1'], keys: ['myLock'] },
      checks: [holds('myLock', 'A:1', 1, { pttl: { min: 29_990 } })],
    },
    {
      claims: ['C15'],
      at: secondAcquire,
      question: {
        prompt: {
          en: 'A:1 calls `lock()` on the lock it already holds. What is its field in `myLock` afterwards?',
          zh: 'A:1 对自己已经持有的锁再次调用 `lock()`。之后它在 `myLock` 里的字段值是多少？',
        },
        choices: [
          choice('two', true, '`2`: it re-entered', '`2`：它重入了'),
          choice(
            'waits',
            false,
            'Still `1`: it waits for itself',
            '还是 `1`：它在等自己',
            why(
              'That is what a plain `SET NX` lock would do: the key exists, so even its owner would wait forever. Redisson’s lock checks whose field it is: the run shows A:1’s field going to `2` at once.',
              '普通的 `SET NX` 锁就会这样：键存在，连持有者自己也得永远等下去。Redisson 的锁会看字段是谁的：运行里 A:1 的字段立刻变成了 `2`。',
            ),
          ),
        ],
        answer: whether(holds('myLock', 'A:1', 2)),
        feedback: {
          en:
            'Line 2 of the lock script is the second half of its condition: `hexists myLock <uuid>:1 == 1`. The owner’s own field ' +
            'exists, so the script takes the same branch as a fresh lock: `HINCRBY` by 1 and a new `PEXPIRE`.',
          zh: '加锁脚本第 2 行是条件的后半句：`hexists myLock <uuid>:1 == 1`。持有者自己的字段存在，所以脚本走和新加锁一样的分支：`HINCRBY` 加 1，再 `PEXPIRE` 一次。',
        },
      },
      text: {
        en:
          'The second `EVALSHA` returns `nil` again: acquired. The count is now `2`, and the lease starts over ' +
          'at 30 s (it had run down by half a second). This is what `ReentrantLock` does in one JVM, kept in Redis.',
        zh:
          '第二次 `EVALSHA` 又返回 `nil`：加锁成功。计数变成 `2`，租期重新从 30 秒开始（之前已经走了半秒）。' +
          '这就是单个 JVM 里 `ReentrantLock` 的行为，只不过记录在 Redis 里。',
      },
      highlight: { script: scriptLines('lock', 1, 5) },
      checks: [{ reply: null }, holds('myLock', 'A:1', 2, { fields: 1, pttl: { min: 29_990 } })],
    },
    {
      claims: ['C16'],
      // Up to A:1's first unlock request: the next step's question is shown at this cursor, which
      // is about that unlock; B:1's refused EVALSHA is still the script view's last run here.
      at: ev('unlock.request', 'A:1'),
      text: {
        en:
          'B:1 calls `tryLock()` (no wait time) meanwhile. Its field does not exist and the key does: line 7 ' +
          'returns the remaining TTL, and `tryLock()` returns `false` at once. ' +
          'Half a second later A:1, done with its work, is about to call `unlock()`.',
        zh: '同时 B:1 调用了 `tryLock()`（不等待）。它的字段不存在而键存在：第 7 行返回剩余 TTL，`tryLock()` 立即返回 `false`。半秒后，A:1 做完了工作，正要调用 `unlock()`。',
      },
      checks: [
        { thread: 'B:1', lastResult: false },
        exactly(1, ev('lock.failed', 'B:1')),
        holds('myLock', 'A:1', 2),
      ],
    },
    {
      claims: ['C20'],
      at: firstUnlock,
      question: {
        prompt: {
          en: 'A:1 calls `unlock()` once. What does the unlock script return?',
          zh: 'A:1 调用一次 `unlock()`。解锁脚本返回什么？',
        },
        choices: [
          choice('zero', 0, '`0`: still held', '`0`：仍然持有'),
          choice(
            'one',
            1,
            '`1`: released',
            '`1`：已释放',
            why(
              'One `unlock()` for one `lock()` sounds like a release. But A:1 called `lock()` twice: the run shows the field going from `2` to `1` and the script returning `0`; the key stays.',
              '一次 `unlock()` 对应一次 `lock()`，听起来像是释放了。但 A:1 调用了两次 `lock()`：运行里字段从 `2` 变成 `1`，脚本返回 `0`，键还在。',
            ),
          ),
          choice(
            'nil',
            null,
            '`nil`: not the owner',
            '`nil`：不是持有者',
            why(
              '`nil` is what a thread that does **not** hold the lock gets (lesson {lesson:unlock}). A:1 is the owner: the run shows its field found and decremented, reply `0`.',
              '`nil` 是**没有**持有锁的线程才会得到的（第 {lesson:unlock} 课）。A:1 就是持有者：运行里它的字段被找到并减一，返回 `0`。',
            ),
          ),
        ],
        answer: replyOf(firstUnlock),
        feedback: {
          en:
            'The unlock script decrements: `HINCRBY myLock <uuid>:1 -1` gives `1`, which is above 0, so it only ' +
            'renews the lease (`PEXPIRE`) and returns `0`. The lock must stay until every `lock()` has its `unlock()`.',
          zh: '解锁脚本做的是减一：`HINCRBY myLock <uuid>:1 -1` 得到 `1`，大于 0，所以它只续一下租期（`PEXPIRE`）并返回 `0`。每个 `lock()` 都要有对应的 `unlock()`，锁才会真正释放。',
        },
      },
      text: {
        en: 'After the first `unlock()` the key is still there, the field is back to `1`, and nothing is published.',
        zh: '第一次 `unlock()` 之后键还在，字段回到 `1`，也没有发布任何消息。',
      },
      highlight: { script: scriptLines('unlock', 9, 13) },
      checks: [
        { reply: 0 },
        holds('myLock', 'A:1', 1, { pttl: { min: 29_990 } }),
        none({ kind: 'pubsub.publish' }),
        // The script has run on the node; A:1's unlock() returns (and its own count drops) one
        // latency later, when the reply arrives.
        threadHolds('A:1', 'myLock', 2),
      ],
    },
    {
      claims: ['C20', 'C21'],
      at: secondUnlock,
      text: {
        en:
          'The second `unlock()` brings the count to `0`: now the script `DEL`s the key and publishes the unlock ' +
          'message, and returns `1`. Lesson {lesson:unlock} follows that message. The short-lived ' +
          '`redisson_unlock_latch:{myLock}:…` key that appears instead is the unlock script’s receipt (3.24+, ' +
          'lesson {lesson:unlock}), and the Threads table still shows A:1’s hold until the reply reaches it, one event later.',
        zh:
          '第二次 `unlock()` 把计数减到 `0`：这时脚本才 `DEL` 掉键、发布解锁消息，并返回 `1`。第 {lesson:unlock} 课会跟着这条消息走。' +
          '随之出现的短命键 `redisson_unlock_latch:{myLock}:…` 是解锁脚本留下的回执（3.24+，第 {lesson:unlock} 课），' +
          '而线程表要等回复到达 A:1（下一个事件）才不再显示它的持有。',
      },
      highlight: { script: scriptLines('unlock', 21, 24) },
      checks: [{ reply: 1 }, absent('myLock'), exactly(1, { kind: 'pubsub.publish' })],
    },
    {
      claims: ['C15', 'C20'],
      scenario: {
        builtin: 'reentrant',
        patch: [
          { op: 'add', path: '/titleZh', value: '可重入加锁，并询问持有次数' },
          { op: 'add', path: '/title', value: 'Reentrant locking, asking the hold count' },
          { op: 'add', path: '/clients/0/threads/0/program/3', value: holdCount },
          { op: 'add', path: '/clients/0/threads/0/program/6', value: holdCount },
          { op: 'add', path: '/clients/0/threads/0/program/-', value: holdCount },
          {
            op: 'add',
            path: '/clients/0/threads/0/program/-',
            value: { op: 'isHeldByThread', lock: 'myLock' },
          },
        ],
      },
      at: ev('thread.result', 'A:1', { nth: -1 }),
      question: {
        // before the first getHoldCount() answers
        decides: { kind: 'thread.result', actor: 'A:1', nth: 1 },
        prompt: {
          en: 'A:1 asks `getHoldCount()` after the second `lock()` and again after the first `unlock()`. What is the second answer?',
          zh: 'A:1 在第二次 `lock()` 之后问一次 `getHoldCount()`，第一次 `unlock()` 之后再问一次。第二次的答案是多少？',
        },
        choices: [
          choice(
            'two',
            2,
            '`2`: both holds remain',
            '`2`：两次都还算数',
            why(
              'The first answer was `2`, and nothing seems to have released the lock. But `unlock()` decrements the hold count even when the key stays: the run shows the second `getHoldCount()` answering `1`.',
              '第一次答的是 `2`，而锁看起来也没被释放。但即使键还在，`unlock()` 也会把持有次数减一：运行里第二次 `getHoldCount()` 答的是 `1`。',
            ),
          ),
          choice('one', 1, '`1`: one hold left', '`1`：还剩一次'),
          choice(
            'zero',
            0,
            '`0`: one `unlock()` frees it',
            '`0`：一次 `unlock()` 就释放了',
            why(
              'With a plain lock one `unlock()` would free it. A reentrant lock counts: the run shows the field at `1` after the first `unlock()`, and the key still there.',
              '普通锁一次 `unlock()` 就释放了。可重入锁是计数的：运行里第一次 `unlock()` 之后字段是 `1`，键还在。',
            ),
          ),
        ],
        answer: fieldOf(ev('thread.result', 'A:1', { nth: 2 }), 'result'),
        feedback: {
          en:
            'The first `unlock()` only decremented the field (step 4), so `HGET` reads `1`: one `lock()` is still ' +
            'waiting for its `unlock()`.',
          zh: '第一次 `unlock()` 只是把字段减一（第 4 步），所以 `HGET` 读到 `1`：还有一个 `lock()` 在等它的 `unlock()`。',
        },
      },
      text: {
        en:
          'Ask the lock itself: `getHoldCount()` reads the same hash field (`HGET myLock <uuid>:1`) and answers ' +
          '`2` after the second `lock()`, `1` after the first `unlock()`, `0` at the end (the field is gone: `nil`). ' +
          '`isHeldByCurrentThread()` asks `HEXISTS` for the field and, at the end, answers `false`.',
        zh:
          '直接问锁：`getHoldCount()` 读的就是同一个哈希字段（`HGET myLock <uuid>:1`），第二次 `lock()` 之后答 `2`，' +
          '第一次 `unlock()` 之后答 `1`，最后答 `0`（字段已经没了：`nil`）。`isHeldByCurrentThread()` 用 `HEXISTS` ' +
          '问这个字段是否存在，最后答 `false`。',
      },
      highlight: { lanes: ['A:1'], keys: ['myLock'] },
      checks: [
        answered(3, 2),
        answered(6, 1),
        answered(9, 0),
        { reply: '2', of: cmd('A:1', 'HGET', { key: 'myLock' }) },
        { reply: null, of: cmd('A:1', 'HGET', { key: 'myLock', nth: -1 }) },
        { reply: 0, of: cmd('A:1', 'HEXISTS', { key: 'myLock' }) },
        threadHolds('A:1', 'myLock', 0, { lastResult: false }),
        absent('myLock'),
      ],
    },
  ],
};

export default lesson;
