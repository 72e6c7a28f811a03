/**
 * Redisson in cluster mode (useClusterServers) against the simulated Redis Cluster: what the
 * client does with the cluster's answers (CLUSTERDOWN, MOVED), where it sends reads and pub/sub,
 * and when it re-sends. Each test names the Redisson release and method it follows.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from './testing/simulate';

type Program = Record<string, unknown>[];
interface Thread {
  id: number;
  start?: number;
  program: Program;
}

/** A 3+3 cluster (node timeout 2 s) whose master-3 crashes at 10 ms, and some clients. */
function crashScenario(version: string, clients: Record<string, Thread[]>, extra: Record<string, unknown> = {}) {
  return {
    format: 'lockscope/1',
    redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
    redisson: { version, ...extra },
    clients: Object.entries(clients).map(([id, threads]) => ({ id, threads })),
    faults: [{ at: 10, kind: 'crash', node: 'master-3' }],
  };
}

const hold = (lock: string, ms: number): Program => [
  { op: 'lock', lock },
  { op: 'work', ms },
  { op: 'unlock', lock },
];

describe('CLUSTERDOWN (RedisClusterDownException, 3.13.2 52f786ed5)', () => {
  // seat:4 is slot 1744 on master-1, which is healthy; between master-3's FAIL (~2.2 s) and
  // replica-3's promotion (~3 s) every node refuses keyed commands with CLUSTERDOWN
  const lockInWindow = (version: string) =>
    simulate(crashScenario(version, { A: [{ id: 1, start: 2500, program: hold('seat:4', 500) }] }));

  it('3.13.1 CommandDecoder: CLUSTERDOWN is a plain RedisException, lock() fails at once', () => {
    const s = lockInWindow('3.13.1');
    expect(s.results('A:1')[0]).toEqual({ error: 'RedisException: CLUSTERDOWN The cluster is down' });
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
  });

  it('3.13.2 RedisExecutor.checkAttemptPromise: re-sent retryInterval (1500 ms) later, lock() succeeds after the promotion', () => {
    const s = lockInWindow('3.13.2');
    const scripts = s.of('cmd', 'A:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]));
    expect(scripts[0].reply).toEqual({ error: 'CLUSTERDOWN The cluster is down' });
    // both replies take one round trip (2 ms); retryInterval 1500 ms between them
    expect(scripts[1].t - scripts[0].t).toBe(1502);
    expect(scripts[1].reply).toBeNull();
    expect(scripts[1].t).toBeGreaterThan(s.of('cluster.promoted')[0].t);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
  });

  it('4.7.0 RedisExecutor: the EVALSHA + WAIT batch is re-sent after RetryDelay.calcDelay(0), then acquires', () => {
    const s = lockInWindow('4.7.0');
    // before the batch: the WAIT probe, INFO ALL and SCRIPT LOAD (4.7.0 CommandAsyncService.syncedEval,
    // CommandBatchService.loadScripts), which name no key, so CLUSTERDOWN does not stop them
    const all = s.of('cmd', 'A:1');
    expect(all.slice(0, 4).map((e) => (e.argv as string[])[0])).toEqual(['WAIT', 'WAITAOF', 'INFO', 'SCRIPT']);
    const cmds = all.filter((e) => (e.argv as string[])[0] === 'EVALSHA');
    expect(cmds[0].reply).toEqual({ error: 'CLUSTERDOWN The cluster is down' });
    // EqualJitterDelay(1000, 2000).calcDelay(0): 500 + random(0..500)
    expect(cmds[1].t - cmds[0].t).toBeGreaterThanOrEqual(500);
    expect(cmds[1].t - cmds[0].t).toBeLessThanOrEqual(1001);
    expect(all.some((e) => (e.argv as string[])[0] === 'WAIT' && (e.argv as string[])[1] === '1')).toBe(true);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
  });

  it('3.13.2 CommandDecoder: once the re-sends run out, lock() throws RedisClusterDownException (3.13.1: RedisException)', () => {
    const noRetry = (version: string) =>
      simulate(
        crashScenario(version, { A: [{ id: 1, start: 2500, program: hold('seat:4', 500) }] }, { retryAttempts: 0 }),
      );
    expect(noRetry('3.13.2').results('A:1')[0]).toEqual({ error: 'RedisClusterDownException: CLUSTERDOWN The cluster is down' });
    expect(noRetry('4.7.0').results('A:1')[0]).toEqual({ error: 'RedisClusterDownException: CLUSTERDOWN The cluster is down' });
    expect(noRetry('3.13.1').results('A:1')[0]).toEqual({ error: 'RedisException: CLUSTERDOWN The cluster is down' });
  });

  // the CLUSTERDOWN re-send (1500 ms later) lands on master-1 while it stalls: its reply is late
  const clusterDownThenTimeout = (retryAttempts: number) =>
    simulate({
      ...crashScenario('3.27.2', { A: [{ id: 1, start: 2500, program: hold('seat:4', 500) }] }, { retryAttempts }),
      faults: [
        { at: 10, kind: 'crash', node: 'master-3' },
        { at: 3900, kind: 'stall', node: 'master-1', ms: 4000 },
      ],
    });

  it('3.27.2 RedisExecutor: the CLUSTERDOWN re-send and the response-timeout re-send share one attempt counter', () => {
    // retryAttempts 1: the CLUSTERDOWN re-send used it (checkAttemptPromise: attempt++), so the
    // response timeout finds isResendAllowed(attempt < attempts) false and lock() fails
    const s = clusterDownThenTimeout(1);
    const scripts = s.of('cmd', 'A:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]));
    expect(scripts.map((e) => e.reply)).toEqual([{ error: 'CLUSTERDOWN The cluster is down' }, null]);
    expect(s.of('call.timeout', 'A:1')).toHaveLength(1);
    expect(String(JSON.stringify(s.results('A:1')[0]))).toMatch(/RedisResponseTimeoutException/);
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
    // retryAttempts 2: one attempt is left for the timeout, and the re-sent script acquires
    const t = clusterDownThenTimeout(2);
    const acquired = t.of('lock.acquired', 'A:1');
    expect(acquired).toHaveLength(1);
    const before = t.of('cmd', 'A:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]) && e.t <= acquired[0].t);
    expect(before).toHaveLength(3);
  });

  it('3.27.2 RedissonBaseLock.renewExpiration: the renewal in the window is retried, the watchdog keeps the lock (no V1)', () => {
    const s = simulate(
      crashScenario(
        '3.27.2',
        {
          A: [{ id: 1, start: 400, program: hold('seat:4', 12_000) }],
          B: [
            {
              id: 1,
              start: 7000,
              program: [
                { op: 'tryLock', lock: 'seat:4', waitMs: 0 },
                { op: 'work', ms: 1000 },
                { op: 'unlock', lock: 'seat:4' },
              ],
            },
          ],
        },
        { lockWatchdogTimeout: 6000 },
      ),
    );
    const renewals = s.of('cmd', 'A/watchdog').filter((e) => /^EVAL/.test((e.argv as string[])[0]));
    expect(renewals[0].reply).toEqual({ error: 'CLUSTERDOWN The cluster is down' });
    expect(renewals[1].reply).toBe(1);
    expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)).toEqual(['unlock']);
    expect(s.results('B:1')[0]).toBe(false);
    expect(s.violations).toEqual([]);
  });

  it('3.11.6 (no retry): the same renewal error stops the per-lock watchdog, and the lock expires under A', () => {
    const s = simulate(
      crashScenario(
        '3.11.6',
        {
          A: [{ id: 1, start: 400, program: hold('seat:4', 12_000) }],
          B: [{ id: 1, start: 7000, program: hold('seat:4', 1000) }],
        },
        { lockWatchdogTimeout: 6000 },
      ),
    );
    expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)[0]).toBe('error');
    expect(s.violations.map((v) => v.kind)).toContain('V1');
  });
});

describe('waiters across a cluster failover (4.7.0 ClusterConnectionManager.addEntry → shutdownEntry → reattachPubSub)', () => {
  // A holds myLock (slot 12769, master-3) 0–6.2 s; B waits from 500 ms; master-3 fails at 1 s
  const resub = (fault: Record<string, unknown>) =>
    simulate({
      format: 'lockscope/1',
      redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
      clients: [
        { id: 'A', threads: [{ id: 1, program: hold('myLock', 6200) }] },
        { id: 'B', threads: [{ id: 1, start: 500, program: hold('myLock', 300) }] },
      ],
      faults: [fault],
    });
  const everyoneElse = ['master-1', 'master-2', 'replica-1', 'replica-2', 'replica-3', 'A', 'B'];

  it.each([
    ['a crash', { at: 1000, kind: 'crash', node: 'master-3' }],
    ['a partition', { at: 1000, kind: 'partition', groups: [['master-3'], everyoneElse] }],
  ])('after %s, B re-subscribes on replica-3 at the 5 s scan and wakes on A’s unlock', (_name, fault) => {
    const s = resub(fault);
    const scan = s.of('client.master').find((e) => e.client === 'B')!;
    expect([scan.t, scan.node, scan.from]).toEqual([5000, 'replica-3', 'master-3']);
    const again = s.of('pubsub.subscribe').filter((e) => e.resubscribe === true);
    expect(again.map((e) => [e.node, e.channel])).toEqual([['replica-3', 'redisson_lock__channel:{myLock}']]);
    expect(again[0].t).toBeLessThanOrEqual(5005);
    const wake = s.of('waiter.wakeup', 'B:1');
    expect(wake.map((e) => e.cause)).toEqual(['message']);
    expect(wake[0].t).toBeLessThan(6300);
    expect(s.violations).toEqual([]);
  });
});

describe('a lost reply in a cluster without replicas (4.7.0 CommandAsyncService.syncedEval)', () => {
  const lost = (topology: 'cluster' | 'single') =>
    simulate({
      format: 'lockscope/1',
      redis: { topology },
      clients: [{ id: 'A', threads: [{ id: 1, start: 100, program: hold('seat:4', 300) }] }],
      faults: [
        {
          at: 101,
          kind: 'partition',
          groups: [['A'], topology === 'cluster' ? ['master-1', 'master-2', 'master-3'] : ['master']],
          healAt: 1500,
          // the reply is lost with A's reset connection (a plain partition would only delay it)
          reset: true,
        },
      ],
    });

  it('cluster: not isSingleConfig, so the batch path (noRetry false) re-sends the lock script; lock() succeeds', () => {
    const s = lost('cluster');
    const scripts = s.of('cmd', 'A:1').filter((e) => (e.argv as string[]).includes('seat:4'));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
    expect(s.results('A:1')).toEqual([]);
  });

  it('single server without replicas: evalWriteNoRetryAsync, lock() fails with RedisResponseTimeoutException', () => {
    const s = lost('single');
    expect(String(s.results('A:1')[0] && JSON.stringify(s.results('A:1')[0]))).toMatch(
      /RedisResponseTimeoutException/,
    );
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
  });
});

describe('which pub/sub the lock channel uses in a Redis 7 cluster, per release', () => {
  // A holds myLock 1 s; B waits from 300 ms and subscribes to redisson_lock__channel:{myLock}
  const run = (version: string, seed = 1) =>
    simulate({
      format: 'lockscope/1',
      seed,
      redis: { topology: 'cluster' },
      redisson: { version },
      clients: [
        { id: 'A', threads: [{ id: 1, program: hold('myLock', 1000) }] },
        { id: 'B', threads: [{ id: 1, start: 300, program: hold('myLock', 100) }] },
      ],
    });
  const subscribeOf = (s: ReturnType<typeof simulate>) =>
    (s.of('cmd', 'B:1').find((e) => /SUBSCRIBE$/.test((e.argv as string[])[0]))?.argv as string[])[0];

  it('3.21.3: SUBSCRIBE / PUBLISH; the PUBLISH reaches B over the bus', () => {
    const s = run('3.21.3');
    expect(subscribeOf(s)).toBe('SUBSCRIBE');
    expect(s.of('waiter.wakeup', 'B:1').map((e) => e.cause)).toEqual(['message']);
  });

  it('3.22.0 ClusterConnectionManager: SPUBLISH "" "" on the first seed (slot 0’s master) succeeds: SSUBSCRIBE', () => {
    expect(subscribeOf(run('3.22.0'))).toBe('SSUBSCRIBE');
    expect(subscribeOf(run('3.26.0'))).toBe('SSUBSCRIBE');
  });

  it('3.27.2 ClusterConnectionManager.detectSharding: sharded only when the arbitrary entry probed serves slot 0', () => {
    // each JVM draws its own entry: A may publish with SPUBLISH while B listens with SUBSCRIBE,
    // and then B hears nothing and wakes only when A's ttl is over
    const seen = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
      const s = run('3.27.2', seed);
      const sub = subscribeOf(s);
      const unlock = s.of('cmd', 'A:1').find((e) => (e.argv as string[]).includes('redisson_lock__channel:{myLock}'));
      const pub = (unlock?.argv as string[]).find((a) => a === 'PUBLISH' || a === 'SPUBLISH');
      seen.add(`${sub}/${pub}`);
      const agree = (sub === 'SSUBSCRIBE') === (pub === 'SPUBLISH');
      expect(s.of('waiter.wakeup', 'B:1')[0].cause, `seed ${seed}`).toBe(agree ? 'message' : 'timeout');
    }
    expect([...seen].some((x) => x.startsWith('SUBSCRIBE/'))).toBe(true);
    expect([...seen].some((x) => x.startsWith('SSUBSCRIBE/'))).toBe(true);
  });

  it('3.28.0 detectSharding (PUBSUB SHARDNUMSUB) and 3.29.0 shardedSubscriptionMode AUTO: SSUBSCRIBE whatever the seed', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      expect(subscribeOf(run('3.28.0', seed))).toBe('SSUBSCRIBE');
      expect(subscribeOf(run('3.29.0', seed))).toBe('SSUBSCRIBE');
    }
  });
});

describe('reads under ReadMode.SLAVE (3.11.6 … 4.7.0 RedissonObject.isExistsAsync / RedissonExpirable.remainTimeToLiveAsync: readAsync)', () => {
  // A locks myLock at 0; replication lags 500 ms; B asks at 100 ms and again at ~700 ms
  const reads = (redis: Record<string, unknown>) =>
    simulate({
      format: 'lockscope/1',
      redis,
      clients: [
        { id: 'A', threads: [{ id: 1, program: hold('myLock', 1000) }] },
        {
          id: 'B',
          threads: [
            {
              id: 1,
              start: 100,
              program: [
                { op: 'isLocked', lock: 'myLock' },
                { op: 'remainTimeToLive', lock: 'myLock' },
                { op: 'sleep', ms: 600 },
                { op: 'isLocked', lock: 'myLock' },
              ],
            },
          ],
        },
      ],
    });

  it('cluster: EXISTS and PTTL go to replica-3 after READONLY, and answer from its stale copy', () => {
    const lag = { lagMs: 500 };
    const s = reads({ topology: 'cluster', replicasPerMaster: 1, replicas: [lag, lag, lag] });
    expect(s.of('cmd', 'B:1').map((e) => [e.node, (e.argv as string[])[0]])).toEqual([
      ['replica-3', 'READONLY'],
      ['replica-3', 'EXISTS'],
      ['replica-3', 'PTTL'],
      ['replica-3', 'EXISTS'],
    ]);
    expect(s.results('B:1')).toEqual([false, -2, true]);
  });

  it('Sentinel: the same reads go to the replica, as stale', () => {
    const s = reads({ topology: 'sentinel', replicas: [{ lagMs: 500 }] });
    expect(s.of('cmd', 'B:1').map((e) => e.node)).toEqual(['replica-1', 'replica-1', 'replica-1']);
    expect(s.results('B:1')).toEqual([false, -2, true]);
  });

  it('single server: the master answers (no replicas known)', () => {
    const s = reads({ topology: 'single', replicas: [{ lagMs: 500 }] });
    expect(s.of('cmd', 'B:1').map((e) => e.node)).toEqual(['master', 'master', 'master']);
    expect(s.results('B:1')[0]).toBe(true);
  });
});
