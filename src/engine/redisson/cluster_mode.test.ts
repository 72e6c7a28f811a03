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
    const cmds = s.of('cmd', 'A:1');
    expect(cmds[0].reply).toEqual({ error: 'CLUSTERDOWN The cluster is down' });
    // EqualJitterDelay(1000, 2000).calcDelay(0): 500 + random(0..500)
    expect(cmds[1].t - cmds[0].t).toBeGreaterThanOrEqual(500);
    expect(cmds[1].t - cmds[0].t).toBeLessThanOrEqual(1001);
    expect(cmds.some((e) => (e.argv as string[])[0] === 'WAIT')).toBe(true);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
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
