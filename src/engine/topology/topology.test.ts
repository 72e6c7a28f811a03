/**
 * Replication as a scenario sees it: lag, what reaches the replica and when, WAIT's counts and
 * blocking, min-replicas-to-write, persistence across a crash, and the independent topology.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../redisson/testing/simulate';
import { validateScenario } from '../scenario/schema';
import { runScenario } from '../scenario/run';

const OK = { status: 'OK' };

type Op = Record<string, unknown>;

function scenario(redis: Record<string, unknown>, program: Op[], extra: Record<string, unknown> = {}) {
  return {
    format: 'lockscope/1',
    redis,
    until: 3000,
    clients: [{ id: 'A', threads: [{ id: 1, program }] }],
    ...extra,
  };
}

const redis = (...argv: string[]): Op => ({ op: 'redis', argv });
const oneReplica = { replicas: [{ lagMs: 40 }] };

describe('replication links', () => {
  it('applies a write on the replica lagMs later, with the absolute expiry (PEXPIREAT)', () => {
    const s = simulate(scenario(oneReplica, [redis('SET', 'k', 'v', 'PX', '100000')]));
    const apply = s.of('repl.apply');
    expect(apply.map((e) => [e.replica, e.t])).toEqual([['replica-1', 41]]);
    // *5 $3 SET $1 k $1 v $4 PXAT $6 100001 as RESP: the offset counts those bytes.
    expect(apply[0].offset).toBe(49);
    const nodes = s.trace.final.nodes;
    expect(nodes['replica-1'].role).toBe('replica');
    expect(nodes['replica-1'].keys.k).toEqual(nodes.master.keys.k);
    expect(nodes.master.keys.k.expireAt).toBe(100001);
  });

  it("sends a script's writes as one unit (MULTI ... EXEC)", () => {
    const lua =
      "redis.call('set', KEYS[1], '1'); redis.call('pexpire', KEYS[1], 5000); redis.call('incr', KEYS[2])";
    const s = simulate(scenario(oneReplica, [{ op: 'eval', script: lua, keys: ['a', 'n'], args: [] }]));
    const apply = s.of('repl.apply');
    expect(apply.length).toBe(1);
    const nodes = s.trace.final.nodes;
    expect(nodes['replica-1'].keys).toEqual(nodes.master.keys);
  });

  it('expires on the master and sends DEL; the replica hides nothing it was not told to delete', () => {
    const v = validateScenario(
      scenario(oneReplica, [redis('SET', 'k', 'v', 'PX', '100'), { op: 'sleep', ms: 500 }]),
    );
    if (!v.ok) throw new Error('invalid');
    const run = runScenario(v.scenario);
    const events = run.trace.events;
    const expired = events.find((e) => e.kind === 'key.expired')!;
    expect([expired.node, expired.t]).toEqual(['master', 102]);
    const del = events.filter((e) => e.kind === 'repl.apply')[1];
    expect(del.t).toBe(142);
    // Between the master's expiry and the DEL, the replica still stores the key.
    expect(run.stateAt(del.seq - 1).nodes['replica-1'].keys.k).toBeDefined();
    expect(run.stateAt(del.seq).nodes['replica-1'].keys.k).toBeUndefined();
  });
});

describe('WAIT', () => {
  it('returns the count once the replica acknowledged the write (one lag and one latency later)', () => {
    const s = simulate(scenario(oneReplica, [redis('SET', 'k', 'v'), redis('WAIT', '1', '1000')]));
    const w = s.of('wait.result');
    expect(w.map((e) => [e.acked, e.t])).toEqual([[1, 42]]);
    expect(s.results('A:1')).toEqual([OK, 1]);
  });

  it('returns the count reached so far at the timeout, never an error', () => {
    const s = simulate(scenario(oneReplica, [redis('SET', 'k', 'v'), redis('WAIT', '2', '500')]));
    const w = s.of('wait.result');
    expect(w.map((e) => [e.acked, e.t])).toEqual([[1, 503]]);
    expect(s.results('A:1')).toEqual([OK, 1]);
  });

  it('answers at once when nothing needs acknowledging, and 0 after the timeout without replicas', () => {
    const none = simulate(scenario({}, [redis('SET', 'k', 'v'), redis('WAIT', '1', '100')]));
    expect(none.of('wait.result').map((e) => [e.acked, e.t])).toEqual([[0, 103]]);
    const idle = simulate(scenario(oneReplica, [redis('WAIT', '1', '100')]));
    expect(idle.of('wait.result').map((e) => [e.acked, e.t])).toEqual([[1, 1]]);
  });

  it('blocks only the calling connection: another client is served meanwhile', () => {
    const s = simulate({
      format: 'lockscope/1',
      redis: { replicas: [{ lagMs: 400 }] },
      clients: [
        { id: 'A', threads: [{ id: 1, program: [redis('SET', 'k', 'v'), redis('WAIT', '1', '0')] }] },
        { id: 'B', threads: [{ id: 1, start: 10, program: [redis('GET', 'k')] }] },
      ],
    });
    expect(s.results('B:1')).toEqual(['v']);
    expect(s.of('thread.done', 'B:1')[0].t).toBeLessThan(s.of('wait.result')[0].t);
    expect(s.results('A:1')).toEqual([OK, 1]);
  });
});

describe('min-replicas-to-write', () => {
  it('refuses writes with NOREPLICAS once the replica has been silent for max-lag (10 s)', () => {
    const s = simulate(
      scenario(
        { replicas: [{ lagMs: 1 }], minReplicasToWrite: 1 },
        [
          redis('SET', 'a', '1'),
          { op: 'sleep', ms: 5000 },
          redis('SET', 'b', '1'),
          { op: 'sleep', ms: 8000 },
          redis('SET', 'c', '1'),
          redis('GET', 'a'),
          redis('PUBLISH', 'ch', 'm'),
        ],
        {
          until: 20000,
          faults: [{ at: 100, kind: 'partition', groups: [['master', 'A'], ['replica-1']] }],
        },
      ),
    );
    expect(s.results('A:1')).toEqual([
      OK,
      OK,
      { error: 'NOREPLICAS Not enough good replicas to write.' },
      '1',
      0,
    ]);
  });
});

describe('node crash and restart', () => {
  const program = [redis('SET', 'k', 'v'), { op: 'sleep', ms: 2000 }, redis('GET', 'k')];
  const faults = [
    { at: 500, kind: 'crash', node: 'master' },
    { at: 1000, kind: 'restart', node: 'master' },
  ];

  it('persistence none: the master comes back empty (and so does its replica after the resync)', () => {
    const s = simulate(scenario({ replicas: [{ lagMs: 1 }] }, program, { faults }));
    expect(s.results('A:1')).toEqual([OK, null]);
    expect(s.trace.final.nodes['replica-1'].keys).toEqual({});
    expect(s.of('repl.sync').map((e) => e.node)).toEqual(['replica-1']);
  });

  it('aof-always: the master keeps what it acknowledged', () => {
    const s = simulate(
      scenario({ replicas: [{ lagMs: 1 }], persistence: 'aof-always' }, program, { faults }),
    );
    expect(s.results('A:1')).toEqual([OK, 'v']);
    expect(s.trace.final.nodes['replica-1'].keys.k).toBeDefined();
  });
});

describe('independent masters', () => {
  it('builds master-1 … master-N, unrelated, each a master', () => {
    const s = simulate(scenario({ topology: 'independent', masters: 3 }, [redis('SET', 'k', 'v')]));
    const nodes = s.trace.final.nodes;
    expect(Object.keys(nodes)).toEqual(['master-1', 'master-2', 'master-3']);
    expect(Object.values(nodes).map((n) => n.role)).toEqual(['master', 'master', 'master']);
    expect(Object.keys(nodes['master-1'].keys)).toEqual(['k']);
    expect(s.of('repl.apply')).toEqual([]);
  });
});

describe('a client blocked in WAIT', () => {
  it('times out (no reply ever comes) when the master crashes', () => {
    const s = simulate(
      scenario({ replicas: [{ lagMs: 400 }] }, [redis('SET', 'k', 'v'), redis('WAIT', '1', '0')], {
        until: 5000,
        faults: [{ at: 100, kind: 'crash', node: 'master' }],
      }),
    );
    expect(s.of('wait.result')).toEqual([]);
    const r = s.results('A:1')[1] as { error: string };
    expect(r.error).toMatch(/response timeout/);
  });

  it('gets UNBLOCKED when Sentinel turns its master into a replica after a partition heals', () => {
    const s = simulate({
      format: 'lockscope/1',
      until: 30000,
      // the client waits longer than WAIT blocks (its response timer would end the call first)
      redisson: { timeoutMs: 60_000 },
      redis: {
        topology: 'sentinel',
        replicas: [{ lagMs: 10 }],
        sentinel: { count: 3, quorum: 2, downAfterMs: 2000, failoverMs: 1000 },
      },
      clients: [
        {
          id: 'A',
          threads: [
            { id: 1, program: [{ op: 'sleep', ms: 300 }, redis('SET', 'k', 'v'), redis('WAIT', '1', '0')] },
          ],
        },
      ],
      faults: [
        {
          at: 200,
          kind: 'partition',
          groups: [
            ['master', 'A'],
            ['replica-1', 'sentinels'],
          ],
          healAt: 8000,
        },
      ],
    });
    const demote = s.of('node.role').find((e) => e.node === 'master')!;
    expect(demote.t).toBeGreaterThan(8000 + 8000);
    expect(s.results('A:1')).toEqual([
      OK,
      {
        error: 'UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)',
      },
    ]);
    // The write A made on the isolated master is gone with the resync.
    expect(s.trace.final.nodes.master.keys).toEqual({});
  });
});
