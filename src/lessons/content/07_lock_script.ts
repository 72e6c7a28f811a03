import {
  absent,
  atLeast,
  choice,
  dodge,
  exactly,
  firstOpPaths,
  msControl,
  none,
  holds,
  onFirstOps,
  replyOf,
  turnedAway,
  yourTurn,
  why,
} from './common';
import { acquired, bLockScript, cmd, ev, secondAcquire } from './events';
import type { EventSelector, Lesson } from '../types';

/** the lock script with its reentrancy half (`hexists`, line 2) removed: the learner's edit in step 6 */
export const lockWithoutReentry = [
  "if (redis.call('exists', KEYS[1]) == 0) then",
  "    redis.call('hincrby', KEYS[1], ARGV[2], 1);",
  "    redis.call('pexpire', KEYS[1], ARGV[1]);",
  '    return nil;',
  'end;',
  "return redis.call('pttl', KEYS[1]);",
].join('\n');

const acquireEval = cmd('A:1', 'EVALSHA', { key: 'myLock', nth: 2 });

/** The lock script's `pexpire` on `myLock` with this lease (`ARGV[1]`). */
const pexpireWith = (ms: string): EventSelector => ({
  kind: 'script.call',
  cmd: 'pexpire',
  where: { argv: ['pexpire', 'myLock', ms] },
});

const lesson: Lesson = {
  id: 'lock-script',
  title: { en: 'Redisson’s lock script, line by line', zh: '逐行读 Redisson 的加锁脚本' },
  minutes: 8,
  part: 2,
  objective: {
    en: 'Read Redisson’s lock script line by line: the hash, the `<uuid>:<thread>` field, `nil` versus a TTL.',
    zh: '逐行读懂 Redisson 的加锁脚本：哈希、`<uuid>:<thread>` 字段、`nil` 与 TTL 的区别。',
  },
  steps: [
    {
      claims: ['C11'],
      teacher: {
        en: 'Put the script view on the projector (presenter mode shows it beside the lanes) and read lines 1–2 aloud. Students who read a blog post will ask why their script has two `if` blocks: the box under the text says which release changed what, and its switch re-runs the step with 3.11.6 or 3.12.3 so the room sees that script in the script view. Ask what `KEYS[1]`, `ARGV[1]`, `ARGV[2]` are before the text says it.',
        zh: '把脚本视图投到屏幕上（演示模式会把它放在泳道旁边），大声读第 1–2 行。读过博客的同学会问为什么他们看到的脚本有两个 `if` 块：正文下面的方框写了哪个版本改了什么，方框里的开关能用 3.11.6 或 3.12.3 重新运行这一步，让大家在脚本视图里看到那个脚本。在正文揭晓之前，先问大家 `KEYS[1]`、`ARGV[1]`、`ARGV[2]` 各是什么。',
      },
      tutorials: {
        en:
          'The tutorials show the script of older releases: two `if` blocks, one for a free lock ' +
          '(`exists == 0`) and one for re-entry (`hexists == 1`), and before 3.12.3 `hset` for the first hold. ' +
          'Since 3.19 Redisson merges the two into one condition; what each branch does is unchanged. The switch ' +
          'below re-runs this step with a tutorial’s release, so its script shows in the script view.',
        zh:
          '教程里展示的是较早版本的脚本：两个 `if` 块，一个处理空闲的锁（`exists == 0`），一个处理重入（`hexists == 1`），' +
          '3.12.3 之前第一次加锁用的是 `hset`。从 3.19 起 Redisson 把两者合并成一个条件；每个分支做的事没有变。' +
          '下面的开关可以用教程里的版本重新运行这一步，脚本视图里就会显示那个版本的脚本。',
      },
      tutorialsReleases: ['3.11.6', '3.12.3'],
      scenario: { builtin: 'basic-lock' },
      at: { kind: 'script.line', where: { line: 1 } },
      text: {
        en:
          'Redisson packs everything we built by hand into one Lua script. `redisson.getLock("myLock")` just ' +
          'names the lock; `lock()` ends up in `tryLockInnerAsync`, which sends one `EVALSHA` with ' +
          '`KEYS[1]` = `myLock`, `ARGV[1]` = the lease, `ARGV[2]` = the lock name. (The first `EVALSHA` on a ' +
          'fresh server gets `NOSCRIPT`; the client loads the script and retries.) The script view shows the text ' +
          'as the Java source writes it, one string literal per line; Redis receives them joined into one line. ' +
          'Lines 1–2 ask: does the lock not exist, or do **I** already hold it?',
        zh:
          'Redisson 把我们手写的那些东西都装进了一个 Lua 脚本。`redisson.getLock("myLock")` 只是给锁起个名字；`lock()` 最终走到 ' +
          '`tryLockInnerAsync`，发出一条 `EVALSHA`：`KEYS[1]` 是 `myLock`，`ARGV[1]` 是租期，`ARGV[2]` 是锁名。' +
          '（在新启动的服务器上第一次 `EVALSHA` 会得到 `NOSCRIPT`，客户端加载脚本后重试。）脚本视图按 Java 源码的写法显示它，每行一个字符串字面量；' +
          'Redis 收到的是把它们连成一行的文本。第 1–2 行问的是：锁不存在，或者是**我**已经持有它？',
      },
      highlight: { lanes: ['A:1'], keys: ['myLock'], script: { script: 'lock', lines: [1, 2] } },
      checks: [absent('myLock')],
    },
    {
      claims: ['C11', 'C12'],
      teacher: {
        en: 'Ask why the keyspace is still empty although `hincrby` has run. Most expect to see the field appear line by line; from outside, a script is one step, and the view shows the world as other clients see it. Then ask why a hash and not a string: to count holds per owner.',
        zh: '问大家：`hincrby` 已经执行了，为什么键空间还是空的？多数人以为字段会一行一行地出现；可从外面看，脚本是一个步骤，这个视图展示的是其他客户端看到的世界。再问为什么用哈希而不是字符串：为了按持有者记录持有次数。',
      },
      at: { kind: 'script.call', cmd: 'hincrby' },
      text: {
        en:
          '`exists` returned `0`, so line 3 runs `HINCRBY myLock <uuid>:1 1`. The lock is a **hash**, not a ' +
          'string: one field per owner, whose value counts how many times that owner holds it. The keyspace ' +
          'view still shows no `myLock`: it changes when the whole script has run, because from outside a ' +
          'script is one indivisible step.',
        zh:
          '`exists` 返回 `0`，于是第 3 行执行 `HINCRBY myLock <uuid>:1 1`。锁是一个**哈希**，而不是字符串：每个持有者一个字段，' +
          '字段的值记录它持有了几次。键空间视图里还看不到 `myLock`：要等整个脚本执行完才变化，因为从外面看，脚本是一个不可分割的步骤。',
      },
      highlight: { script: { script: 'lock', lines: [3] } },
      checks: [
        { reply: 0, of: { kind: 'script.call', cmd: 'exists' } },
        { reply: 1, of: { kind: 'script.call', cmd: 'hincrby' } },
        absent('myLock'),
      ],
    },
    {
      claims: ['C11', 'C14'],
      teacher: {
        en: 'The usual wrong answer is `1` (the count) or `30000` (the lease). Ask what a waiting caller would need from the reply (how long to wait) and what the winner needs (nothing): that is why success is `nil`. If you run the task, type 5000 in the field beside it and point at `pexpire myLock 5000` in the script view.',
        zh: '常见的错误答案是 `1`（计数）或 `30000`（租期）。问大家：等待的调用者需要从返回值里得到什么（要等多久），拿到锁的一方需要什么（什么也不需要）：所以成功时返回 `nil`。如果现场做任务，在旁边的输入框里填 5000，然后指给大家看脚本视图里的 `pexpire myLock 5000`。',
      },
      at: acquireEval,
      question: {
        prompt: {
          en: 'Line 4 sets `PEXPIRE myLock 30000`. What does the `EVALSHA` return to A:1?',
          zh: '第 4 行执行 `PEXPIRE myLock 30000`。`EVALSHA` 返回给 A:1 的是什么？',
        },
        choices: [
          choice('nil', null, '`nil`: nothing', '`nil`：什么也不返回'),
          choice(
            'one',
            1,
            '`1`, the hold count',
            '`1`，持有次数',
            why(
              'The `hincrby` does set the field to `1`, so returning it would make sense. But the script’s reply is only what `return` says: the branch ends with `return nil`, and the run shows `EVALSHA` replying `nil`.',
              '`hincrby` 确实把字段设成了 `1`，返回它似乎合理。但脚本的返回值只取决于 `return`：这个分支以 `return nil` 结束，运行里 `EVALSHA` 的回复就是 `nil`。',
            ),
          ),
          choice(
            'ttl',
            30000,
            '`30000`, the lease',
            '`30000`，租期',
            why(
              'The `pexpire` does set a 30 s expiry, but a number is what a **waiting** caller gets (the last line’s `pttl`, the remaining TTL). The one that gets the lock gets `nil`, as the run shows.',
              '`pexpire` 确实设置了 30 秒的过期时间，但数字是**没拿到锁**的调用者才会得到的（最后一行的 `pttl`，剩余 TTL）。拿到锁的一方得到的是 `nil`，运行里就是这样。',
            ),
          ),
        ],
        answer: replyOf(acquireEval),
        feedback: {
          en:
            'Line 5 returns `nil`, and `nil` means “acquired”. Only a caller that did **not** get the lock ' +
            'gets a number back (line 7): the remaining TTL, so it knows how long to wait.',
          zh: '第 5 行返回 `nil`，`nil` 就表示“加锁成功”。只有**没**拿到锁的调用者才会得到一个数字（第 7 行）：剩余的 TTL，好让它知道要等多久。',
        },
      },
      text: {
        en:
          'No lease was given to `lock()`, so `ARGV[1]` is `lockWatchdogTimeout`: **30,000 ms**. Right after ' +
          'the script, `PTTL myLock` is just under 30 s.',
        zh: '`lock()` 没有传租期，所以 `ARGV[1]` 是 `lockWatchdogTimeout`：**30000 毫秒**。脚本刚执行完，`PTTL myLock` 略小于 30 秒。',
      },
      highlight: { script: { script: 'lock', lines: [4, 5] } },
      checks: [
        { reply: null },
        { key: 'myLock', is: 'hash', pttl: { min: 29_990, max: 30_000 } },
        atLeast(1, pexpireWith('30000')),
      ],
      task: {
        prompt: yourTurn(
          'call `lock(5, SECONDS)` instead: give the `lock` op `leaseMs: 5000`.',
          '改成调用 `lock(5, SECONDS)`：给 `lock` 操作加上 `leaseMs: 5000`。',
        ),
        goalText: {
          en: 'The script’s `pexpire` uses the lease you gave (`ARGV[1]` = 5000).',
          zh: '脚本里的 `pexpire` 用的是你给的租期（`ARGV[1]` = 5000）。',
        },
        controls: [
          msControl('A:1’s lease (`leaseMs`)', 'A:1 的租期（`leaseMs`）', firstOpPaths('leaseMs', [0])),
        ],
        goal: atLeast(1, pexpireWith('5000')),
        solution: onFirstOps('add', 'leaseMs', 5000, [0]),
        success: {
          en: '`ARGV[1]` is simply the lease: 30 s by default, or whatever `leaseTime` you pass.',
          zh: '`ARGV[1]` 就是租期：默认 30 秒，或者你传入的 `leaseTime`。',
        },
      },
    },
    {
      claims: ['C12'],
      teacher: {
        en: 'The keyspace shows the real `<uuid>:1` field on this step; untick Real ids to show the short name `A:1` the other steps use. People assume the field is the thread name; it is only the view’s short name. Then do it live: type `HGETALL myLock` and `PTTL myLock` in the console under the keyspace (Panels, if the console is hidden).',
        zh: '这一步的键空间显示的是真实的 `<uuid>:1` 字段；取消勾选“真实 id”，就会显示其他步骤用的简称 `A:1`。人们以为字段就是线程名；那只是视图里的简称。然后现场演示：在键空间下方的命令行里输入 `HGETALL myLock` 和 `PTTL myLock`（命令行没显示时先点“面板”）。',
      },
      at: acquired('A:1'),
      realIds: true,
      // the keyspace the text quotes (presenter mode shows a cited panel beside the lanes)
      highlight: { keys: ['myLock'] },
      text: {
        en:
          '`HGETALL myLock` now shows what every Redisson walkthrough prints: one field `<uuid>:1` with value `"1"`. The field is ' +
          'the lock name `ARGV[2]`: the Redisson client’s UUID (`getLockName(threadId)`), a colon, the Java ' +
          'thread id. Here the keyspace view shows the field as Redis stores it; elsewhere it shortens it to ' +
          'the thread’s name, `A:1` (the **Real ids** box above the keyspace switches). Type `HGETALL myLock` ' +
          'in the **console** below the keyspace to ask Redis itself, and `PTTL myLock` for its lease.',
        zh:
          '`HGETALL myLock` 现在显示的就是各种 Redisson 讲解里打印出来的样子：一个字段 `<uuid>:1`，值为 `"1"`。这个字段就是锁名 `ARGV[2]`：' +
          'Redisson 客户端的 UUID（`getLockName(threadId)`）、一个冒号、Java 线程 id。这一步的键空间视图按 Redis 里保存的原样显示字段；' +
          '其他地方它会简写成线程名 `A:1`（键空间上方的**真实 id**勾选框可以切换）。在键空间下方的**命令行**里输入 `HGETALL myLock` 直接问 Redis，' +
          '输入 `PTTL myLock` 可以看到它的租期。',
      },
      checks: [holds('myLock', 'A:1', 1, { is: 'hash', fields: 1 })],
    },
    {
      claims: ['C13', 'C16'],
      teacher: {
        en: 'Ask: A:1 and B:1 are both “thread 1”; what would `hexists` find if the field were only the thread id? (B:1 would re-enter A:1’s lock.) Point at A:1’s field in the keyspace and at B:1’s `ARGV[2]` in the script view: the same `:1`, another UUID in front.',
        zh: '问大家：A:1 和 B:1 都是“线程 1”；如果字段只有线程 id，`hexists` 会查到什么？（B:1 会“重入”A:1 的锁。）指给大家看键空间里 A:1 的字段和脚本视图里 B:1 的 `ARGV[2]`：同样是 `:1`，前面的 UUID 却不同。',
      },
      scenario: { builtin: 'contention-wakeup' },
      // the built-in's intro is about waking waiters; this step is about something else
      hideIntro: true,
      at: bLockScript,
      realIds: true,
      text: {
        en:
          'Why the UUID? Thread ids are only unique inside one JVM: A:1 and B:1 are both “thread 1”, on two ' +
          'machines. With the thread id alone, line 2’s `hexists` would let B:1 “re-enter” A:1’s lock. With the ' +
          'client UUID in front, B:1’s field is a different one, absent from the hash, and it gets A:1’s ' +
          'remaining TTL instead of the lock. The keyspace shows A:1’s field as stored, under the marked `myLock`; B:1’s is the ' +
          '`ARGV[2]` of its `EVALSHA`, in the script view: same `:1`, another UUID.',
        zh:
          '为什么要 UUID？线程 id 只在一个 JVM 内唯一：A:1 和 B:1 都是“线程 1”，却在两台机器上。只用线程 id 的话，第 2 行的 `hexists` ' +
          '会让 B:1“重入”A:1 的锁。加上客户端 UUID 前缀后，B:1 的字段是另一个，不在哈希里，它拿到的是 A:1 剩余的 TTL 而不是锁。' +
          '键空间按原样显示 A:1 的字段（在标出的 `myLock` 下面）；B:1 的字段是它那条 `EVALSHA` 的 `ARGV[2]`，在脚本视图里：同样是 `:1`，UUID 却不同。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'], script: { script: 'lock', lines: [2, 7] } },
      checks: [holds('myLock', 'A:1', 1, { fields: 1 }), holds('myLock', 'B:1', null), ...turnedAway('B:1')],
    },
    {
      claims: ['C11', 'C15'],
      teacher: {
        en: 'Best done in pairs, not on the projector: the task needs the JSON editor (Edit JSON) and the script from the hint. The common slip is removing the wrong half (`exists`): A:1 then never gets the lock, and the task says so. Ask what the hold count would be if the second `lock()` could return.',
        zh: '最好让大家两人一组做，而不是在投影上做：这个任务要用 JSON 编辑器（编辑 JSON）和提示里的脚本。常见的失误是删错了一半（`exists`）：那样 A:1 根本拿不到锁，任务会指出来。问大家：如果第二次 `lock()` 能返回，持有次数会是多少。',
      },
      scenario: { builtin: 'reentrant' },
      at: secondAcquire,
      text: {
        en:
          'Break it yourself. Here A:1 calls `lock()` twice; with the real script the second call re-enters ' +
          'through the `hexists` half of the condition (line 2) and the count goes to `2`. Scripts are data in a scenario: ' +
          '`redisson.scripts.lock` replaces the acquire script with your text, which the node then runs for ' +
          'real (under its own SHA, so the first `EVALSHA` gets `NOSCRIPT` and the client loads it).',
        zh:
          '自己动手把它弄坏。这里 A:1 调用两次 `lock()`；用真实的脚本，第二次调用经由条件里 `hexists` 那一半（第 2 行）重入，计数变成 `2`。' +
          '脚本在场景里就是数据：`redisson.scripts.lock` 用你的文本替换加锁脚本，节点会真的执行它（SHA 是它自己的，所以第一次 ' +
          '`EVALSHA` 得到 `NOSCRIPT`，客户端随后加载它）。',
      },
      highlight: { lanes: ['A:1'], keys: ['myLock'], script: { script: 'lock', lines: [2] } },
      checks: [{ reply: null }, holds('myLock', 'A:1', 2)],
      task: {
        prompt: yourTurn(
          'in the JSON editor, add `"redisson": { "scripts": { "lock": "…" } }` with the lock script ' +
            "minus the `hexists` half of its condition (line 2), so the condition is only `redis.call('exists', KEYS[1]) == 0`. " +
            'What does A:1’s second `lock()` do now?',
          '在 JSON 编辑器里加上 `"redisson": { "scripts": { "lock": "…" } }`，内容是去掉条件里 `hexists` 那一半（第 2 行）的加锁脚本，' +
            "让条件只剩 `redis.call('exists', KEYS[1]) == 0`。A:1 的第二次 `lock()` 现在会怎样？",
        ),
        hint: {
          en: `The whole script as a JSON string: ${JSON.stringify(lockWithoutReentry)}`,
          zh: `整个脚本写成 JSON 字符串：${JSON.stringify(lockWithoutReentry)}`,
        },
        goalText: {
          en: 'A:1 acquires `myLock` once and then waits for its own lock.',
          zh: 'A:1 拿到 `myLock` 一次，然后就在等自己的锁。',
        },
        goal: {
          all: [
            exactly(1, acquired('A:1')),
            atLeast(1, ev('lock.wait', 'A:1', { after: acquired('A:1') })),
            atLeast(1, ev('watchdog.renew', 'A:1', { after: ev('lock.wait', 'A:1') })),
          ],
        },
        solution: [{ op: 'add', path: '/redisson', value: { scripts: { lock: lockWithoutReentry } } }],
        dodges: [
          dodge(
            none(acquired('A:1')),
            'Not that half: A:1 never gets the lock at all, so there is nothing to re-enter (the keyspace stays ' +
              'empty). You removed the part that lets a **free** lock be taken, `exists == 0`. Keep it and ' +
              'remove `hexists` instead.',
            '删错了一半：A:1 根本没拿到锁，也就谈不上重入（键空间一直是空的）。你删掉的是让**空闲**的锁可以被拿走的那部分 ' +
              '`exists == 0`。请保留它，改为删掉 `hexists`。',
            [
              {
                op: 'add',
                path: '/redisson',
                value: {
                  scripts: {
                    lock: lockWithoutReentry.replace(
                      "redis.call('exists', KEYS[1]) == 0",
                      "redis.call('hexists', KEYS[1], ARGV[2]) == 1",
                    ),
                  },
                },
              },
            ],
          ),
        ],
        success: {
          en:
            'A:1 took `myLock` once, and its second `lock()` is waiting. ' +
            'Without `hexists` the owner is a stranger to its own lock: the last line hands A:1 its own TTL, and it ' +
            'waits for itself. The watchdog keeps renewing the lock it holds, so it waits forever: the deadlock ' +
            'the tutorials call “不可重入”. Try the other break too: drop the `pexpire` of line 4 and crash the ' +
            'holder.',
          zh:
            'A:1 拿到了一次 `myLock`，它的第二次 `lock()` 正在等待。' +
            '没有 `hexists`，持有者对自己的锁也成了陌生人：最后一行把 A:1 自己的 TTL 返回给它，它就在等自己。看门狗还在续它持有的锁，' +
            '所以它会一直等下去：这就是教程里说的“不可重入”导致的死锁。再试试另一种破坏：删掉第 4 行的 `pexpire`，让持有者崩溃。',
        },
      },
    },
  ],
};

export default lesson;
