import {
  absent,
  atLeast,
  choice,
  dodge,
  firstOpPaths,
  msControl,
  exactly,
  gap,
  holds,
  none,
  noV1Goal,
  openV1,
  threadHolds,
  timeOf,
  yourTurn,
  why,
} from './common';
import { acquired, ev, violationStart } from './events';
import type { EventSelector, Lesson } from '../types';

/** A:1's watchdog renewals (as a cursor: the first). */
const aRenewal = ev('watchdog.renew', 'A:1');
const myLockExpired: EventSelector = { kind: 'key.expired', key: 'myLock' };

/** A:1's lock script set the watchdog's lease (`internalLockLeaseTime`, 30 s), not one of the caller's. */
const watchdogLease = atLeast(1, {
  kind: 'script.call',
  cmd: 'pexpire',
  before: ev('lock.acquired', 'A:1'),
  where: { argv: ['pexpire', 'myLock', '30000'] },
});

const lesson: Lesson = {
  id: 'watchdog',
  title: { en: 'The watchdog', zh: '看门狗' },
  minutes: 9,
  part: 2,
  objective: {
    en: 'Explain the watchdog: renewal every 10 s, cancelled on unlock, off with a `leaseTime`, gone with a crashed JVM.',
    zh: '解释看门狗：每 10 秒续期、解锁时取消、给了 `leaseTime` 就不工作、JVM 崩溃就随之消失。',
  },
  steps: [
    {
      claims: ['C25'],
      teacher: {
        en: 'Ask why not renew just before 30 s. The answer is margin: a renewal can be slow or lost, so Redisson renews with two thirds of the lease still left.',
        zh: '问大家：为什么不在快到 30 秒时才续期？答案是余量：续期可能变慢或丢失，所以 Redisson 在还剩三分之二租期时就续。',
      },
      tutorials: {
        en: 'The tutorials’ `renewExpiration()` is the form before 3.44: one timer per lock, each running a one-key script (`hexists` → `pexpire`, `return 1`). Since 3.44 one `LockTask` per client renews its locks in batches, one script over many keys: that is the script shown here.',
        zh: '教程里的 `renewExpiration()` 是 3.44 之前的写法：每把锁一个定时器，各自执行只带一个键的脚本（`hexists` → `pexpire`，`return 1`）。从 3.44 起，每个客户端一个 `LockTask` 成批续期它的锁，一个脚本处理多个键：这里显示的就是它。',
      },
      tutorialsReleases: ['3.27.2'],
      scenario: { builtin: 'watchdog-renewal' },
      at: aRenewal,
      question: {
        // before the watchdog's first command: nothing on the timeline has renewed yet
        decides: { kind: 'cmd', actor: 'A/watchdog' },
        prompt: {
          en: 'A:1 called `lock()` without a lease and works for 70 s. The key was set to 30 s. When is it first renewed?',
          zh: 'A:1 调用的是不带租期的 `lock()`，业务要 70 秒。键的过期时间设的是 30 秒。它第一次续期是什么时候？',
        },
        choices: [
          choice('ten', [9000, 11_000], 'At ≈ 10 s, a third of the lease', '约 10 秒，租期的三分之一'),
          choice(
            'twenty',
            [19_000, 21_000],
            'At ≈ 20 s',
            '约 20 秒',
            why(
              'Renewing halfway through sounds prudent. Redisson’s timer fires at `lockWatchdogTimeout / 3`: the run shows the first renewal at ≈ 10 s, then every 10 s.',
              '租期过半时续期听起来很稳妥。但 Redisson 的定时器在 `lockWatchdogTimeout / 3` 时触发：运行里第一次续期在约 10 秒，之后每 10 秒一次。',
            ),
          ),
          choice(
            'thirty',
            [29_000, 30_100],
            'Just before 30 s',
            '快到 30 秒的时候',
            why(
              'Renewing at the last moment would be enough if nothing were ever late. The watchdog keeps 20 s of margin instead: the run shows it renewing at ≈ 10 s.',
              '如果什么都不会迟到，最后一刻续期也够了。但看门狗留了 20 秒的余量：运行里它在约 10 秒就续期了。',
            ),
          ),
        ],
        answer: timeOf(aRenewal),
        feedback: {
          en:
            'The watchdog (看门狗) is a timer that fires every `lockWatchdogTimeout / 3` = 10 s and ' +
            'resets the expiry to 30 s, so the lock always has at least 20 s left while its holder lives.',
          zh: '看门狗是一个定时任务，每隔 `lockWatchdogTimeout / 3` = 10 秒触发一次，把过期时间重置为 30 秒，所以只要持有者活着，锁至少还剩 20 秒。',
        },
      },
      text: {
        en:
          'This is lesson {lesson:renewal-task}’s renewal task, done properly. Because no `leaseTime` was passed, `lock()` starts a ' +
          'renewal timer for this lock. At 10 s it runs the renew script: if `<uuid>:1` is still in `myLock`, ' +
          '`pexpire myLock 30000`. `PTTL` is back to 30 s.',
        zh:
          '这就是第 {lesson:renewal-task} 课的续期任务，只是做得更周全。因为没有传 `leaseTime`，`lock()` 为这把锁启动了一个续期定时器。第 10 秒时它执行续期脚本：' +
          '如果 `<uuid>:1` 还在 `myLock` 里，就 `pexpire myLock 30000`。`PTTL` 回到了 30 秒。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'] },
      checks: [
        holds('myLock', 'A:1', 1, { pttl: { min: 29_990, max: 30_000 } }),
        gap(acquired('A:1'), aRenewal, { min: 9990, max: 10_050 }),
      ],
    },
    {
      claims: ['C25'],
      teacher: {
        en: 'Point at the sawtooth of `PTTL`: it never drops below 20 s. Ask what happens to B:1 during those 60 s (it waits, times out, tries again). Some think the watchdog renews forever; ask what stops it (next step).',
        zh: '指给大家看 `PTTL` 的锯齿：它从来没低于 20 秒。问大家这 60 秒里 B:1 在干什么（等待、超时、再试）。有人以为看门狗会一直续下去；问大家是什么让它停下来（下一步）。',
      },
      at: ev('watchdog.renew', 'A:1', { nth: 6 }),
      text: {
        en:
          'Sixty seconds in, six renewals, ten seconds apart; the key never got below 20 s. B:1 has been waiting ' +
          'the whole time: its waits time out and it tries again, always finding the lock alive.',
        zh: '60 秒过去，续了六次，每次间隔 10 秒；键的剩余时间从没低于 20 秒。B:1 一直在等：等待超时、再试，每次都发现锁还活着。',
      },
      checks: [
        exactly(6, aRenewal),
        none(myLockExpired),
        gap(ev('watchdog.renew', 'A:1', { nth: 5 }), ev('watchdog.renew', 'A:1', { nth: 6 }), {
          min: 9990,
          max: 10_050,
        }),
        { thread: 'B:1', state: 'waiting' },
      ],
    },
    {
      claims: ['C27'],
      teacher: {
        en: 'Ask what would go wrong if the renewal task outlived the unlock: it would renew a lock A:1 no longer holds, or, if the script did not check the owner, someone else’s. Point at the `watchdog.cancel` right after the unlock reply.',
        zh: '问大家：如果续期任务在解锁之后还活着会出什么问题：它会续一把 A:1 已经不持有的锁；如果脚本不检查持有者，还会续别人的锁。指给大家看解锁回复之后紧接着的 `watchdog.cancel`。',
      },
      at: ev('watchdog.cancel', 'A:1'),
      text: {
        en:
          'At 70 s A:1 unlocks. Right after the unlock script succeeds, the client cancels the renewal task ' +
          '(`cancelExpirationRenewal`): a released lock must not be kept alive. The tutorial’s hand-made task had ' +
          'no such step.',
        zh: '第 70 秒 A:1 解锁。解锁脚本一成功，客户端就取消续期任务（`cancelExpirationRenewal`）：已经释放的锁不能再被续命。教程里手写的任务没有这一步。',
      },
      checks: [exactly(1, ev('watchdog.cancel', 'A:1', { where: { reason: 'unlock' } })), absent('myLock')],
    },
    {
      claims: ['C27'],
      teacher: {
        en: 'A proof by absence: ask the room what they would expect to see at 10 s and 20 s if the timer survived, then play to the end and look for it. The empty lane is the evidence.',
        zh: '这是一个“以没有为证”的证明：问大家，如果定时器没被取消，第 10 秒和第 20 秒应该看到什么，然后播放到结尾去找。空着的泳道就是证据。',
      },
      scenario: {
        builtin: 'basic-lock',
        patch: [
          { op: 'add', path: '/title', value: 'lock() and unlock(), then 25 s more' },
          { op: 'add', path: '/titleZh', value: 'lock() 和 unlock()，之后再跑 25 秒' },
          { op: 'add', path: '/clients/0/threads/0/program/-', value: { op: 'sleep', ms: 25_000 } },
        ],
      },
      text: {
        en:
          'To be sure, let A:1 unlock after 1 s and then stay alive for another 25 s. Had the timer survived the ' +
          'unlock, it would have fired at 10 s and 20 s. It does not fire at all.',
        zh: '为了确认，让 A:1 在 1 秒后解锁，然后再活 25 秒。如果定时器在解锁后还在，它会在第 10 秒和第 20 秒触发。结果一次也没有。',
      },
      checks: [
        none({ kind: 'watchdog.renew' }),
        atLeast(1, { kind: 'watchdog.cancel', where: { reason: 'unlock' } }),
        gap(ev('lock.released', 'A:1'), ev('thread.done', 'A:1'), { min: 25_000 }),
      ],
    },
    {
      claims: ['C26'],
      teacher: {
        en: 'This is the most common production mistake: people pass a lease “to be safe” and lose the watchdog. Ask the room who has written `lock(10, SECONDS)`. For the task, clear the lease field beside it; a learner who just raises the lease gets the “that works, but…” reply.',
        zh: '这是生产环境里最常见的错误：人们“为了保险”传了租期，结果失去了看门狗。问问在座谁写过 `lock(10, SECONDS)`。做任务时把旁边的租期输入框清空；只是把租期调大的同学会得到“这样确实行，但……”的回应。',
      },
      scenario: { builtin: 'lease-expiry-no-watchdog' },
      at: violationStart('V1', 'myLock'),
      text: {
        en:
          'Pass a `leaseTime` and you opt out: `lock(3, SECONDS)` means “expire after 3 s, whatever happens”, and ' +
          'no watchdog is started (the write-ups all stress this). A:1 works 4 s, the key expires at 3 s, ' +
          'and B:1 takes the lock while A:1 is still inside: `V1`.',
        zh:
          '传了 `leaseTime` 就等于放弃看门狗：`lock(3, SECONDS)` 的意思是“3 秒后过期，不管发生什么”，也不会启动看门狗（各种讲解都强调了这一点）。' +
          'A:1 要干 4 秒，键在第 3 秒过期，A:1 还在里面时 B:1 拿到了锁：`V1`。',
      },
      highlight: { lanes: ['A:1', 'B:1'] },
      checks: [
        threadHolds('A:1', 'myLock', 1, { state: 'working' }),
        exactly(1, myLockExpired),
        openV1('myLock', 'A:1', 'B:1'),
      ],
      task: {
        prompt: yourTurn(
          'let the watchdog do its job. Remove A:1’s `leaseMs`.',
          '让看门狗来干活。去掉 A:1 的 `leaseMs`。',
        ),
        controls: [
          msControl(
            'A:1’s lease (`leaseMs`; empty: the watchdog)',
            'A:1 的租期（`leaseMs`；留空：看门狗）',
            firstOpPaths('leaseMs', [0]),
          ),
        ],
        goalText: {
          en:
            'No `V1` on `myLock`, and A:1’s lock script set the watchdog’s 30 s (`pexpire myLock 30000`), ' +
            'not a lease of your choosing.',
          zh: '`myLock` 上没有 `V1`，并且 A:1 的加锁脚本设置的是看门狗的 30 秒（`pexpire myLock 30000`），而不是你自己选的租期。',
        },
        goal: { all: [noV1Goal('myLock').goal, watchdogLease] },
        solution: [{ op: 'remove', path: '/clients/0/threads/0/program/0/leaseMs' }],
        dodges: [
          dodge(
            { all: [noV1Goal('myLock').goal, { not: watchdogLease }] },
            'That works, but only because the lease you picked outlasts this run’s work. With a `leaseTime` ' +
              'the watchdog is off: the next slower request outlives the lease again. Remove `leaseMs` and let ' +
              'the watchdog renew.',
            '这样确实行，但只是因为你挑的租期比这次的业务长。一旦给了 `leaseTime`，看门狗就不工作了：下一个更慢的请求又会超过租期。' +
              '请去掉 `leaseMs`，让看门狗来续期。',
            [{ op: 'replace', path: '/clients/0/threads/0/program/0/leaseMs', value: 5000 }],
          ),
        ],
        success: {
          en:
            'A:1 locked without a lease, so its script set the watchdog’s 30 s: its 4 s of work ended long before ' +
            'that, and B:1 got the lock only after A:1’s unlock. Had the work run longer, the watchdog would have ' +
            'renewed the key every 10 s for as long as A:1 lived.',
          zh:
            'A:1 加锁时没有指定租期，于是脚本设置了看门狗的 30 秒：它 4 秒的业务远在此之前就结束了，B:1 直到 A:1 解锁后才拿到锁。' +
            '如果业务更长，只要 A:1 还活着，看门狗就会每 10 秒给键续一次期。',
        },
      },
    },
    {
      claims: ['C28', 'C34'],
      teacher: {
        en: 'Many answer “right away”: they picture Redis noticing the dead client. Ask what Redis can see (a key and its TTL) and what it cannot (the JVM).',
        zh: '很多人会答“马上”：他们以为 Redis 会发现客户端死了。问大家 Redis 能看到什么（一个键和它的 TTL），看不到什么（JVM）。',
      },
      scenario: { builtin: 'client-crash-watchdog-expiry' },
      at: myLockExpired,
      question: {
        // at the crash: B:1's retry at 30 s is captioned with the TTL left (10 s), which is the answer
        decides: { kind: 'conn.close', after: { kind: 'client.crash' } },
        prompt: {
          en: 'A:1’s JVM dies at 15 s; its last renewal was at 10 s. When does B:1 get the lock?',
          zh: 'A:1 的 JVM 在第 15 秒挂了，最后一次续期在第 10 秒。B:1 什么时候拿到锁？',
        },
        choices: [
          choice(
            'now',
            [15_000, 16_000],
            'Right away, at ≈ 15 s',
            '马上，约 15 秒',
            why(
              'Tempting if you picture Redis noticing the dead client. Redis only sees a key with a TTL: the run shows the key living on until 30 s after the last renewal, ≈ 40 s.',
              '如果以为 Redis 会发现客户端死了，就会选它。可 Redis 只看到一个带 TTL 的键：运行里键一直活到最后一次续期后 30 秒，也就是约 40 秒。',
            ),
          ),
          choice('forty', [39_000, 41_000], 'At ≈ 40 s', '约 40 秒'),
          choice(
            'never',
            [-1, -1],
            'Never: deadlock',
            '永远拿不到：死锁',
            why(
              'That was lesson {lesson:setnx}’s story, a key with no expiry. This key has a 30 s TTL that only the (now dead) watchdog kept pushing back: the run shows it expiring at ≈ 40 s and B:1 getting in.',
              '那是第 {lesson:setnx} 课的情形：键没有过期时间。这个键有 30 秒 TTL，只是一直由看门狗往后推，而看门狗已经死了：运行里键在约 40 秒过期，B:1 拿到了锁。',
            ),
          ),
        ],
        answer: timeOf(acquired('B:1')),
        feedback: {
          en:
            'The watchdog is a timer **inside** the client: it dies with the JVM. Nobody renews the key, so it ' +
            'expires 30 s after the last renewal, at ≈ 40 s, and B:1’s next attempt succeeds.',
          zh: '看门狗是客户端**内部**的定时器：JVM 死了，它也跟着死了。没人续期，键在最后一次续期 30 秒后过期，也就是约 40 秒时，B:1 的下一次尝试就成功了。',
        },
      },
      text: {
        en:
          'This is why the watchdog is safe against deadlock where the bare `SETNX` was not: the lock lives ' +
          'exactly as long as someone renews it, plus at most one lease. Liveness: a crashed holder ' +
          'delays the others, but cannot block them forever.',
        zh: '这就是看门狗不会像裸 `SETNX` 那样死锁的原因：锁只在有人续期时活着，最多再多活一个租期。活性：崩溃的持有者会让别人多等一会儿，但不能永远挡住他们。',
      },
      checks: [
        { thread: 'A:1', state: 'crashed' },
        gap(ev('watchdog.renew', 'A:1', { nth: -1 }), myLockExpired, { min: 29_990, max: 30_010 }),
        none({ kind: 'watchdog.renew', after: { kind: 'client.crash' } }),
      ],
    },
    {
      claims: ['C34'],
      teacher: {
        en: 'Ask how long the lock outlived its dead owner (up to one lease, 30 s from the last renewal) and whether that is acceptable. This is the trade: liveness at the price of a delay, never a deadlock.',
        zh: '问大家这把锁在持有者死后又活了多久（最多一个租期，从最后一次续期起 30 秒），这能否接受。这就是取舍：以一段延迟换来活性，而不会死锁。',
      },
      at: acquired('B:1'),
      text: {
        en: 'B:1 had been waiting since 1 s; the expiry lets it in. The run ends safe.',
        zh: 'B:1 从第 1 秒就开始等了；键过期后它进来了。运行结果是安全的。',
      },
      checks: [holds('myLock', 'B:1', 1), { verdict: 'safe' }],
    },
  ],
};

export default lesson;
