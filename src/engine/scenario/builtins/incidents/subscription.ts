/** Subscriptions: every lock a client waits for takes a slot of its pub/sub connection pool. */
import { defineIncident } from './define';

const LOCKS = ['order-1', 'order-2', 'order-3', 'order-4', 'order-5'];

/**
 * H's five threads hold five locks for 12 s; App's five threads ask for them at 100 ms. #995's
 * client settings (timeout 5000, retryAttempts 3, retryInterval 1500) and a pool shrunk to 2 × 2
 * slots, so that five waits do what 251 do to the default 50 × 5.
 */
const exhausted = {
  redisson: {
    version: '3.4.4',
    timeoutMs: 5000,
    retryAttempts: 3,
    retryDelayMs: 1500,
    subscriptionConnectionPoolSize: 2,
    subscriptionsPerConnection: 2,
  },
  until: 30_000,
  clients: [
    {
      id: 'H',
      threads: LOCKS.map((lock, i) => ({
        id: i + 1,
        program: [
          { op: 'lock', lock },
          { op: 'work', ms: 12_000 },
          { op: 'unlock', lock },
        ],
      })),
    },
    {
      id: 'App',
      threads: LOCKS.map((lock, i) => ({
        id: i + 1,
        start: 100 + i * 10,
        program: [
          { op: 'lock', lock, leaseMs: 3000 },
          { op: 'work', ms: 10 },
          { op: 'unlock', lock },
        ],
      })),
    },
  ],
};

export const subscribeTimeout = defineIncident(
  'incident-subscribe-timeout',
  {
    title: 'lock() throws “Subscribe timeout: (9500ms)” (3.4.4)',
    titleZh: 'lock() 抛出 “Subscribe timeout: (9500ms)”（3.4.4）',
    description:
      'Redisson 3.4.4 with #995’s settings (timeout 5000 ms, 3 retries 1500 ms apart). H holds five locks for 12 s; ' +
      'App’s five threads call lock() on them at 100 ms. Each waiting lock takes one slot of App’s pub/sub pool, ' +
      'shrunk here to 2 connections × 2 subscriptions so that five waits exhaust it as 251 exhaust the default 50 × 5. ' +
      'Four threads subscribe and wait; the fifth finds no slot, waits for one, and after timeout + retryInterval × ' +
      'retryAttempts = 9500 ms its lock() throws RedisTimeoutException “Subscribe timeout: (9500ms)”. The other four ' +
      'get their locks when H lets go.',
    descriptionZh:
      'Redisson 3.4.4，使用 #995 的配置（timeout 5000 毫秒，重试 3 次、间隔 1500 毫秒）。H 持有五把锁 12 秒；App 的五个线程在 100 毫秒' +
      '对它们调用 lock()。每一把正在等待的锁都占用 App 的发布订阅连接池中的一个位置；这里把连接池缩小到 2 个连接 × 2 个订阅，' +
      '让五个等待耗尽它，就像 251 个等待耗尽默认的 50 × 5。四个线程订阅并等待；第五个找不到位置，只能等，' +
      '在 timeout + retryInterval × retryAttempts = 9500 毫秒后它的 lock() 抛出 RedisTimeoutException “Subscribe timeout: (9500ms)”。' +
      '另外四个在 H 释放后拿到各自的锁。',
    incident: {
      family: 'subscription',
      links: [
        'https://github.com/redisson/redisson/issues/995',
        'https://github.com/redisson/redisson/issues/1879',
        'https://github.com/redisson/redisson/issues/1847',
      ],
      reported: '3.4.4',
      symptom: {
        en: '`lock.lock(3, TimeUnit.SECONDS)` sometimes throws `org.redisson.client.RedisTimeoutException: Subscribe timeout: (9500ms)`. Is the timeout configured wrong?',
        zh: '`lock.lock(3, TimeUnit.SECONDS)` 偶尔抛出 `org.redisson.client.RedisTimeoutException: Subscribe timeout: (9500ms)`。是超时时间配置错了吗？',
      },
      cause: {
        en: 'jackygurui (#995): the pub/sub connections were used up. Each lock a client is waiting for holds a subscription on its channel, out of subscriptionConnectionPoolSize × subscriptionsPerConnection (#1879: “each active lock consumes a lock resource”); with none free, syncSubscription gives up after timeout + retryInterval × retryAttempts. The remedy is a bigger pool (or fewer concurrent waits), not a longer timeout.',
        zh: 'jackygurui（#995）：发布订阅连接用完了。客户端正在等待的每一把锁都在它的频道上占用一个订阅，总数是 subscriptionConnectionPoolSize × subscriptionsPerConnection（#1879：“each active lock consumes a lock resource”）；没有空位时，syncSubscription 在 timeout + retryInterval × retryAttempts 之后放弃。解决办法是更大的连接池（或更少的同时等待），而不是更长的超时。',
      },
      keywords: [
        'Subscribe timeout',
        'RedisTimeoutException',
        'subscriptionConnectionPoolSize',
        'subscriptionsPerConnection',
        'pub/sub',
        'subscription',
        '订阅超时',
        '发布订阅',
        '连接池',
        '连接用完',
      ],
      verdict: 'safe',
    },
    scenario: { title: 'Subscribe timeout (3.4.4)', ...exhausted },
  },
  {
    title: 'Remedy: a pool with room for every wait',
    titleZh: '解决办法：连接池容得下每一个等待',
    description:
      'The same five waits with the pool at its default 50 × 5: every waiter subscribes at once, nobody times out, ' +
      'and each App thread gets its lock when H unlocks it.',
    descriptionZh:
      '同样五个等待，连接池使用默认的 50 × 5：每个等待者立即订阅，没有人超时，App 的每个线程在 H 解锁后拿到自己的锁。',
    verdict: 'safe',
    scenario: {
      title: 'Remedy: room in the pool',
      ...exhausted,
      redisson: { ...exhausted.redisson, subscriptionConnectionPoolSize: 50, subscriptionsPerConnection: 5 },
    },
  },
);

export const incidentsSubscription = [...subscribeTimeout];
