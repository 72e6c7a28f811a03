import {
  atLeast,
  choice,
  dodge,
  exactly,
  gap,
  holds,
  msControl,
  none,
  timeOf,
  why,
  yourTurn,
} from './common';
import { acquired, ev, violationStart } from './events';
import type { Lesson, ScenarioJson } from '../types';

const hold = (workMs: number) => [
  { op: 'lock', lock: 'myLock' },
  { op: 'work', ms: workMs },
  { op: 'unlock', lock: 'myLock' },
];

/**
 * B:1 waits from 0.5 s (TTL ≈ 29.5 s); client B is cut off from the master from 1 s to 4 s, and
 * A:1's unlock at 3 s publishes into the cut: TCP holds the message and delivers it at 4.4 s.
 */
const cutWaiter: ScenarioJson = {
  format: 'lockscope/1',
  title: 'The waiter is cut off when the unlock comes',
  titleZh: '解锁消息到来时等待者被隔开',
  // the default, written out for the task's control
  redisson: { lockWatchdogTimeout: 30_000 },
  clients: [
    { id: 'A', threads: [{ id: 1, program: hold(3000) }] },
    { id: 'B', threads: [{ id: 1, start: 500, program: hold(1000) }] },
  ],
  faults: [{ at: 1000, kind: 'partition', groups: [['B'], ['master', 'A']], healAt: 4000 }],
};

/** The same cut, but it resets B's connections: the unlock message is lost, not held. */
const resetWaiter: ScenarioJson = {
  ...cutWaiter,
  title: 'The waiter’s connection is reset when the unlock comes',
  titleZh: '解锁消息到来时等待者的连接被重置',
  faults: [{ at: 1000, kind: 'partition', groups: [['B'], ['master', 'A']], healAt: 4000, reset: true }],
};

/** Redisson 3.12.5's tryLock hang (#2790), with client A cut off from the master instead of a crash. */
const cutHang: ScenarioJson = {
  format: 'lockscope/1',
  title: 'tryLock behind a partition that does not heal (3.12.5)',
  titleZh: '分区不恢复时的 tryLock（3.12.5）',
  redisson: { version: '3.12.5' },
  until: 60_000,
  clients: [
    {
      id: 'A',
      threads: [
        {
          id: 1,
          start: 100,
          program: [
            { op: 'tryLock', lock: 'myLock', waitMs: 1000, leaseMs: 1000 },
            { op: 'use' },
            { op: 'unlock', lock: 'myLock' },
          ],
        },
      ],
    },
  ],
  faults: [{ at: 10, kind: 'partition', groups: [['A'], ['master']] }],
};

const firstRenewalLost = ev('call.timeout', 'A/watchdog');
const bByTimer = ev('waiter.wakeup', 'B:1', { where: { cause: 'timeout' } });
const bByMessage = ev('waiter.wakeup', 'B:1', { where: { cause: 'message' } });

const lesson: Lesson = {
  id: 'partition-liveness',
  title: { en: 'A network partition: who waits, and for how long', zh: '网络分区：谁在等，要等多久' },
  minutes: 9,
  part: 2,
  objective: {
    en: 'Say what a partition between a client and Redis does to the holder (no renewal, the lease runs out) and to a waiter (an unlock message held until the heal, or lost with a reset connection, a wait bounded by the TTL), and read what the liveness checks L1–L7 say about it.',
    zh: '说清客户端和 Redis 之间的网络分区对持有者（无法续期，租期耗尽）和等待者（解锁消息被扣到分区恢复，或随连接重置而丢失；等待以 TTL 为上限）各有什么影响，并读懂活性检查 L1–L7 对它的判断。',
  },
  steps: [
    {
      claims: ['C34', 'C25'],
      scenario: { builtin: 'incident-holder-loses-redis' },
      at: firstRenewalLost,
      text: {
        en:
          'A pause freezes the whole client (last lesson); a **partition** freezes only the network. Here ' +
          '([the incident](#scenario=incident-holder-loses-redis)) A:1 holds `worker` with the watchdog and works on; at 5 s ' +
          'client A loses the master while B stays connected. The watchdog still runs, but its renewal at 10 s ' +
          'does not get through: TCP keeps it and retransmits it 0.2, 0.6, 1.4, 3 s … after the send, each try ' +
          'dropped by the cut. At 13 s the call times out (3 s response timeout), and so will every retry. The ' +
          'key’s TTL runs down: about 17 s left.',
        zh:
          '停顿冻结的是整个客户端（上一课）；**网络分区**冻结的只是网络。这里（[这个真实案例](#scenario=incident-holder-loses-redis)）A:1 以看门狗持有 ' +
          '`worker` 并继续工作；5 秒时客户端 A 与主节点断开，B 仍然连着。看门狗还在运行，但它 10 秒的续期过不去：TCP 保留这份数据，' +
          '在发送后 0.2、0.6、1.4、3 秒……重传，每次都被分区丢掉。13 秒时调用超时（3 秒的响应超时），之后每次重试也一样。' +
          '键的 TTL 在一路减少：大约还剩 17 秒。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master'], keys: ['worker'] },
      checks: [
        holds('worker', 'A:1', 1, { pttl: { min: 16_900, max: 17_100 } }),
        exactly(1, { kind: 'net.partition' }),
        { thread: 'A:1', state: 'working' },
        none({ kind: 'watchdog.renew', actor: 'A:1' }),
      ],
      teacher: {
        en: 'Ask who knows about the partition at this moment: A:1’s thread (no), the watchdog (only that a call timed out), Redis (no), B:1 (no). People expect the holder to be told it lost the lock.',
        zh: '问大家：此刻谁知道发生了分区？A:1 的线程（不知道）、看门狗（只知道一次调用超时了）、Redis（不知道）、B:1（不知道）。很多人以为持有者会被告知它失去了锁。',
      },
    },
    {
      claims: ['C34', 'C17'],
      at: violationStart('V1', 'worker'),
      question: {
        prompt: {
          en: 'B:1 has been waiting for `worker` since 1 s. A:1 never unlocks during the partition (5 s to 45 s). When does B:1 get the lock?',
          zh: 'B:1 从 1 秒起一直在等 `worker`。分区期间（5 秒到 45 秒）A:1 从未解锁。B:1 什么时候拿到锁？',
        },
        choices: [
          choice(
            'cut',
            [5000, 14_000],
            'Soon after the cut: Redis notices A is gone',
            '断开后不久：Redis 发现 A 不见了',
            why(
              'Redis does not watch its clients: it keeps a key until its TTL ends or someone deletes it. The run shows `worker` kept until its lease ran out at about 30 s.',
              'Redis 并不监视它的客户端：键会一直保留，直到 TTL 结束或有人删除它。运行里 `worker` 一直保留到大约 30 秒租期耗尽。',
            ),
          ),
          choice(
            'lease',
            [29_000, 31_000],
            'At about 30 s, when A:1’s lease runs out',
            '大约 30 秒，A:1 的租期耗尽时',
          ),
          choice(
            'heal',
            [44_000, 50_000],
            'At about 45 s, after the heal, when A:1 unlocks',
            '大约 45 秒，分区恢复、A:1 解锁之后',
            why(
              'That would be the safe order, and it is what people expect from a lock. But the lease does not wait for the heal: the run shows B:1 taking the lock at about 30 s, while A:1 still works.',
              '那才是安全的顺序，也是人们对锁的期待。但租期不会等分区恢复：运行里 B:1 在大约 30 秒就拿到了锁，而 A:1 还在工作。',
            ),
          ),
          choice(
            'never',
            [60_000, 3_600_000],
            'Never: A:1 still holds it',
            '永远拿不到：A:1 还持有着',
            why(
              'A:1 believes it holds it, but only the key counts, and the key has a lease. The run shows the key expiring at about 30 s and B:1 acquiring right after.',
              'A:1 认为自己持有锁，但算数的只有键，而键有租期。运行里键在大约 30 秒过期，B:1 紧接着拿到了锁。',
            ),
          ),
        ],
        answer: timeOf(acquired('B:1')),
        // any event near 30 s gives the time away: the question waits where step 1 stopped
        decides: ev('call.timeout', 'A/watchdog', { nth: 2 }),
        feedback: {
          en:
            'The watchdog can renew only what it can reach. Cut off at 5 s, its first renewal (due at 10 s) never ' +
            'arrives, so the lease ends 30 s after the lock script set it, and the lock is free. That is the ' +
            'design: a dead holder must not block everyone.',
          zh:
            '看门狗只能续期它够得着的锁。5 秒时断开后，它在 10 秒该做的第一次续期根本没送到，于是租期在加锁脚本设置它的 30 秒后结束，' +
            '锁空了出来。这是有意的设计：死掉的持有者不能挡住所有人。',
        },
      },
      text: {
        en:
          'B:1 wakes **by its own timer** (`waiter.wakeup`, cause `timeout`), not by an unlock message: nobody ' +
          'unlocked. A waiter blocks for at most the TTL its last attempt returned, then tries again; this try ' +
          'found the key gone. Liveness kept, safety lost: A:1 still works, so `V1` begins.',
        zh:
          'B:1 是被**自己的计时器**唤醒的（`waiter.wakeup`，原因 `timeout`），不是被解锁消息唤醒的：根本没人解锁。等待者最多阻塞上一次尝试返回的 TTL，' +
          '然后再试；这一次发现键已经不在了。活性保住了，安全丢了：A:1 还在工作，所以 `V1` 开始了。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['worker'] },
      checks: [
        atLeast(1, bByTimer),
        none(bByMessage),
        none({ kind: 'pubsub.publish' }),
        { violation: 'V1', lock: 'worker', open: true, holders: ['A:1', 'B:1'] },
      ],
      teacher: {
        en: 'Ask what would have to be true for B:1 to wait until 45 s (the lease would have to outlive the partition). Longer leases trade this overlap for a longer wait after a real crash.',
        zh: '问大家：要让 B:1 等到 45 秒，需要什么前提？（租期得比分区更长。）更长的租期是用真正崩溃后更长的等待，换掉这次重叠。',
      },
    },
    {
      claims: ['C34', 'C39'],
      text: {
        en:
          'At 45 s the partition heals, but A’s connection stays silent: TCP retransmits what it holds only on its ' +
          'back-off, which doubled from the renewal held at 10 s (10.2, 10.6, 11.4 … 35.4 s, then 61 s). Everything ' +
          'A writes meanwhile waits behind it. Nobody tells A:1’s thread: at 50 s it writes (`V3`, a write from a ' +
          'stale holder) and its `unlock()` times out at 53 s (RedisResponseTimeoutException), the real 4.7.0 ' +
          'client’s answer too. Only fencing (lesson {lesson:pauses-fencing}) would have refused that write. The verdict is Unsafe.',
        zh:
          '45 秒时分区恢复，但 A 的连接依旧沉默：TCP 只按退避时间重传它扣住的数据，而退避从 10 秒被扣的续期起逐次翻倍' +
          '（10.2、10.6、11.4……35.4 秒，然后是 61 秒）。A 在此期间写出的一切都排在后面。没人告诉 A:1 的线程：50 秒时它照样写入' +
          '（`V3`，过期持有者的写入），它的 `unlock()` 在 53 秒超时（RedisResponseTimeoutException），真实的 4.7.0 客户端也是这样。' +
          '只有防护令牌（第 {lesson:pauses-fencing} 课）能拒绝这次写入。结论是“不安全”。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['worker'] },
      checks: [
        none({ kind: 'watchdog.cancel', actor: 'A:1', where: { reason: 'lost' } }),
        exactly(1, { kind: 'lock.error', actor: 'A:1', where: { op: 'unlock' } }),
        { violation: 'V3', lock: 'worker' },
        { verdict: 'unsafe' },
      ],
      teacher: {
        en: 'Ask whether A:1 could have noticed by itself (only by checking before each write, which races too). This is why the course keeps coming back to fencing.',
        zh: '问大家：A:1 自己能发现吗？（只能在每次写入前检查，而这本身也有竞态。）这就是课程一再回到防护令牌的原因。',
      },
    },
    {
      claims: ['C22', 'C17'],
      scenario: { inline: cutWaiter },
      at: acquired('B:1'),
      question: {
        prompt: {
          en: 'Now the waiter is cut off: client B loses the master from 1 s to 4 s. A:1 unlocks at 3 s. When does B:1 get the lock?',
          zh: '这次被隔开的是等待者：客户端 B 在 1 秒到 4 秒之间与主节点断开。A:1 在 3 秒解锁。B:1 什么时候拿到锁？',
        },
        // waits before the unlock message goes out: nothing near 30 s is on screen yet
        decides: { kind: 'pubsub.publish' },
        choices: [
          choice(
            'unlock',
            [3000, 3500],
            'At about 3 s: the unlock message wakes it',
            '大约 3 秒：解锁消息唤醒它',
            why(
              'That is how a waiter is woken normally (lesson {lesson:waiting}). But the message is sent while B is cut off: the run shows no delivery, and no `waiter.wakeup`, before the heal.',
              '正常情况下等待者就是这样被唤醒的（第 {lesson:waiting} 课）。但消息发出时 B 正被隔开：运行里分区恢复之前既没有投递，也没有 `waiter.wakeup`。',
            ),
          ),
          choice('heal', [4000, 5000], 'Soon after 4 s, when the partition heals', '4 秒刚过，分区恢复时'),
          choice(
            'ttl',
            [29_500, 31_000],
            'At about 30 s: when its wait times out',
            '大约 30 秒：它的等待超时时',
            why(
              'That is what happens when the message is lost. Across a partition on a live TCP connection it is not: the run shows it delivered at 4.4 s and B:1 woken by it.',
              '消息丢失时确实会这样。可在仍然存活的 TCP 连接上，分区并不会丢掉它：运行里消息在 4.4 秒送达，B:1 被它唤醒。',
            ),
          ),
          choice(
            'never',
            [60_000, 3_600_000],
            'Never: it missed the message',
            '永远拿不到：它错过了消息',
            why(
              'It did not miss it: the run shows the message delivered at 4.4 s. Even a lost message would not strand it: a Redisson waiter waits for at most the TTL its last attempt returned (29.5 s here), then tries again.',
              '它并没有错过：运行里消息在 4.4 秒送达。即使消息丢了也困不住它：Redisson 的等待者最多等上一次尝试返回的 TTL（这里是 29.5 秒），然后再试。',
            ),
          ),
        ],
        answer: timeOf(acquired('B:1')),
        feedback: {
          en:
            'A partition drops packets, not the connection. The master’s kernel keeps the unlock message it could ' +
            'not deliver and retransmits it 0.2, 0.6, 1.4 s after the send (3.2, 3.6, 4.4 s); the first try after ' +
            'the heal at 4 s gets through, and B:1 wakes by the message.',
          zh:
            '分区丢掉的是数据包，不是连接。主节点的内核保留了没能送达的解锁消息，在发送后 0.2、0.6、1.4 秒（3.2、3.6、4.4 秒）重传；' +
            '4 秒分区恢复后的第一次重传送到了，B:1 被消息唤醒。',
        },
      },
      text: {
        en:
          'The `PUBLISH` counted B’s subscription (1 receiver) and the message went into the cut. It was not lost: ' +
          'TCP held it and delivered it at the first retransmission after the heal, at 4.4 s. B:1 woke by the ' +
          'message, 1.4 s after the unlock instead of at once: a short partition only delays what is in flight.',
        zh:
          '`PUBLISH` 把 B 的订阅算了进去（1 个接收者），消息被发进了断开的链路。它没有丢：TCP 扣住了它，在分区恢复后的第一次重传' +
          '（4.4 秒）送达。B:1 被消息唤醒，比解锁晚了 1.4 秒，而不是立刻：短暂的分区只会让在途的东西迟到。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master'], keys: ['myLock'] },
      checks: [
        exactly(1, { kind: 'pubsub.publish', where: { receivers: 1 } }),
        exactly(1, bByMessage),
        none(bByTimer),
        gap(ev('lock.released', 'A:1'), acquired('B:1'), { min: 1300, max: 1500 }),
      ],
      teacher: {
        en: 'Ask who kept the message during the cut: not Redis (it wrote the message to the socket and forgot it) but the operating system’s TCP. People expect a partition to destroy what is in flight; on a connection that survives it only waits.',
        zh: '问大家：分区期间是谁保管着这条消息？不是 Redis（它把消息写进套接字就忘了），而是操作系统的 TCP。很多人以为分区会毁掉在途的数据；在熬过分区的连接上，数据只是在等。',
      },
    },
    {
      claims: ['C22', 'C17'],
      scenario: { inline: resetWaiter },
      at: acquired('B:1'),
      text: {
        en:
          'A message is lost when the connection itself goes: a firewall that answers with resets, a NAT or ' +
          'load balancer that forgot the connection, a restart on the way. The same run with a cut that resets ' +
          'B’s connections (`"reset": true` on the partition): the `PUBLISH` still counted B’s subscription ' +
          '(1 receiver, Redis has not noticed), but the message is gone. The lock sat free from 3 s to 30 s while ' +
          'B:1 waited: 27 s for nothing.',
        zh:
          '连接本身断掉时，消息才会丢：回复重置的防火墙、忘了这条连接的 NAT 或负载均衡、途中的一次重启。同样的运行，' +
          '但这次的断开会重置 B 的连接（分区上的 `"reset": true`）：`PUBLISH` 仍然把 B 的订阅算了进去（1 个接收者，Redis 还没察觉），' +
          '但消息没了。锁从 3 秒到 30 秒一直空着，B:1 却在等：白白等了 27 秒。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master'], keys: ['myLock'] },
      checks: [
        exactly(1, { kind: 'net.partition', where: { reset: true } }),
        exactly(1, { kind: 'pubsub.publish', where: { receivers: 1 } }),
        none(bByMessage),
        atLeast(1, bByTimer),
        gap(ev('lock.released', 'A:1'), acquired('B:1'), { min: 26_000, max: 28_000 }),
      ],
      teacher: {
        en: 'Ask why Redisson gives the wait a timeout at all when a message is coming anyway: this run is the answer. People think pub/sub is reliable; it is fire-and-forget.',
        zh: '问大家：既然总会有消息来，Redisson 为什么还要给等待设超时？这次运行就是答案。很多人以为发布订阅是可靠的；它是发出即不管的。',
      },
    },
    {
      claims: ['C34', 'C35'],
      question: {
        prompt: {
          en: 'A free lock, a waiter that waited 27 s for nothing. What verdict does LockScope give this run?',
          zh: '一把空闲的锁，一个白等了 27 秒的等待者。LockScope 对这次运行给出什么结论？',
        },
        choices: [
          choice('safe', 'safe', 'Safe', '安全'),
          choice(
            'stuck',
            'stuck',
            'Stuck: a lost waiter (L2)',
            '卡死：丢失的等待者（L2）',
            why(
              'L2 is for a waiter that nothing scheduled will ever wake. B:1 had its TTL timer the whole time, so it was late, not lost: the run ends Safe, with no liveness row.',
              'L2 针对的是没有任何已安排的事件能唤醒的等待者。B:1 一直有它的 TTL 计时器，所以它只是迟了，不是丢了：运行的结论是安全，没有活性问题。',
            ),
          ),
          choice(
            'unsafe',
            'unsafe',
            'Unsafe',
            '不安全',
            why(
              'Unsafe needs two holders or a stale write. A:1 released before B:1 acquired; the partition only cost time.',
              '不安全需要两个持有者或一次过期写入。A:1 在 B:1 拿到锁之前就释放了；分区只是耗费了时间。',
            ),
          ),
        ],
        answer: { from: 'verdict' },
        feedback: {
          en:
            'Safe: one holder at a time, and every waiter had something scheduled to wake it. The liveness checks ' +
            'look for waits that cannot end (L1 a key nobody will release, L2 a waiter nothing will wake, L5 a wait ' +
            'cycle, L6 livelock, L7 starvation) and locks kept for nobody (L3), not for slow ones.',
          zh:
            '安全：同一时刻只有一个持有者，每个等待者都有已安排的事件会唤醒它。活性检查找的是无法结束的等待（L1 没人会释放的键、L2 没有任何事件会唤醒的等待者、' +
            'L5 等待环、L6 活锁、L7 饥饿）以及为无人保活的锁（L3），而不是慢的等待。',
        },
      },
      text: {
        en:
          'The verdict is Safe, and it is right: the reset cost 27 s, not the lock. Redisson bounds every wait ' +
          'by the TTL precisely so that a lost message (a reset connection, a dropped subscription) delays a waiter ' +
          'instead of stranding it. Slow is not stuck; it is a number you can change (next step).',
        zh:
          '结论是安全，而且没错：连接重置耗费的是 27 秒，不是锁。Redisson 用 TTL 给每次等待设上限，正是为了让丢失的消息（被重置的连接、断掉的订阅）' +
          '只拖慢等待者，而不是把它困住。慢不等于卡死；慢是一个可以调的数字（下一步）。',
      },
      highlight: { lanes: ['B:1'] },
      checks: [{ verdict: 'safe' }, { noViolation: 'any' }],
      teacher: {
        en: 'Ask when a lost unlock message would become L2: when the wait has no timer, e.g. a key without TTL (the `ttl < 0` branch). The next lessons meet it.',
        zh: '问大家：丢失的解锁消息什么时候会变成 L2？当等待没有计时器时，例如一个没有 TTL 的键（`ttl < 0` 分支）。后面的课会遇到它。',
      },
    },
    {
      claims: ['C17', 'C25'],
      text: {
        en:
          'How long a waiter can be stranded is the TTL it was told, and for a watchdog lock that is ' +
          '`lockWatchdogTimeout` (30 s by default). Nothing else in this run needs to change for B:1 to be back ' +
          'sooner.',
        zh:
          '等待者最多被困多久，取决于它被告知的 TTL；对看门狗锁来说，那就是 `lockWatchdogTimeout`（默认 30 秒）。' +
          '这次运行里，别的都不用改，B:1 就能更早回来。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'] },
      checks: [{ gap: { from: ev('lock.wait', 'B:1'), to: bByTimer }, min: 29_400, max: 29_600 }],
      task: {
        prompt: yourTurn(
          'keep the partition and the unlock inside it, and get B:1 the lock within 5 s of A:1’s unlock by ' +
            'changing one Redisson setting: `lockWatchdogTimeout`.',
          '保留分区和分区里的解锁，只改一个 Redisson 设置 `lockWatchdogTimeout`，让 B:1 在 A:1 解锁后 5 秒内拿到锁。',
        ),
        controls: [
          msControl('lockWatchdogTimeout (ms)', 'lockWatchdogTimeout（毫秒）', [
            '/redisson/lockWatchdogTimeout',
          ]),
        ],
        goalText: {
          en: 'The unlock message is still lost with the reset connection, B:1 still wakes by its timer, and it acquires within 5 s of A:1’s release.',
          zh: '解锁消息仍然随被重置的连接丢失，B:1 仍然被计时器唤醒，并在 A:1 释放后 5 秒内拿到锁。',
        },
        goal: {
          all: [
            exactly(1, { kind: 'net.partition' }),
            none(bByMessage),
            atLeast(1, bByTimer),
            gap(ev('lock.released', 'A:1'), acquired('B:1'), { min: 0, max: 5000 }),
          ],
        },
        solution: [{ op: 'replace', path: '/redisson/lockWatchdogTimeout', value: 5000 }],
        dodges: [
          dodge(
            {
              all: [
                gap(ev('lock.released', 'A:1'), acquired('B:1'), { max: 5000 }),
                none({ kind: 'net.partition' }),
              ],
            },
            'That works, but only because there is no partition any more: the message arrives. Keep the cut and ' +
              'shorten how long a missed message can cost.',
            '这样确实行，但只是因为没有分区了：消息送到了。保留断开，缩短错过一条消息的代价。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            {
              all: [gap(ev('lock.released', 'A:1'), acquired('B:1'), { max: 5000 }), atLeast(1, bByMessage)],
            },
            'That works, but the message now arrives: the unlock comes after the heal, or the cut no longer resets ' +
              'the connection, so TCP delivers the message at the heal. Keep A:1’s unlock inside a partition that ' +
              'resets B’s connections.',
            '这样确实行，但消息现在送到了：要么解锁发生在分区恢复之后，要么断开不再重置连接，TCP 在恢复时送达了消息。' +
              '让 A:1 的解锁留在一个会重置 B 的连接的分区里。',
            [{ op: 'replace', path: '/clients/0/threads/0/program/1/ms', value: 5000 }],
          ),
        ],
        success: {
          en:
            'The unlock message was still lost, but B:1’s wait was bounded by the shorter TTL: its timer woke it ' +
            'and it took the lock within 5 s of A:1’s release. The price: the watchdog now renews every third of ' +
            'the new timeout, and a pause longer than it costs the lock.',
          zh:
            '解锁消息照样丢了，但 B:1 的等待受更短的 TTL 限制：计时器唤醒了它，它在 A:1 释放后 5 秒内拿到了锁。代价是：看门狗现在每隔新超时的三分之一就续期一次，' +
            '而比它更长的停顿就会丢锁。',
        },
      },
      teacher: {
        en: 'Ask what the shorter timeout costs (more renewal traffic, less tolerance to GC pauses and to the partition of step 1). Someone will remove the partition: that is the refused dodge.',
        zh: '问大家：更短的超时代价是什么？（更多续期流量，对 GC 停顿和第 1 步那种分区更不宽容。）会有人删掉分区：那正是被拒绝的绕路。',
      },
    },
    {
      claims: ['C34'],
      scenario: { inline: cutHang },
      text: {
        en:
          'So is a Redisson lock never Stuck under a partition? Only while every wait has a deadline. Redisson ' +
          '3.12.5 had a bug (#2790, fixed in 3.13.0; [the incident](#scenario=incident-trylock-hangs-redis-down)): a lock ' +
          'script that got no reply left `tryLock` waiting on a future nothing completes. Cut client A off and ' +
          'that is what happens: after its retries nothing is scheduled for A:1 any more, and the liveness check ' +
          'says so: **L2** (hung), verdict Stuck.',
        zh:
          '那么分区下 Redisson 的锁就永远不会卡死吗？只有在每次等待都有期限时才不会。Redisson 3.12.5 有一个缺陷（#2790，3.13.0 修复；' +
          '[这个真实案例](#scenario=incident-trylock-hangs-redis-down)）：加锁脚本得不到回复时，`tryLock` 会等待一个永远不会完成的 future。把客户端 A 隔开，' +
          '就会这样：重试用完后，再也没有为 A:1 安排的事件，活性检查如实报告：**L2**（挂起），结论是“卡死”。',
      },
      highlight: { lanes: ['A:1', 'master'] },
      checks: [
        { verdict: 'stuck' },
        { violation: 'L2', lock: 'myLock', open: true },
        atLeast(1, { kind: 'call.timeout', actor: 'A:1' }),
        none({ kind: 'lock.acquired' }),
      ],
      teacher: {
        en: 'Ask what distinguishes this Stuck from step 5’s Safe: not the partition, but whether something is scheduled to end the wait. Point to the fixed release in the scenario gallery.',
        zh: '问大家：这里的“卡死”和第 5 步的“安全”区别在哪？不在于分区，而在于有没有已安排的事件来结束等待。可以指给大家看场景库里修复后的版本。',
      },
    },
  ],
};

export default lesson;
