import {
  absent,
  choice,
  dodge,
  firstOpPaths,
  gap,
  msControl,
  onFirstOps,
  openV1,
  threadHolds,
  timeOf,
  yourTurn,
  why,
} from './common';
import { ev } from './events';
import { acquired, cmd, violationStart } from './events';
import type { Lesson } from '../types';

/** A:1 still does its 14 s of work under the lock: from its acquire to its unlock request. */
const aHeldFor14s = gap(ev('lock.acquired', 'A:1'), ev('unlock.request', 'A:1'), { min: 14_000 });

const lesson: Lesson = {
  id: 'lease-too-short',
  title: {
    en: 'Leases too short, and deleting someone else’s lock',
    zh: '租期太短，以及删掉别人的锁',
  },
  minutes: 7,
  part: 1,
  objective: {
    en: 'Show how a lease shorter than the work lets a second holder in, and a plain `DEL` free someone else’s lock.',
    zh: '说明租期短于业务时，第二个持有者如何进来，以及普通的 `DEL` 如何释放别人的锁。',
  },
  steps: [
    {
      claims: ['C05'],
      scenario: { builtin: 'naive-delete-others-lock' },
      at: acquired('A:1'),
      text: {
        en:
          'The tutorials’ example: every thread runs `SET lock:job 1 NX PX 10000`, a 10 s lease, does its work, ' +
          'then `DEL lock:job`. A:1 has the lock, but its work takes **14 s**.',
        zh:
          '教程里的例子：每个线程执行 `SET lock:job 1 NX PX 10000`，租期 10 秒，做完业务再 `DEL lock:job`。' +
          'A:1 拿到了锁，但它的业务要执行 **14 秒**。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['lock:job'] },
      checks: [{ key: 'lock:job', value: '1', pttl: { min: 9990, max: 10000 } }],
    },
    {
      claims: ['C06'],
      teacher: {
        en: 'Let the room argue 10 s versus 14 s before playing. The trap is to think the lock ends when the work ends; Redis only knows the lease.',
        zh: '播放之前先让大家争论是 10 秒还是 14 秒。陷阱在于以为业务结束锁才结束；Redis 只知道租期。',
      },
      at: violationStart('V1', 'lock:job'),
      question: {
        prompt: {
          en: 'B:1 has been polling since 100 ms. When will it get the lock?',
          zh: 'B:1 从第 100 毫秒开始轮询。它什么时候能拿到锁？',
        },
        choices: [
          choice(
            'after-a',
            [14000, 14200],
            'At ≈ 14 s, when A:1 deletes it',
            '约 14 秒，A:1 删除锁的时候',
            why(
              'That is what A:1’s code intends: hold the lock until the work is done, then delete it. Redis does not know about the work; the run shows the key expiring at 10 s and B:1 getting in then.',
              '这正是 A:1 代码的本意：干完活再删锁。但 Redis 不知道业务什么时候完：运行里键在第 10 秒过期，B:1 那时就进来了。',
            ),
          ),
          choice('expiry', [10000, 10200], 'At ≈ 10 s, when the key expires', '约 10 秒，键过期的时候'),
          choice(
            'never',
            [0, 0],
            'Never: A:1 holds it',
            '永远拿不到：锁在 A:1 手里',
            why(
              'A:1 does believe it holds the lock until 14 s. But the lock is only the key, and the key has a 10 s lease: the run shows `key.expired` at 10 s and B:1’s next `SET NX` succeeding.',
              'A:1 确实以为自己一直持有到第 14 秒。但锁就是那个键，而键的租期是 10 秒：运行里第 10 秒出现 `key.expired`，B:1 下一次 `SET NX` 就成功了。',
            ),
          ),
        ],
        answer: timeOf(acquired('B:1')),
        feedback: {
          en:
            'Redis knows nothing about A:1’s work: at 10 s the key expires, and the next `SET NX` from anyone ' +
            'succeeds. The lease ended while the work did not.',
          zh: 'Redis 对 A:1 的业务一无所知：10 秒一到键就过期，任何人的下一次 `SET NX` 都会成功。租期到了，业务却还没完。',
        },
      },
      text: {
        en:
          'At 10 s the key expires (`key.expired`), though A:1 is still working. B:1’s next poll succeeds. ' +
          'Now **two** threads are inside the critical section: the monitor opens a `V1` on `lock:job`. A lease ' +
          'that is shorter than the work does not protect the work.',
        zh:
          '第 10 秒键过期了（`key.expired`），而 A:1 还在干活。B:1 下一次轮询就成功了。现在临界区里有**两个**线程：' +
          '监视器在 `lock:job` 上报出 `V1`。比业务短的租期保护不了业务。',
      },
      checks: [openV1('lock:job', 'A:1', 'B:1'), threadHolds('A:1', 'lock:job', 1, { state: 'working' })],
    },
    {
      claims: ['C07'],
      at: cmd('A:1', 'DEL'),
      text: {
        en:
          'A:1 finishes at 14 s and, as written, deletes “its” lock: `DEL lock:job` returns `1`. But the key it ' +
          'deleted was **B:1’s**. Every thread wrote the same value, and `DEL` does not ask whose key it is.',
        zh:
          'A:1 在第 14 秒做完，照代码所写删除“自己的”锁：`DEL lock:job` 返回 `1`。可它删掉的是 **B:1 的**键。' +
          '每个线程写的都是同一个值，而 `DEL` 根本不问这是谁的键。',
      },
      checks: [{ reply: 1 }, absent('lock:job'), threadHolds('B:1', 'lock:job', 1)],
    },
    {
      claims: ['C07'],
      at: violationStart('V1', 'lock:job', 2),
      text: {
        en:
          'So C:1 walks in while B:1 is still working: a second `V1`, this time caused only by the release. As ' +
          'the tutorial says, it goes on: B:1 will delete C:1’s lock, and so on. Two fixes are needed: a value that ' +
          'says **who** holds the lock, and a release that deletes only its own.',
        zh:
          '于是 B:1 还在干活时，C:1 进来了：第二个 `V1`，这次完全是释放方式造成的。正如教程所说，接下来 B:1 又会删掉 C:1 的锁，' +
          '如此往复。需要两处修复：一个能说明**谁**持有锁的值，以及一个只删自己锁的释放。',
      },
      checks: [openV1('lock:job', 'B:1', 'C:1'), { verdict: 'unsafe' }],
      task: {
        prompt: yourTurn(
          'give A:1 a lease that covers its 14 s of work (its `lock` op’s `leaseMs`).',
          '给 A:1 一个能覆盖 14 秒业务的租期（改它 `lock` 操作的 `leaseMs`）。',
        ),
        controls: [
          msControl('A:1’s lease (`leaseMs`)', 'A:1 的租期（`leaseMs`）', firstOpPaths('leaseMs', [0])),
        ],
        goalText: {
          en:
            'No `V1` on `lock:job` in the whole run, A:1 still works its 14 s, and its `DEL` finds its own key ' +
            '(reply `1`).',
          zh: '整个运行过程中 `lock:job` 上没有 `V1`，A:1 仍然干满 14 秒，它的 `DEL` 删到的是自己的键（返回 `1`）。',
        },
        goal: {
          all: [{ noViolation: 'V1', lock: 'lock:job' }, aHeldFor14s, { reply: 1, of: cmd('A:1', 'DEL') }],
        },
        solution: onFirstOps('replace', 'leaseMs', 20000, [0]),
        dodges: [
          dodge(
            { all: [{ noViolation: 'V1', lock: 'lock:job' }, { not: aHeldFor14s }] },
            'That works, but only because A:1’s work got shorter. You do not choose how long the work takes; ' +
              'the lease has to cover it.',
            '这样确实行，但只是因为 A:1 的业务变短了。业务要多久不由你决定；租期必须覆盖它。',
            [{ op: 'replace', path: '/clients/0/threads/0/program/1/ms', value: 9000 }],
          ),
          dodge(
            {
              all: [
                { noViolation: 'V1', lock: 'lock:job' },
                { reply: 0, of: cmd('A:1', 'DEL') },
              ],
            },
            'Close: no one got in this time, but the lease ran out exactly as the work ended, so A:1’s `DEL` ' +
              'found no key (reply `0`). A lease equal to the work leaves no margin: the next poll could have ' +
              'come first. Give it room.',
            '差一点：这次没人进来，但租期恰好在业务结束时到期，A:1 的 `DEL` 没找到键（返回 `0`）。' +
              '租期等于业务时长就毫无余量：下一次轮询本可能抢在前面。请留出余量。',
            onFirstOps('replace', 'leaseMs', 14000, [0]),
          ),
        ],
        success: {
          en:
            'A:1 held the lock for its whole 14 s and its `DEL` removed its own key. It works here, because ' +
            'you know the work takes 14 s. In production nobody knows: a slow query, a GC ' +
            'pause or a retry can always outlast the lease. Lesson {lesson:renewal-task} renews the lease instead of guessing it.',
          zh:
            'A:1 在整整 14 秒里都持有锁，它的 `DEL` 删掉的是自己的键。' +
            '这里行得通，是因为你知道业务要 14 秒。生产环境里没人知道：一次慢查询、一次 GC 停顿、一次重试都可能超过租期。' +
            '第 {lesson:renewal-task} 课不再猜租期，而是给它续期。',
        },
      },
      explore: {
        prompt: {
          en: 'Can you still break it? Let the search try pauses.',
          zh: '还能让它出错吗？让搜索试试各种停顿。',
        },
        faults: ['pause'],
        budget: 500,
      },
    },
  ],
};

export default lesson;
