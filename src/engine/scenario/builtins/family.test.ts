/**
 * The lock-family built-ins: verdicts and the moments their descriptions promise. Times allow a
 * few ms for round trips at the default 1 ms latency.
 */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../redisson/testing/simulate';
import { at, near, sim } from '../testing/builtins';
import { EXPIRE } from '../../redisson/scripts/RedissonExpirable';

const EXPIRE_SHA1 = EXPIRE.variants[0].sha1;

const ids = [
  'fencing-saves-gc-pause',
  'fair-lock-fifo',
  'rw-lock-readers-then-writer',
  'spin-lock-polling',
  'multilock-all-or-nothing',
  'redlock-happy',
  'redlock-clock-jump',
  'redlock-pause-after-validity',
  'fencing-after-failover',
];

/** `V1 A:1+B:1`; a V3 is named by its writer (the first holder) alone */
const kinds = (s: Simulation) =>
  s.violations.map((v) => `${v.kind} ${v.kind === 'V3' ? v.holders[0] : v.holders.join('+')}`);
const order = (s: Simulation) => s.of('lock.acquired').map((e) => e.actor);

describe('lock-family built-ins', () => {
  it('fencing-saves-gc-pause: B gets token 2 when the lease ends; A’s token-1 write is refused (V1, no V3)', () => {
    const s = sim('fencing-saves-gc-pause');
    expect(kinds(s)).toEqual(['V1 A:1+B:1']);
    expect(s.of('lock.acquired').map((e) => [e.actor, e.token])).toEqual([
      ['A:1', 1],
      ['B:1', 2],
    ]);
    near(at(s.of('lock.acquired', 'B:1')[0]), at(s.of('lock.acquired', 'A:1')[0]) + 10_000);
    expect(s.of('resource.use').map((e) => [e.actor, e.token, e.accepted])).toEqual([
      ['B:1', 2, true],
      ['A:1', 1, false],
    ]);
    expect(at(s.of('resource.use', 'A:1')[0])).toBe(15_030);
    expect(s.resource).toMatchObject({ value: 8, accepted: 1, rejected: 1, lastToken: 2 });
  });

  it('fair-lock-fifo: B, C, D in arrival order; E gives up after 500 ms and leaves the queue', () => {
    const s = sim('fair-lock-fifo');
    expect(s.violations).toEqual([]);
    expect(order(s)).toEqual(['A:1', 'B:1', 'C:1', 'D:1']);
    expect(s.results('E:1')).toEqual([false]);
    near(at(s.of('lock.failed', 'E:1')[0]), 650, 10);
    expect(
      s.of('cmd', 'E:1').some((e) => String((e.argv as string[])[3]) === 'redisson_lock_queue:{fair}'),
    ).toBe(true);
    // each hand-over publishes to one waiter's own channel
    const channels = s.of('pubsub.publish').map((e) => String(e.channel));
    expect(channels.slice(0, 3).map((c) => c.split(':').length)).toEqual([4, 4, 4]);
    expect(
      s
        .of('pubsub.publish')
        .slice(0, 3)
        .map((e) => e.receivers),
    ).toEqual([1, 1, 1]);
  });

  it('rw-lock-readers-then-writer: two readers together, the writer after both, two readers woken at once', () => {
    const s = sim('rw-lock-readers-then-writer');
    expect(s.violations).toEqual([]);
    expect(order(s)).toEqual(['A:1', 'B:1', 'C:1', 'D:1', 'D:2']);
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeLessThan(at(s.of('lock.released', 'A:1')[0]));
    expect(at(s.of('lock.acquired', 'C:1')[0])).toBeGreaterThanOrEqual(at(s.of('lock.released', 'B:1')[0]));
    expect(s.of('lock.acquired', 'C:1')[0].owner).toMatch(/:1:write$/);
    const wake = s.of('pubsub.publish').find((e) => e.message === '1')!;
    expect(wake.channel).toBe('redisson_rwlock:{rw}');
    expect(at(s.of('lock.acquired', 'D:1')[0])).toBe(at(s.of('lock.acquired', 'D:2')[0]));
  });

  it('spin-lock-polling: no pub/sub at all; the lock is picked up by a poll within 128 ms', () => {
    const s = sim('spin-lock-polling');
    expect(s.violations).toEqual([]);
    expect(s.of('pubsub.subscribe')).toEqual([]);
    expect(s.of('pubsub.publish')).toEqual([]);
    const released = at(s.of('lock.released', 'A:1')[0]);
    const next = s.of('lock.acquired').filter((e) => e.actor !== 'A:1')[0];
    expect(next.t - released).toBeLessThanOrEqual(132);
    const polls = s.of('cmd', 'B:1').filter((e) => (e.argv as string[])[0] === 'EVALSHA');
    expect(polls.length).toBeGreaterThan(10);
  });

  it('multilock-all-or-nothing: tryLock() false and nothing kept; lock() holds l1, l2 while waiting for l3', () => {
    const s = sim('multilock-all-or-nothing');
    expect(s.violations).toEqual([]);
    expect(s.results('A:1')).toEqual([false]);
    expect(s.results('C:1')).toEqual([false]);
    expect(order(s)).toEqual(['B:1', 'A:1']);
    near(at(s.of('lock.acquired', 'A:1')[0]), at(s.of('lock.released', 'B:1')[0]), 6);
    expect(s.of('lock.acquired', 'A:1')[0].key).toBe('l1');
  });

  it('redlock-happy: 4 of 5 masters (master-5 down), validity shown, B follows after A’s unlock', () => {
    const s = sim('redlock-happy');
    expect(s.violations).toEqual([]);
    expect(s.results('A:1')).toEqual([true]);
    expect(s.results('B:1')).toEqual([true]);
    const a = s.of('lock.acquired', 'A:1')[0];
    // the lease runs from the final expire step: 4.7.0 sends RedissonExpirable's script (EVALSHA,
    // NOSCRIPT's SCRIPT LOAD, EVALSHA: 6 ms a master), not PEXPIRE, to one master after another
    // (3.15.1+ RedissonMultiLock.tryLock): 4 × 6 ms
    expect(a.validityMs).toBe(10_000 - 24 - 102);
    const nodes = new Set(
      s
        .of('cmd', 'A:1')
        .filter((e) => (e.argv as string[])[1] === EXPIRE_SHA1)
        .map((e) => e.node),
    );
    expect(nodes).toEqual(new Set(['master-1', 'master-2', 'master-3', 'master-4']));
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'A:1')[0]));
  });

  it('redlock-clock-jump: both clients hold a majority after master-3’s clock jump (V2 and V1)', () => {
    const s = sim('redlock-clock-jump');
    expect(kinds(s).sort()).toEqual(['V1 A:1+B:1', 'V2 A:1+B:1']);
    const expired = s.of('key.expired').find((e) => e.node === 'master-3')!;
    near(expired.t, 1000, 1);
    const bNodes = s
      .of('cmd', 'B:1')
      .filter((e) => (e.argv as string[])[1] === EXPIRE_SHA1 && !JSON.stringify(e.reply).includes('NOSCRIPT'))
      .map((e) => e.node);
    expect(bNodes).toEqual(['master-3', 'master-4', 'master-5']);
    const v1 = s.violations.find((v) => v.kind === 'V1')!;
    expect(v1.from).toBe(at(s.of('lock.acquired', 'B:1')[0]));
  });

  it('redlock-pause-after-validity: keys expire during A’s pause, B takes over, A’s stale write loses B’s (V2, V1, V3)', () => {
    const s = sim('redlock-pause-after-validity');
    // 3.15.1+ RedissonMultiLock.tryLock set A's leases one master after another, so they expire
    // 6 ms apart: B takes master-1 while A's keys on the others still live (V2), until the last goes
    expect(kinds(s)).toEqual(['V2 A:1+B:1', 'V1 A:1+B:1', 'V3 A:1']);
    const v2 = s.violations.find((v) => v.kind === 'V2')!;
    expect(v2.to! - v2.from).toBeLessThan(30);
    expect(s.of('lock.acquired', 'A:1')[0].validityMs).toBe(10_000 - 30 - 102);
    near(at(s.of('lock.acquired', 'B:1')[0]), at(s.of('lock.acquired', 'A:1')[0]) + 10_000, 20);
    const v3 = s.violations.find((v) => v.kind === 'V3')!;
    // the pause (200 ms to 12.2 s) falls inside A's use; its write goes out as it thaws
    expect(v3.from).toBe(12_200);
    expect(s.resource).toMatchObject({ value: 1, accepted: 2, rejected: 0 });
  });

  it('fencing-after-failover: the promoted replica hands out token 34 again; both writes accepted (V1, V3)', () => {
    const s = sim('fencing-after-failover');
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1']);
    expect(s.of('lock.acquired').map((e) => [e.actor, e.token])).toEqual([
      ['A:1', 34],
      ['B:1', 34],
    ]);
    expect(s.of('failover.promote').length).toBeGreaterThan(0);
    expect(s.resource).toMatchObject({ value: 11, accepted: 2, rejected: 0 });
  });

  it('are deterministic', () => {
    for (const id of ids) {
      const a = JSON.stringify(sim(id).trace);
      expect(JSON.stringify(sim(id).trace), id).toBe(a);
    }
  });
});
