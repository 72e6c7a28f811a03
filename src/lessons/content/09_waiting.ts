import {
  atLeast,
  choice,
  count,
  dodge,
  firstOpPaths,
  msControl,
  exactly,
  gap,
  holds,
  none,
  onFirstOps,
  threadHolds,
  timeOf,
  turnedAway,
  whether,
  yourTurn,
  why,
} from './common';
import { acquired, bLockScript, cmd, ev } from './events';
import type { Lesson } from '../types';

const bFailed = ev('lock.failed', 'B:1');

/** B:1 still asks with `tryLock` (a wait time), not `lock()`. */
const bUsesTryLock = atLeast(1, ev('lock.request', 'B:1', { where: { op: 'tryLock' } }));
/** A:1 still holds the lock for its 5 s of work. */
const aHolds5s = gap(acquired('A:1'), ev('unlock.request', 'A:1'), { min: 5000 });

const lesson: Lesson = {
  id: 'waiting',
  title: { en: 'Mutual exclusion, and waiting without spinning', zh: '互斥，以及不自旋的等待' },
  minutes: 8,
  part: 2,
  objective: {
    en: 'Describe how a waiter waits without polling (subscribe, semaphore, TTL) and how `tryLock` gives up on time.',
    zh: '描述等待者如何不靠轮询来等待（订阅、信号量、TTL），以及 `tryLock` 如何按时放弃。',
  },
  steps: [
    {
      claims: ['C16'],
      scenario: { builtin: 'contention-wakeup' },
      at: bLockScript,
      question: {
        prompt: {
          en: 'A:1 holds `myLock`. B:1 calls `lock()` and runs the same script. What comes back?',
          zh: 'A:1 持有 `myLock`。B:1 调用 `lock()`，执行同一个脚本。返回的是什么？',
        },
        choices: [
          choice(
            'nil',
            true,
            '`nil`: B:1 gets the lock too',
            '`nil`：B:1 也拿到了锁',
            why(
              'It is the same script that just gave A:1 the lock, so the same reply seems likely. But the script checks whose field is in the key: B:1’s is not, so the run shows a number, A:1’s remaining TTL.',
              '这正是刚刚让 A:1 拿到锁的同一个脚本，所以很容易以为回复也一样。但脚本会检查键里是谁的字段：不是 B:1 的，所以运行里返回的是一个数字，即 A:1 剩余的 TTL。',
            ),
          ),
          choice('ttl', false, 'A number: how long A:1’s lock still lives', '一个数字：A:1 的锁还能活多久'),
        ],
        answer: whether({ reply: null, of: bLockScript }),
        feedback: {
          en:
            'The key exists and B:1’s field is not in it, so the condition of lines 1–2 is false and line 7 returns `PTTL myLock`: ' +
            'about 29.8 s. A number means “not yours, and here is how long it may take”.',
          zh: '键存在，而 B:1 的字段不在里面，第 1–2 行的条件不成立，第 7 行返回 `PTTL myLock`：大约 29.8 秒。返回数字就表示“不是你的，还要等这么久”。',
        },
      },
      text: {
        en:
          'This is **mutual exclusion** in Redisson: while A:1’s field is in the hash, every other caller ' +
          'gets the remaining TTL and does not hold the lock.',
        zh: '这就是 Redisson 里的**互斥**：只要 A:1 的字段还在哈希里，其他所有调用者拿到的都是剩余 TTL，谁也不持有锁。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'], script: { script: 'lock', lines: [7] } },
      checks: [...turnedAway('B:1'), holds('myLock', 'A:1', 1)],
    },
    {
      claims: ['C17', 'C18'],
      at: ev('lock.wait', 'B:1'),
      text: {
        en:
          'What now? Polling in a loop (like B:1 did with `SETNX` in lesson {lesson:setnx}) wastes round trips and hammers ' +
          'Redis. Redisson instead `SUBSCRIBE`s to `redisson_lock__channel:{myLock}`, **tries once more** (the ' +
          'lock may have been freed while it subscribed), and then blocks on a semaphore for at most the TTL ' +
          'it was given (in Redisson’s source: `getLatch().tryAcquire(ttl)`).',
        zh:
          '接下来怎么办？像第 {lesson:setnx} 课里 B:1 用 `SETNX` 那样循环轮询，既浪费往返，又给 Redis 施压。Redisson 的做法是先 `SUBSCRIBE` ' +
          '`redisson_lock__channel:{myLock}`，**再试一次**（订阅期间锁可能已经释放了），然后在信号量上阻塞，最多等拿到的那个 TTL' +
          '（Redisson 源码：`getLatch().tryAcquire(ttl)`）。',
      },
      checks: [
        exactly(1, ev('pubsub.subscribe', 'B:1', { where: { channel: 'redisson_lock__channel:{myLock}' } })),
        exactly(2, cmd('B:1', 'EVALSHA')),
        { thread: 'B:1', state: 'waiting' },
      ],
    },
    {
      claims: ['C17'],
      at: ev('waiter.wakeup', 'B:1'),
      text: {
        en:
          'For 1.8 s B:1 sends nothing at all: no spinning, no load on Redis. It wakes when something arrives on ' +
          'the channel (next lesson), or when the TTL it waited for runs out.',
        zh: '整整 1.8 秒，B:1 一条命令都没发：不自旋，也不给 Redis 增加负担。频道上来了消息（下一课），或者等的 TTL 到了，它才醒来。',
      },
      checks: [
        count(ev('cmd', 'B:1'), { max: 3 }),
        gap(ev('lock.wait', 'B:1'), ev('waiter.wakeup', 'B:1'), { min: 1500 }),
      ],
    },
    {
      claims: ['C18'],
      scenario: { builtin: 'watchdog-renewal' },
      at: ev('lock.wait', 'B:1', { nth: 2 }),
      text: {
        en:
          'If no message comes, the wait simply ends with the TTL. Here A:1’s lock is kept alive by its watchdog ' +
          '(lesson {lesson:watchdog}), so when B:1’s 29 s wait times out it tries again, gets a new TTL and waits again: try, ' +
          'wait(ttl), try… the `while (true)` loop of `RedissonLock.lock()`.',
        zh:
          '如果一直没有消息，等待就在 TTL 到期时结束。这里 A:1 的锁由看门狗续着（第 {lesson:watchdog} 课），所以 B:1 等了 29 秒超时后再试一次，' +
          '拿到新的 TTL，接着等：尝试、等待(ttl)、再尝试……正是 `RedissonLock.lock()` 里的 `while (true)` 循环。',
      },
      checks: [
        exactly(1, ev('waiter.wakeup', 'B:1', { where: { cause: 'timeout' } })),
        exactly(3, cmd('B:1', 'EVALSHA')),
        gap(ev('lock.wait', 'B:1'), ev('lock.wait', 'B:1', { nth: 2 }), { min: 28_000 }),
      ],
    },
    {
      claims: ['C23'],
      scenario: { builtin: 'trylock-timeout' },
      at: bFailed,
      question: {
        prompt: {
          en: 'A:1 holds the lock for 5 s. B:1 calls `tryLock(1, SECONDS)`. When does that call return?',
          zh: 'A:1 持有锁 5 秒。B:1 调用 `tryLock(1, SECONDS)`。这个调用什么时候返回？',
        },
        choices: [
          choice('one', [1000, 1300], 'After ≈ 1 s, with `false`', '约 1 秒后，返回 `false`'),
          choice(
            'five',
            [5000, 5300],
            'After ≈ 5 s, with `true`',
            '约 5 秒后，返回 `true`',
            why(
              'A:1 does release at 5 s, and `lock()` would wait for that. `tryLock(1, SECONDS)` waits at most 1 s: the run shows B:1’s call returning `false` at ≈ 1.1 s, long before A:1 unlocks.',
              'A:1 确实在第 5 秒释放，`lock()` 会一直等到那时。但 `tryLock(1, SECONDS)` 最多等 1 秒：运行里 B:1 的调用在约 1.1 秒时返回 `false`，远早于 A:1 解锁。',
            ),
          ),
          choice(
            'thirty',
            [29_000, 31_000],
            'After the 30 s TTL',
            '等满 30 秒的 TTL 之后',
            why(
              'The lock script did reply with a TTL, and a waiter sleeps on it. But it sleeps for the smaller of the TTL and its own wait time: the run shows B:1 giving up after ≈ 1 s.',
              '加锁脚本确实返回了一个 TTL，等待者会按它休眠。但它只睡 TTL 和自己等待时间中较小的那个：运行里 B:1 约 1 秒后就放弃了。',
            ),
          ),
        ],
        answer: timeOf(bFailed),
        feedback: {
          en:
            '`tryLock` with a wait time waits on the same semaphore, but for the smaller of the TTL and the time ' +
            'it has left. After 1 s it gives up and returns `false`; the caller decides what to do instead.',
          zh: '带等待时间的 `tryLock` 在同一个信号量上等，但只等 TTL 和剩余等待时间中较小的那个。1 秒后它放弃，返回 `false`，由调用者决定接下来怎么办。',
        },
      },
      text: {
        en: '`tryLock(waitTime)` is the polite version of `lock()`: it waits, but not forever.',
        zh: '`tryLock(waitTime)` 是 `lock()` 的克制版本：会等，但不会一直等。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'B:2'] },
      checks: [
        threadHolds('B:1', 'myLock', 0, { lastResult: false }),
        gap(ev('lock.request', 'B:1'), bFailed, { min: 1000, max: 1010 }),
      ],
      task: {
        prompt: yourTurn(
          'let B:1 wait long enough to get the lock (its `waitMs`).',
          '让 B:1 等得足够久，直到拿到锁（改它的 `waitMs`）。',
        ),
        controls: [
          msControl('B:1’s wait (`waitMs`)', 'B:1 的等待时间（`waitMs`）', firstOpPaths('waitMs', [1])),
        ],
        goalText: {
          en: 'B:1’s `tryLock` (still a `tryLock`) returns `true`, while A:1 still holds the lock for its 5 s.',
          zh: 'B:1 的 `tryLock`（仍然是 `tryLock`）返回 `true`，而 A:1 仍然持有锁整整 5 秒。',
        },
        goal: { all: [atLeast(1, acquired('B:1')), bUsesTryLock, aHolds5s] },
        solution: onFirstOps('replace', 'waitMs', 8000, [1]),
        dodges: [
          dodge(
            { all: [atLeast(1, acquired('B:1')), { not: bUsesTryLock }] },
            'That works, but B:1 no longer calls `tryLock`: `lock()` waits as long as it takes, which is ' +
              'exactly what a caller with a deadline cannot afford. Keep `tryLock` and give it enough time.',
            '这样确实行，但 B:1 不再调用 `tryLock` 了：`lock()` 会一直等下去，而这正是有截止时间的调用者承受不起的。请保留 `tryLock`，给它足够的时间。',
            [
              {
                op: 'replace',
                path: '/clients/1/threads/0/program/0',
                value: { op: 'lock', lock: 'myLock' },
              },
            ],
          ),
          dodge(
            { all: [atLeast(1, acquired('B:1')), { not: aHolds5s }] },
            'That works, but only because A:1 now lets go sooner. You do not decide how long the holder ' +
              'works; decide how long B:1 is willing to wait.',
            '这样确实行，但只是因为 A:1 现在更早放手了。持有者干多久不由你决定；你能决定的是 B:1 愿意等多久。',
            [{ op: 'replace', path: '/clients/0/threads/0/program/1/ms', value: 500 }],
          ),
        ],
        success: {
          en:
            'B:1’s `tryLock` waited instead of giving up after 1 s, was woken by A:1’s unlock at ≈ 5 s and ' +
            'returned `true`.',
          zh: 'B:1 的 `tryLock` 没有在 1 秒后放弃，而是继续等待，在约 5 秒时被 A:1 的解锁唤醒，返回 `true`。',
        },
      },
    },
    {
      claims: ['C23', 'C22'],
      at: acquired('B:2'),
      text: {
        en: 'B:2 asked for up to 8 s. A:1 unlocks at ≈ 5 s, and B:2 has the lock a few milliseconds later.',
        zh: 'B:2 最多等 8 秒。A:1 在约 5 秒时解锁，几毫秒后 B:2 就拿到了锁。',
      },
      checks: [
        threadHolds('B:2', 'myLock', 1),
        gap(ev('lock.released', 'A:1'), acquired('B:2'), { max: 20 }),
      ],
    },
    {
      claims: ['C23'],
      text: {
        en:
          'In Java the `false` matters: `if (lock.tryLock(1, SECONDS)) { try { … } finally { lock.unlock(); } }`. ' +
          'B:1’s program goes on with `work` and `unlock` after its `tryLock`, and neither runs: with the guarded ' +
          'section skipped, B:1 never touches what it did not lock, and never calls an `unlock()` that would throw ' +
          '`IllegalMonitorStateException`. Its thread ends normally right after the `false`.',
        zh:
          '在 Java 里，这个 `false` 很要紧：`if (lock.tryLock(1, SECONDS)) { try { … } finally { lock.unlock(); } }`。' +
          'B:1 的程序在 `tryLock` 后面还有 `work` 和 `unlock`，两者都没有执行：受保护的代码段被跳过，B:1 就不会碰它没锁住的东西，' +
          '也不会调用一个会抛出 `IllegalMonitorStateException` 的 `unlock()`。拿到 `false` 之后，它的线程正常结束。',
      },
      highlight: { lanes: ['B:1'] },
      checks: [
        threadHolds('B:1', 'myLock', 0, { state: 'done', lastResult: false }),
        exactly(1, ev('thread.result', 'B:1')),
        none(ev('work.start', 'B:1')),
        none(ev('cmd', 'B:1', { after: bFailed })),
        exactly(1, ev('thread.done', 'B:1', { where: { outcome: 'normal', step: 0 } })),
      ],
    },
  ],
};

export default lesson;
