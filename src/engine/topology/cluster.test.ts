/**
 * Cluster failover under a partition (topology/cluster.ts): the minority master goes CLUSTERDOWN
 * after the node timeout, the majority promotes its replica, both sides hold the lock (V1, and V2
 * across the two masters of slot 12769), and at the heal the old master rejoins as the new one's
 * replica and resyncs.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../redisson/testing/simulate';
import { client, hold } from '../scenario/build';
import { runScenario } from '../scenario/run';
import { validateScenario } from '../scenario/schema';

const scenario = {
  format: 'lockscope/1',
  seed: 1,
  redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
  redisson: { version: '3.11' },
  clients: [client('A', hold('myLock', 12000)), client('B', hold('myLock', 1000), { start: 7000 })],
  faults: [
    {
      kind: 'partition',
      at: 1,
      groups: [
        ['master-3', 'A'],
        ['master-1', 'master-2', 'replica-1', 'replica-2', 'replica-3', 'B'],
      ],
      healAt: 10000,
    },
  ],
};

describe('cluster failover (cluster.c shape)', () => {
  it('minority master CLUSTERDOWN, replica-3 promoted with epoch 7 (6 nodes created, then one election), V1+V2, old master rejoins as replica', () => {
    const s = simulate(scenario);
    const down = s.of('cluster.state').find((e) => e.node === 'master-3');
    expect(down?.state).toBe('fail');
    expect(down!.t).toBeGreaterThan(2000);
    expect(down!.t).toBeLessThan(2200);
    expect(s.of('cluster.promoted').map((e) => [e.node, e.epoch, e.slots])).toEqual([
      ['replica-3', 7, '10923-16383'],
    ]);
    expect(s.violations.map((v) => v.kind).sort()).toEqual(['V1', 'V2']);
    const demoted = s.of('node.role').filter((e) => e.node === 'master-3');
    expect(demoted.map((e) => [e.role, e.master])).toEqual([['replica', 'replica-3']]);
    expect(demoted[0].t).toBeGreaterThanOrEqual(10000);
    const sync = s.of('repl.sync').filter((e) => e.replica === 'master-3');
    expect(sync.map((e) => e.master)).toEqual(['replica-3']);
  });

  it("FAIL waits for a master's report carried by a ping: after the PFAIL, within node-timeout / 2 + a cron", () => {
    const s = simulate({
      format: 'lockscope/1',
      seed: 3,
      until: 4000,
      redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 1000 },
      clients: [client('A', [{ op: 'work', ms: 1 }])],
      faults: [{ kind: 'crash', at: 1000, node: 'master-3' }],
    });
    const fail = s.of('cluster.fail')[0];
    const ownPfail = s.of('cluster.pfail').find((e) => e.observer === fail.observer)!;
    expect(fail.t - ownPfail.t).toBeGreaterThan(100);
    expect(fail.t - ownPfail.t).toBeLessThanOrEqual(600);
  });
});

describe('clusterUpdateState delays (7.0.15 cluster.c:4437-4446, 4492-4516)', () => {
  const stateOf = (s: ReturnType<typeof simulate>, node: string) =>
    s
      .of('cluster.state')
      .filter((e) => e.node === node)
      .map((e) => [e.t, e.state]);

  it('CLUSTER_WRITABLE_DELAY: a master restarted before any failover stays FAIL for 2000 ms', () => {
    const s = simulate({
      format: 'lockscope/1',
      redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
      clients: [client('A', hold('myLock', 100), { start: 600 })],
      faults: [
        { at: 100, kind: 'crash', node: 'master-3' },
        { at: 400, kind: 'restart', node: 'master-3' },
      ],
    });
    const states = stateOf(s, 'master-3');
    expect(states[0]).toEqual([400, 'fail']);
    expect(states[1][1]).toBe('ok');
    expect(Number(states[1][0])).toBeGreaterThanOrEqual(2400);
    expect(Number(states[1][0])).toBeLessThan(2500);
    // the lock (3.13.2+ re-sends CLUSTERDOWN) is taken only then
    expect(s.of('lock.acquired', 'A:1')[0].t).toBeGreaterThan(Number(states[1][0]));
  });

  it('rejoin delay: a master back from a minority stays FAIL for the node timeout (clamped 500..5000)', () => {
    const s = simulate({
      format: 'lockscope/1',
      until: 6000,
      redis: { topology: 'cluster', clusterNodeTimeoutMs: 2000 },
      clients: [client('A', [{ op: 'work', ms: 1 }])],
      faults: [
        { at: 100, kind: 'partition', groups: [['master-3'], ['master-1', 'master-2', 'A']], healAt: 2900 },
      ],
    });
    const states = stateOf(s, 'master-3');
    expect(states.map((x) => x[1])).toEqual(['fail', 'ok']);
    // among_minority_time is its last cron before the heal (≤ 100 ms earlier), then 2000 ms
    expect(Number(states[1][0])).toBeGreaterThanOrEqual(4800);
    expect(Number(states[1][0])).toBeLessThanOrEqual(5000);
  });
});

describe('shard channels when a slot changes owner (7.0.15 clusterDelSlot, cluster.c:4377-4390)', () => {
  it('every node still following the old master drops them; the promoted replica keeps its own', () => {
    const channel = 'redisson_lock__channel:{myLock}'; // slot 12769, master-3's
    const v = validateScenario({
      format: 'lockscope/1',
      until: 6000,
      redis: { topology: 'cluster', replicasPerMaster: 2, clusterNodeTimeoutMs: 1000 },
      clients: [client('A', [{ op: 'work', ms: 1 }])],
      faults: [{ at: 500, kind: 'crash', node: 'master-3' }],
    });
    if (!v.ok) throw new Error('invalid');
    // replica-3 and replica-6 both follow master-3; each has a shard subscriber
    const pushes = new Map<string, unknown[]>();
    let subscribed = false;
    const { trace } = runScenario(v.scenario, {
      probe: ({ kernel }) => {
        if (subscribed || kernel.now() < 100) return;
        subscribed = true;
        for (const node of ['replica-3', 'replica-6']) {
          const server = kernel.server(node)!;
          const got: unknown[] = [];
          pushes.set(node, got);
          server.exec(
            server.connect((m) =>
              got.push(m.t === 'array' ? (m.v ?? []).map((x) => (x.t === 'int' ? Number(x.v) : x.v)) : m.v),
            ),
            ['SSUBSCRIBE', channel],
          );
        }
      },
    });
    const promoted = trace.events.filter((e) => e.kind === 'cluster.promoted').map((e) => e.node);
    expect(promoted).toHaveLength(1);
    const other = promoted[0] === 'replica-3' ? 'replica-6' : 'replica-3';
    expect(pushes.get(String(promoted[0]))).toEqual([]);
    expect(pushes.get(other)).toEqual([['sunsubscribe', channel, 0]]);
  });
});

describe('election details (7.0.15 clusterHandleSlaveFailover)', () => {
  it('cluster.c:3648-3650: the delay is 500 + random() % 500 (0..499) + rank × 1000', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => {
      const s = simulate({
        format: 'lockscope/1',
        seed,
        until: 5000,
        redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 1000 },
        clients: [client('A', [{ op: 'work', ms: 1 }])],
        faults: [{ at: 100, kind: 'crash', node: 'master-3' }],
      });
      const e = s.of('cluster.election')[0];
      expect(e.rank).toBe(0);
      return Number(e.delayMs);
    });
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(999);
    }
  });
});
