import { atLeast, choice, none, onFirstOps, whether, yourTurn } from './common';
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
  steps: [
    {
      claims: ['C04'],
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
      at: { kind: 'client.crash' },
      question: {
        prompt: {
          en: 'A:1 crashes right now, between the two commands. Will B:1 ever get the lock?',
          zh: 'A:1 恰好在两条命令之间崩溃了。B:1 最终能拿到锁吗？',
        },
        choices: [
          choice('yes', true, 'Yes, the key expires after 1 s', '能，键 1 秒后过期'),
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
        goalText: {
          en: 'B:1 gets the lock although A:1 crashed.',
          zh: '尽管 A:1 崩溃了，B:1 还是拿到了锁。',
        },
        goal: atLeast(1, acquired('B:1')),
        solution: [...onFirstOps('replace', 'type', 'set-nx-px')],
        success: {
          en: 'One command, no gap: the lock and its lease exist together or not at all.',
          zh: '一条命令，没有空隙：锁和它的租期要么同时存在，要么都不存在。',
        },
      },
    },
    {
      claims: ['C05'],
      scenario: {
        patch: [...onFirstOps('replace', 'type', 'set-nx-px')],
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
