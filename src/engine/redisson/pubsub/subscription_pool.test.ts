/**
 * The pub/sub pool as a resource: each lock a client waits for takes one slot of
 * subscriptionConnectionPoolSize × subscriptionsPerConnection; with none free a waiter waits and
 * fails as its release does. Checked against the real client (3.11.6, 3.27.2, 4.7.0: pool 1 × 1,
 * two locks waited on at once; see docs/redisson-differences.md, "Pub/sub").
 */
import { describe, expect, it } from 'vitest';
import { first, lockOps, run, work, type Op } from '../testing/family';

const lock = (name: string): Op => ({ op: 'lock', lock: name });
const unlock = (name: string): Op => ({ op: 'unlock', lock: name });
const tryLock = (name: string, waitMs: number): Op => ({ op: 'tryLock', lock: name, waitMs });

/**
 * H holds L1 and L2 until 12 s; W:1 waits for L1 from 100 ms (it takes W's only slot), W:2 for
 * L2 from 300 ms.
 */
function exhausted(
  version: string,
  pool = { subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 1 },
  w2: Op = lock('L2'),
) {
  return run(
    {
      H: [{ id: 1, program: [lock('L1'), lock('L2'), work(12_000), unlock('L1'), unlock('L2')] }],
      W: [
        { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
        { id: 2, start: 300, program: [w2, unlock('L2')] },
      ],
    },
    { redisson: { version, ...pool }, until: 30_000 },
  );
}

describe('an exhausted pub/sub pool, per release', () => {
  it('3.11.6 CommandAsyncService.syncSubscription: lock() throws "Subscribe timeout: (7500ms)" after timeout + retryInterval × retryAttempts', () => {
    const s = exhausted('3.11.6');
    const wait = first(s, 'pubsub.wait', 'W:2');
    expect(wait).toMatchObject({ channel: 'redisson_lock__channel:{L2}', used: 1, capacity: 1 });
    const err = first(s, 'lock.error', 'W:2');
    expect(err.t - wait.t).toBe(7500);
    expect(err.error).toBe(
      "RedisTimeoutException: Subscribe timeout: (7500ms). Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.",
    );
    expect(first(s, 'pubsub.timeout', 'W:2')).toMatchObject({ reason: 'bound', waitedMs: 7500 });
    // the slot's holder is unaffected: W:1 gets L1 once H lets it go
    expect(first(s, 'lock.acquired', 'W:1').t).toBeGreaterThan(12_000);
  });

  it('3.16.8 PublishSubscribeService.subscribe: the pool wait is retried every retryInterval; "Unable to acquire connection for subscription after 3 attempts" at 4 × 1500 ms', () => {
    const s = exhausted('3.16.8');
    const wait = first(s, 'pubsub.wait', 'W:2');
    const err = first(s, 'lock.error', 'W:2');
    expect(err.t - wait.t).toBe(6000);
    expect(err.error).toBe(
      "RedisTimeoutException: Unable to acquire connection for subscription after 3 attempts. Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.",
    );
    expect(first(s, 'pubsub.timeout', 'W:2')).toMatchObject({ reason: 'attempts', waitedMs: 6000 });
  });

  it('3.27.2 PublishSubscribeService.trySubscribe: the same error at 6000 ms, before subscriptionTimeout (7500) (the real client: 6.3 s)', () => {
    const s = exhausted('3.27.2');
    const err = first(s, 'lock.error', 'W:2');
    expect(err.t - first(s, 'pubsub.wait', 'W:2').t).toBe(6000);
    expect(err.error).toMatch(
      /^RedisTimeoutException: Unable to acquire connection for subscription after 3 attempts\./,
    );
  });

  it('3.27.2 RedissonLock.lock: with more retries than subscriptionTimeout allows, pubSub.timeout(future) fails it first', () => {
    const s = run(
      {
        H: [{ id: 1, program: [lock('L1'), lock('L2'), work(12_000), unlock('L1'), unlock('L2')] }],
        W: [
          { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
          { id: 2, start: 300, program: [lock('L2'), unlock('L2')] },
        ],
      },
      {
        redisson: {
          version: '3.27.2',
          subscriptionConnectionPoolSize: 1,
          subscriptionsPerConnection: 1,
          retryAttempts: 10,
        },
        until: 30_000,
      },
    );
    const err = first(s, 'lock.error', 'W:2');
    expect(err.t - first(s, 'pubsub.wait', 'W:2').t).toBe(7500);
    expect(err.error).toBe(
      "RedisTimeoutException: Unable to acquire subscription lock after 7500ms. Try to increase 'subscriptionTimeout', 'subscriptionsPerConnection', 'subscriptionConnectionPoolSize' parameters.",
    );
  });

  it('3.16.7 CommandAsyncService.syncSubscription / 3.16.8 PublishSubscribeService.subscribe: the boundary', () => {
    expect(first(exhausted('3.16.7'), 'lock.error', 'W:2').error).toMatch(/Subscribe timeout: \(7500ms\)/);
    expect(first(exhausted('3.16.8'), 'lock.error', 'W:2').error).toMatch(/after 3 attempts/);
  });

  it('3.23.1 RedissonLock.lock (get(future), no bound) vs 3.24.0 (pubSub.timeout): with 10 retries 3.23.1 fails after 11 × 1500 ms, 3.24.0 at 7500 ms', () => {
    const tenRetries = (version: string) =>
      run(
        {
          H: [{ id: 1, program: [lock('L1'), lock('L2'), work(20_000), unlock('L1'), unlock('L2')] }],
          W: [
            { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
            { id: 2, start: 300, program: [lock('L2'), unlock('L2')] },
          ],
        },
        {
          redisson: {
            version,
            subscriptionConnectionPoolSize: 1,
            subscriptionsPerConnection: 1,
            retryAttempts: 10,
          },
          until: 40_000,
        },
      );
    const old = tenRetries('3.23.1');
    expect(first(old, 'lock.error', 'W:2').t - first(old, 'pubsub.wait', 'W:2').t).toBe(16_500);
    expect(first(old, 'lock.error', 'W:2').error).toMatch(/after 10 attempts/);
    const later = tenRetries('3.24.0');
    expect(first(later, 'lock.error', 'W:2').t - first(later, 'pubsub.wait', 'W:2').t).toBe(7500);
    expect(first(later, 'lock.error', 'W:2').error).toMatch(
      /Unable to acquire subscription lock after 7500ms/,
    );
  });

  it('3.27.2 PublishSubscribe.subscribe (entries.remove on a failed subscribe, 3.24+): a later lock() of the same lock subscribes afresh and gets the slot W:1 frees (the real client: acquired 3.5 s after it began at 8.5 s)', () => {
    const s = run(
      {
        H: [{ id: 1, program: [lock('L1'), lock('L2'), work(12_000), unlock('L1'), unlock('L2')] }],
        W: [
          { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
          { id: 2, start: 300, program: [lock('L2'), unlock('L2')] },
          { id: 3, start: 8500, program: [lock('L2'), unlock('L2')] },
        ],
      },
      {
        redisson: { version: '3.27.2', subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 1 },
        until: 30_000,
      },
    );
    expect(first(s, 'lock.error', 'W:2').error).toMatch(/after 3 attempts/);
    expect(first(s, 'pubsub.wait', 'W:3').t).toBe(8502); // after its first acquire's round trip
    const got = first(s, 'lock.acquired', 'W:3').t;
    expect(got).toBeGreaterThan(12_000);
    expect(got).toBeLessThan(12_100);
  });

  it('4.7.0 PublishSubscribeService.connect: RetryDelay.calcDelay(attempts) (EqualJitter 1-2 s), 4 retries: "after 4 attempts" within 4.5-9 s (the real client: 7.0 s)', () => {
    const s = exhausted('4.7.0');
    const err = first(s, 'lock.error', 'W:2');
    const waited = err.t - first(s, 'pubsub.wait', 'W:2').t;
    // subscriptionTimeout (7500) bounds it too: whichever comes first
    if (waited < 7500)
      expect(err.error).toMatch(/Unable to acquire connection for subscription after 4 attempts\./);
    else expect(err.error).toMatch(/Unable to acquire subscription lock after 7500ms\./);
    expect(waited).toBeGreaterThanOrEqual(4500);
    expect(waited).toBeLessThanOrEqual(7500);
  });

  it('4.7.0 RedissonLock.tryLock: an exhausted pool makes tryLock(2 s) return false after its wait, no exception', () => {
    const s = exhausted('4.7.0', undefined, tryLock('L2', 2000));
    expect(s.of('lock.error', 'W:2')).toEqual([]);
    expect(first(s, 'lock.failed', 'W:2').t).toBe(2300);
    expect(first(s, 'pubsub.timeout', 'W:2')).toMatchObject({ reason: 'bound' });
  });

  it.each(['3.11.6', '3.16.8', '3.27.2', '4.7.0'])(
    '%s PublishSubscribeService: with a pool big enough (the defaults, or 1 × 2) nobody waits or fails',
    (version) => {
      for (const pool of [{}, { subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 2 }]) {
        const s = exhausted(version, pool as never);
        expect(s.of('pubsub.wait')).toEqual([]);
        expect(s.of('lock.error')).toEqual([]);
        expect(s.of('lock.acquired', 'W:1')).toHaveLength(1);
        expect(s.of('lock.acquired', 'W:2')).toHaveLength(1);
      }
    },
  );

  it('4.7.0 PubSubConnectionEntry.release: an UNSUBSCRIBE frees the slot for the longest waiter', () => {
    // H lets L1 go at 2 s: W:1 takes it, unlocks and unsubscribes, and W:2 gets the slot
    const s = run(
      {
        H: [{ id: 1, program: [lock('L1'), lock('L2'), work(2000), unlock('L1'), work(1000), unlock('L2')] }],
        W: [
          { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
          { id: 2, start: 300, program: [lock('L2'), unlock('L2')] },
        ],
      },
      {
        redisson: { version: '4.7.0', subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 1 },
        until: 30_000,
      },
    );
    const unsub = first(s, 'pubsub.unsubscribe', 'W:1');
    const sub2 = first(s, 'pubsub.subscribe', 'W:2');
    expect(sub2.t).toBeGreaterThanOrEqual(unsub.t);
    expect(sub2.conn).toBe('W/pubsub'); // the same connection, its one slot reused
    expect(s.of('lock.error')).toEqual([]);
    expect(s.of('lock.acquired', 'W:2')).toHaveLength(1);
  });

  it('a second connection opens when the first is full (1 slot each, pool of 2)', () => {
    const s = exhausted('4.7.0', { subscriptionConnectionPoolSize: 2, subscriptionsPerConnection: 1 });
    expect(s.of('pubsub.subscribe').map((e) => e.conn)).toEqual(['W/pubsub', 'W/pubsub-2']);
    expect(s.of('pubsub.wait')).toEqual([]);
  });
});

describe('FairLock: a slot per waiting thread', () => {
  const fair = lockOps('F', 'FairLock');
  /** H holds the lock 3 s; W:1 and W:2 wait for it (pool 1 × 1) */
  const twoWaiters = (acquire: Op, release: Op) =>
    run(
      {
        H: [{ id: 1, program: [acquire, work(3000), release] }],
        W: [
          { id: 1, start: 100, program: [acquire, release] },
          { id: 2, start: 300, program: [acquire, release] },
        ],
      },
      {
        redisson: { version: '4.7.0', subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 1 },
        until: 30_000,
      },
    );

  it('4.7.0 RedissonFairLock.getChannelName: two threads of one client waiting for one FairLock take two slots (pool 1 × 1: the second waits)', () => {
    const s = twoWaiters(fair('lock'), fair('unlock'));
    expect(first(s, 'pubsub.wait', 'W:2')).toMatchObject({ used: 1, capacity: 1 });
    // an RLock's waiters share one channel: one slot is enough
    const r = twoWaiters(lock('F'), unlock('F'));
    expect(r.of('pubsub.wait')).toEqual([]);
    expect(r.of('lock.acquired', 'W:2')).toHaveLength(1);
  });
});

describe('resubscription after the master restarts at the same address, Sentinel mode', () => {
  /**
   * H holds L and L2 (watchdog) from 0 and unlocks them at 5 s; W:1 and W:2 wait for them from
   * 100 ms (two channels on W's pub/sub connection). The master crashes at 1 s and is back at
   * 1.5 s with its data (AOF), before the Sentinels (down-after 5 s) would fail it over.
   */
  const restart = (version: string) =>
    run(
      {
        H: [{ id: 1, program: [lock('L'), lock('L2'), work(5000), unlock('L'), unlock('L2')] }],
        W: [
          { id: 1, start: 100, program: [lock('L'), unlock('L')] },
          { id: 2, start: 100, program: [lock('L2'), unlock('L2')] },
        ],
      },
      {
        redis: { topology: 'sentinel', replicas: [{ lagMs: 1 }], persistence: 'aof-always' },
        redisson: { version },
        until: 60_000,
        faults: [
          { at: 1000, kind: 'crash', node: 'master' },
          { at: 1500, kind: 'restart', node: 'master' },
        ],
      },
    );

  // The real 3.27.2 and 4.7.0 clients (Sentinel mode, master killed and restarted on its port after
  // 0.5 s and after 7 s, one and two channels) resubscribed and woke their waiters at the unlock.
  // #6026's fix (3.46.0) concerns closed connections, which a same-address restart does not leave.
  it.each(['3.27.2', '3.45.0', '3.46.0', '4.7.0'])(
    '%s PublishSubscribeService.reattachPubSub: both channels are subscribed again and the waiters are woken by the unlocks',
    (version) => {
      const s = restart(version);
      expect(s.of('failover.promote')).toEqual([]);
      const resub = s.of('pubsub.subscribe').filter((e) => e.resubscribe);
      expect(resub.map((e) => e.channel).sort()).toEqual([
        'redisson_lock__channel:{L2}',
        'redisson_lock__channel:{L}',
      ]);
      for (const e of resub) expect(e.t).toBeGreaterThanOrEqual(1500);
      for (const w of ['W:1', 'W:2']) {
        const acquired = first(s, 'lock.acquired', w).t;
        expect(acquired).toBeGreaterThan(5000);
        expect(acquired).toBeLessThan(5100);
      }
    },
  );
});
