import { choice, count, dodge, exactly, gap, none, whether, why, yourTurn } from './common';
import type { Check, EventSelector, Lesson, ScenarioJson } from '../types';

/**
 * What the watchdog costs the server: issue 23's scale scenario (1,000 threads over 10,000 locks)
 * at a tenth of its size, small enough to open in the page. 21_watchdog_cost.test.ts runs the full
 * size and proves the figures the last step states for it.
 */
const CLIENTS = ['C1', 'C2'];
const THREADS = 50;
const LOCKS_PER_THREAD = 10;

const lockNames = (client: string, thread: number) =>
  Array.from({ length: LOCKS_PER_THREAD }, (_, l) => `lock:${client}:${thread}:${l + 1}`);

/** Two clients × 50 threads, each taking its own 10 locks without a lease and holding them past the end. */
const thousandLocks: ScenarioJson = {
  format: 'lockscope/1',
  title: 'Watchdog cost: 100 threads over 1,000 locks (4.7.0)',
  titleZh: '看门狗的开销：100 个线程、1,000 把锁（4.7.0）',
  until: 35_000,
  redisson: { version: '4.7.0' },
  clients: CLIENTS.map((id) => ({
    id,
    threads: Array.from({ length: THREADS }, (_, t) => ({
      id: t + 1,
      program: [
        ...lockNames(id, t + 1).map((lock) => ({ op: 'lock', lock })),
        { op: 'work', ms: 60_000 },
        ...lockNames(id, t + 1).map((lock) => ({ op: 'unlock', lock })),
      ],
    })),
  })),
};

const renewal = (nth: number): EventSelector => ({ kind: 'watchdog.renew', nth });
/** The n-th watchdog round: renewals 1,000 × (n − 1) + 1 … 1,000 × n (every lock once a round). */
const roundEnd = (n: number) => renewal(1000 * n);
const inRound = (sel: EventSelector, n: number): EventSelector => ({ ...sel, after: roundEnd(n - 1) });

const c1Renews: EventSelector = { kind: 'cmd', actor: 'C1/watchdog' };
const c2Renews: EventSelector = { kind: 'cmd', actor: 'C2/watchdog' };
const anyCmd: EventSelector = { kind: 'cmd' };

/** All 3,000 renewals of the run succeeded: every lock renewed at 10, 20 and 30 s. */
const everyLockRenewed: Check = exactly(3000, { kind: 'watchdog.renew', where: { result: 1 } });
/** Few renewal commands: each client's watchdog sends at most 30 in the run. */
const fewCommands: Check = {
  all: [count(c1Renews, { max: 30 }), count(c2Renews, { max: 30 })],
};

const lesson: Lesson = {
  id: 'watchdog-cost',
  title: {
    en: 'What the watchdog costs: 1,000 locks, and 10,000',
    zh: '看门狗的开销：1,000 把锁，以及 10,000 把',
  },
  minutes: 7,
  part: 2,
  objective: {
    en: 'Work out the watchdog’s load on Redis (renewals and commands per second) for a given number of locks, before and after the batched renewal of 3.44.',
    zh: '算出看门狗给 Redis 带来的负载（每秒续期数和命令数），对给定数量的锁，分别按 3.44 批量续期之前和之后。',
  },
  steps: [
    {
      claims: ['C25'],
      scenario: { inline: thousandLocks },
      at: { kind: 'lock.acquired', nth: -1 },
      text: {
        en:
          'Two clients, 50 threads each, every thread taking 10 locks of its own with `lock()`: 1,000 locks, none with ' +
          'a lease, so the watchdog keeps every one of them alive. Put the inspectors to work: the Threads panel lists ' +
          'the 100 threads, the keyspace says how many keys the master holds, and in the console `DBSIZE` answers ' +
          '`(integer) 1000` and `PTTL lock:C1:1:1` about 30,000.',
        zh:
          '两个客户端，各 50 个线程，每个线程用 `lock()` 拿自己的 10 把锁：共 1,000 把锁，都没有租期，所以每一把都由看门狗保活。' +
          '用上各个面板：线程面板列出 100 个线程，键空间面板说明主节点上有多少个键，在命令行里 `DBSIZE` 回答 `(integer) 1000`，' +
          '`PTTL lock:C1:1:1` 大约是 30,000。',
      },
      teacher: {
        en: 'Ask the room to guess the server’s load before going on: how many renewals per second, how many commands per second?',
        zh: '继续之前先让大家猜一猜服务器的负载：每秒多少次续期，每秒多少条命令？',
      },
      highlight: { keys: ['lock:C1:1:1'] },
      checks: [
        exactly(1000, { kind: 'lock.acquired' }),
        { key: 'lock:C1:1:1', is: 'hash', fields: 1, pttl: { min: 29_970, max: 30_000 } },
        { key: 'lock:C2:50:10', is: 'hash', fields: 1 },
        none({ kind: 'watchdog.renew' }),
      ],
    },
    {
      claims: ['C25'],
      at: roundEnd(2),
      question: {
        decides: inRound(c1Renews, 2),
        prompt: {
          en: 'At 20 s the watchdog renews all 1,000 locks again. How many commands does client C1 (its 500 locks) send for that round?',
          zh: '第 20 秒看门狗再次为全部 1,000 把锁续期。客户端 C1（它的 500 把锁）在这一轮发出多少条命令？',
        },
        choices: [
          choice(
            'each',
            false,
            '500: one renewal script per lock',
            '500 条：每把锁一个续期脚本',
            why(
              'That is how the watchdog worked until 3.43, one timer and one EVAL per lock, and what most write-ups show. This run is 4.7.0: the run shows C1 sending 5 commands for its 500 locks.',
              '直到 3.43 看门狗都是这样：每把锁一个定时器、一条 EVAL，大多数文章讲的也是它。这次运行是 4.7.0：运行里 C1 为 500 把锁只发了 5 条命令。',
            ),
          ),
          choice('batched', true, '5: one script per 100 locks', '5 条：每 100 把锁一个脚本'),
          choice(
            'one',
            false,
            '1: one script for all of them',
            '1 条：所有锁一个脚本',
            why(
              'One script for everything would be cheapest, but one huge script would hold Redis for as long as it runs. Redisson caps a batch at `lockWatchdogBatchSize` (100) keys: the run shows 5 commands.',
              '一个脚本包办一切最省，但一个巨大的脚本执行多久就会占住 Redis 多久。Redisson 把一批限制在 `lockWatchdogBatchSize`（100）个键：运行里是 5 条命令。',
            ),
          ),
        ],
        answer: whether(exactly(5, inRound(c1Renews, 2))),
        feedback: {
          en: 'Since 3.44 each client has one renewal task that renews all of its watchdog locks together, 100 keys to a script.',
          zh: '从 3.44 起，每个客户端只有一个续期任务，把它所有由看门狗管理的锁一起续期，每个脚本 100 个键。',
        },
      },
      text: {
        en:
          'Since 3.44 the watchdog is one task per client (`LockRenewalScheduler`): every `lockWatchdogTimeout / 3` it ' +
          'renews all of the client’s locks in scripts of up to `lockWatchdogBatchSize` (100) keys, each answering a ' +
          'list of 100 ones. C1’s 500 locks take 5 `EVALSHA`s, C2’s another 5: **10 commands for 1,000 renewals**. (The ' +
          'first round also had to load the script: `NOSCRIPT`, `SCRIPT LOAD`, 7 commands from C1.)',
        zh:
          '从 3.44 起，看门狗是每个客户端一个任务（`LockRenewalScheduler`）：每隔 `lockWatchdogTimeout / 3`，它把客户端的所有锁放进每个' +
          '最多 `lockWatchdogBatchSize`（100）个键的脚本里续期，每个脚本返回 100 个 1 组成的列表。C1 的 500 把锁用了 5 条 `EVALSHA`，' +
          'C2 再 5 条：**1,000 次续期只要 10 条命令**。（第一轮还得先加载脚本：`NOSCRIPT`、`SCRIPT LOAD`，C1 发了 7 条命令。）',
      },
      teacher: {
        en: 'Most pick 500: every blog post shows one renewal per lock. Ask why Redisson does not put all 500 in one script (a script blocks the server while it runs).',
        zh: '大多数人选 500：每篇博客讲的都是每把锁一次续期。问大家为什么 Redisson 不把 500 把锁全放进一个脚本（脚本运行时会阻塞服务器）。',
      },
      checks: [
        exactly(5, inRound(c1Renews, 2)),
        exactly(10, inRound(anyCmd, 2)),
        exactly(1000, inRound({ kind: 'watchdog.renew', where: { result: 1 } }, 2)),
        { reply: Array.from({ length: 100 }, () => 1), of: { ...inRound(c1Renews, 2), cmd: 'EVALSHA' } },
        exactly(7, { ...c1Renews, before: inRound(c1Renews, 2) }),
      ],
    },
    {
      claims: ['C25'],
      at: roundEnd(3),
      teacher: {
        en: 'Have the room derive the formula before reading it: locks ÷ (lockWatchdogTimeout ÷ 3). People often divide by 30 s instead of 10 s and get a third of the load.',
        zh: '先让大家自己推出公式再看文字：锁数 ÷（lockWatchdogTimeout ÷ 3）。常见的错误是除以 30 秒而不是 10 秒，算出的负载只有实际的三分之一。',
      },
      text: {
        en:
          'So what does it cost? One round every 10 s renews every lock: 1,000 locks / 10 s = **100 renewals per second**, ' +
          'each still a `HEXISTS` and a `PEXPIRE` inside the script. The commands are what 3.44 saved: 10 per round, ' +
          '**1 per second** on the server. At 30 s the third round ends with every key back at 30 s (`PTTL lock:C1:1:1` ' +
          'in the console).',
        zh:
          '那么开销是多少？每 10 秒一轮，每把锁续一次：1,000 把锁 / 10 秒 = **每秒 100 次续期**，每次在脚本里仍然是一次 `HEXISTS` 加一次 `PEXPIRE`。' +
          '3.44 省下的是命令数：每轮 10 条，服务器上**每秒 1 条**。第 30 秒第三轮结束，每个键又回到 30 秒（在命令行输入 `PTTL lock:C1:1:1`）。',
      },
      checks: [
        exactly(3000, { kind: 'watchdog.renew', where: { result: 1 } }),
        gap(renewal(1), renewal(1001), { min: 9990, max: 10_050 }),
        gap(renewal(1001), renewal(2001), { min: 9990, max: 10_050 }),
        exactly(10, inRound(anyCmd, 3)),
        { key: 'lock:C1:1:1', pttl: { min: 29_900, max: 30_000 } },
      ],
    },
    {
      claims: ['C25'],
      scenario: {
        patch: [
          { op: 'replace', path: '/title', value: 'Watchdog cost: 100 threads over 1,000 locks (3.27.2)' },
          { op: 'replace', path: '/titleZh', value: '看门狗的开销：100 个线程、1,000 把锁（3.27.2）' },
          { op: 'replace', path: '/redisson/version', value: '3.27.2' },
        ],
      },
      at: roundEnd(2),
      text: {
        en:
          'The same locks on 3.27.2, as the tutorials describe it: each lock has its own timer (`renewExpiration`) and ' +
          'its own `EVAL`, answering `1`. The second round is **1,000 commands**, 500 from C1: 100 per second, a hundred ' +
          'times 4.7.0’s, for the same 100 renewals per second.',
        zh:
          '同样的锁换成 3.27.2，也就是各教程讲的样子：每把锁有自己的定时器（`renewExpiration`）和自己的 `EVAL`，返回 `1`。' +
          '第二轮是 **1,000 条命令**，其中 500 条来自 C1：每秒 100 条，是 4.7.0 的一百倍，而续期次数同样是每秒 100 次。',
      },
      teacher: {
        en: 'Ask what else grows with one command per lock: round trips, the client’s timers (one per lock), the replies to parse.',
        zh: '问大家每把锁一条命令时还有什么在增长：往返次数、客户端的定时器（每把锁一个）、要解析的回复。',
      },
      checks: [
        exactly(1000, inRound(anyCmd, 2)),
        exactly(500, inRound(c1Renews, 2)),
        exactly(1000, inRound({ kind: 'watchdog.renew', where: { result: 1 } }, 2)),
        { reply: 1, of: { ...inRound(c1Renews, 2), cmd: 'EVAL' } },
      ],
      task: {
        prompt: yourTurn(
          'cut the renewal commands of this run to at most 30 per client, while every lock is still renewed every 10 s.',
          '把这次运行的续期命令减到每个客户端最多 30 条，同时每把锁仍然每 10 秒续期一次。',
        ),
        controls: [
          {
            kind: 'select',
            label: { en: 'Redisson release (`version`)', zh: 'Redisson 版本（`version`）' },
            paths: ['/redisson/version'],
            options: ['3.27.2', '3.44.0', '4.7.0'],
          },
        ],
        goalText: {
          en: 'All 3,000 renewals succeed (1,000 locks × 3 rounds), and each client’s watchdog sends at most 30 commands.',
          zh: '全部 3,000 次续期都成功（1,000 把锁 × 3 轮），并且每个客户端的看门狗最多发 30 条命令。',
        },
        goal: { all: [everyLockRenewed, fewCommands] },
        solution: [{ op: 'replace', path: '/redisson/version', value: '3.44.0' }],
        dodges: [
          dodge(
            { all: [fewCommands, { not: everyLockRenewed }] },
            'That works, but the watchdog now renews less often (fewer than 3,000 renewals). A longer `lockWatchdogTimeout` ' +
              'means fewer renewals and a crashed client’s locks staying blocked longer; the commands per renewal are what a newer release cuts.',
            '这样确实行，但看门狗续期的次数变少了（不到 3,000 次）。更长的 `lockWatchdogTimeout` 意味着续期更少，客户端崩溃后它的锁也会被占更久；' +
              '新版本削减的是每次续期要发的命令数。',
            [{ op: 'add', path: '/redisson/lockWatchdogTimeout', value: 120_000 }],
          ),
        ],
        success: {
          en: 'Every lock was still renewed in every round (3,000 renewals), and each client’s watchdog sent them in at most 30 commands: the batched renewal of 3.44+.',
          zh: '每把锁在每一轮都照样续期（3,000 次续期），而每个客户端的看门狗最多用 30 条命令发完：这就是 3.44+ 的批量续期。',
        },
      },
    },
    {
      claims: ['C25'],
      scenario: { inline: thousandLocks },
      at: roundEnd(3),
      text: {
        en:
          'Now the full scale: **1,000 threads over 10,000 locks** (10 clients × 100 threads × 10 locks), watchdog ' +
          'on, for 60 s. Per round: 10,000 renewals, so **1,000 renewals per second** (10,000 / (30 s / 3)). On 4.7.0 ' +
          'each client sends 10 scripts of 100 keys: 100 commands a round, **10 commands per second**. Before 3.44: ' +
          '10,000 `EVAL`s a round, **1,000 commands per second**, all for keeping locks alive that nobody is waiting for. ' +
          'The run is too large to open here quickly (it takes seconds; `npm run bench` measures it), so this page runs a ' +
          'tenth of it: the figures scale with the number of locks, as the last rounds showed.',
        zh:
          '现在看完整的规模：**1,000 个线程、10,000 把锁**（10 个客户端 × 100 个线程 × 10 把锁），开着看门狗，运行 60 秒。' +
          '每轮 10,000 次续期，也就是**每秒 1,000 次续期**（10,000 / (30 秒 / 3)）。在 4.7.0 上每个客户端发 10 个各含 100 个键的脚本：' +
          '每轮 100 条命令，**每秒 10 条**。3.44 之前：每轮 10,000 条 `EVAL`，**每秒 1,000 条命令**，只为保活那些没人在等的锁。' +
          '这个规模在这里打开太慢（要好几秒；`npm run bench` 会测量它），所以本页运行它的十分之一：如前几轮所示，这些数字随锁的数量成比例增长。',
      },
      teacher: {
        en: 'This is the “system loss” debate of the write-ups: the cost is real but linear and predictable. Ask what a team with 10,000 held locks should question first: the number of locks held at once, not the watchdog.',
        zh: '这就是各种讲解里的“系统损耗”之争：开销是真实的，但线性且可预测。问大家：同时持有 10,000 把锁的团队首先该质疑什么？是同时持有的锁的数量，而不是看门狗。',
      },
      checks: [
        exactly(3000, { kind: 'watchdog.renew', where: { result: 1 } }),
        exactly(5, inRound(c2Renews, 3)),
        exactly(10, inRound(anyCmd, 3)),
      ],
    },
  ],
};

export default lesson;
