import {
  atLeast,
  choice,
  dodge,
  exactly,
  gap,
  none,
  noV1Goal,
  onFirstOps,
  openV1,
  toggleControl,
  v1,
  whether,
  yourTurn,
  why,
} from './common';
import { acquired, cmd, ev, violationStart } from './events';
import type { Lesson, ScenarioJson } from '../types';

const critical = (work: number) => [
  { op: 'lock', lock: 'lock:job', type: 'set-nx-px-lua', leaseMs: 3000 },
  { op: 'work', ms: work },
  { op: 'unlock', lock: 'lock:job' },
];

/** The tutorials' renewal thread, by hand: every third of the 3 s lease, push the expiry back to 3 s. */
const renewalThread = {
  id: 2,
  start: 10,
  program: [
    {
      op: 'repeat',
      times: 5,
      body: [
        { op: 'sleep', ms: 1000 },
        { op: 'redis', argv: ['PEXPIRE', 'lock:job', '3000'] },
      ],
    },
  ],
};

/** A:1 works 5 s under a 3 s lease; B:1 polls for the same lock. */
const noRenewal: ScenarioJson = {
  format: 'lockscope/1',
  title: 'A 3 s lease, 5 s of work',
  titleZh: '3 秒租期，5 秒业务',
  clients: [
    { id: 'A', threads: [{ id: 1, program: critical(5000) }] },
    { id: 'B', threads: [{ id: 1, start: 100, program: critical(500) }] },
  ],
};

/** Both threads take the lock with the renewal built in; their unlocks follow the type they locked with. */
const withRenewalType = onFirstOps('replace', 'type', 'set-nx-px-renew');

const addRenewal = [{ op: 'add' as const, path: '/clients/0/threads/-', value: renewalThread }];

/** A:1 still asks for its 3 s lease (the task is to renew it, not to lengthen it). */
const leaseStill3s = atLeast(1, ev('lock.request', 'A:1', { where: { leaseMs: 3000 } }));
/** B:1 still competes: it tries to take the lock before A:1 is done. */
const bTriesWhileAWorks = atLeast(1, cmd('B:1', 'SET', { before: ev('unlock.request', 'A:1') }));

const lesson: Lesson = {
  id: 'renewal-task',
  title: { en: 'Keep it alive: a hand-written renewal task', zh: '让锁活下去：手写一个续期任务' },
  minutes: 7,
  part: 1,
  objective: {
    en: 'Keep a lock alive while the work runs with a renewal thread, and name its rough edges.',
    zh: '用续期线程让锁在业务运行期间一直有效，并说出它的不足。',
  },
  steps: [
    {
      claims: ['C06'],
      teacher: {
        en: 'Ask the room: does the Lua release from the last lesson protect A:1 here? Many say yes, because it was “the fix”. It fixes who may release, not how long the lock lives. When the task appears after the answer, use the switch beside it: the renewal thread is one click, no JSON.',
        zh: '问大家：上一课的 Lua 释放在这里能保护 A:1 吗？很多人会说能，因为它是“那个修复”。它修的是谁能释放，而不是锁能活多久。答完问题后任务才会出现，用任务旁的开关：加续期线程只要点一下，不用写 JSON。',
      },
      scenario: { inline: noRenewal },
      at: violationStart('V1', 'lock:job'),
      question: {
        // before A:1's key expires: the keyspace still shows A:1's token
        decides: { kind: 'key.expired', key: 'lock:job' },
        prompt: {
          en: 'A:1 holds a 3 s lease (Lua release, unique token) and works for 5 s. Does B:1 get in before A:1 is done?',
          zh: 'A:1 的租期是 3 秒（Lua 释放、唯一令牌），业务要 5 秒。B:1 会在 A:1 做完之前进来吗？',
        },
        choices: [
          choice('yes', true, 'Yes, at ≈ 3 s', '会，大约在第 3 秒'),
          choice(
            'no',
            false,
            'No, the Lua release protects A:1',
            '不会，Lua 释放保护了 A:1',
            why(
              'The Lua release did fix the last lesson’s bug, so it feels like a full fix. It only protects the **release**: the run shows A:1’s key expiring at 3 s and B:1 getting the lock while A:1 still works.',
              'Lua 释放确实修好了上一课的问题，所以感觉像是彻底解决了。但它只保护**释放**：运行里 A:1 的键在第 3 秒过期，B:1 在 A:1 还在干活时拿到了锁。',
            ),
          ),
        ],
        answer: whether(v1('lock:job', 'A:1', 'B:1')),
        feedback: {
          en:
            'The Lua script only makes the **release** safe. The lease still ends at 3 s, and then the key is ' +
            'gone for everyone.',
          zh: 'Lua 脚本只让**释放**变得安全。租期照样在第 3 秒结束，之后键对所有人来说都不存在了。',
        },
      },
      text: {
        en:
          'Everything from the last lesson is in place, and still B:1 gets the lock at ≈ 3 s while A:1 works. ' +
          'The tutorials’ answer (续时): “设定任务不完成锁就不释放” — as long as the task is unfinished, the lock ' +
          'must not go away. Something has to keep pushing the expiry back.',
        zh:
          '上一课的修复都在，B:1 还是在约 3 秒时拿到了锁，而 A:1 还在干活。教程的答案是“续时”：设定任务不完成锁就不释放。' +
          '得有个东西不断把过期时间往后推。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['lock:job'] },
      checks: [openV1('lock:job', 'A:1', 'B:1')],
      task: {
        prompt: yourTurn(
          'give client A a second thread that renews the lock: every 1 s (a third of the lease), ' +
            '`PEXPIRE lock:job 3000`. Five rounds are enough.',
          '给客户端 A 加第二个线程来续期：每 1 秒（租期的三分之一）执行一次 `PEXPIRE lock:job 3000`，五轮就够了。',
        ),
        controls: [
          toggleControl(
            'A:2 renews `lock:job` every 1 s',
            'A:2 每 1 秒给 `lock:job` 续期',
            ['/clients/0/threads/1'],
            renewalThread,
          ),
        ],
        goalText: {
          en:
            'No `V1` on `lock:job`, with A:1’s lease still 3 s, B:1 still trying while A:1 works, and at ' +
            'least three renewals (`PEXPIRE`) from A:2.',
          zh: '`lock:job` 上没有 `V1`，A:1 的租期仍是 3 秒，B:1 仍在 A:1 干活时尝试加锁，并且 A:2 至少续期（`PEXPIRE`）三次。',
        },
        goal: {
          all: [
            noV1Goal('lock:job').goal,
            leaseStill3s,
            bTriesWhileAWorks,
            atLeast(3, cmd('A:2', 'PEXPIRE')),
          ],
        },
        solution: addRenewal,
        dodges: [
          dodge(
            { all: [noV1Goal('lock:job').goal, { not: leaseStill3s }] },
            'That works, but only because you lengthened the lease: the guess of lesson {lesson:lease-too-short}, which the next slow ' +
              'request outlasts. Keep the 3 s lease and renew it while A:1 works.',
            '这样确实行，但只是因为你加长了租期：这正是第 {lesson:lease-too-short} 课的猜测，下一个慢请求就会超过它。请保留 3 秒租期，在 A:1 干活时给它续期。',
            onFirstOps('replace', 'leaseMs', 10_000, [0]),
          ),
          dodge(
            { all: [noV1Goal('lock:job').goal, { not: bTriesWhileAWorks }] },
            'That works, but only because B:1 now arrives after A:1 is done: nobody competes for the lock. ' +
              'Keep B:1 where it was.',
            '这样确实行，但只是因为 B:1 现在在 A:1 做完之后才来：没人抢锁了。请让 B:1 保持原来的时间。',
            [{ op: 'replace', path: '/clients/1/threads/0/start', value: 6000 }],
          ),
          dodge(
            { all: [noV1Goal('lock:job').goal, none(cmd('A:2', 'PEXPIRE'))] },
            'That works, but the renewals do not come from the holder’s side: a renewal has to live and die ' +
              'with the holder. A renewer on another client keeps the lock alive even after A crashes: the ' +
              'deadlock of lesson {lesson:setnx} again. Give the thread to client A.',
            '这样确实行，但续期不是来自持有者这一边：续期必须和持有者同生共死。放在别的客户端上的续期线程，' +
              '在 A 崩溃后仍会让锁一直活着：又回到了第 {lesson:setnx} 课的死锁。请把这个线程放到客户端 A 上。',
            [{ op: 'add', path: '/clients/1/threads/-', value: renewalThread }],
          ),
        ],
        success: {
          en:
            'A:2 renewed `lock:job` while A:1 worked, so its 3 s lease never ran out; B:1 kept trying and got ' +
            'the lock only after A:1 released it.',
          zh: 'A:1 干活期间 A:2 一直给 `lock:job` 续期，3 秒的租期从未用完；B:1 一直在尝试，直到 A:1 释放之后才拿到锁。',
        },
      },
    },
    {
      claims: ['C10'],
      teacher: {
        en: 'Point at the sawtooth of `PTTL` in the keyspace as you step: each `PEXPIRE` pushes it back to 3000. Ask why renew at a third of the lease and not at the end: a renewal can be late, and the margin absorbs it.',
        zh: '一步步走的时候，指给大家看键空间里 `PTTL` 的锯齿：每次 `PEXPIRE` 都把它推回 3000。问大家为什么在租期的三分之一处续期，而不是到期前一刻：续期可能迟到，余量能把它吸收掉。',
      },
      scenario: { patch: addRenewal },
      at: cmd('A:2', 'PEXPIRE', { nth: 2 }),
      text: {
        en:
          'This is the shape of the tutorial’s `ScheduledExecutorService`: a thread wakes up regularly, and when the ' +
          'lock has entered the last part of its lease (“进入最后三分之一时间”) it resets the expiry. Here A:2 ' +
          'renews every 1 s; each `PEXPIRE` puts `PTTL` back to 3000.',
        zh:
          '这就是教程里 `ScheduledExecutorService` 的样子：一个线程定期醒来，锁进入最后三分之一时间时，就把过期时间重置。' +
          '这里 A:2 每 1 秒续一次；每次 `PEXPIRE` 都把 `PTTL` 拉回 3000。',
      },
      highlight: { lanes: ['A:1', 'A:2'], keys: ['lock:job'] },
      checks: [
        { reply: 1 },
        { key: 'lock:job', ownedBy: 'A:1', pttl: { min: 2990, max: 3000 } },
        { thread: 'A:1', state: 'working' },
      ],
    },
    {
      claims: ['C10'],
      teacher: {
        en: 'Ask what the last `PEXPIRE` returning `0` tells us: the renewer did not know the lock was gone. Then ask what would happen if B:1 had taken the lock just before it: A’s renewer would extend B’s lock. Let the room list what a real renewer must check.',
        zh: '问大家最后一次 `PEXPIRE` 返回 `0` 说明什么：续期线程不知道锁已经没了。再问：要是 B:1 恰好在那之前拿到了锁会怎样？A 的续期线程会给 B 的锁续期。让大家列出一个真正的续期线程必须检查什么。',
      },
      at: acquired('B:1'),
      text: {
        en:
          'A:1 works its full 5 s: the key never expires, and B:1 gets the lock only after A:1’s release. Note ' +
          'the last `PEXPIRE` returned `0`: the key was already gone. This hand-made task has rough edges: it does ' +
          'not stop when the lock is released, and a blind `PEXPIRE` would renew whoever holds the key by then. ' +
          'Redisson’s watchdog (lesson {lesson:watchdog}) checks the owner and is cancelled by `unlock()`.',
        zh:
          'A:1 完整地干了 5 秒：键一次也没过期，B:1 直到 A:1 释放后才拿到锁。注意最后一次 `PEXPIRE` 返回了 `0`：键已经没了。' +
          '这个手写任务很粗糙：锁释放后它不会停，而盲目的 `PEXPIRE` 会给那时持有这个键的任何人续期。' +
          'Redisson 的看门狗（第 {lesson:watchdog} 课）会检查持有者，并且在 `unlock()` 时被取消。',
      },
      checks: [
        none({ kind: 'key.expired', key: 'lock:job' }),
        { noViolation: 'V1' },
        exactly(5, cmd('A:2', 'PEXPIRE')),
        // the text: "the last PEXPIRE returned 0: the key was already gone"
        { reply: 0, of: cmd('A:2', 'PEXPIRE', { nth: 5 }) },
        { thread: 'A:1', state: 'done' },
      ],
    },
    {
      claims: ['C10'],
      teacher: {
        en: 'A long step: read it in two halves. Point at the green renewal marks on A:1’s lane (the `A/renewal` thread has no lane of its own): one a second, none after the unlock. Ask what is still wrong (the `GET` and the `PEXPIRE` are two commands) and how lesson {lesson:atomic-release} already taught the fix: one script.',
        zh: '这一步比较长：分两半来读。指给大家看 A:1 泳道上的绿色续期标记（`A/renewal` 线程没有自己的泳道）：每秒一次，解锁之后再没有。问大家还有什么问题（`GET` 和 `PEXPIRE` 是两条命令），以及第 {lesson:atomic-release} 课已经教过的修法：一个脚本。',
      },
      scenario: { inline: noRenewal, patch: withRenewalType },
      text: {
        en:
          'The same lock with the renewal built in (type `set-nx-px-renew`): once `SET NX PX` succeeded, the ' +
          'lock starts its own renewal thread, `A/renewal` (it has no lane: its renewals are the green marks on A:1’s ' +
          'lane). Every third of the lease (1 s) it checks with `GET` that ' +
          'the key still holds its token and `PEXPIRE`s it back to 3 s; `unlock()` stops it before the ' +
          'compare-and-delete. Four renewals in 5 s of work, no expiry, nothing after the release. (The tutorial’s ' +
          'scheduler scans a queue every 2 s and renews a lock whose last third has begun; one thread per lock ' +
          'waking every third of the lease is the same idea.) One rough edge is left: `GET` and `PEXPIRE` are two ' +
          'commands, so a lease that ran out between them would extend someone else’s lock. Redisson’s renew ' +
          'script does both in one Lua call.',
        zh:
          '把续期做进锁里（类型 `set-nx-px-renew`）：`SET NX PX` 成功后，锁自己启动续期线程 `A/renewal`（它没有自己的泳道：A:1 泳道上的绿色标记就是它的续期）。它每过租期的三分之一' +
          '（1 秒）用 `GET` 确认键里还是自己的令牌，再 `PEXPIRE` 回 3 秒；`unlock()` 在比较并删除之前先把它停掉。5 秒的业务里续了' +
          '四次，键没有过期，释放之后也不再续。（教程里的调度器每 2 秒扫描一次队列，锁进入最后三分之一租期就续期；每把锁一个线程、' +
          '每三分之一租期醒一次，是同一个思路。）还剩一个毛病：`GET` 和 `PEXPIRE` 是两条命令，如果租期恰好在两者之间到期，' +
          '续上的就是别人的锁。Redisson 的续期脚本把两步放在一次 Lua 调用里。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['lock:job'] },
      checks: [
        exactly(4, ev('watchdog.renew', 'A:1', { where: { timer: 'A/renewal', result: 1 } })),
        gap(acquired('A:1'), cmd('A/renewal', 'PEXPIRE'), { min: 1000, max: 1010 }),
        none(ev('cmd', 'A/renewal', { after: ev('watchdog.cancel', 'A:1') })),
        exactly(1, ev('watchdog.cancel', 'A:1', { where: { reason: 'unlock' } })),
        none({ kind: 'key.expired', key: 'lock:job' }),
        { noViolation: 'V1' },
        gap(ev('lock.released', 'A:1'), acquired('B:1'), { min: 0 }),
      ],
    },
  ],
};

export default lesson;
