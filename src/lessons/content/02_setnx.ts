import {
  atLeast,
  choice,
  dodge,
  firstOpPaths,
  lockTypeControl,
  msControl,
  none,
  replyOf,
  threadHolds,
  yourTurn,
  why,
} from './common';
import { acquired, cmd } from './events';
import type { Lesson } from '../types';

const lesson: Lesson = {
  id: 'setnx',
  title: { en: 'SETNX, and the holder that crashes', zh: 'SETNX，以及崩溃的持有者' },
  minutes: 6,
  part: 1,
  objective: {
    en: 'Take a lock with `SETNX`, and show why a holder that crashes leaves it stuck for ever.',
    zh: '用 `SETNX` 加锁，并说明为什么崩溃的持有者会让锁永远卡住。',
  },
  steps: [
    {
      claims: ['C02'],
      teacher: {
        en: 'Ask what `SETNX` stands for before showing the text. A common confusion is between the key’s value and the reply: the value is `1` because the program writes `1`, the reply is `1` because the key was created. Point at both, the keyspace and the command’s reply in the caption.',
        zh: '先别看正文，问大家 `SETNX` 是哪几个词的缩写。常见的混淆是把键的值和命令的返回值弄混：值是 `1`，因为程序写的就是 `1`；返回 `1`，是因为键被创建了。两样都指给大家看：键空间里的值和字幕里命令的返回。',
      },
      scenario: { builtin: 'naive-setnx-deadlock' },
      at: cmd('A:1', 'SETNX'),
      text: {
        en:
          'The simplest distributed lock is one Redis command: `SETNX key value` (“SET if Not eXists”). It sets ' +
          'the key only when nobody has, and says so: `1` for the caller that created it, `0` for everyone ' +
          'else. A:1 is first, gets `1`, and now holds `lock:job`. Releasing is a `DEL`.',
        zh:
          '最简单的分布式锁就是一条 Redis 命令：`SETNX key value`（SET if Not eXists）。只有键不存在时才设置，并把结果告诉你：' +
          '创建成功的调用者拿到 `1`，其他人都是 `0`。A:1 先到，拿到 `1`，现在它持有 `lock:job`。释放锁就是一条 `DEL`。',
      },
      highlight: { lanes: ['A:1'], keys: ['lock:job'] },
      checks: [{ reply: 1 }, { key: 'lock:job', is: 'string', value: '1' }],
    },
    {
      claims: ['C02'],
      teacher: {
        en: 'A quick show of hands: 0 or 1? Those who say 1 usually think of plain `SET`. Then ask why two clients can never both see “not exists”: Redis runs one command at a time. That single-threaded execution is what every later lesson leans on.',
        zh: '快速举手：0 还是 1？选 1 的人想的多半是普通的 `SET`。再问：为什么两个客户端不可能都看到“不存在”？因为 Redis 一次只执行一条命令。后面每一课都建立在这种单线程执行之上。',
      },
      at: cmd('B:1', 'SETNX'),
      text: {
        en:
          'B:1 runs the same command 100 ms later. Redis executes commands one at a time, so there is no way for ' +
          'both to see “not exists”: B:1 gets `0` and must wait. That is **mutual exclusion** (互斥性), the first ' +
          'property every lock needs.',
        zh:
          '100 毫秒后 B:1 执行同一条命令。Redis 一次只执行一条命令，两个人不可能都看到“不存在”：B:1 拿到 `0`，只能等待。' +
          '这就是**互斥性**，任何锁都必须具备的第一个条件。',
      },
      question: {
        prompt: {
          en: 'What will B:1’s `SETNX lock:job 1` return?',
          zh: 'B:1 的 `SETNX lock:job 1` 会返回什么？',
        },
        choices: [
          choice(
            'one',
            1,
            '`1`: it sets the key too',
            '`1`：它也设置了这个键',
            why(
              'Tempting if you think of `SET`, which overwrites. `SETNX` is “set if **not** exists”: A:1’s key is there, so the run shows reply `0` and the key still holds A:1’s value.',
              '如果想的是会覆盖的 `SET`，就容易选它。`SETNX` 是“**不存在**才设置”：A:1 的键还在，运行里返回的是 `0`，键里仍是 A:1 的值。',
            ),
          ),
          choice('zero', 0, '`0`: the key already exists', '`0`：键已经存在'),
        ],
        answer: replyOf(cmd('B:1', 'SETNX')),
        feedback: {
          en: '`SETNX` never overwrites: the key exists, so nothing is set and the reply is `0`.',
          zh: '`SETNX` 从不覆盖：键已经存在，所以什么也不设置，返回 `0`。',
        },
      },
      checks: [{ reply: 0 }, threadHolds('A:1', 'lock:job', 1)],
    },
    {
      claims: ['C03'],
      teacher: {
        en: 'Ask: “we wrote the `DEL` in a `finally` block, so why does it not run?” People confuse an exception (finally runs) with the process dying (nothing runs). Point at the crash mark on A’s lane and at `PTTL -1` in the keyspace.',
        zh: '问大家：“`DEL` 写在 `finally` 里了，为什么没执行？”人们常把异常（`finally` 会执行）和进程死掉（什么都不执行）混为一谈。指给大家看 A 泳道上的崩溃标记和键空间里的 `PTTL -1`。',
      },
      at: { kind: 'client.crash' },
      text: {
        en:
          'Now the holder’s process dies (a crash, a `kill -9`, a machine that loses power) before it reaches ' +
          'its `DEL`. Even a `finally` block does not help when the whole JVM is gone. The key stays, and it ' +
          'has no expiry: `PTTL` is `-1`.',
        zh:
          '持有者的进程在执行 `DEL` 之前挂了（崩溃、`kill -9`、机器断电）。整个 JVM 都没了，写在 `finally` 里的释放也执行不到。' +
          '键还在，而且没有过期时间：`PTTL` 是 `-1`。',
      },
      checks: [
        { key: 'lock:job', is: 'string', pttl: 'none' },
        { thread: 'A:1', state: 'crashed' },
      ],
    },
    {
      claims: ['C03'],
      teacher: {
        en: 'Point at the verdict: **Stuck**, not Safe. Ask whether “nothing unsafe happened” is good news; it is not, a lock nobody can get is a failure too. If you run the task, show the trap first: `setnx-expire` passes here by luck, which is exactly the next lesson.',
        zh: '指给大家看结论：**卡死**，而不是安全。问大家“没有发生不安全的事”算不算好消息；不算，谁也拿不到的锁同样是失败。如果现场做任务，先演示那个陷阱：`setnx-expire` 在这里是碰巧通过的，这正是下一课的内容。',
      },
      text: {
        en:
          'B:1 keeps asking, every 100 ms, and keeps getting `0`. Nothing unsafe happens, but nothing happens at ' +
          'all: the lock belongs to a process that no longer exists, and nobody will ever get it. That is the ' +
          '**deadlock** (死锁) every SETNX tutorial warns about. A lock needs a way to release itself.',
        zh:
          'B:1 每 100 毫秒问一次，每次都是 `0`。没有发生不安全的事，但也什么都做不成了：锁属于一个已经不存在的进程，谁也拿不到。' +
          '这就是 SETNX 教程都会提到的**死锁**。锁必须能够自己释放。',
      },
      checks: [
        { key: 'lock:job', pttl: 'none' },
        { thread: 'B:1', state: 'waiting' },
        atLeast(20, cmd('B:1', 'SETNX')),
        none(acquired('B:1')),
        { verdict: 'stuck' },
      ],
      task: {
        prompt: yourTurn(
          'make A:1 take the lock with an expiry. Change its `lock` op to type `set-nx-px` with `leaseMs: 1000`.',
          '让 A:1 加锁时带上过期时间。把它的 `lock` 操作改成类型 `set-nx-px`，并加上 `leaseMs: 1000`。',
        ),
        controls: [
          lockTypeControl(['setnx', 'set-nx-px', 'setnx-expire'], [0]),
          msControl('A:1’s lease (`leaseMs`)', 'A:1 的租期（`leaseMs`）', firstOpPaths('leaseMs', [0])),
        ],
        goalText: {
          en: 'A:1 still crashes, its key expires by itself, and B:1 gets the lock.',
          zh: 'A:1 照样崩溃，它的键自己过期，B:1 拿到锁。',
        },
        goal: {
          all: [
            atLeast(1, { kind: 'client.crash' }),
            atLeast(1, cmd('A:1', 'SET')),
            none(cmd('A:1', 'EXPIRE')),
            atLeast(1, { kind: 'key.expired', key: 'lock:job' }),
            atLeast(1, acquired('B:1')),
          ],
        },
        dodges: [
          dodge(
            { all: [atLeast(1, acquired('B:1')), none({ kind: 'client.crash' })] },
            'That works, but only because A:1 no longer crashes: the lesson is about a holder that dies while ' +
              'it holds the lock. Put the crash back and give the lock an expiry instead.',
            '这样确实行，但只是因为 A:1 不再崩溃了：这一课讲的正是持锁期间死掉的持有者。请把崩溃放回去，改为给锁加上过期时间。',
            [
              { op: 'remove', path: '/faults/0' },
              { op: 'replace', path: '/clients/0/threads/0/program/1/ms', value: 100 },
            ],
          ),
          dodge(
            { all: [atLeast(1, acquired('B:1')), atLeast(1, cmd('A:1', 'EXPIRE'))] },
            'That works here, but only because A:1’s `EXPIRE` got out before it crashed. `setnx-expire` is two ' +
              'commands: a crash between them leaves a key that never expires (the next lesson). Use the one ' +
              'command that sets both, `set-nx-px`.',
            '这里确实行，但只是因为 A:1 的 `EXPIRE` 在崩溃前发出去了。`setnx-expire` 是两条命令：崩溃落在两者之间，' +
              '就会留下一个永不过期的键（下一课）。请用一条命令同时设置两者的 `set-nx-px`。',
            [
              {
                op: 'replace',
                path: '/clients/0/threads/0/program/0',
                value: { op: 'lock', lock: 'lock:job', type: 'setnx-expire', leaseMs: 1000 },
              },
            ],
          ),
        ],
        solution: [
          {
            op: 'replace',
            path: '/clients/0/threads/0/program/0',
            value: { op: 'lock', lock: 'lock:job', type: 'set-nx-px', leaseMs: 1000 },
          },
        ],
        success: {
          en:
            'A:1 set its key and its expiry in one `SET … NX PX` and still crashed; the dead holder’s key ' +
            'expired by itself, and B:1’s next attempt succeeded.',
          zh: 'A:1 用一条 `SET … NX PX` 同时设置了键和过期时间，然后照样崩溃；死掉的持有者留下的键自己过期了，B:1 的下一次尝试就成功了。',
        },
      },
    },
  ],
};

export default lesson;
