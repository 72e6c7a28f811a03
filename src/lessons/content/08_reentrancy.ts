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
import { acquired, cmd, ev, LATCH, secondAcquire } from './events';
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
  title: { en: 'Reentrancy: the hold count', zh: '可重入：持有次数' },
  minutes: 6,
  part: 2,
  objective: {
    en: 'Explain the hold count: why a second `lock()` by the owner does not wait, and why every `lock()` needs its `unlock()`.',
    zh: '解释持有次数：为什么持有者第二次 `lock()` 不用等待，为什么每个 `lock()` 都要有对应的 `unlock()`。',
  },
  steps: [
    {
      claims: ['C15'],
      teacher: {
        en: 'Ask for a real example of re-entry: a `@Transactional` service method calling another method that locks the same order. Many think re-entry is rare; it is everywhere once locks sit in shared helpers.',
        zh: '请大家举一个真实的重入例子：一个服务方法调用另一个给同一订单加锁的方法。很多人觉得重入很少见；一旦锁放进了公共的工具方法里，它就随处可见。',
      },
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
      teacher: {
        en: 'Hands up: 2 or “still 1, it waits”? Those who pick waiting remember lesson {lesson:lock-script}’s broken script. Point at the field going to `2` in the keyspace and at `PTTL` back at 30 s; ask why the lease restarts (the script runs `pexpire` on every acquire).',
        zh: '举手：2，还是“仍然是 1，它在等”？选等待的人记得的是第 {lesson:lock-script} 课那个被弄坏的脚本。指给大家看键空间里字段变成 `2`，`PTTL` 回到 30 秒；问为什么租期会重新开始（脚本每次加锁都执行 `pexpire`）。',
      },
      tutorials: {
        en: 'The tutorials’ script gives re-entry its own second `if` block (`hexists == 1` → `hincrby`, `pexpire`, `return nil`); since 3.19 it is the second half of the one condition (line 2). The branch does the same thing.',
        zh: '教程里的脚本把重入写成单独的第二个 `if` 块（`hexists == 1` → `hincrby`、`pexpire`、`return nil`）；从 3.19 起它成了同一个条件的后半句（第 2 行）。这个分支做的事没有变。',
      },
      tutorialsReleases: ['3.12.3'],
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
          'at 30 s (it had run down by half a second). This is what `ReentrantLock` does in one JVM, kept in Redis. ' +
          'Type `HGETALL myLock` in the console: the one field now holds `"2"`.',
        zh:
          '第二次 `EVALSHA` 又返回 `nil`：加锁成功。计数变成 `2`，租期重新从 30 秒开始（之前已经走了半秒）。' +
          '这就是单个 JVM 里 `ReentrantLock` 的行为，只不过记录在 Redis 里。' +
          '在命令行输入 `HGETALL myLock`：那一个字段的值现在是 `"2"`。',
      },
      highlight: { script: scriptLines('lock', 1, 5) },
      checks: [{ reply: null }, holds('myLock', 'A:1', 2, { fields: 1, pttl: { min: 29_990 } })],
    },
    {
      claims: ['C16'],
      teacher: {
        en: 'Ask what `tryLock()` without a wait time does on a busy lock: it returns `false` at once, with no subscription. Some confuse it with `lock()`. Point at B:1’s single `EVALSHA` and its TTL reply.',
        zh: '问大家：不带等待时间的 `tryLock()` 遇到被占用的锁会怎样：立刻返回 `false`，也不订阅。有人会把它和 `lock()` 混淆。指给大家看 B:1 唯一的一次 `EVALSHA` 和它返回的 TTL。',
      },
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
      teacher: {
        en: 'The wrong answer is usually `1` (“released”): people expect one `unlock()` to free the lock. Ask how many times A:1 locked it. Point at the field going back to `1` and at the absence of a `PUBLISH`: nobody is woken.',
        zh: '常见的错误答案是 `1`（“已释放”）：人们以为一次 `unlock()` 就能放掉锁。问大家 A:1 加了几次锁。指给大家看字段回到 `1`，而且没有 `PUBLISH`：没有人被唤醒。',
      },
      tutorials: {
        en: 'Before 3.24 the unlock script has no latch key (`KEYS[3]`): it decrements, `pexpire`s and returns `0` just the same, but does not remember its answer for an unlock re-sent after a timeout.',
        zh: '3.24 之前的解锁脚本没有 latch 键（`KEYS[3]`）：它照样减一、`pexpire`、返回 `0`，只是不会为超时后重发的解锁记住自己的答复。',
      },
      tutorialsReleases: ['3.12.3'],
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
        en:
          'After the first `unlock()` the key is still there, the field is back to `1`, and nothing is published. ' +
          'The other key now in the keyspace, `redisson_unlock_latch:{myLock}:…`, is the unlock’s receipt (next step).',
        zh: '第一次 `unlock()` 之后键还在，字段回到 `1`，也没有发布任何消息。键空间里新出现的另一个键 `redisson_unlock_latch:{myLock}:…` 是这次解锁的回执（下一步细说）。',
      },
      highlight: { keys: ['myLock', LATCH], script: scriptLines('unlock', 9, 13) },
      checks: [
        { reply: 0 },
        { key: LATCH, is: 'string' },
        holds('myLock', 'A:1', 1, { pttl: { min: 29_990 } }),
        none({ kind: 'pubsub.publish' }),
        // The script has run on the node; A:1's unlock() returns (and its own count drops) one
        // latency later, when the reply arrives.
        threadHolds('A:1', 'myLock', 2),
      ],
    },
    {
      claims: ['C20', 'C21'],
      teacher: {
        en: 'Expect the question “what is `redisson_unlock_latch`?” (the keyspace marks it): it is the 3.24+ receipt, explained in lesson {lesson:unlock}; say so and move on. Point at the Threads table: `myLock ×1 → 0`, because the reply has not reached the client yet; step forward twice (→): A:1 cancels its watchdog, then its hold ends.',
        zh: '估计会有人问“`redisson_unlock_latch` 是什么？”（键空间里标出了它）：它是 3.24 起的回执，第 {lesson:unlock} 课会讲；说一句就继续。指给大家看线程表：`myLock ×1 → 0`，因为回复还没到达客户端；往前走两步（→）：A:1 先取消看门狗，然后持有才结束。',
      },
      at: secondUnlock,
      text: {
        en:
          'The second `unlock()` brings the count to `0`: now the script `DEL`s the key and publishes the unlock ' +
          'message, and returns `1`. Lesson {lesson:unlock} follows that message. In the keyspace `myLock` ' +
          'is gone; the short-lived key marked there, `redisson_unlock_latch:{myLock}:…`, is the unlock script’s ' +
          'receipt (3.24+, lesson {lesson:unlock}). The Threads table (in presenter mode behind **Panels**) reads ' +
          '`myLock ×1 → 0`: Redis counts no hold any more, but the reply reaches A:1 1 ms later, when A:1 ' +
          'cancels its watchdog and lets go (`lock.released`).',
        zh:
          '第二次 `unlock()` 把计数减到 `0`：这时脚本才 `DEL` 掉键、发布解锁消息，并返回 `1`。第 {lesson:unlock} 课会跟着这条消息走。' +
          '键空间里 `myLock` 已经没了；那里标出的短命键 `redisson_unlock_latch:{myLock}:…` 是解锁脚本留下的回执（3.24+，第 {lesson:unlock} 课）。' +
          '线程表（演示模式下点**面板**）显示 `myLock ×1 → 0`：Redis 已经不再记着这次持有，但回复 1 毫秒后才到达 A:1，' +
          '那时 A:1 取消看门狗并放手（`lock.released`）。',
      },
      highlight: { keys: [LATCH], script: scriptLines('unlock', 21, 24) },
      checks: [
        { reply: 1 },
        absent('myLock'),
        // the latch the text points at, in the keyspace at this moment (gone 2 ms later)
        { key: LATCH, is: 'string' },
        exactly(1, { kind: 'pubsub.publish' }),
        // what the Threads table shows (LA21): A:1 still holds until its reply arrives, 1 ms on
        threadHolds('A:1', 'myLock', 1),
        exactly(1, ev('lock.released', 'A:1')), // the first unlock()'s, not yet this one's
        {
          gap: { from: secondUnlock, to: ev('lock.released', 'A:1', { after: secondUnlock }) },
          min: 1,
          max: 1,
        },
      ],
    },
    {
      claims: ['C15', 'C20'],
      teacher: {
        en: 'Ask the room to say the three answers in order (2, 1, 0) before revealing. People often think `getHoldCount()` is kept in the JVM; it reads the hash field in Redis, one round trip each time.',
        zh: '揭晓之前，请大家按顺序说出三个答案（2、1、0）。人们常以为 `getHoldCount()` 保存在 JVM 里；其实它读的是 Redis 里的哈希字段，每次都要一次往返。',
      },
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
