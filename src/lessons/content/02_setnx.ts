import { atLeast, choice, none, replyOf, threadHolds, yourTurn } from './common';
import { acquired, cmd } from './events';
import type { Lesson } from '../types';

const lesson: Lesson = {
  id: 'setnx',
  title: { en: 'SETNX, and the holder that crashes', zh: 'SETNX，以及崩溃的持有者' },
  minutes: 6,
  steps: [
    {
      claims: ['C02'],
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
          choice('one', 1, '`1`: it sets the key too', '`1`：它也设置了这个键'),
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
        goalText: { en: 'B:1 gets the lock after A:1 crashed.', zh: 'A:1 崩溃之后，B:1 拿到锁。' },
        goal: atLeast(1, acquired('B:1')),
        solution: [
          {
            op: 'replace',
            path: '/clients/0/threads/0/program/0',
            value: { op: 'lock', lock: 'lock:job', type: 'set-nx-px', leaseMs: 1000 },
          },
        ],
        success: {
          en: 'The dead holder’s key expired by itself after 1 s, and B:1’s next attempt succeeded.',
          zh: '死掉的持有者留下的键在 1 秒后自己过期了，B:1 的下一次尝试就成功了。',
        },
      },
    },
  ],
};

export default lesson;
