/** Failover, watchdog and design incidents: who held the lock when, what was thrown, and the pair. */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../../redisson/testing/simulate';
import { at, near, sim } from '../../testing/builtins';
import { errorOf, kinds } from '../../testing/incidents';

const order = (s: Simulation) => s.of('lock.acquired').map((e) => e.actor);

describe('failover incidents', () => {
  it('failover before WAIT (3.12.4): B locks on the promoted replica while A works; A’s unlock throws IMSE', () => {
    const s = sim('incident-failover-before-wait');
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    near(at(s.of('lock.acquired', 'B:1')[0]), 7002);
    expect(s.of('wait.result')).toEqual([]);
    expect(errorOf(s, 'A:1').at(-1)).toMatch(/^IllegalMonitorStateException/);
  });

  it('fixed in 3.12.5: A is never told before WAIT, retries on the new master, and waits for B', () => {
    const s = sim('incident-failover-before-wait-fixed');
    expect(s.violations).toEqual([]);
    expect(order(s)).toEqual(['B:1', 'A:1']);
    expect(s.of('wait.result').length).toBeGreaterThan(0);
    expect(at(s.of('lock.acquired', 'A:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'B:1')[0]));
  });

  it('only 1 of 2 slaves synced (3.17.4): tryLock throws; 3.17.5 accepts one acknowledgement', () => {
    const s = sim('incident-only-some-slaves-synced');
    expect(errorOf(s, 'A:1')[0]).toBe(
      'RedisException: Unexpected exception while processing command; caused by IllegalStateException: Only 1 of 2 slaves were synced',
    );
    expect(s.of('wait.result').map((e) => e.acked)).toEqual([1]);
    expect(s.of('lock.acquired')).toEqual([]);
    const f = sim('incident-only-some-slaves-synced-fixed');
    expect(f.results('A:1')).toEqual([true]);
    expect(f.of('lock.released', 'A:1')).toHaveLength(1);
  });
});

describe('a call that never completes', () => {
  it('tryLock hangs once Redis is down (3.12.5): no outcome, no thread end, L2 hung from the last timeout; 3.13.0 throws the timeout', () => {
    const s = sim('incident-trylock-hangs-redis-down');
    expect(kinds(s)).toEqual(['L2 A:1']);
    expect(s.violations[0].cause).toBe('hung');
    expect(s.of('call.timeout', 'A:1')).toHaveLength(4);
    expect(s.of('thread.done', 'A:1')).toEqual([]);
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    const f = sim('incident-trylock-hangs-redis-down-fixed');
    expect(f.violations).toEqual([]);
    expect(errorOf(f, 'A:1')[0]).toMatch(/^RedisResponseTimeoutException/);
  });
});

describe('watchdog incidents', () => {
  it('failover stops renewal (3.2.3): the 10 s renewal fails, no other runs, B takes over at 30 s', () => {
    const s = sim('incident-failover-stops-renewal');
    const renewals = s.of('watchdog.renew', 'A:1');
    expect(renewals.map((e) => e.result)).toEqual(['error']);
    expect(s.of('watchdog.cancel', 'A:1')[0].reason).toBe('error');
    near(at(s.of('lock.acquired', 'B:1')[0]), 30_000, 10);
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    expect(errorOf(s, 'A:1').at(-1)).toMatch(/^IllegalMonitorStateException/);
  });

  it('fixed in 3.44.0: the failed round is followed by one on the promoted replica; B waits for A', () => {
    const s = sim('incident-failover-stops-renewal-fixed');
    const results = s.of('watchdog.renew', 'A:1').map((e) => e.result);
    expect(results[0]).toBe('error');
    expect(results.slice(1).every((r) => r === 1)).toBe(true);
    expect(results.length).toBeGreaterThan(3);
    expect(order(s)).toEqual(['A:1', 'B:1']);
    expect(s.violations).toEqual([]);
  });

  it('the holder loses Redis: renewals fail, B holds from 30 s, A’s late write is stale and its unlock, queued behind what TCP holds until 61 s, times out', () => {
    const s = sim('incident-holder-loses-redis');
    near(at(s.of('lock.acquired', 'B:1')[0]), 30_000, 10);
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    // the heal at 45 s: the renewal held since 10 s is retransmitted at 61 s (10 s + 51 s), after the run
    expect(s.of('cmd', 'A/watchdog').filter((e) => at(e) > 5000)).toEqual([]);
    expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)).toEqual(['unlock']);
    expect(errorOf(s, 'A:1').at(-1)).toMatch(/^RedisResponseTimeoutException/);
    // 4.7.0, as the real client (oracle recording incident-holder-loses-redis@4.7.0): the unlock at 50 s times out at 53 s
    near(at(s.of('lock.error', 'A:1')[0]), 53_006, 5);
  });
});

describe('design incidents', () => {
  it('RedLock on one Redis: the restart forgets all three keys; B gets the RedLock while A holds it', () => {
    const s = sim('incident-redlock-one-redis');
    expect(order(s)).toEqual(['A:1', 'B:1']);
    near(at(s.of('lock.acquired', 'B:1')[0]), 3006, 5);
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
  });
});
