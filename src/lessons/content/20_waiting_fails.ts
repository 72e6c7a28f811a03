import {
  atLeast,
  choice,
  dodge,
  exactly,
  gap,
  none,
  threadHolds,
  timeOf,
  toggleControl,
  msControl,
  why,
  yourTurn,
} from './common';
import { acquired, cmd, ev, violationStart } from './events';
import type { Check, EventSelector, Lesson, ScenarioJson, ScenarioRef } from '../types';

/**
 * Where `lock()`'s wait itself goes wrong, read in RedissonLock.lock / tryLock and
 * PublishSubscribeService at 4.7.0 and 3.27.2: a subscription that finds the client's pub/sub pool
 * full, and the `ttl < 0` branch of the wait loop (a lock key with no expiry).
 */

/**
 * The gallery's #995 incident (H holds five locks for 12 s, App's five threads `lock(3, SECONDS)`
 * them, a pool of 2 × 2 slots) on 4.7.0's client instead of 3.4.4's.
 */
const fullPool: ScenarioRef = {
  builtin: 'incident-subscribe-timeout',
  patch: [
    { op: 'replace', path: '/title', value: 'Five waits, four pub/sub slots (4.7.0)' },
    { op: 'add', path: '/titleZh', value: '五个等待，四个 pub/sub 槽位（4.7.0）' },
    {
      op: 'replace',
      path: '/redisson',
      value: { version: '4.7.0', subscriptionConnectionPoolSize: 2, subscriptionsPerConnection: 2 },
    },
  ],
};

/** A:1 holds `myLock` under the watchdog; Ops removes its expiry; A's JVM dies at 15 s. */
const persisted: ScenarioJson = {
  format: 'lockscope/1',
  title: 'A lock key without an expiry (4.7.0)',
  titleZh: '没有过期时间的锁键（4.7.0）',
  until: 90_000,
  redisson: { version: '4.7.0' },
  clients: [
    {
      id: 'A',
      threads: [
        {
          id: 1,
          program: [
            { op: 'lock', lock: 'myLock' },
            { op: 'work', ms: 60_000 },
            { op: 'unlock', lock: 'myLock' },
          ],
        },
      ],
    },
    {
      id: 'B',
      threads: [
        {
          id: 1,
          start: 1000,
          program: [
            { op: 'lock', lock: 'myLock' },
            { op: 'work', ms: 100 },
            { op: 'unlock', lock: 'myLock' },
          ],
        },
      ],
    },
    { id: 'Ops', threads: [{ id: 1, start: 500, program: [{ op: 'redis', argv: ['PERSIST', 'myLock'] }] }] },
  ],
  faults: [{ at: 15_000, kind: 'crash', client: 'A' }],
};

const POOL_ADVICE =
  "Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.";
/** PublishSubscribeService.trySubscribe's text once the pool's retries are used up. */
const attemptsError = (n: number) =>
  `RedisTimeoutException: Unable to acquire connection for subscription after ${n} attempts. ${POOL_ADVICE}`;
/** PublishSubscribeService.timeout's text (3.27.2), armed by RedissonLock.lock with subscriptionTimeout. */
const SUBSCRIPTION_TIMEOUT_ERROR =
  "RedisTimeoutException: Unable to acquire subscription lock after 7500ms. Try to increase 'subscriptionTimeout', 'subscriptionsPerConnection', 'subscriptionConnectionPoolSize' parameters.";

const app5Wait = ev('pubsub.wait', 'App:5');
const app5Error = ev('lock.error', 'App:5');
const app5GaveUp = ev('pubsub.timeout', 'App:5');
const failedWith = (error: string): Check => exactly(1, ev('lock.error', 'App:5', { where: { error } }));

/** The task's mechanism: H still holds `order-5` for its 12 s, so App:5 really has to wait. */
const hHolds12s = gap(acquired('H:5'), ev('unlock.request', 'H:5'), { min: 12_000 });
const app5Acquires = atLeast(1, acquired('App:5'));

const bWait = ev('lock.wait', 'B:1');
const bLockScript = cmd('B:1', 'EVALSHA', { key: 'myLock', nth: -1 });
const myLockExpired: EventSelector = { kind: 'key.expired', key: 'myLock' };

const lesson: Lesson = {
  id: 'waiting-fails',
  title: {
    en: 'When the wait itself fails: a full subscription pool, and ttl < 0',
    zh: '等待本身出错：pub/sub 连接池用满，以及 ttl < 0',
  },
  minutes: 9,
  part: 2,
  objective: {
    en: 'Predict how `lock()` fails when the pub/sub pool is full (per release, with its error text), and why a lock key without an expiry leaves a waiter with no timer at all.',
    zh: '预测 pub/sub 连接池用满时 `lock()` 如何失败（按版本，连同它的报错文字），并解释为什么没有过期时间的锁键会让等待者完全没有定时器。',
  },
  steps: [
    {
      claims: ['C17'],
      scenario: fullPool,
      at: app5Wait,
      text: {
        en:
          'Waiting costs a resource. Each lock a client’s threads wait for takes one **slot** of its pub/sub pool from ' +
          'the first `SUBSCRIBE` to the last `UNSUBSCRIBE`: `subscriptionConnectionPoolSize` connections (50) × ' +
          '`subscriptionsPerConnection` channels each (5), 250 per master. Here the pool is shrunk to 2 × 2 so that five ' +
          'waits do what 251 do to the default. H holds `order-1`…`order-5` for 12 s and App’s threads call ' +
          '`lock(3, SECONDS)` on them, as in Redisson issue #995. App:1–App:4 subscribed on ' +
          '`App/pubsub` and `App/pubsub-2` (the keyspace panel lists them under Subscriptions), and App:5 finds all 4 slots ' +
          'taken: `pubsub.wait`. From this moment a violet strip under its lane marks that wait (it shows once the run moves on).',
        zh:
          '等待是要占资源的。客户端的线程每等一把锁，就从第一个 `SUBSCRIBE` 到最后一个 `UNSUBSCRIBE` 占用它 pub/sub 连接池里的一个**槽位**：' +
          '`subscriptionConnectionPoolSize` 个连接（50）× 每个连接 `subscriptionsPerConnection` 个频道（5），每个主节点 250 个。' +
          '这里把连接池缩小到 2 × 2，让五个等待起到 251 个等待对默认配置的效果。H 持有 `order-1`…`order-5` 12 秒，' +
          'App 的线程像 Redisson 的 issue #995 里那样对它们调用 `lock(3, SECONDS)`。' +
          'App:1–App:4 已在 `App/pubsub` 和 `App/pubsub-2` 上订阅（键空间面板在“订阅”下列出了它们），App:5 发现 4 个槽位全被占用：' +
          '`pubsub.wait`。从此刻起，它泳道下方的一条紫色条标出这段等待（运行往前走就能看到）。',
      },
      teacher: {
        en: 'Ask what the pool is counted in: locks being waited for, per client, not threads. Ten threads of one client waiting for the same lock share one slot.',
        zh: '问大家连接池按什么计数：按一个客户端正在等待的锁，而不是线程。同一客户端的十个线程等同一把锁，只占一个槽位。',
      },
      // keys: the text sends the reader to the keyspace panel's Subscriptions (presenter mode shows it)
      highlight: { lanes: ['App:1', 'App:2', 'App:3', 'App:4', 'App:5'], keys: ['order-5'] },
      checks: [
        exactly(4, { kind: 'pubsub.subscribe' }),
        exactly(2, { kind: 'pubsub.subscribe', where: { conn: 'App/pubsub-2' } }),
        exactly(1, ev('pubsub.wait', 'App:5', { where: { used: 4, capacity: 4 } })),
        none(ev('pubsub.subscribe', 'App:5')),
      ],
    },
    {
      claims: ['C17'],
      at: ev('thread.done', 'App:5'),
      question: {
        prompt: {
          en: '`lock()` “waits as long as it takes”. App:5 is still waiting for a pub/sub slot. When does its `lock()` return or throw?',
          zh: '`lock()` 号称“要等多久就等多久”。App:5 还在等一个 pub/sub 槽位。它的 `lock()` 什么时候返回或抛出异常？',
        },
        choices: [
          choice(
            'twelve',
            [12_000, 12_200],
            'At ≈ 12 s, with the lock, like the four others',
            '约 12 秒，和另外四个一样拿到锁',
            why(
              '`lock()` has no wait time for the lock, so waiting as long as H holds it is tempting. But the subscription has bounds of its own: the run shows App:5 throwing at ≈ 7.5 s, long before H lets go.',
              '`lock()` 对锁本身没有等待时限，所以很容易以为它会一直等到 H 放手。但订阅有它自己的时限：运行里 App:5 在约 7.5 秒就抛出了异常，远早于 H 放手。',
            ),
          ),
          choice(
            'bound',
            [7000, 7600],
            'Within ≈ 7.5 s, with a `RedisTimeoutException`',
            '约 7.5 秒以内，抛出 `RedisTimeoutException`',
          ),
          choice(
            'now',
            [100, 400],
            'At once: no slot, no wait',
            '马上：没有槽位就不等',
            why(
              'A full pool sounds like an immediate refusal, but the pool queues the request and hands a freed slot to the longest waiter. The run shows App:5 waiting (the violet strip) for seconds before it gives up.',
              '连接池满了听起来像是立即拒绝，但连接池会让请求排队，并把空出来的槽位交给等得最久的那个。运行里 App:5 等了好几秒（紫色条）才放弃。',
            ),
          ),
        ],
        answer: timeOf(app5Error),
        feedback: {
          en: '`lock()` waits without limit only for the lock. Its subscription is bounded, and when no slot frees in time the call throws.',
          zh: '`lock()` 只有等锁时不设上限。它的订阅是有时限的，槽位没能及时空出来，调用就抛出异常。',
        },
      },
      text: {
        en:
          'In 4.7.0 `PublishSubscribeService` cancels a wait for a pool connection after each retry delay (randomised, up ' +
          'to 2 s) and queues it again; after `retryAttempts` (4) retries it fails. 7.4 s after its wait began App:5’s ' +
          '`lock()` throws, and the thread ends with it:\n\n`' +
          attemptsError(4) +
          '`\n\nThe message names the remedy: a bigger pool, not a longer wait.',
        zh:
          '在 4.7.0 里，`PublishSubscribeService` 每过一个重试间隔（随机，最长 2 秒）就取消对连接池连接的等待并重新排队；' +
          '重试 `retryAttempts`（4）次后失败。等待开始 7.4 秒后，App:5 的 `lock()` 抛出异常，线程随之结束：\n\n`' +
          attemptsError(4) +
          '`\n\n报错信息本身就指出了办法：更大的连接池，而不是更长的等待。',
      },
      teacher: {
        en: 'Most pick 12 s: “lock() never gives up”. Point at the violet strip: the thread is not waiting for the lock yet, it has not even subscribed.',
        zh: '大多数人选 12 秒：“lock() 从不放弃”。指给大家看紫色条：这个线程还没开始等锁，它连订阅都还没成功。',
      },
      highlight: { lanes: ['App:5'] },
      checks: [
        failedWith(attemptsError(4)),
        exactly(1, ev('pubsub.timeout', 'App:5', { where: { reason: 'attempts' } })),
        gap(app5Wait, app5GaveUp, { min: 7300, max: 7400 }),
        exactly(1, ev('thread.done', 'App:5', { where: { outcome: 'exception' } })),
        { thread: 'App:5', state: 'done' },
        none(acquired('App:5')),
      ],
    },
    {
      claims: ['C17'],
      scenario: {
        patch: [
          { op: 'replace', path: '/title', value: 'Five waits, four pub/sub slots (3.27.2)' },
          { op: 'replace', path: '/titleZh', value: '五个等待，四个 pub/sub 槽位（3.27.2）' },
          { op: 'replace', path: '/redisson/version', value: '3.27.2' },
        ],
      },
      at: app5Error,
      text: {
        en:
          'The same run on 3.27.2: the retry delay is a constant `retryInterval` (1.5 s) and `retryAttempts` is 3, so ' +
          'App:5 gives up exactly 6.0 s after its wait began, with the same words and its own count:\n\n`' +
          attemptsError(3) +
          '`\n\nBoth releases (since 3.24.0) also put `subscriptionTimeout` (7.5 s) on `lock()`’s subscribe, and ' +
          'whichever bound comes first wins: here the pool’s retries ran out first.',
        zh:
          '同样的运行换成 3.27.2：重试间隔是固定的 `retryInterval`（1.5 秒），`retryAttempts` 是 3，所以 App:5 在等待开始后正好 6.0 秒放弃，' +
          '报错文字相同，次数是它自己的：\n\n`' +
          attemptsError(3) +
          '`\n\n两个版本（从 3.24.0 起）还都给 `lock()` 的订阅加上了 `subscriptionTimeout`（7.5 秒），哪个时限先到就按哪个：这里是连接池的重试先用完。',
      },
      tutorials: {
        en:
          'The walkthroughs quote older texts. Up to 3.16.7: `Subscribe timeout: (7500ms)`, the `syncSubscription` bound ' +
          '(`timeout + retryInterval × retryAttempts`; the gallery’s incident “lock() throws Subscribe timeout” runs it on ' +
          '3.4.4). 3.16.8–3.23: `PublishSubscribe.subscribe` gave up after `timeout` (3000 ms) with “Unable to acquire ' +
          'subscription lock after 3000ms”, a bound on the wait for the channel’s subscribe lock. From 3.24.0 that text ' +
          'belongs to `subscriptionTimeout`, as the next step shows.',
        zh:
          '各种源码解读引用的是更早的文字。3.16.7 及以前：`Subscribe timeout: (7500ms)`，即 `syncSubscription` 的时限' +
          '（`timeout + retryInterval × retryAttempts`；案例库里的 “lock() 抛出 Subscribe timeout” 在 3.4.4 上运行它）。' +
          '3.16.8–3.23：`PublishSubscribe.subscribe` 在 `timeout`（3000 毫秒）后放弃，报 “Unable to acquire subscription lock ' +
          'after 3000ms”，这是等待该频道订阅锁的时限。从 3.24.0 起这句话属于 `subscriptionTimeout`，下一步就会看到。',
      },
      teacher: {
        en: 'Ask which number in the message a tired on-call engineer will change first. Usually the timeout: the next step shows why that is not the fix.',
        zh: '问大家：半夜值班的工程师最先会改报错里的哪个数字？通常是超时：下一步说明为什么那不是办法。',
      },
      highlight: { lanes: ['App:5'] },
      checks: [
        failedWith(attemptsError(3)),
        gap(app5Wait, app5GaveUp, { min: 6000, max: 6000 }),
        none(ev('pubsub.timeout', 'App:5', { where: { reason: 'bound' } })),
      ],
    },
    {
      claims: ['C17'],
      scenario: {
        patch: [
          { op: 'replace', path: '/title', value: 'Five waits, four slots, ten retries (3.27.2)' },
          { op: 'replace', path: '/titleZh', value: '五个等待，四个槽位，重试十次（3.27.2）' },
          { op: 'add', path: '/redisson/retryAttempts', value: 10 },
        ],
      },
      at: app5Error,
      text: {
        en:
          'More retries do not help: with `retryAttempts` at 10 the pool has ten retries, 1.5 s apart, to find a slot, but ' +
          '`subscriptionTimeout` fails the subscription first, at 7.5 s, with the text that names it:\n\n`' +
          SUBSCRIPTION_TIMEOUT_ERROR +
          '`\n\nThe four waits that did get a slot are unaffected: they get their locks when H lets go at 12 s.',
        zh:
          '多重试几次也没用：`retryAttempts` 设为 10 时，连接池有十次、每次间隔 1.5 秒的重试机会去找槽位，但 `subscriptionTimeout` 先一步在 7.5 秒让订阅失败，报错文字点了它的名：\n\n`' +
          SUBSCRIPTION_TIMEOUT_ERROR +
          '`\n\n拿到了槽位的四个等待不受影响：H 在 12 秒放手时，它们拿到各自的锁。',
      },
      teacher: {
        en: 'Let the room try the timeout first: it works here, and the dodge explains why it is still wrong. The pool is sized per master, per client: 250 waits for different locks at once, not 250 threads.',
        zh: '先让大家试着调超时：在这里确实能行，而“这样确实行，但……”会解释为什么它仍然不对。连接池按每个客户端、每个主节点计算：同时等待 250 把不同的锁，而不是 250 个线程。',
      },
      highlight: { lanes: ['App:5'] },
      checks: [
        failedWith(SUBSCRIPTION_TIMEOUT_ERROR),
        exactly(1, ev('pubsub.timeout', 'App:5', { where: { reason: 'bound' } })),
        none(ev('pubsub.timeout', 'App:5', { where: { reason: 'attempts' } })),
        gap(app5Wait, app5GaveUp, { min: 7500, max: 7500 }),
        gap(ev('lock.released', 'H:1'), acquired('App:1'), { min: 0, max: 20 }),
        gap(ev('lock.released', 'H:4'), acquired('App:4'), { min: 0, max: 20 }),
      ],
      task: {
        prompt: yourTurn(
          'get App:5 its lock. H still holds all five for 12 s.',
          '让 App:5 拿到它的锁。H 仍然持有全部五把锁 12 秒。',
        ),
        controls: [
          toggleControl(
            '`subscriptionConnectionPoolSize`: the default 50',
            '`subscriptionConnectionPoolSize`：默认的 50',
            ['/redisson/subscriptionConnectionPoolSize'],
            50,
            2,
          ),
          toggleControl(
            '`subscriptionsPerConnection`: the default 5',
            '`subscriptionsPerConnection`：默认的 5',
            ['/redisson/subscriptionsPerConnection'],
            5,
            2,
          ),
          msControl('Subscription timeout (`subscriptionTimeoutMs`)', '订阅超时（`subscriptionTimeoutMs`）', [
            '/redisson/subscriptionTimeoutMs',
          ]),
        ],
        goalText: {
          en: 'App:5 gets `order-5` after waiting for H (it subscribed), and no waiter anywhere had to wait for a pub/sub slot.',
          zh: 'App:5 在等 H 之后（它订阅了）拿到 `order-5`，并且没有任何等待者需要等 pub/sub 槽位。',
        },
        goal: {
          all: [
            app5Acquires,
            exactly(1, ev('pubsub.subscribe', 'App:5')),
            none({ kind: 'pubsub.wait' }),
            hHolds12s,
          ],
        },
        solution: [{ op: 'replace', path: '/redisson/subscriptionsPerConnection', value: 5 }],
        dodges: [
          dodge(
            { all: [app5Acquires, { not: hHolds12s }] },
            'That works, but only because H now lets go sooner. The holders’ work is not yours to shorten; make room for the waits.',
            '这样确实行，但只是因为 H 现在更早放手了。持有者干多久不由你缩短；请给这些等待腾出位置。',
            [{ op: 'replace', path: '/clients/0/threads/4/program/1/ms', value: 100 }],
          ),
          dodge(
            { all: [app5Acquires, none(ev('pubsub.subscribe', 'App:5'))] },
            'That works, but App:5 no longer waits at all: it arrives after H let go. In production the waits come when they come; give them room in the pool.',
            '这样确实行，但 App:5 根本不用等了：它在 H 放手之后才到。生产环境里等待什么时候来由不得你；请在连接池里给它们留位置。',
            [{ op: 'replace', path: '/clients/1/threads/4/start', value: 13_000 }],
          ),
          dodge(
            { all: [app5Acquires, atLeast(1, ev('pubsub.wait', 'App:5'))] },
            'That works, but App:5 still waited for a slot, here until App:1 let its slot go at 12 s. A longer timeout only hides the full pool: with more waits, or longer holds, the next thread throws again. Make the pool big enough instead.',
            '这样确实行，但 App:5 仍然在等槽位，这里一直等到 App:1 在 12 秒放出槽位。更长的超时只是掩盖了连接池已满：等待再多一点、持有再久一点，下一个线程又会抛异常。请把连接池调到够大。',
            [{ op: 'add', path: '/redisson/subscriptionTimeoutMs', value: 30_000 }],
          ),
        ],
        success: {
          en: 'Every wait found a free slot at once (no `pubsub.wait` in the run): App:5 subscribed, waited for H, and got `order-5` when H let go at 12 s.',
          zh: '每个等待都立即找到了空槽位（运行里没有 `pubsub.wait`）：App:5 订阅、等待 H，并在 H 于 12 秒放手时拿到了 `order-5`。',
        },
      },
    },
    {
      claims: ['C18', 'C34'],
      scenario: { inline: persisted },
      at: violationStart('L2', 'myLock'),
      question: {
        decides: bWait,
        prompt: {
          en: 'Someone ran `PERSIST myLock` on A:1’s lock, so B:1’s lock script answered `-1` (no expiry). A:1’s watchdog will put a 30 s expiry back at 10 s, and A:1’s JVM dies at 15 s. What will the run’s verdict be?',
          zh: '有人对 A:1 的锁执行了 `PERSIST myLock`，所以 B:1 的加锁脚本返回 `-1`（没有过期时间）。A:1 的看门狗会在 10 秒时重新设上 30 秒的过期时间，A:1 的 JVM 在 15 秒挂掉。这次运行的结论是什么？',
        },
        choices: [
          choice(
            'retry',
            'safe',
            'Safe: `ttl < 0` means the lock was just released, so B:1 tries again at once',
            '安全：`ttl < 0` 说明锁刚被释放，B:1 会立刻再试',
            why(
              'Some walkthroughs read the branch that way. But the lock script never returns a negative number for a missing key (it takes the lock instead); `-1` is `PTTL` of a key that exists without an expiry. The run shows B:1 sending nothing after its `-1`.',
              '有些源码解读就是这么理解这个分支的。但锁不存在时加锁脚本不会返回负数（它直接加锁）；`-1` 是一个存在但没有过期时间的键的 `PTTL`。运行里 B:1 收到 `-1` 之后再也没发过命令。',
            ),
          ),
          choice(
            'expiry',
            'safe',
            'Safe: the key expires at ≈ 40 s and B:1 gets it, as after any crash',
            '安全：键在约 40 秒过期，B:1 拿到锁，和任何一次崩溃之后一样',
            why(
              'That is what happens to a waiter that got a positive TTL: it sleeps that long and tries again. B:1 got `-1`, and for `ttl < 0` `lock()` waits with no timer at all. The run shows the key expiring at 40 s and B:1 still waiting.',
              '拿到正数 TTL 的等待者确实如此：睡那么久然后再试。但 B:1 拿到的是 `-1`，而 `ttl < 0` 时 `lock()` 的等待根本没有定时器。运行里键在 40 秒过期了，B:1 还在等。',
            ),
          ),
          choice(
            'stuck',
            'stuck',
            'Stuck: B:1 waits for ever on a free lock',
            '卡死：B:1 对着一把空闲的锁永远等下去',
          ),
        ],
        answer: { from: 'verdict' },
        feedback: {
          en: 'For `ttl < 0`, `lock()` calls `getLatch().acquireUninterruptibly()`: only an unlock message can wake it, and a crashed holder never sends one.',
          zh: '`ttl < 0` 时，`lock()` 调用 `getLatch().acquireUninterruptibly()`：只有解锁消息能唤醒它，而崩溃的持有者永远不会发这条消息。',
        },
      },
      text: {
        en:
          'The loop of `RedissonLock.lock()` (4.7.0 as 3.27.2) has two waits. `ttl >= 0`: `tryAcquire(ttl)`, woken by a ' +
          'message or the TTL running out. `ttl < 0` (the key has no expiry): `acquireUninterruptibly()`, no timer. B:1 ' +
          'waits there from 1 s. The watchdog’s renewal at 10 s gave the key its 30 s again, A:1 died at 15 s, the key ' +
          'expired at 40 s, and nothing was ever published: **Stuck**, `L2` (a lost waiter). Type `PTTL myLock` in the ' +
          'console at 1 s and at 10 s to see the expiry gone and back.',
        zh:
          '`RedissonLock.lock()` 的循环（4.7.0 与 3.27.2 相同）有两种等待。`ttl >= 0`：`tryAcquire(ttl)`，被消息或 TTL 到期唤醒。' +
          '`ttl < 0`（键没有过期时间）：`acquireUninterruptibly()`，没有定时器。B:1 从 1 秒起就在那里等。看门狗在 10 秒的续期让键重新有了 30 秒，' +
          'A:1 在 15 秒挂掉，键在 40 秒过期，却始终没有任何消息发布：**卡死**，`L2`（丢失的等待者）。在 1 秒和 10 秒时往命令行输入 `PTTL myLock`，' +
          '可以看到过期时间没了又回来。',
      },
      teacher: {
        en: 'The walkthroughs’ comment “ttl < 0 means the previous lock was released, try again” is common in Chinese blog posts. Ask what PTTL answers for a missing key (-2), and whether the lock script can ever return it.',
        zh: '“ttl < 0 则说明前一个锁已经释放，直接尝试加锁”这条注释在中文博客里很常见。问大家：键不存在时 PTTL 返回什么（-2），加锁脚本有可能把它返回出来吗？',
      },
      highlight: { lanes: ['A:1', 'B:1', 'Ops:1'], keys: ['myLock'] },
      checks: [
        { reply: 1, of: cmd('Ops:1', 'PERSIST') },
        { reply: -1, of: bLockScript },
        exactly(1, ev('watchdog.renew', 'A:1', { where: { result: 1 } })),
        gap(acquired('A:1'), ev('watchdog.renew', 'A:1'), { min: 9990, max: 10_050 }),
        exactly(1, ev('lock.wait', 'B:1', { where: { ttl: -1, waitMs: null } })),
        exactly(1, myLockExpired),
        none(ev('waiter.wakeup', 'B:1')),
        none(acquired('B:1')),
        { verdict: 'stuck' },
      ],
    },
    {
      claims: ['C18'],
      scenario: {
        patch: [
          { op: 'replace', path: '/title', value: 'A lock key without an expiry (3.27.2)' },
          { op: 'replace', path: '/titleZh', value: '没有过期时间的锁键（3.27.2）' },
          { op: 'replace', path: '/redisson/version', value: '3.27.2' },
        ],
      },
      at: violationStart('L2', 'myLock'),
      text: {
        en:
          '3.27.2 sends its lock script as `EVAL` instead of `EVALSHA`, and waits the same way: `-1`, a wait with no ' +
          'timer, the key gone at 40 s, B:1 still waiting on a free lock: Stuck.',
        zh: '3.27.2 用 `EVAL` 而不是 `EVALSHA` 发送加锁脚本，等待方式完全一样：`-1`、没有定时器的等待、键在 40 秒消失、B:1 还对着一把空闲的锁等着：卡死。',
      },
      teacher: {
        en: 'Ask who could have removed the expiry in real life: an ops script, a key restored from a backup, a migration that copied the hash. Redis does not care who wrote a key.',
        zh: '问大家现实中谁会把过期时间去掉：运维脚本、从备份恢复的键、复制了这个哈希的迁移程序。Redis 不管键是谁写的。',
      },
      highlight: { lanes: ['B:1'], keys: ['myLock'] },
      checks: [
        { reply: -1, of: cmd('B:1', 'EVAL', { key: 'myLock', nth: -1 }) },
        exactly(1, ev('lock.wait', 'B:1', { where: { ttl: -1, waitMs: null } })),
        exactly(1, myLockExpired),
        none(ev('waiter.wakeup', 'B:1')),
        { thread: 'B:1', state: 'waiting' },
        { verdict: 'stuck' },
      ],
    },
    {
      claims: ['C23'],
      scenario: {
        patch: [
          { op: 'replace', path: '/title', value: 'tryLock(60 s) on a key without an expiry (3.27.2)' },
          { op: 'replace', path: '/titleZh', value: '对没有过期时间的锁键 tryLock(60 秒)（3.27.2）' },
          {
            op: 'replace',
            path: '/clients/1/threads/0/program/0',
            value: { op: 'tryLock', lock: 'myLock', waitMs: 60_000 },
          },
        ],
      },
      at: ev('lock.failed', 'B:1'),
      teacher: {
        en: 'People expect tryLock to notice the expiry. Ask what could have told B:1: no message was published, and its one wait had no reason to end early.',
        zh: '大家以为 tryLock 会注意到键过期了。问大家：有什么能告诉 B:1？没有任何消息发布，它那一次等待也没有理由提前结束。',
      },
      text: {
        en:
          '`tryLock(60, SECONDS)` has the same branch in another form: it sleeps `ttl` only when `ttl >= 0 && ttl < time`, ' +
          'otherwise all the time it has left. So B:1 sleeps 60 s in one go, and at 61 s returns `false`, 21 s after the ' +
          'lock went free: it never looks again. The verdict is Safe (the wait had an end), but the answer is wrong. ' +
          'Where does a real `ttl < 0` come from? Before 3.32.0 a FairLock’s wait estimate for a queued thread could go ' +
          'negative: the gallery’s incident “FairLock: a negative wait estimate blocks for ever” runs it.',
        zh:
          '`tryLock(60, SECONDS)` 里有同一个分支的另一种写法：只有 `ttl >= 0 && ttl < time` 时才睡 `ttl`，否则把剩下的时间一次睡完。' +
          '所以 B:1 一口气睡了 60 秒，在 61 秒返回 `false`，这时锁已经空闲了 21 秒：它再也没看过一眼。结论是安全（等待有尽头），但答案是错的。' +
          '真实世界里的 `ttl < 0` 从哪来？3.32.0 之前，公平锁对排队线程的等待估计可能变成负数：案例库里的“FairLock：负的等待估计让线程永远阻塞”运行的就是它。',
      },
      highlight: { lanes: ['B:1'], keys: ['myLock'] },
      checks: [
        exactly(1, ev('lock.wait', 'B:1', { where: { ttl: -1, waitMs: 59_994 } })),
        gap(myLockExpired, ev('lock.failed', 'B:1'), { min: 20_000, max: 21_000 }),
        none(cmd('B:1', 'EVAL', { after: myLockExpired })),
        threadHolds('B:1', 'myLock', 0, { lastResult: false }),
        { verdict: 'safe' },
      ],
    },
  ],
};

export default lesson;
