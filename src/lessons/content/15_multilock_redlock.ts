import { absent, atLeast, choice, holds, v1, whether, why } from './common';
import { acquired, ev, violationStart } from './events';
import type { Lesson, ScenarioJson } from '../types';

const multi = { lock: 'multi', type: 'MultiLock', locks: ['l1', 'l2', 'l3'] };

/** Three independent masters, one lock on each; master-2 crashes (losing l2) and restarts empty. */
const threeMasters: ScenarioJson = {
  format: 'lockscope/1',
  title: 'MultiLock on three independent masters',
  titleZh: '三个独立主节点上的 MultiLock',
  redis: { topology: 'independent', masters: 3 },
  clients: [
    {
      id: 'A',
      threads: [
        {
          id: 1,
          program: [
            { op: 'lock', ...multi },
            { op: 'work', ms: 5000 },
            { op: 'unlock', lock: 'multi' },
          ],
        },
      ],
    },
    { id: 'B', threads: [{ id: 1, start: 2000, program: [{ op: 'tryLock', ...multi, waitMs: 1000 }] }] },
  ],
  faults: [
    { at: 1000, kind: 'crash', node: 'master-2' },
    { at: 1500, kind: 'restart', node: 'master-2' },
  ],
};

const lesson: Lesson = {
  id: 'multilock-redlock',
  title: { en: 'MultiLock and RedLock', zh: 'MultiLock 与 RedLock' },
  minutes: 9,
  part: 3,
  objective: {
    en: 'Compare MultiLock and RedLock, and name what clocks and pauses do to a majority lock.',
    zh: '比较 MultiLock 和 RedLock，并说出时钟和停顿会对多数派锁造成什么影响。',
  },
  steps: [
    {
      claims: ['C36'],
      teacher: {
        en: 'Ask what “all or nothing” costs when one lock is busy: A:1 gives back the two it got. Point at the unlocks of `l1` and `l2` between `l3`’s TTL reply and the `false`. Some think MultiLock keeps the locks it got while waiting.',
        zh: '问大家一把锁被占用时，“全有或全无”要付出什么：A:1 把已经拿到的两把还回去。指给大家看 `l3` 返回 TTL 之后、`false` 之前的 `l1`、`l2` 解锁。有人以为 MultiLock 会一边等一边攥着已拿到的锁。',
      },
      scenario: { builtin: 'multilock-all-or-nothing' },
      at: ev('lock.failed', 'A:1'),
      text: {
        en:
          'The tutorials’ way around a single Redis losing the lock: take several independent locks and treat them ' +
          'as one. `RedissonMultiLock` locks `l1`, `l2`, `l3` in turn and succeeds only if it gets **all** of ' +
          'them. B:1 holds `l3`, so A:1’s `tryLock()` gets `l1` and `l2`, fails on `l3`, and gives both back.',
        zh:
          '教程给出的绕开“单个 Redis 丢锁”的办法：拿几把相互独立的锁，当成一把来用。`RedissonMultiLock` 依次锁住 `l1`、`l2`、`l3`，' +
          '只有**全部**拿到才算成功。B:1 持有 `l3`，所以 A:1 的 `tryLock()` 拿到 `l1` 和 `l2`，在 `l3` 上失败，又把两把都还了回去。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['l1', 'l2', 'l3'] },
      checks: [{ thread: 'A:1', lastResult: false }, absent('l1'), absent('l2'), holds('l3', 'B:1', 1)],
    },
    {
      claims: ['C36'],
      teacher: {
        en: 'Ask why C:1 could not take `l1` alone although nobody “uses” `l1` for work: A:1 holds it as part of the MultiLock. Point at the moment A:1 holds all three.',
        zh: '问大家：虽然没人拿 `l1` 去干活，为什么 C:1 也拿不到它：因为 A:1 把它作为 MultiLock 的一部分持有着。指给大家看 A:1 同时持有三把锁的那一刻。',
      },
      at: ev('lock.acquired', 'A:1', { lock: 'multi' }),
      text: {
        en:
          'With `lock()` A:1 takes `l1` and `l2` again and waits for `l3`; when B:1 releases it, A:1 holds all ' +
          'three and the MultiLock is acquired. Meanwhile C:1 could not take `l1` alone.',
        zh: '换成 `lock()` 后，A:1 再次拿到 `l1` 和 `l2`，并等待 `l3`；B:1 一释放，A:1 三把全部到手，MultiLock 加锁成功。这期间 C:1 单独去拿 `l1` 也拿不到。',
      },
      checks: [...['l1', 'l2', 'l3'].map((l) => holds(l, 'A:1', 1)), { thread: 'C:1', lastResult: false }],
    },
    {
      claims: ['C36'],
      teacher: {
        en: 'Hands up: yes or no? Those who say yes count only the free `l2`. Then ask the cost the text names: every master must be up to take the lock, so more masters means less availability.',
        zh: '举手：能还是不能？说能的人只看到了空出来的 `l2`。然后问正文里说的代价：加锁时每个主节点都必须在线，所以主节点越多，可用性越低。',
      },
      scenario: { inline: threeMasters },
      at: ev('lock.failed', 'B:1'),
      question: {
        // before B:1 asks: master-2 has come back empty, B:1 has not tried yet
        decides: { kind: 'lock.request', actor: 'B:1' },
        prompt: {
          en:
            'Now the three locks live on three independent masters. A:1 holds the MultiLock; master-2 crashes ' +
            'and comes back empty, so `l2` is gone. Can B:1 take the MultiLock?',
          zh: '现在三把锁分别在三个独立的主节点上。A:1 持有 MultiLock；master-2 崩溃后空着回来了，`l2` 没了。B:1 能拿到 MultiLock 吗？',
        },
        choices: [
          choice(
            'yes',
            true,
            'Yes: one of the locks is free',
            '能：有一把锁空出来了',
            why(
              '`l2` is indeed free again. But a MultiLock needs **all** its locks: the run shows B:1 turned away at `l1`, which A:1 still holds, waiting there until its wait time runs out, and failing.',
              '`l2` 确实又空出来了。但 MultiLock 需要**全部**锁：运行里 B:1 在 A:1 仍持有的 `l1` 上被挡住，一直等到等待时间用完，最后失败。',
            ),
          ),
          choice('no', false, 'No: it needs all three', '不能：它需要全部三把'),
        ],
        answer: whether(atLeast(1, acquired('B:1'))),
        feedback: {
          en: 'B:1 would need `l1` and `l3` as well, and A:1 still holds those. Losing one master does not hand the lock over.',
          zh: 'B:1 还需要 `l1` 和 `l3`，而它们仍在 A:1 手里。丢掉一个主节点并不会让锁易主。',
        },
      },
      text: {
        en:
          'B:1’s `tryLock` gives up after its 1 s: the MultiLock survived a master losing its part. The price: ' +
          'every master must be up to **take** the lock, so availability goes down as the number of masters goes up.',
        zh: 'B:1 的 `tryLock` 等了 1 秒后放弃：一个主节点丢了它那一份，MultiLock 依然成立。代价是：**加锁**时每个主节点都必须在线，主节点越多，可用性越低。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master-1', 'master-2', 'master-3'] },
      checks: [
        absent('l2', 'master-2'),
        holds('l1', 'A:1', 1, { node: 'master-1' }),
        { thread: 'B:1', lastResult: false },
        { noViolation: 'any' },
      ],
    },
    {
      claims: ['C37'],
      teacher: {
        en: 'Ask the room to separate the two things the text separates: the Redis-docs algorithm (majority and validity) and what `RedissonRedLock` actually does (majority, no validity). The validity in the caption is the docs’ number, not something Redisson hands back.',
        zh: '请大家把正文区分开的两件事分清楚：Redis 文档里的算法（多数派加有效期）和 `RedissonRedLock` 实际做的事（多数派，不算有效期）。字幕里的有效期是文档算法算出的数字，不是 Redisson 返回给你的。',
      },
      scenario: { builtin: 'redlock-happy' },
      at: acquired('A:1'),
      text: {
        en:
          'RedLock, the algorithm from the Redis docs (the Redisson write-ups mention it), relaxes “all” to “a majority”: ' +
          'with five masters, three are enough, and one down master costs only a timeout. The Redis-docs ' +
          'algorithm also computes a **validity**: the lease minus the time acquiring took minus a clock-drift ' +
          'allowance, ≈ 9.9 s of A:1’s 10 s here (the caption shows that number). Redisson’s `RedissonRedLock` ' +
          'computes none: it counts the masters that failed, and once it has a majority it sets every lock’s ' +
          'lease with `PEXPIRE`, one master after another; the caller never learns how much of the lease is left.',
        zh:
          'RedLock 是 Redis 官方文档里的算法（Redisson 的讲解里提到过），它把“全部”放宽成“多数”：五个主节点拿到三个就够了，宕掉一个只损失一次超时。' +
          'Redis 文档里的算法还会算出一个**有效期**：租期减去加锁花掉的时间、再减去时钟漂移的余量，这里 A:1 的 10 秒租期里大约有 9.9 秒有效' +
          '（说明栏显示的就是这个数）。Redisson 的 `RedissonRedLock` 并不计算它：只数失败的主节点，拿到多数后用 `PEXPIRE` 逐个主节点给每把锁设置租期；' +
          '调用者从来不知道租期还剩多少。',
      },
      highlight: { lanes: ['A:1', 'master-1', 'master-2', 'master-3', 'master-4', 'master-5'] },
      checks: [
        holds('res', 'A:1', 1, { node: 'master-1' }),
        holds('res', 'A:1', 1, { node: 'master-4' }),
        atLeast(1, ev('lock.acquired', 'A:1', { where: { validityMs: 9874 } })),
        atLeast(1, { kind: 'node.crash', node: 'master-5' }),
      ],
    },
    {
      claims: ['C37', 'C35'],
      teacher: {
        en: 'Hide the verdict badge until the vote (the page does it while the question waits). Ask how two clients can each hold a majority of five: one master counted twice, because its clock jumped and its key expired early. Kleppmann’s critique in one picture.',
        zh: '投票之前不要让大家看到结论标记（问题等待回答时页面会自动隐藏它）。问大家两个客户端怎么可能各自拿到五个中的多数：有一个主节点被算了两次，因为它的时钟跳了，键提前过期了。这一张图就是 Kleppmann 的批评。',
      },
      scenario: { builtin: 'redlock-clock-jump' },
      // B:1 has just been told it holds the lock A:1 still believes is its own
      at: violationStart('V1'),
      question: {
        // before B:1 asks: the clock jump has happened, B:1's acquisitions (and V2) have not
        decides: { kind: 'lock.request', actor: 'B:1' },
        prompt: {
          en:
            'A:1 holds a majority (masters 1–3). Then master-3’s clock jumps 10 s forward, and B:1, which can ' +
            'only reach masters 3–5, asks for the lock. What is the verdict of this run?',
          zh: 'A:1 持有多数（主节点 1–3）。随后 master-3 的时钟向前跳了 10 秒，而只能连到主节点 3–5 的 B:1 来申请锁。这次运行的结论是什么？',
        },
        choices: [
          choice(
            'safe',
            'safe',
            'Safe: B:1 cannot get a majority',
            '安全：B:1 拿不到多数',
            why(
              'With honest clocks it could not: A:1 holds 3 of 5. But master-3’s clock jump expired A:1’s key there early, so B:1 wins masters 3, 4 and 5: the run shows `V2` and then `V1`.',
              '如果时钟都准，它确实拿不到：A:1 占了 5 个中的 3 个。但 master-3 的时钟跳变让 A:1 在那里的键提前过期，于是 B:1 拿下了主节点 3、4、5：运行里先出现 `V2`，随后是 `V1`。',
            ),
          ),
          choice('unsafe', 'unsafe', 'Unsafe: two majorities', '不安全：出现两个多数'),
        ],
        answer: { from: 'verdict' },
        feedback: {
          en:
            'The jump expired A:1’s key on master-3, so B:1 gets 3, 4 and 5: a second majority, with nobody ' +
            'misbehaving. RedLock’s safety rests on clocks behaving; Kleppmann’s critique (and Redisson deprecating ' +
            '`RedLock`) start here.',
          zh:
            '时钟跳变让 A:1 在 master-3 上的键提前过期，于是 B:1 拿到了 3、4、5：第二个多数，而谁也没有做错什么。' +
            'RedLock 的安全性依赖时钟正常；Kleppmann 的批评（以及 Redisson 弃用 `RedLock`）正是从这里开始。',
        },
      },
      text: {
        en:
          'Each won a majority, A:1 masters 1–3 and B:1 masters 3–5: master-3 counted twice. Now both own live keys ' +
          '(`V2`: A:1 on masters 1 and 2, B:1 on 3, 4 and 5) and both believe they hold the lock (`V1`).',
        zh:
          '两者各自赢得了多数，A:1 是主节点 1–3，B:1 是主节点 3–5：master-3 被算了两次。现在两者都持有有效的键' +
          '（`V2`：A:1 在主节点 1 和 2 上，B:1 在 3、4、5 上），也都认为自己持有锁（`V1`）。',
      },
      checks: [
        { violation: 'V2', lock: 'res' },
        { violation: 'V1', lock: 'res' },
        atLeast(1, { kind: 'node.clock', node: 'master-3' }),
        holds('res', 'A:1', 1, { node: 'master-1' }),
        holds('res', 'A:1', 1, { node: 'master-2' }),
        holds('res', 'B:1', 1, { node: 'master-3' }),
        holds('res', 'B:1', 1, { node: 'master-4' }),
        holds('res', 'B:1', 1, { node: 'master-5' }),
      ],
    },
    {
      claims: ['C37', 'C29'],
      teacher: {
        en: 'Ask what a majority of Redis nodes can do about a client that is frozen (nothing) and what can (a fencing token checked by the store). This ties lesson {lesson:pauses-fencing} to RedLock.',
        zh: '问大家：Redis 节点的多数派对一个被冻住的客户端能做什么（什么也做不了），什么能管用（由存储检查的防护令牌）。这一步把第 {lesson:pauses-fencing} 课和 RedLock 连起来。',
      },
      scenario: { builtin: 'redlock-pause-after-validity' },
      at: violationStart('V3'),
      // from B:1's hold of a few tens of ms (its write) to A:1's late write, not 12 s of waiting around them
      zoom: { from: { kind: 'lock.acquired', actor: 'B:1' } },
      text: {
        en:
          'And the pause of lesson {lesson:pauses-fencing} is not solved either: A:1 gets all five masters, is then frozen for 12 s, ' +
          'and writes after its lease has run out and B:1 has written. A majority of Redis nodes cannot ' +
          'stop a client that does not know it is late; a fencing token at the resource can.',
        zh:
          '第 {lesson:pauses-fencing} 课的停顿问题也没有解决：A:1 拿到了全部五个主节点，随后被冻结 12 秒，在租期耗尽、B:1 已经写过之后才写入。' +
          'Redis 节点的多数拦不住一个不知道自己已经迟到的客户端；资源端的防护令牌可以。',
      },
      checks: [v1('res', 'A:1', 'B:1'), { resource: { accepted: 2, value: 1 } }],
    },
  ],
};

export default lesson;
