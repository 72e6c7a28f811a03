import {
  absent,
  actorOf,
  atLeast,
  choice,
  exactly,
  gap,
  holds,
  none,
  replyOf,
  threadHolds,
  why,
} from './common';
import { cmd, ev, LATCH } from './events';
import type { EventSelector, Lesson } from '../types';

/** the unlock EVALSHA that got an answer (a first one may be refused with NOSCRIPT) */
const a2Unlock = cmd('A:2', 'EVALSHA', { before: ev('lock.error', 'A:2'), nth: -1 });
const a1Unlock = cmd('A:1', 'EVALSHA', {
  after: ev('unlock.request', 'A:1'),
  before: ev('watchdog.cancel', 'A:1'),
  nth: -1,
});
const nextHolder: EventSelector = { kind: 'lock.acquired', after: ev('unlock.request', 'A:1') };
const timeoutWakeups: EventSelector = { kind: 'waiter.wakeup', where: { cause: 'timeout' } };

const lesson: Lesson = {
  id: 'unlock',
  title: { en: 'Unlock, and the message that wakes the waiter', zh: '解锁，以及唤醒等待者的那条消息' },
  minutes: 7,
  part: 2,
  objective: {
    en: 'Explain who may unlock, what the unlock message does, and why `RLock` hands over in no particular order.',
    zh: '解释谁能解锁、解锁消息做了什么，以及为什么 `RLock` 的交接没有顺序。',
  },
  steps: [
    {
      claims: ['C19'],
      teacher: {
        en: 'The tempting answer is `1`: “same client, same machine”. Ask what the field is made of (client UUID **and** thread id), so A:2’s field is a different one. Point at the exception on A:2’s lane and at A:1’s field, untouched.',
        zh: '诱人的答案是 `1`：“同一个客户端、同一台机器”。问大家字段由什么组成（客户端 UUID **加上**线程 id），所以 A:2 的字段是另一个。指给大家看 A:2 泳道上的异常，以及 A:1 那个原封不动的字段。',
      },
      tutorials: {
        en: 'The tutorials’ unlock script starts with this owner check (`hexists … == 0` → `nil`). Since 3.24 two lines come first that read the latch key, so here the check is line 6.',
        zh: '教程里的解锁脚本一开头就是这个持有者检查（`hexists … == 0` → `nil`）。从 3.24 起前面多了读 latch 键的几行，所以这里的检查在第 6 行。',
      },
      tutorialsReleases: ['3.12.3'],
      scenario: { builtin: 'unlock-not-owner' },
      at: a2Unlock,
      question: {
        prompt: {
          en: 'A:1 holds `myLock`. A:2, another thread **of the same client**, calls `unlock()`. What does the unlock script return?',
          zh: 'A:1 持有 `myLock`。A:2 是**同一个客户端**的另一个线程，它调用了 `unlock()`。解锁脚本返回什么？',
        },
        choices: [
          choice(
            'one',
            1,
            '`1`: same client, so it may release',
            '`1`：同一个客户端，可以释放',
            why(
              'A:2 and A:1 share one Redisson client and one UUID, so it feels like the same owner. But the field names the **thread** (`<uuid>:1`): A:2’s field `<uuid>:2` is not there, and the run shows `nil`.',
              'A:2 和 A:1 共用一个 Redisson 客户端、一个 UUID，感觉像是同一个持有者。但字段名是**线程**级的（`<uuid>:1`）：A:2 的字段 `<uuid>:2` 不存在，运行里返回 `nil`。',
            ),
          ),
          choice(
            'zero',
            0,
            '`0`: it decrements the count',
            '`0`：只把计数减一',
            why(
              '`0` is what the owner gets when its count stays above 0 (lesson {lesson:reentrancy}). The script decrements only the caller’s own field, and A:2 has none: the run shows `nil` and A:1’s field untouched.',
              '`0` 是持有者减一后计数仍大于 0 时得到的（第 {lesson:reentrancy} 课）。脚本只减调用者自己的字段，而 A:2 根本没有：运行里返回 `nil`，A:1 的字段不变。',
            ),
          ),
          choice('nil', null, '`nil`: not the owner', '`nil`：不是持有者'),
        ],
        answer: replyOf(a2Unlock),
        feedback: {
          en:
            'The owner is a **thread**, `<uuid>:<threadId>`, not a client. `hexists myLock <uuid>:2` is `0`, so ' +
            'lines 6–7 return `nil`, and Redisson throws `IllegalMonitorStateException`.',
          zh: '持有者是**线程**，即 `<uuid>:<threadId>`，而不是客户端。`hexists myLock <uuid>:2` 为 `0`，于是第 6–7 行返回 `nil`，Redisson 抛出 `IllegalMonitorStateException`。',
        },
      },
      text: {
        en:
          '“锁只能被持有该锁的服务释放” (only the holder may release it), the safety property the tutorials list, is built ' +
          'into the unlock script: its first real check is whether the caller’s field exists. A:2 gets ' +
          '`IllegalMonitorStateException`, and A:1’s lock is untouched.',
        zh:
          '教程列出的安全性——“锁只能被持有该锁的服务释放”——就写在解锁脚本里：它第一件正事就是检查调用者的字段是否存在。' +
          'A:2 得到 `IllegalMonitorStateException`，A:1 的锁原封不动。',
      },
      // No script lines marked: the step's highlight shows while the question is open, and lines
      // 12–13 are its answer (step 2 marks them).
      highlight: { lanes: ['A:1', 'A:2', 'B:1'], keys: ['myLock'] },
      checks: [{ reply: null }, holds('myLock', 'A:1', 1, { fields: 1 })],
    },
    {
      claims: ['C19'],
      teacher: {
        en: 'Ask the room to compare with lesson {lesson:lease-too-short}’s `DEL`, which let anyone release anything. Then ask where the check lives: in the script on the server, so a buggy client cannot skip it.',
        zh: '请大家和第 {lesson:lease-too-short} 课的 `DEL` 对比：那时谁都能释放任何锁。再问这个检查在哪里：在服务器上的脚本里，所以有缺陷的客户端也绕不过去。',
      },
      at: ev('lock.error', 'B:1'),
      text: {
        en: 'B:1, on another machine, fares no better. Compare lesson {lesson:lease-too-short}, where a plain `DEL` let anyone release anything.',
        zh: '另一台机器上的 B:1 也一样。对比第 {lesson:lease-too-short} 课：在那里，一条普通的 `DEL` 谁都能释放任何锁。',
      },
      highlight: { lanes: ['B:1'], keys: ['myLock'], script: { script: 'unlock', lines: [6, 7] } },
      checks: [
        exactly(2, { kind: 'lock.error', where: { op: 'unlock' } }),
        holds('myLock', 'A:1', 1),
        threadHolds('A:1', 'myLock', 1),
      ],
    },
    {
      claims: ['C21'],
      teacher: {
        en: 'Expect questions about the `redisson_unlock_latch` key and the `A/unlock` lane: answer with the text (a receipt so a re-sent unlock does not release twice, 3.24+). The switch in the tutorials box re-runs the step with 3.12.3: the same moment, no latch key, for those who know the older script.',
        zh: '估计会有人问 `redisson_unlock_latch` 这个键和 `A/unlock` 泳道：用正文回答（一张回执，让重发的解锁不会释放两次，3.24 起）。教程方框里的开关能用 3.12.3 重新运行这一步：同一时刻，没有 latch 键，给熟悉旧脚本的人看。',
      },
      tutorials: {
        en: 'Before 3.24 the script ends with `DEL` and the publish, with no latch key; before 3.22 the publish command is always `publish`, since then it is `ARGV[4]`: `PUBLISH`, or `SPUBLISH` on a cluster that supports sharded pub/sub.',
        zh: '3.24 之前，脚本以 `DEL` 和发布结束，没有 latch 键；3.22 之前发布命令固定是 `publish`，之后是 `ARGV[4]`：`PUBLISH`，或者在支持分片发布订阅的集群上用 `SPUBLISH`。',
      },
      tutorialsReleases: ['3.12.3'],
      scenario: { builtin: 'contention-wakeup' },
      at: a1Unlock,
      text: {
        en:
          'Now the real owner. A:1 holds `myLock` once; A:2, B:1 and C:1 are waiting on their semaphores. The ' +
          'unlock script decrements the field to `0`, `DEL`s the key and `PUBLISH`es `0` on ' +
          '`redisson_lock__channel:{myLock}`, then returns `1`. Three clients are subscribed, so three receive it. ' +
          'One more key shows up in the keyspace, marked there: since 3.24 the script also stores its answer in ' +
          '`redisson_unlock_latch:{myLock}:<request id>` for a few seconds, so that an unlock re-sent after a ' +
          'timeout gets the same answer instead of releasing twice; right after, the client deletes it (the ' +
          '`A/unlock` actor that shows up in the captions a moment later is that clean-up). The tutorials’ older ' +
          'unlock script has no latch. ' +
          'The console counts the receivers before the message goes: `PUBSUB NUMSUB redisson_lock__channel:{myLock}` ' +
          'answers `3`.',
        zh:
          '现在轮到真正的持有者。A:1 持有 `myLock` 一次；A:2、B:1、C:1 在各自的信号量上等待。解锁脚本把字段减到 `0`，`DEL` 掉键，' +
          '在 `redisson_lock__channel:{myLock}` 上 `PUBLISH` 一个 `0`，然后返回 `1`。有三个客户端订阅了，所以三个都收到。' +
          '键空间里还会多出一个键（已在那里标出）：从 3.24 起，脚本还会把它的答复在 `redisson_unlock_latch:{myLock}:<请求 id>` 里存几秒，' +
          '这样超时后重发的解锁拿到的是同一个答复，而不会释放两次；紧接着客户端就把它删掉（稍后说明栏里出现的 `A/unlock` 就是这次清理）。' +
          '教程里较早的解锁脚本没有这个 latch。' +
          '命令行可以在消息发出之前数出接收者：`PUBSUB NUMSUB redisson_lock__channel:{myLock}` 返回 `3`。',
      },
      highlight: {
        lanes: ['A:1', 'A:2', 'B:1', 'C:1'],
        keys: [LATCH],
        script: { script: 'unlock', lines: [15, 16, 17, 18] },
      },
      checks: [
        { reply: 1 },
        absent('myLock'),
        // the latch the text points at, in the keyspace at this moment (the client deletes it 2 ms on)
        { key: LATCH, is: 'string' },
        atLeast(1, { kind: 'script.call', cmd: 'del', key: 'myLock' }),
        // the 3.24+ unlock latch the text explains
        atLeast(1, { kind: 'script.call', cmd: 'set', after: { kind: 'unlock.request', actor: 'A:1' } }),
        exactly(1, {
          kind: 'pubsub.publish',
          where: { channel: 'redisson_lock__channel:{myLock}', receivers: 3 },
        }),
      ],
    },
    {
      claims: ['C22'],
      teacher: {
        en: 'Let the room vote, then play. Whoever wins, the point is that nobody could know in advance: `RLock` promises no order, the first script to reach Redis wins. The page keeps the key moments hidden until the answer; after it, their chips name the winner, so take the vote first.',
        zh: '先让大家投票，再播放。不管谁赢，重点是没人能事先知道：`RLock` 不保证顺序，最先到达 Redis 的脚本获胜。回答之前页面会隐藏“关键时刻”；回答之后那些标签会直接点出赢家，所以要先投票。',
      },
      at: nextHolder,
      question: {
        prompt: {
          en: 'The message wakes one waiting thread per client: A:2, B:1 and C:1 all try at once. Who gets the lock?',
          zh: '这条消息在每个客户端唤醒一个等待线程：A:2、B:1、C:1 同时去抢。谁拿到了锁？',
        },
        choices: [
          choice('a2', 'A:2', 'A:2', '线程 A:2'),
          choice(
            'b1',
            'B:1',
            'B:1',
            '线程 B:1',
            why(
              'If waiters stood in a queue, one of them would be “next”, and B:1 looks like a fair guess. `RLock` keeps no queue: the run shows the three lock scripts racing and A:2’s reaching Redis first.',
              '如果等待者排成队，总有一个“下一个”，B:1 看起来是个合理的猜测。但 `RLock` 没有队列：运行里三个加锁脚本在赛跑，A:2 的最先到达 Redis。',
            ),
          ),
          choice(
            'c1',
            'C:1',
            'C:1',
            '线程 C:1',
            why(
              'Any of the three can win a race, so C:1 is possible in principle. In this run A:2’s lock script reaches Redis first: the run shows A:2 acquiring and C:1 getting a TTL back.',
              '三个都可能赢得竞争，所以理论上 C:1 也可能。但这次运行里 A:2 的加锁脚本最先到达 Redis：运行里 A:2 拿到了锁，C:1 拿回一个 TTL。',
            ),
          ),
        ],
        answer: actorOf(nextHolder),
        feedback: {
          en:
            'Whoever’s `EVALSHA` reaches Redis first, here A:2’s. `RLock` promises no order (the fair lock of ' +
            'lesson {lesson:lock-family} does). The losers get a fresh TTL and wait again.',
          zh: '谁的 `EVALSHA` 先到 Redis 谁就赢：这里是 A:2。`RLock` 不保证顺序（第 {lesson:lock-family} 课的公平锁才保证）。没抢到的拿到新的 TTL，继续等待。',
        },
      },
      text: {
        en:
          'Every waiter woke with cause `message` a millisecond after the publish, not when its 29.7 s TTL ran ' +
          'out: the lock changed hands within 3 ms of the unlock.',
        zh: '每个等待者都在发布后一毫秒因 `message` 醒来，而不是等 29.7 秒的 TTL 耗尽：解锁后 3 毫秒之内锁就易主了。',
      },
      checks: [
        atLeast(3, { kind: 'waiter.wakeup', where: { cause: 'message' } }),
        none(timeoutWakeups),
        gap({ kind: 'pubsub.publish' }, nextHolder, { max: 5 }),
      ],
    },
    {
      claims: ['C22', 'C18'],
      teacher: {
        en: 'Play the whole run and count the hand-offs with the room. Ask what a fair order would need (a queue), which lesson {lesson:lock-family} shows. Some think the losers poll again; point out they go back to waiting on the channel.',
        zh: '把整个运行播完，和大家一起数交接了几次。问大家：公平的顺序需要什么（一个队列），第 {lesson:lock-family} 课会讲。有人以为落败者会重新轮询；指出它们是回到频道上继续等待。',
      },
      text: {
        en:
          'Each unlock repeats this: a message, a race, one winner, the rest back to waiting. Four critical ' +
          'sections, one after another, and no thread ever polled.',
        zh: '每次解锁都重复这个过程：一条消息、一次竞争、一个赢家，其余的继续等。四个临界区依次执行，没有一个线程轮询过。',
      },
      checks: [exactly(4, { kind: 'lock.acquired' }), { noViolation: 'any' }, none(timeoutWakeups)],
    },
  ],
};

export default lesson;
