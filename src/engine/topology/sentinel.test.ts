/**
 * Sentinel's decisions on small scenarios: who is promoted (offset before run id), no failover
 * without a majority, and TTLs measured by the promoted node's own clock.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../redisson/testing/simulate';

const redis = (...argv: string[]) => ({ op: 'redis', argv });

function sentinelScenario(redisExtra: Record<string, unknown>, faults: unknown[], until = 12000) {
  return {
    format: 'lockscope/1',
    until,
    redis: {
      topology: 'sentinel',
      sentinel: { count: 3, quorum: 2, downAfterMs: 2000, failoverMs: 1000 },
      ...redisExtra,
    },
    clients: [
      {
        id: 'A',
        threads: [
          {
            id: 1,
            program: [redis('SET', 'k', 'v', 'PX', '20000'), { op: 'sleep', ms: 9000 }, redis('GET', 'k')],
          },
        ],
      },
    ],
    faults,
  };
}

describe('Sentinel failover', () => {
  it('promotes the replica with the highest replication offset, whatever the run ids', () => {
    for (const seed of [1, 2, 3, 4]) {
      const s = simulate({
        ...sentinelScenario({ replicas: [{ lagMs: 3000 }, { lagMs: 10 }] }, [
          { at: 100, kind: 'crash', node: 'master' },
        ]),
        seed,
      });
      expect(s.of('failover.promote').map((e) => e.node)).toEqual(['replica-2']);
      // The client follows the switch and reads the key the promoted replica had.
      expect(s.results('A:1')).toEqual([{ status: 'OK' }, 'v']);
    }
  });

  it('detects SDOWN after down-after, ODOWN at quorum, and promotes failoverMs after the election', () => {
    const s = simulate(
      sentinelScenario({ replicas: [{ lagMs: 10 }] }, [{ at: 100, kind: 'crash', node: 'master' }]),
    );
    const sdown = s.of('sentinel.sdown');
    expect(sdown.length).toBe(3);
    for (const e of sdown) {
      expect(e.t).toBeGreaterThan(2000);
      expect(e.t).toBeLessThanOrEqual(3200);
    }
    const leader = s.of('sentinel.leader');
    expect(leader.length).toBe(1);
    expect(leader[0].votes).toBe(3);
    const promote = s.of('failover.promote')[0];
    expect(promote.t - leader[0].t).toBe(1000);
    expect(promote.epoch).toBe(1);
    expect(s.trace.final.nodes['replica-1'].role).toBe('master');
  });

  it('does not fail over without a majority of Sentinels, even when the quorum agrees', () => {
    const s = simulate(
      sentinelScenario(
        { replicas: [{ lagMs: 10 }], sentinel: { count: 3, quorum: 1, downAfterMs: 2000, failoverMs: 1000 } },
        [
          { at: 50, kind: 'crash', node: 'sentinel-2' },
          { at: 50, kind: 'crash', node: 'sentinel-3' },
          { at: 100, kind: 'crash', node: 'master' },
        ],
        14000,
      ),
    );
    expect(s.of('sentinel.odown').map((e) => e.actor)).toEqual(['sentinel-1']);
    expect(s.of('sentinel.leader')).toEqual([]);
    expect(s.of('failover.promote')).toEqual([]);
    expect(s.results('A:1')[1]).toEqual({
      error: expect.stringMatching(/^RedisResponseTimeoutException|Redis server response timeout/),
    });
  });

  it('measures TTLs with the promoted node’s own clock: a replica clock ahead expires the key early', () => {
    const s = simulate(
      sentinelScenario({ replicas: [{ lagMs: 10 }] }, [
        { at: 50, kind: 'clock', node: 'replica-1', jumpMs: 15000 },
        { at: 100, kind: 'crash', node: 'master' },
      ]),
    );
    const promote = s.of('failover.promote')[0];
    const expired = s.of('key.expired').find((e) => e.node === 'replica-1');
    // PXAT 20001 came from the master; replica-1's clock runs 15 s ahead, so once it is a master
    // (and may expire keys) the key goes at 5002 instead of 20002.
    expect(promote.node).toBe('replica-1');
    expect(expired?.t).toBe(5002);
    expect(s.results('A:1')[1]).toBeNull();
  });
});

describe('replica-priority', () => {
  it('promotes the lower priority first and never a replica with priority 0, whatever the offsets', () => {
    const s = simulate(
      sentinelScenario(
        { replicas: [{ lagMs: 10, priority: 0 }, { lagMs: 3000, priority: 50 }, { lagMs: 10 }] },
        [{ at: 100, kind: 'crash', node: 'master' }],
      ),
    );
    // replica-1 and replica-3 have the key (higher offset), but 1 never goes and 2 outranks 3.
    expect(s.of('failover.promote').map((e) => e.node)).toEqual(['replica-2']);
    expect(s.results('A:1')).toEqual([{ status: 'OK' }, null]);
  });
});
