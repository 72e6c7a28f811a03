import {
  atLeast,
  choice,
  dodge,
  lockTypeControl,
  msControl,
  toggleControl,
  fieldOf,
  holds,
  none,
  onFirstOps,
  openV1,
  threadHolds,
  tokenCounterIs2,
  v1,
  whether,
  yourTurn,
  why,
} from './common';
import { ev, violationStart } from './events';
import type { Lesson } from '../types';

const aWrite = ev('resource.use', 'A:1');

/** A:1's pause still happens. */
const paused = atLeast(1, { kind: 'client.pause' });
/** A:1's lock script set the watchdog's 30 s (no lease of the caller's). */
const watchdogLease = atLeast(1, {
  kind: 'script.call',
  cmd: 'pexpire',
  before: { kind: 'lock.acquired', actor: 'A:1' },
  where: { argv: ['pexpire', 'myLock', '30000'] },
});

const lesson: Lesson = {
  id: 'pauses-fencing',
  title: {
    en: 'When the watchdog cannot help: pauses, and fencing',
    zh: '看门狗也救不了的时候：停顿与防护令牌（fencing）',
  },
  minutes: 9,
  part: 2,
  objective: {
    en: 'Show why a pause beats any lease, and how a fencing token protects the data instead of the lock.',
    zh: '说明为什么停顿能打败任何租期，以及防护令牌如何保护数据而不是锁。',
  },
  steps: [
    {
      claims: ['C29'],
      teacher: {
        en: 'Ask the room for causes of a 40 s stop-the-world in real systems (a full GC on a big heap, a VM live migration, a laptop lid). Many think the watchdog runs “outside” the application; it is a timer in the same JVM.',
        zh: '请大家说说真实系统里 40 秒全局停顿的原因（大堆上的一次 Full GC、虚拟机热迁移、合上的笔记本盖子）。很多人以为看门狗运行在应用“之外”；其实它是同一个 JVM 里的一个定时器。',
      },
      scenario: { builtin: 'gc-pause-lease-expiry' },
      at: { kind: 'client.pause' },
      text: {
        en:
          'A:1 holds `myLock` under the watchdog and is in the middle of a read-modify-write. Then its JVM stops ' +
          'the world (a long GC, a VM migration, a swapped-out process) for 40 s. **Every** thread of the ' +
          'process stops, and the watchdog timer is one of them.',
        zh:
          'A:1 在看门狗的保护下持有 `myLock`，正在做“读-改-写”。这时它的 JVM 停顿了 40 秒（一次长 GC、虚拟机迁移、进程被换出）。' +
          '进程里**所有**线程都停了，看门狗的定时器也是其中之一。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'] },
      checks: [threadHolds('A:1', 'myLock', 1, { state: 'paused' }), holds('myLock', 'A:1', 1)],
    },
    {
      claims: ['C29'],
      teacher: {
        en: 'Ask where the watchdog runs. Once the room says “in the same JVM”, the answer follows: a stop-the-world pause freezes the renewals too.',
        zh: '问大家看门狗在哪里运行。一旦有人说出“在同一个 JVM 里”，答案就出来了：全局停顿也会冻住续期。',
      },
      at: violationStart('V1', 'myLock'),
      // B:1's hold is 0.1 s of a 41 s run: the answer opens on the expiry and that hold
      zoom: { from: { kind: 'key.expired', key: 'myLock' }, to: { kind: 'lock.released', actor: 'B:1' } },
      question: {
        prompt: {
          en: 'The pause (40 s) is longer than the lease (30 s). Will B:1 get the lock while A:1 is frozen?',
          zh: '停顿（40 秒）比租期（30 秒）长。A:1 被冻住期间，B:1 会拿到锁吗？',
        },
        choices: [
          choice('yes', true, 'Yes: nobody renews the lease', '会：没人续期了'),
          choice(
            'no',
            false,
            'No: the watchdog keeps it alive',
            '不会：看门狗会让它活着',
            why(
              'The watchdog did keep the lock alive in the last lesson. But it is a timer in the same JVM: the pause froze it too, and the run shows no renewal at 10 s or 20 s and B:1 acquiring at ≈ 30 s.',
              '上一课里看门狗确实让锁一直活着。但它是同一个 JVM 里的定时器：停顿把它也冻住了，运行里第 10 秒和第 20 秒都没有续期，B:1 在约 30 秒拿到了锁。',
            ),
          ),
        ],
        answer: whether(v1('myLock', 'A:1', 'B:1')),
        feedback: {
          en:
            'The renewals due at 10 s and 20 s never ran: the timer was frozen with everything else. At 30 s the ' +
            'key expires and B:1’s retry succeeds. From Redis’ side this looks exactly like a crashed holder.',
          zh: '本该在第 10 秒和第 20 秒执行的续期根本没有执行：定时器和其他东西一起被冻住了。第 30 秒键过期，B:1 重试成功。从 Redis 这边看，这和持有者崩溃一模一样。',
        },
      },
      text: {
        en:
          'B:1 now holds the lock, and A:1, frozen, still **believes** it holds it too: two holders (`V1`). ' +
          'A:1 has no way to notice, because it is not running.',
        zh: '现在 B:1 持有锁，而被冻住的 A:1 仍然**以为**自己也持有：两个持有者（`V1`）。A:1 根本没法察觉，因为它根本没在运行。',
      },
      checks: [
        none({ kind: 'watchdog.renew' }),
        atLeast(1, { kind: 'key.expired', key: 'myLock' }),
        openV1('myLock', 'A:1', 'B:1'),
      ],
      task: {
        prompt: yourTurn(
          'make the pause shorter than the lease (the `pause` fault’s `ms`).',
          '把停顿缩短到比租期短（改 `pause` 故障的 `ms`）。',
        ),
        controls: [msControl('The pause (`ms`)', '停顿时长（`ms`）', ['/faults/0/ms'])],
        goalText: {
          en: 'The run is safe, A:1 is still paused, and its lock is still the watchdog’s 30 s one.',
          zh: '运行结果是安全的，A:1 照样停顿，它的锁仍是看门狗的 30 秒租期。',
        },
        goal: { all: [{ verdict: 'safe' }, paused, watchdogLease] },
        solution: [{ op: 'replace', path: '/faults/0/ms', value: 20_000 }],
        dodges: [
          dodge(
            { all: [{ verdict: 'safe' }, { not: paused }] },
            'That works, but only because A:1 is never paused: the lesson is about what a pause does. Keep it, ' +
              'shorter than the lease.',
            '这样确实行，但只是因为 A:1 根本没停顿：这一课讲的就是停顿的后果。请保留停顿，只是让它比租期短。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            { all: [{ verdict: 'safe' }, { not: watchdogLease }] },
            'That works, but you replaced the watchdog with a long fixed lease: the pause fits in it this time, ' +
              'and a crashed holder now blocks everyone for that long. Keep the watchdog and shorten the pause.',
            '这样确实行，但你用一个很长的固定租期换掉了看门狗：这次停顿恰好装得下，可持有者一旦崩溃，所有人都要被挡这么久。' +
              '请保留看门狗，缩短停顿。',
            [{ op: 'add', path: '/clients/0/threads/0/program/0/leaseMs', value: 60_000 }],
          ),
        ],
        success: {
          en:
            'A:1 was still frozen, but for less than the 30 s the watchdog had set: the key was still A:1’s when ' +
            'it thawed, its overdue renewal went out at once, and B:1 waited for the unlock. But you do not ' +
            'choose how long your pauses are.',
          zh:
            'A:1 照样被冻住，但时间短于看门狗设置的 30 秒：它解冻时键仍是它的，拖欠的续期立刻发了出去，B:1 一直等到它解锁。' +
            '可是停顿多长，从来不由你决定。',
        },
      },
    },
    {
      claims: ['C29'],
      teacher: {
        en: 'Ask whether A:1 could check “do I still hold the lock?” before writing: it could, and the pause could fall right after the check. That is why the fix moves to the store. For the task, use the switches beside it (fenced resource, FencedLock) rather than JSON.',
        zh: '问大家：A:1 能不能在写之前先检查“我还持有锁吗？”：能，但停顿可能恰好落在检查之后。所以修复要移到存储那一侧。做任务时用旁边的开关（受防护的资源、`FencedLock`），不用 JSON。',
      },
      at: violationStart('V3', 'myLock'),
      text: {
        en:
          'At 41 s A:1 wakes up and finishes what it was doing: it writes the value it computed 40 s ago. B:1 ' +
          'has written since, so A:1’s write erases B:1’s update: a `V3` (stale holder). Its `unlock()` then ' +
          'fails with `IllegalMonitorStateException`, too late to matter.',
        zh:
          '第 41 秒 A:1 醒来，接着做手上的事：把 40 秒前算好的值写回去。B:1 在这期间已经写过了，所以 A:1 的写入抹掉了 B:1 的更新：' +
          '`V3`（过期的持有者）。随后它的 `unlock()` 抛出 `IllegalMonitorStateException`，但已经于事无补。',
      },
      checks: [{ violation: 'V3', lock: 'myLock' }, { resource: { accepted: 2, value: 1 } }],
      task: {
        prompt: yourTurn(
          'protect the data instead of the lock. Make the resource `fenced` and both threads lock ' +
            'with type `FencedLock`, whose every acquire returns a larger token the store remembers.',
          '保护数据而不是锁。把资源改成 `fenced`，两个线程都用 `FencedLock` 加锁，每次加锁都返回一个更大的令牌，存储会记住它。',
        ),
        controls: [
          toggleControl('Fenced resource', '带防护的资源', ['/resource'], { kind: 'fenced', initial: 0 }),
          lockTypeControl(['RLock', 'FencedLock']),
        ],
        goalText: {
          en:
            'No `V3`: A:1 is still paused, and the fenced store refuses its stale write (token `1` after it ' +
            'saw `2`).',
          zh: '没有 `V3`：A:1 照样停顿，带防护的存储拒绝了它过期的写入（见过 `2` 之后的令牌 `1`）。',
        },
        goal: { all: [{ noViolation: 'V3' }, paused, { resource: { rejected: 1, lastToken: 2 } }] },
        dodges: [
          dodge(
            { all: [{ noViolation: 'V3' }, { resource: { rejected: 0 } }] },
            'That works, but no stale write was refused, because there was none to refuse (no pause, or no ' +
              'second holder). Keep the pause and let the tokens catch the late write.',
            '这样确实行，但没有任何过期写入被拒绝，因为根本没有（没有停顿，或者没有第二个持有者）。请保留停顿，让令牌拦住迟到的写入。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
        ],
        solution: [
          { op: 'add', path: '/resource', value: { kind: 'fenced', initial: 0 } },
          ...onFirstOps('add', 'type', 'FencedLock'),
        ],
        success: {
          en:
            'A:1 was paused as before and B:1 got the lock, but now each acquire came with a token: the store ' +
            'saw token 2 from B:1, so A:1’s late write with token 1 was refused.',
          zh: 'A:1 和之前一样被冻住，B:1 拿到了锁，但现在每次加锁都带一个令牌：存储见过 B:1 的令牌 2，所以 A:1 拿着令牌 1 的迟到写入被拒绝了。',
        },
      },
    },
    {
      claims: ['C39'],
      teacher: {
        en: 'Point at the token counter key in the keyspace and at each acquire’s token. Ask who must check the token: the store, not Redis. People expect the lock to refuse A:1; the lock cannot, it does not know A:1 is about to write.',
        zh: '指给大家看键空间里的令牌计数键，以及每次加锁拿到的防护令牌。问大家谁必须检查防护令牌：是存储，不是 Redis。人们以为锁会拒绝 A:1；锁做不到，它不知道 A:1 正要写。',
      },
      scenario: { builtin: 'fencing-saves-gc-pause' },
      at: ev('resource.use', 'B:1'),
      text: {
        en:
          'The same story with a fenced lock (Kleppmann’s **fencing token**). Each acquire increments ' +
          '`redisson_lock_token:{res}` inside the lock script: A:1 got token `1`, B:1 got `2`. The store ' +
          'accepts B:1’s write with token 2 and remembers it.',
        zh:
          '同样的故事，换成带**防护令牌**（fencing token）的锁，这是 Kleppmann 提出的做法。每次加锁都会在脚本里递增 `redisson_lock_token:{res}`：' +
          'A:1 拿到令牌 `1`，B:1 拿到 `2`。存储接受了 B:1 带令牌 2 的写入，并记住了这个令牌。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['res', 'redisson_lock_token:{res}'] },
      checks: [{ resource: { accepted: 1, lastToken: 2 } }, tokenCounterIs2],
    },
    {
      claims: ['C39', 'C29'],
      teacher: {
        en: 'Stress that the store decides, not the lock: ask what the store needs to know (the highest token seen) and what it does not (pauses, leases).',
        zh: '强调做决定的是存储，不是锁：问大家存储需要知道什么（见过的最大令牌），不需要知道什么（停顿、租期）。',
      },
      at: aWrite,
      question: {
        prompt: {
          en: 'A:1 thaws and writes with token `1`; the store has seen `2`. Is the write accepted?',
          zh: 'A:1 解冻后带着令牌 `1` 写入；存储已经见过 `2`。这次写入会被接受吗？',
        },
        choices: [
          choice(
            'accepted',
            true,
            'Accepted',
            '接受',
            why(
              'A:1 still believes it holds the lock, and without fencing the store would take the write. The fenced store compares tokens: `1` is lower than the `2` it has seen, and the run shows the write refused.',
              'A:1 仍然以为自己持有锁，没有防护令牌的话存储会接受这次写入。但带防护的存储会比较令牌：`1` 比它见过的 `2` 小，运行里这次写入被拒绝了。',
            ),
          ),
          choice('rejected', false, 'Rejected', '拒绝'),
        ],
        answer: fieldOf(aWrite, 'accepted'),
        feedback: {
          en:
            'A token lower than one already seen can only come from a holder that lost the lock. The store does ' +
            'not need to know about pauses or leases: it just compares numbers.',
          zh: '比已见过的令牌还小的令牌，只可能来自一个已经失去锁的持有者。存储不需要知道停顿或租期：它只比较数字。',
        },
      },
      text: {
        en:
          'Rejected. Note what fencing does and does not do: the two holders still overlapped (`V1`: the lease ' +
          'alone cannot prevent that), but the data is safe (no `V3`). Fencing protects the resource; the lock ' +
          'only makes conflicts rare.',
        zh:
          '被拒绝了。注意防护令牌做到了什么、没做到什么：两个持有者依然重叠（`V1`：单靠租期无法避免），但数据是安全的（没有 `V3`）。' +
          '防护令牌保护的是资源；锁只是让冲突变得少见。',
      },
      checks: [
        { resource: { accepted: 1, rejected: 1, value: 8 } },
        { noViolation: 'V3' },
        v1('res', 'A:1', 'B:1'),
      ],
    },
  ],
};

export default lesson;
