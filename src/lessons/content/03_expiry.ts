import { atLeast, choice, dodge, lockTypeControl, none, onFirstOps, whether, yourTurn, why } from './common';
import { acquired, cmd } from './events';
import type { Lesson, ScenarioJson } from '../types';

const critical = (type: string, work: number) => [
  { op: 'lock', lock: 'lock:job', type, leaseMs: 1000 },
  { op: 'work', ms: work },
  { op: 'unlock', lock: 'lock:job' },
];

/** A:1 crashes at 2 ms: after its SETNX was answered, before its EXPIRE was sent. */
const twoCommands: ScenarioJson = {
  format: 'lockscope/1',
  title: 'SETNX, then EXPIRE',
  titleZh: '先 SETNX，再 EXPIRE',
  until: 3000,
  clients: [
    { id: 'A', threads: [{ id: 1, program: critical('setnx-expire', 500) }] },
    { id: 'B', threads: [{ id: 1, start: 100, program: critical('setnx-expire', 100) }] },
  ],
  faults: [{ at: 2, kind: 'crash', client: 'A' }],
};

const lesson: Lesson = {
  id: 'expiry',
  title: { en: 'Give it an expiry, atomically', zh: '加上过期时间，而且要原子地加' },
  minutes: 6,
  part: 1,
  objective: {
    en: 'Tell apart `SETNX` + `EXPIRE` (two commands, a gap) and `SET NX PX` (one atomic command).',
    zh: '区分 `SETNX` + `EXPIRE`（两条命令，有空隙）和 `SET NX PX`（一条原子命令）。',
  },
  steps: [
    {
      claims: ['C04'],
      teacher: {
        en: 'Ask the room to count round trips in “SETNX, then EXPIRE”: two. Then ask what can happen between two round trips: anything, a crash included. Most people see the two commands as one line of code and therefore as one step.',
        zh: '让大家数一数“先 SETNX 再 EXPIRE”要几次往返：两次。再问两次往返之间可能发生什么：任何事，包括崩溃。多数人把这两条命令看成一行代码，于是也就当成了一步。',
      },
      scenario: { inline: twoCommands },
      at: cmd('A:1', 'SETNX'),
      text: {
        en:
          'The obvious fix for the crashed holder: after `SETNX`, set a timeout with `EXPIRE lock:job 1`, so ' +
          'the key disappears on its own. But that is **two** commands, two round trips. A:1’s `SETNX` has ' +
          'just succeeded; its `EXPIRE` has not been sent yet.',
        zh:
          '针对持有者崩溃，最直接的修补是：`SETNX` 之后再用 `EXPIRE lock:job 1` 设置超时，让键自己消失。' +
          '可这是**两条**命令、两次往返。A:1 的 `SETNX` 刚刚成功，`EXPIRE` 还没发出去。',
      },
      checks: [{ reply: 1 }, { key: 'lock:job', pttl: 'none' }],
    },
    {
      claims: ['C04'],
      teacher: {
        en: 'Ask: “the code says EXPIRE 1 — why would the key not expire?” The usual mistake is to read the program instead of the run: the EXPIRE is never sent.',
        zh: '问大家：“代码里明明写着 EXPIRE 1，键为什么不过期？”常见的错误是看程序而不是看运行：那条 EXPIRE 根本没发出去。',
      },
      at: { kind: 'client.crash' },
      question: {
        prompt: {
          en: 'A:1 crashes right now, between the two commands. Will B:1 ever get the lock?',
          zh: 'A:1 恰好在两条命令之间崩溃了。B:1 最终能拿到锁吗？',
        },
        choices: [
          choice(
            'yes',
            true,
            'Yes, the key expires after 1 s',
            '能，键 1 秒后过期',
            why(
              'The program says `EXPIRE lock:job 1`, so a 1 s lifetime seems certain. But that command is the one that never left A:1: the run shows no `EXPIRE` at all, and `PTTL` stays `-1`.',
              '程序里写着 `EXPIRE lock:job 1`，1 秒的寿命看起来板上钉钉。可这正是 A:1 没来得及发出的那条命令：运行里根本没有 `EXPIRE`，`PTTL` 一直是 `-1`。',
            ),
          ),
          choice('no', false, 'No, the key never expires', '不能，键永远不会过期'),
        ],
        answer: whether(atLeast(1, acquired('B:1'))),
        feedback: {
          en:
            'The `EXPIRE` was never sent, so the key has no TTL and we are back in the deadlock of the last ' +
            'lesson. Any gap between “take the lock” and “give it an expiry” is a window for this.',
          zh: '`EXPIRE` 根本没有发出去，键没有 TTL，又回到了上一课的死锁。“加锁”和“设过期时间”之间的任何空隙，都是这个问题的窗口。',
        },
      },
      text: {
        en:
          'The process dies in that gap. The key was created but its expiry never arrives: `PTTL` stays `-1` ' +
          'forever. Two commands are not atomic: something can always happen between them.',
        zh: '进程恰好死在这个空隙里。键已经建好了，过期时间却永远不会来：`PTTL` 一直是 `-1`。两条命令不是原子的：它们之间总可能发生点什么。',
      },
      checks: [{ key: 'lock:job', is: 'string', pttl: 'none' }, none({ kind: 'cmd', cmd: 'EXPIRE' })],
    },
    {
      claims: ['C04'],
      teacher: {
        en: 'Point at the verdict badge and compare it with lesson {lesson:setnx}: the same **Stuck**, for the same reason. If you do the task live, use the lock-type picker beside it; expect someone to suggest moving the crash, and show that the dodge message answers them.',
        zh: '指给大家看结论标记，和第 {lesson:setnx} 课对比：同样是**卡死**，原因也一样。如果现场做任务，用任务旁的锁类型选择器；估计会有人建议挪动崩溃的时间，演示一下“绕开”的提示是怎么回应的。',
      },
      text: {
        en:
          'Three seconds later the key is still there without a TTL, and B:1 is still polling. The verdict is ' +
          '**Stuck** (L1), as in the last lesson: nothing unsafe happened, but nobody can ever get the lock.',
        zh: '三秒后，键依然在，依然没有 TTL，B:1 还在轮询。结论是**卡死**（L1），和上一课一样：没有发生不安全的事，但谁也拿不到锁了。',
      },
      checks: [
        { key: 'lock:job', pttl: 'none' },
        { thread: 'B:1', state: 'waiting' },
        none({ kind: 'cmd', cmd: 'EXPIRE' }),
        { verdict: 'stuck' },
      ],
      task: {
        prompt: yourTurn(
          'Redis has one command that sets the value **and** the expiry: `SET key value NX PX ms`. ' +
            'Switch both threads’ `lock` ops to type `set-nx-px` (keep `leaseMs: 1000`).',
          'Redis 有一条命令能同时设置值**和**过期时间：`SET key value NX PX ms`。' +
            '把两个线程的 `lock` 操作都改成类型 `set-nx-px`（保留 `leaseMs: 1000`）。',
        ),
        controls: [lockTypeControl(['setnx-expire', 'set-nx-px'])],
        goalText: {
          en: 'A:1 still crashes at 2 ms, both threads lock with one `SET … NX PX`, and B:1 gets the lock.',
          zh: 'A:1 照样在第 2 毫秒崩溃，两个线程都用一条 `SET … NX PX` 加锁，B:1 拿到了锁。',
        },
        goal: {
          all: [
            atLeast(1, { kind: 'client.crash' }),
            atLeast(1, cmd('A:1', 'SET')),
            atLeast(1, cmd('B:1', 'SET')),
            none({ kind: 'cmd', cmd: 'EXPIRE' }),
            atLeast(1, acquired('B:1')),
          ],
        },
        dodges: [
          dodge(
            { all: [atLeast(1, acquired('B:1')), none({ kind: 'client.crash' })] },
            'That works, but only because nothing crashes any more. The point is a holder that dies between ' +
              'two commands; keep the crash and remove the gap.',
            '这样确实行，但只是因为不再有任何崩溃了。这一课的重点是死在两条命令之间的持有者：保留崩溃，去掉空隙。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            { all: [atLeast(1, acquired('B:1')), atLeast(1, cmd('A:1', 'EXPIRE'))] },
            'That works, but only because the crash now comes after A:1’s `EXPIRE`. The gap between the two ' +
              'commands is still there; your crash just missed it. Use the one command that sets both.',
            '这样确实行，但只是因为崩溃现在发生在 A:1 的 `EXPIRE` 之后。两条命令之间的空隙还在，只是你的崩溃没落进去。请用一条命令同时设置两者。',
            [{ op: 'replace', path: '/faults/0/at', value: 50 }],
          ),
        ],
        solution: [...onFirstOps('replace', 'type', 'set-nx-px')],
        success: {
          en:
            'A:1 crashed right after its one `SET … NX PX`, and the key expired anyway: with one command the ' +
            'lock and its lease exist together or not at all, so B:1 got in.',
          zh: 'A:1 在它唯一的一条 `SET … NX PX` 之后就崩溃了，键照样过期：一条命令，锁和租期要么同时存在，要么都不存在，所以 B:1 进来了。',
        },
      },
    },
    {
      claims: ['C05'],
      teacher: {
        en: 'Ask what “atomic” means here in plain words: the key and its expiry exist together or not at all. Some think `SET NX PX` is a Lua script or a transaction; it is one ordinary command with options.',
        zh: '让大家用大白话说说这里的“原子”是什么意思：键和过期时间要么一起存在，要么都不存在。有人以为 `SET NX PX` 是 Lua 脚本或事务；其实它只是带选项的一条普通命令。',
      },
      scenario: {
        patch: [
          ...onFirstOps('replace', 'type', 'set-nx-px'),
          // the title above the timeline names what now runs, not the two commands of steps 1–3
          { op: 'replace', path: '/title', value: 'SET NX PX: the lock and its expiry in one command' },
          { op: 'replace', path: '/titleZh', value: 'SET NX PX：锁和过期时间在一条命令里' },
        ],
      },
      at: cmd('A:1', 'SET'),
      text: {
        en:
          'This is the version the tutorials arrive at: `SET lock:job 1 NX PX 1000`. Right after the one command ' +
          'the key exists **with** a positive `PTTL`. A crash can no longer leave a lock that never expires.',
        zh:
          '这就是教程最终给出的写法：`SET lock:job 1 NX PX 1000`。这一条命令执行完，键就已经**带着**正的 `PTTL` 存在了。' +
          '崩溃再也不会留下一把永不过期的锁。',
      },
      checks: [{ reply: { status: 'OK' } }, { key: 'lock:job', is: 'string', pttl: { min: 900, max: 1000 } }],
    },
    {
      claims: ['C05', 'C34'],
      teacher: {
        en: 'Ask: if the lease is what frees a dead holder’s lock, why not make it one second for everyone? Let the room find the cost (a slow but alive holder loses its lock); that is the bridge to the next lesson.',
        zh: '问大家：既然是租期让死掉的持有者的锁得以释放，为什么不干脆给所有人都设一秒？让大家自己找出代价（慢但还活着的持有者会丢掉锁）；这正好引到下一课。',
      },
      at: acquired('B:1'),
      text: {
        en:
          'A:1 still crashed at 2 ms, but its key expired one second later and B:1’s next poll got the lock. ' +
          'The lease is what makes the lock **live** (it can always be obtained again). The next lesson shows ' +
          'what it costs: choosing how long the lease should be.',
        zh:
          'A:1 照样在第 2 毫秒崩溃，但它的键一秒后过期，B:1 下一次轮询就拿到了锁。租期让锁具备了**活性**（锁总能再次被获取）。' +
          '下一课讲它的代价：租期该设多长？',
      },
      checks: [
        { thread: 'A:1', state: 'crashed' },
        { key: 'lock:job', is: 'string', pttl: { min: 900 } },
      ],
    },
  ],
};

export default lesson;
