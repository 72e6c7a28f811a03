import {
  absent,
  atLeast,
  choice,
  count,
  dodge,
  lockTypeControl,
  none,
  gap,
  onFirstOps,
  openV1,
  replyOf,
  threadHolds,
  v1,
  yourTurn,
  why,
} from './common';
import { acquired, bLockScript, cmd, ev, violationStart } from './events';
import type { EventSelector, Lesson } from '../types';

/** The first call of B:1's lock script: everything up to its reply happens at this instant. */
const bExists: EventSelector = { kind: 'script.call', cmd: 'exists', after: ev('lock.request', 'B:1') };

const lesson: Lesson = {
  id: 'atomic-release',
  title: { en: 'Check-and-delete must be one step: Lua', zh: '判断和删除必须是一步：Lua 脚本' },
  minutes: 8,
  part: 1,
  objective: {
    en: 'Release only your own lock, atomically: compare and delete in one Lua script.',
    zh: '只释放自己的锁，而且要原子地释放：在一个 Lua 脚本里比较并删除。',
  },
  steps: [
    {
      claims: ['C08'],
      teacher: {
        en: 'Ask why a UUID rather than the thread id or the host name: it must differ for every acquisition on every machine. Point at the key’s value in the keyspace and at A:1’s `GET` reply: they match.',
        zh: '问大家为什么用 UUID，而不是线程 id 或主机名：它必须在每台机器的每次加锁中都不同。指给大家看键空间里键的值和 A:1 的 `GET` 返回值：两者一致。',
      },
      scenario: { builtin: 'naive-get-del-race' },
      at: cmd('A:1', 'GET'),
      text: {
        en:
          'The tutorials’ next fix: “let a thread delete only its own lock”. Each acquisition now stores a unique ' +
          'value (a UUID) instead of `1`, and the release first reads it: `GET lock:job`, compare with my ' +
          'value, and only then `DEL`. A:1’s `GET` has just returned its own token. So far, so good.',
        zh:
          '教程的下一步修复：“让线程只删除自己的锁”。每次加锁写入一个唯一的值（UUID），而不是 `1`；释放时先读出来：' +
          '`GET lock:job`，和自己的值比较，相同才 `DEL`。A:1 的 `GET` 刚刚返回了它自己的令牌。到这里都没问题。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['lock:job'] },
      checks: [{ key: 'lock:job', is: 'string', ownedBy: 'A:1' }],
    },
    {
      claims: ['C08'],
      teacher: {
        en: 'Ask where the pause falls: after the `GET` answered, before the `DEL` left. People tend to treat a pause as impossible in “fast” code; name real causes (GC, a VM migration, a slow network). Point at the paused bar on A’s lane and the key’s new owner.',
        zh: '问大家停顿落在哪里：`GET` 已经返回之后，`DEL` 发出之前。人们往往觉得“很快”的代码里不可能有停顿；举出真实的原因（GC、虚拟机迁移、网络变慢）。指给大家看 A 泳道上的停顿段和键的新主人。',
      },
      at: acquired('B:1'),
      text: {
        en:
          'But between the `GET` and the `DEL`, A:1 stalls for 500 ms (a GC pause, a slow network: “极端情况”, ' +
          'the extreme case the tutorial describes). Meanwhile its key expires and B:1 takes the lock with **its** ' +
          'token. A:1 has already decided “it is mine”.',
        zh:
          '可是在 `GET` 和 `DEL` 之间，A:1 停顿了 500 毫秒（一次 GC、一次网络抖动：教程说的“极端情况”）。' +
          '这期间它的键过期了，B:1 用**自己的**令牌拿到了锁。而 A:1 早已判定“这是我的锁”。',
      },
      checks: [
        { key: 'lock:job', ownedBy: 'B:1' },
        { thread: 'A:1', state: 'paused' },
      ],
    },
    {
      claims: ['C08'],
      teacher: {
        en: 'Ask who checked the token, and when. People assume GET-then-DEL is safe because it compares; the comparison is one round trip stale.',
        zh: '问大家：谁检查了令牌，什么时候检查的？人们以为先 GET 再 DEL 是安全的，因为做了比较；可这个比较已经过时了一个往返。',
      },
      at: cmd('A:1', 'DEL'),
      question: {
        prompt: {
          en: 'A:1 resumes and sends the `DEL` it decided on. What will it return?',
          zh: 'A:1 恢复运行，发出它早已决定的 `DEL`。它会返回什么？',
        },
        choices: [
          choice(
            'zero',
            0,
            '`0`: the key is not A:1’s any more',
            '`0`：键已经不是 A:1 的了',
            why(
              'Right that the key is no longer A:1’s, and A:1 even checked with `GET`. But it checked **before** its pause; `DEL` itself compares nothing, so the run shows `DEL` returning `1`, deleting B:1’s key.',
              '键确实已经不是 A:1 的了，A:1 甚至还用 `GET` 检查过。但那是在停顿**之前**检查的；`DEL` 本身什么都不比较，所以运行里 `DEL` 返回 `1`，删掉的是 B:1 的键。',
            ),
          ),
          choice('one', 1, '`1`: it deletes B:1’s key', '`1`：它删掉了 B:1 的键'),
        ],
        answer: replyOf(cmd('A:1', 'DEL')),
        feedback: {
          en:
            '`DEL` checks nothing: the comparison was made one round trip earlier, on a value that has changed ' +
            'since. Judging and releasing are not atomic (判定和释放锁不是原子的).',
          zh: '`DEL` 不做任何检查：比较是在一次往返之前做的，而那个值后来已经变了。判定和释放锁不是原子的。',
        },
      },
      text: {
        en: 'The `DEL` removes B:1’s key while B:1 is working, and the next poll from C:1 will succeed.',
        zh: '`DEL` 删掉了 B:1 的键，而 B:1 还在干活；C:1 的下一次轮询就会成功。',
      },
      checks: [{ reply: 1 }, absent('lock:job'), threadHolds('B:1', 'lock:job', 1)],
    },
    {
      claims: ['C08'],
      teacher: {
        en: 'If you do the task live, use the lock-type picker. Expect someone to delete the pause or start C later; the task answers both with “that works, but…”. Ask why a script is atomic: Redis runs it like one command, nothing interleaves.',
        zh: '如果现场做任务，用锁类型选择器。估计会有人删掉停顿，或者让 C 晚点开始；任务对这两种做法都会回应“这样确实行，但……”。问大家为什么脚本是原子的：Redis 把它当成一条命令执行，中间插不进任何东西。',
      },
      at: violationStart('V1', 'lock:job'),
      text: {
        en: 'C:1 takes the lock: B:1 and C:1 both hold `lock:job` (`V1`). The owner check did not help.',
        zh: 'C:1 拿到了锁：B:1 和 C:1 同时持有 `lock:job`（`V1`）。归属检查没起作用。',
      },
      checks: [openV1('lock:job', 'B:1', 'C:1')],
      task: {
        prompt: yourTurn(
          'make the release atomic. Switch all three threads’ `lock` ops to type `set-nx-px-lua`, ' +
            'which releases with one `EVAL` of `if redis.call("get",KEYS[1]) == ARGV[1] then return ' +
            'redis.call("del",KEYS[1]) else return 0 end`.',
          '让释放变成原子操作。把三个线程的 `lock` 操作都改成类型 `set-nx-px-lua`，它用一次 `EVAL` 释放锁：' +
            '`if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`。',
        ),
        goalText: {
          en:
            'A:1 is still paused during its release, the release is one `EVAL` (no separate `DEL`), and no ' +
            '`V1` between B:1 and C:1.',
          zh: 'A:1 释放时照样停顿，释放是一次 `EVAL`（没有单独的 `DEL`），B:1 和 C:1 之间没有 `V1`。',
        },
        controls: [lockTypeControl(['set-nx-px-get-del', 'set-nx-px-lua'], [0, 1, 2])],
        goal: {
          all: [
            { not: v1('lock:job', 'B:1', 'C:1') },
            atLeast(1, { kind: 'client.pause' }),
            atLeast(1, cmd('A:1', 'EVAL')),
            none(cmd('A:1', 'DEL')),
          ],
        },
        solution: onFirstOps('replace', 'type', 'set-nx-px-lua', [0, 1, 2]),
        dodges: [
          dodge(
            { all: [{ not: v1('lock:job', 'B:1', 'C:1') }, none({ kind: 'client.pause' })] },
            'That works, but only because A:1 is no longer paused between its `GET` and its `DEL`. Pauses ' +
              'happen (GC, a slow network); keep the pause and make the release atomic.',
            '这样确实行，但只是因为 A:1 在 `GET` 和 `DEL` 之间不再停顿了。停顿总会发生（GC、慢网络）：保留停顿，让释放变成原子操作。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            { all: [{ not: v1('lock:job', 'B:1', 'C:1') }, none(cmd('A:1', 'EVAL'))] },
            'That works, but A:1 still releases with `GET` then `DEL`: its late `DEL` can still remove someone ' +
              'else’s key, it just did not hand the lock to a third thread this time. Make the compare and the ' +
              'delete one `EVAL`.',
            '这样确实行，但 A:1 释放时仍然是先 `GET` 再 `DEL`：它迟到的 `DEL` 仍可能删掉别人的键，只是这次没把锁送给第三个线程。' +
              '请把比较和删除合成一次 `EVAL`。',
            [{ op: 'replace', path: '/clients/2/threads/0/start', value: 20_000 }],
          ),
        ],
        success: {
          en:
            'A:1’s release was one `EVAL`: the compare and the delete ran inside one script, which Redis runs ' +
            'without interleaving anything, so the pause had no gap to fall into and no third thread got in.',
          zh:
            'A:1 的释放是一次 `EVAL`：比较和删除在同一个脚本里执行，Redis 执行脚本时不会插入任何别的命令，' +
            '所以停顿没有空隙可钻，也没有第三个线程进来。',
        },
      },
    },
    {
      claims: ['C09'],
      teacher: {
        en: 'Contrast with the previous step: same race, one script. If someone answers 1, ask what could run between the GET and the DEL inside a script (nothing).',
        zh: '和上一步对比：同样的竞争，只是换成一个脚本。如果有人答 1，就问：脚本里 GET 和 DEL 之间能插进什么？（什么都插不进。）',
      },
      scenario: { builtin: 'naive-lua-del-safe' },
      at: cmd('A:1', 'EVAL'),
      question: {
        prompt: {
          en: 'Same race, but the release is one `EVAL`. It reaches Redis after B:1 took the lock. What does it return?',
          zh: '同样的竞争，但释放是一次 `EVAL`。它到达 Redis 时，B:1 已经拿到了锁。它返回什么？',
        },
        choices: [
          choice('zero', 0, '`0`: the token is not A:1’s', '`0`：令牌不是 A:1 的'),
          choice(
            'one',
            1,
            '`1`: it deletes the key',
            '`1`：删掉了键',
            why(
              'Tempting after the last step, where A:1’s late release deleted B:1’s key. Here the comparison and the delete run inside one script: the run shows `EVAL` returning `0` and B:1’s key untouched.',
              '刚看完上一步 A:1 迟到的释放删掉了 B:1 的键，很容易这么想。可这里比较和删除在同一个脚本里执行：运行里 `EVAL` 返回 `0`，B:1 的键完好无损。',
            ),
          ),
        ],
        answer: replyOf(cmd('A:1', 'EVAL')),
        feedback: {
          en:
            'Inside the script the `GET` and the `DEL` see the same moment: nothing can run between them. The ' +
            'value is B:1’s, so the script returns `0` and leaves the key alone.',
          zh: '在脚本里，`GET` 和 `DEL` 看到的是同一时刻：它们之间不可能执行任何别的命令。值是 B:1 的，所以脚本返回 `0`，不碰这个键。',
        },
      },
      text: {
        en:
          'With the Lua release, A:1’s `EVAL` arrives late, finds B:1’s token and returns `0`. B:1 keeps its lock. ' +
          'Redis runs a script as one command: the check and the delete cannot be separated.',
        zh: '用 Lua 释放后，A:1 的 `EVAL` 来晚了，发现是 B:1 的令牌，返回 `0`。B:1 保住了锁。Redis 把整个脚本当成一条命令执行：判断和删除分不开。',
      },
      checks: [{ reply: 0 }, { key: 'lock:job', ownedBy: 'B:1' }],
    },
    {
      claims: ['C09', 'C06'],
      teacher: {
        en: 'Point at the verdict: still Unsafe. People think the Lua release “fixed the lock”; ask which overlap remains (A:1 with B:1, from the lease) and which one is gone (B:1 with C:1, from the release).',
        zh: '指给大家看结论：仍然是不安全。人们以为 Lua 释放“把锁修好了”；问大家还剩哪一段重叠（A:1 和 B:1，由租期造成），哪一段没了（B:1 和 C:1，由释放造成）。',
      },
      text: {
        en:
          'C:1 waits for B:1 this time: no overlap between them. But look at the verdict: A:1 and B:1 still ' +
          'overlapped while A:1 was frozen, because its lease ran out. The script fixes the release, not the ' +
          'lease. That is the next problem.',
        zh:
          '这次 C:1 老老实实等 B:1：它们之间没有重叠。但看看结论：A:1 被冻住时，A:1 和 B:1 依然重叠了，因为它的租期到了。' +
          '脚本修好的是释放，不是租期。这是下一个问题。',
      },
      checks: [{ not: v1('lock:job', 'B:1', 'C:1') }, v1('lock:job', 'A:1', 'B:1')],
    },
    {
      claims: ['C24'],
      teacher: {
        en: 'Open the script view and point at the three calls sharing one timestamp. Ask what three separate commands would cost with 1 ms of network between client and Redis (three round trips, and a gap between each). This step is a bridge to Redisson: same idea, for acquiring too.',
        zh: '打开脚本视图，指给大家看三次调用共用同一个时间戳。问大家：客户端和 Redis 之间有 1 毫秒网络延迟时，三条独立命令要付出什么（三次往返，每两次之间都有空隙）。这一步是通往 Redisson 的桥：同样的思路，加锁也用它。',
      },
      scenario: { builtin: 'contention-wakeup' },
      // the built-in's intro is about waking waiters; this step is about something else
      hideIntro: true,
      at: bLockScript,
      text: {
        en:
          'Redisson takes the same road for everything, acquiring included (“the benefits of Lua scripts”, as the Redisson write-ups put it). B:1’s ' +
          'attempt is **one** `EVALSHA`: the script’s `exists`, `hexists`, `pttl` calls all run at the same ' +
          'instant, with no other client’s command between them, and it costs one round trip instead of three.',
        zh:
          'Redisson 在所有地方都走这条路，加锁也不例外（即“使用 Lua 脚本的好处”）。B:1 的一次尝试就是**一条** `EVALSHA`：' +
          '脚本里的 `exists`、`hexists`、`pttl` 调用都在同一时刻执行，中间插不进任何其他客户端的命令，而且只需一次往返而不是三次。',
      },
      checks: [gap(bExists, bLockScript, { max: 0 }), count({ kind: 'cmd', after: bExists }, { max: 1 })],
    },
  ],
};

export default lesson;
