/**
 * The cluster built-ins: where the lock lives (slot 12769 → master-3), the cluster failover that
 * loses it (PFAIL → FAIL → election → promotion, then the clients' slot maps at the scan), hash
 * tags, MOVED after a stale slot map, and a MultiLock across shards.
 */
import { describe, expect, it } from 'vitest';
import { keyHashSlot } from '../../redis/cluster_slots';
import { sim } from '../testing/builtins';
import { builtin } from './index';
import { simulate } from '../../redisson/testing/simulate';

const nodesOf = (s: ReturnType<typeof sim>, actor: string) => [
  ...new Set(s.of('cmd', actor).map((e) => e.node)),
];

describe('cluster built-ins', () => {
  it('cluster-which-node: myLock and its channel are in slot 12769, so everything goes to master-3', () => {
    expect(keyHashSlot('myLock')).toBe(12769);
    expect(keyHashSlot('redisson_lock__channel:{myLock}')).toBe(12769);
    const s = sim('cluster-which-node');
    expect(s.violations).toEqual([]);
    expect(nodesOf(s, 'A:1')).toEqual(['master-3']);
    expect(nodesOf(s, 'B:1')).toEqual(['master-3']);
    // 4.7.0 in a cluster: the channel is a shard channel
    const sub = s.of('cmd', 'B:1').find((e) => /SUBSCRIBE$/.test(String((e.argv as string[])[0])));
    expect((sub?.argv as string[])[0]).toBe('SSUBSCRIBE');
    expect(s.of('waiter.wakeup', 'B:1')).toHaveLength(1);
  });

  it('cluster-failover-lost-lock: replica-3 promoted after the node timeout, B locks there: V1', () => {
    const s = sim('cluster-failover-lost-lock');
    const fail = s.of('cluster.fail');
    expect(fail.map((e) => e.node)).toEqual(['master-3']);
    expect(fail[0].t).toBeGreaterThan(2000);
    const election = s.of('cluster.election')[0];
    expect(election.node).toBe('replica-3');
    expect(Number(election.delayMs)).toBeGreaterThanOrEqual(500);
    expect(Number(election.delayMs)).toBeLessThanOrEqual(1000);
    expect(s.of('cluster.vote').map((e) => e.node)).toEqual(['master-1', 'master-2']);
    const promoted = s.of('cluster.promoted');
    expect(promoted.map((e) => [e.node, e.from, e.slots, e.epoch])).toEqual([
      ['replica-3', 'master-3', '10923-16383', 7],
    ]);
    expect(s.of('client.master').map((e) => [e.client, e.node, e.t])).toEqual([
      ['A', 'replica-3', 5000],
      ['B', 'replica-3', 5000],
    ]);
    expect(nodesOf(s, 'B:1')).toEqual(['replica-3']);
    expect(s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`)).toEqual(['V1 A:1+B:1']);
  });

  it('cluster-hash-tags: {order}:lock and its channel share slot 16025 on master-3; SPUBLISH wakes B', () => {
    // the arithmetic the description states
    expect(keyHashSlot('order:lock')).toBe(7904);
    expect(keyHashSlot('redisson_lock__channel:{order:lock}')).toBe(7904);
    for (const k of ['{order}:lock', 'redisson_lock__channel:{order}:lock', '{order}:stock'])
      expect(keyHashSlot(k)).toBe(16025);
    const s = sim('cluster-hash-tags');
    expect(s.violations).toEqual([]);
    expect(nodesOf(s, 'A:1')).toEqual(['master-3']);
    expect(nodesOf(s, 'B:1')).toEqual(['master-3']);
    const sub = s.of('cmd', 'B:1').find((e) => (e.argv as string[])[0] === 'SSUBSCRIBE');
    expect(sub?.argv).toEqual(['SSUBSCRIBE', 'redisson_lock__channel:{order}:lock']);
    expect(s.of('pubsub.publish').map((e) => e.node)).toEqual(['master-3', 'master-3']);
    const wake = s.of('waiter.wakeup', 'B:1');
    expect(wake).toHaveLength(1);
    expect(wake[0].t).toBeGreaterThanOrEqual(s.of('lock.released', 'A:1')[0].t);
  });

  it('cluster-moved-stale-map: master-3, back as a replica, answers MOVED; each command is re-sent, the map waits for the scan', () => {
    const s = sim('cluster-moved-stale-map');
    expect(s.of('cluster.promoted').map((e) => [e.node, e.slots])).toEqual([['replica-3', '10923-16383']]);
    // 4.7.0 syncedEval reads master-3's replica count (INFO ALL) and loads the script there first
    // (CommandBatchService.loadScripts); the scripts themselves:
    const all = s.of('cmd', 'B:1');
    const round = (i: number) => all.slice(i, i + 3).map((e) => [e.node, (e.argv as string[])[0], e.reply]);
    expect(all.slice(0, 2).map((e) => [e.node, (e.argv as string[])[0]])).toEqual([
      ['master-3', 'INFO'],
      ['master-3', 'SCRIPT'],
    ]);
    // the first send follows the stale map; the reply redirects that one command (RedisExecutor),
    // and replica-3, promoted, has never loaded the script
    const moved = { error: 'MOVED 12769 127.0.0.1:30006' };
    const noScript = { error: 'NOSCRIPT No matching script. Please use EVAL.' };
    expect(round(2).map((r) => r.slice(0, 2))).toEqual([
      ['master-3', 'EVALSHA'],
      ['replica-3', 'EVALSHA'],
      ['master-3', 'SCRIPT'],
    ]);
    expect(round(2).map((r) => r[2])).toEqual([moved, noScript, expect.any(String)]);
    // 4.7.0 syncedEval: loadScript on the key's entry by the client's map (master-3 again), then the
    // whole call again: the same round until the scan at 5 s (the oracle's recording shows it too)
    const rounds = all.filter((e) => e.t < 5000 && e.node === 'replica-3');
    expect(rounds.length).toBeGreaterThan(100);
    expect(rounds.every((e) => JSON.stringify(e.reply) === JSON.stringify(noScript))).toBe(true);
    expect(s.of('client.master').map((e) => [e.t, e.node])).toEqual([[5000, 'replica-3']]);
    const acquired = s.of('lock.acquired', 'B:1');
    expect(acquired).toHaveLength(1);
    expect(acquired[0].t).toBeGreaterThan(5000);
    // after the scan nothing goes to master-3: the unlock and its latch's DEL go to replica-3 at once
    expect(all.filter((e) => e.t > 5000).every((e) => e.node === 'replica-3')).toBe(true);
    const latchDel = s.of('cmd', 'B/unlock').filter((e) => (e.argv as string[])[1].includes('{myLock}'));
    expect(latchDel.map((e) => e.node)).toEqual(['replica-3']);
    expect(s.of('lock.released', 'B:1')).toHaveLength(1);
    expect(s.violations).toEqual([]);
  });

  it('cluster-moved-stale-map at latencyMs 0 and 5: the rounds run as a loop, each taking time, until the scan', () => {
    for (const latencyMs of [0, 5]) {
      const b = builtin('cluster-moved-stale-map')!;
      const s = simulate({ ...b.scenario, network: { latencyMs } });
      // a round costs at least 1 ms even when the network costs nothing, so the run reaches the scan
      expect([latencyMs, s.trace.truncatedBy]).toEqual([latencyMs, undefined]);
      const acquired = s.of('lock.acquired', 'B:1');
      expect(acquired).toHaveLength(1);
      expect(acquired[0].t).toBeGreaterThanOrEqual(5000);
      const noScripts = s.of('cmd', 'B:1').filter((e) => e.node === 'replica-3' && e.t < 5000);
      expect(noScripts.length).toBeGreaterThan(latencyMs === 0 ? 900 : 25);
    }
  });

  it('cluster-multilock-shards: each seat lock goes to its own master; B holds all three after A', () => {
    const homes = { 'seat:1': 'master-2', 'seat:3': 'master-3', 'seat:4': 'master-1' };
    expect(Object.keys(homes).map(keyHashSlot)).toEqual([5749, 13879, 1744]);
    const s = sim('cluster-multilock-shards');
    for (const actor of ['A:1', 'B:1']) {
      const scripts = s.of('cmd', actor).filter((e) => /^EVAL/.test(String((e.argv as string[])[0])));
      for (const e of scripts) expect(e.node).toBe(homes[(e.argv as string[])[3] as keyof typeof homes]);
      expect(new Set(scripts.map((e) => e.node)).size).toBe(3);
    }
    const bSub = s.of('cmd', 'B:1').find((e) => (e.argv as string[])[0] === 'SSUBSCRIBE');
    expect([bSub?.node, (bSub?.argv as string[])[1]]).toEqual([
      'master-2',
      'redisson_lock__channel:{seat:1}',
    ]);
    expect(s.of('lock.acquired', 'B:1')[0].t).toBeGreaterThanOrEqual(s.of('lock.released', 'A:1')[0].t);
    expect(s.violations).toEqual([]);
  });
});
