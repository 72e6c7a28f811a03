/**
 * The replication built-ins (failover-lost-lock, split-brain-partition, failover-wait-helps,
 * failover-wait-wrong-replica): verdicts, holders and the moments their
 * descriptions promise: when the Sentinels act, which replica is promoted, who holds the lock when.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '../../redisson/testing/simulate';
import { at, sim, within } from '../testing/builtins';
import { builtin } from './index';

/**
 * The WAITs that sync a script, without 4.7.0's once-per-client probe `WAIT 0 0`
 * (CommandAsyncService.syncedEval, 3.26.1+), which answers at once.
 */
const syncWaits = (s: Simulation, actor: string) => {
  const probes = new Set(
    s
      .of('cmd', actor)
      .filter((e) => (e.argv as string[])[0] === 'WAIT' && (e.argv as string[])[1] === '0')
      .map((e) => e.t),
  );
  return s.of('wait.result', actor).filter((e) => !probes.has(e.t));
};
const kinds = (s: Simulation) => s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`);
/** The node that ran a thread's first command whose argv[0] matches. */
const cmdNode = (s: Simulation, actor: string, name: RegExp, nth = 0) =>
  s.of('cmd', actor).filter((e) => name.test(String((e.argv as string[])[0])))[nth]?.node;
const error = (s: Simulation, actor: string, i: number) =>
  String((s.results(actor)[i] as { error?: string }).error);

describe('replication built-ins', () => {
  it('failover-lost-lock: replica-1 promoted after down-after; B locks there while A works; A’s unlock fails', () => {
    const s = sim('failover-lost-lock');
    expect(s.of('node.crash').map((e) => [e.node, e.t])).toEqual([['master', 10]]);
    // No WAIT in 3.11: A holds at once, before anything replicated.
    expect(s.of('cmd').some((e) => (e.argv as string[])[0] === 'WAIT')).toBe(false);
    expect(s.of('repl.apply').filter((e) => e.master === 'master')).toEqual([]);
    within(at(s.of('lock.acquired', 'A:1')[0]), 1, 3);
    // SDOWN a PING period after down-after (5 s since the last reply), ODOWN at quorum 2, promotion failoverMs later.
    within(at(s.of('sentinel.sdown')[0]), 5000, 5200);
    within(at(s.of('sentinel.odown')[0]), 5000, 5300);
    const promote = s.of('failover.promote');
    expect(promote.map((e) => [e.node, e.from])).toEqual([['replica-1', 'master']]);
    within(at(promote[0]), 6000, 6300);
    // B asks for the lock at 7 s, on the new master, and gets it: A still works.
    expect(cmdNode(s, 'B:1', /^EVAL/)).toBe('replica-1');
    within(at(s.of('lock.acquired', 'B:1')[0]), 7000, 7003);
    expect(kinds(s)).toEqual(['V1 A:1+B:1']);
    within(s.violations[0].from, 7000, 7003);
    // A's renewal finds no field on replica-1 (returns 0); its unlock is the first error it sees.
    expect(s.of('watchdog.renew', 'A:1').map((e) => e.result)).toEqual([0]);
    expect(error(s, 'A:1', 0)).toMatch(/^IllegalMonitorStateException/);
    expect(cmdNode(s, 'A:1', /^EVAL/, 1)).toBe('replica-1');
  });

  it('failover-wait-helps: WAIT 2 1000 returns 2 at ~0.8 s; the promoted replica has the lock; safe', () => {
    const s = sim('failover-wait-helps');
    const waits = syncWaits(s, 'A:1');
    expect(waits[0].acked).toBe(2);
    // 4.7.0 syncedEval: the probe, INFO ALL and the batch's SCRIPT LOAD go first (8 ms), then the
    // script; WAIT answers when replica-2 (800 ms behind) has applied it
    within(at(waits[0]), 800, 812);
    within(at(s.of('lock.acquired', 'A:1')[0]), 800, 814);
    expect(s.of('cmd', 'A:1').find((e) => (e.argv as string[])[0] === 'WAIT' && (e.argv as string[])[1] !== '0')?.argv).toEqual([
      'WAIT',
      '2',
      '1000',
    ]);
    const promoted = String(s.of('failover.promote')[0].node);
    expect(['replica-1', 'replica-2']).toContain(promoted);
    // B waits for A's unlock on the new master.
    const unlockA = s
      .of('cmd', 'A:1')
      .filter((e) => /^EVAL/.test(String((e.argv as string[])[0])))
      .at(-1)!;
    expect(unlockA.node).toBe(promoted);
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeGreaterThan(unlockA.t);
    expect(s.violations).toEqual([]);
  });

  it('failover-wait-wrong-replica: WAIT gets 1 of 2, replica-2 (without the lock) is promoted, V1', () => {
    const s = sim('failover-wait-wrong-replica');
    const wait = syncWaits(s, 'A:1')[0];
    expect(wait.acked).toBe(1);
    // WAIT 2 1000 sent at 11 ms (after 4.7.0's probe, INFO ALL and SCRIPT LOAD) times out
    within(at(wait), 1000, 1012);
    within(at(s.of('lock.acquired', 'A:1')[0]), 1000, 1014);
    expect(s.of('repl.apply').map((e) => e.replica)).toEqual(['replica-1']);
    expect(s.of('failover.promote').map((e) => e.node)).toEqual(['replica-2']);
    expect(cmdNode(s, 'B:1', /^EVAL/)).toBe('replica-2');
    within(at(s.of('lock.acquired', 'B:1')[0]), 8000, 8010);
    expect(kinds(s)).toEqual(['V1 A:1+B:1']);
    expect(error(s, 'A:1', 0)).toMatch(/^IllegalMonitorStateException/);
  });

  it('split-brain-partition: A renews on the old master, B locks when A’s copy expires; V1 and V2; demotion after heal', () => {
    const s = sim('split-brain-partition');
    expect(syncWaits(s, 'A:1')[0].acked).toBe(2);
    const promoted = String(s.of('failover.promote')[0].node);
    // A never reaches a Sentinel during the partition: every renewal runs on the old master...
    const renewNodes = s
      .of('cmd', 'A/watchdog')
      .filter((e) => e.t < 55000 && /^EVAL/.test(String((e.argv as string[])[0])));
    expect(new Set(renewNodes.map((e) => e.node))).toEqual(new Set(['master']));
    // ...and WAIT then finds no replica: the watchdog logs NoSyncedSlavesException and goes on.
    const during = s.of('watchdog.renew', 'A:1').filter((e) => e.t < 55000);
    expect(during.length).toBeGreaterThan(0);
    expect(new Set(during.map((e) => e.result))).toEqual(new Set(['error']));
    expect(s.of('wait.result', 'A/watchdog').filter((e) => e.t < 55000 && e.acked !== 0)).toEqual([]);
    // On the new master nobody renews A's copy: it expires 30 s after A's acquire, then B gets in.
    const expired = s.of('key.expired').find((e) => e.node === promoted);
    within(at(expired), 30000, 30100);
    within(at(s.of('lock.acquired', 'B:1')[0]), at(expired), at(expired) + 100);
    expect(s.violations.map((v) => v.kind).sort()).toEqual(['V1', 'V2']);
    const v2 = s.violations.find((v) => v.kind === 'V2')!;
    expect(v2.holders).toContain('A:1');
    // A's unlock runs on the old master, which deletes its lease, but WAIT finds no replica.
    expect(error(s, 'A:1', 0)).toMatch(/^RedisException: .*; caused by NoSyncedSlavesException/);
    // After the heal, A follows the Sentinels; the old master is demoted ~9 s later and resynced.
    const heal = at(s.of('net.heal')[0]);
    expect(heal).toBe(55000);
    expect(s.of('client.master', 'A').map((e) => [e.node, e.t])).toEqual([[promoted, 55000]]);
    const demote = s.of('node.role').find((e) => e.node === 'master')!;
    expect(demote.role).toBe('replica');
    within(demote.t, heal + 8000, heal + 10000);
    expect(s.of('repl.sync').some((e) => e.node === 'master' && e.t > demote.t)).toBe(true);
    expect(Object.keys(s.trace.final.nodes.master.keys)).toEqual(
      Object.keys(s.trace.final.nodes[promoted].keys),
    );
  });
});

describe('split brain with min-replicas-to-write 1 (a split-brain-partition variant)', () => {
  it('the isolated master refuses A’s renewals with NOREPLICAS after max-lag; its copy expires; the overlap stays', () => {
    const b = builtin('split-brain-partition')!;
    const json = structuredClone(b.scenario) as unknown as { redis: Record<string, unknown> };
    json.redis.minReplicasToWrite = 1;
    const s = simulate(json);
    const renewals = s
      .of('cmd', 'A/watchdog')
      .filter((e) => e.node === 'master' && /^EVAL/.test(String((e.argv as string[])[0])));
    // The renewal at ~10 s still finds the replicas "good" (last ACK at 0 s, max-lag 10 s)...
    const renewed = renewals.filter((e) => JSON.stringify(e.reply) === '[1]');
    expect(renewed.map((e) => e.t < 11000)).toEqual([true]);
    const refused = renewals.filter((e) => JSON.stringify(e.reply).includes('NOREPLICAS'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].t).toBeGreaterThan(11000);
    // ...later ones are refused, so A's lease on the old master runs out 30 s after the last good one.
    const expired = s.of('key.expired').find((e) => e.node === 'master' && e.key === 'myLock');
    expect(expired!.t).toBeGreaterThan(39000);
    expect(expired!.t).toBeLessThan(42000);
    expect(s.violations.map((v) => v.kind)).toContain('V1');
  });
});
