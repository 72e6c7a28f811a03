/** SpinLock: RLock's hash, no pub/sub, exponential back-off polling. */
import { describe, expect, it } from 'vitest';
import { BackOffPolicy, DEFAULT_BACKOFF } from './RedissonSpinLock';
import { prngFor } from '../sim/prng';
import { cmds, first, redis, run, work, lockOps } from './testing/family';

const spin = lockOps('spin', 'SpinLock');

describe('SpinLock', () => {
  it('back-off: 1 ms doubling (plus a jitter below the failure count) up to 128 ms, then 128 ms', () => {
    const p = new BackOffPolicy(DEFAULT_BACKOFF, prngFor(1, 'test'));
    const sleeps = Array.from({ length: 12 }, () => p.getNextSleepPeriod());
    expect(sleeps[0]).toBe(1);
    for (let i = 1; i < sleeps.length; i++) {
      expect(sleeps[i]).toBeGreaterThanOrEqual(Math.min(128, sleeps[i - 1] * 2));
      expect(sleeps[i]).toBeLessThanOrEqual(Math.min(128, sleeps[i - 1] * 2 + i - 1));
    }
    expect(sleeps.slice(-3)).toEqual([128, 128, 128]);
    const constant = new BackOffPolicy({ ...DEFAULT_BACKOFF, kind: 'constant' }, prngFor(1, 'test'));
    expect([constant.getNextSleepPeriod(), constant.getNextSleepPeriod()]).toEqual([64, 64]);
  });

  it('waits by polling: no SUBSCRIBE, no PUBLISH; the waiter gets in at its next poll after the unlock', () => {
    const s = run({
      A: [{ id: 1, program: [spin('lock'), work(1000), spin('unlock')] }],
      B: [{ id: 1, start: 10, program: [spin('lock'), spin('unlock'), redis('EXISTS', 'spin')] }],
    });
    const all = cmds(s).map((a) => a[0]);
    expect(all).not.toContain('SUBSCRIBE');
    expect(all).not.toContain('PUBLISH');
    expect(s.of('pubsub.publish')).toHaveLength(0);
    const polls = s.of('cmd', 'B:1').filter((e) => (e.argv as string[])[0].startsWith('EVAL'));
    expect(polls.length).toBeGreaterThan(8);
    // gaps grow: the back-off doubles between tries
    const gaps = polls
      .slice(0, 6)
      .map((e, i, a) => (i ? e.t - a[i - 1].t : 0))
      .slice(1);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]);
    const released = first(s, 'lock.released', 'A:1').t;
    const got = first(s, 'lock.acquired', 'B:1').t;
    expect(got).toBeGreaterThan(released);
    expect(got - released).toBeLessThanOrEqual(128 + 4);
    expect(first(s, 'lock.wait', 'B:1').polling).toBe(true);
    expect(s.results('B:1')).toEqual([0]);
  });

  it('tryLock(wait) gives up once the wait is used up; the watchdog renews like RLock', () => {
    const s = run(
      {
        A: [{ id: 1, program: [spin('lock'), work(1500), spin('unlock')] }],
        B: [{ id: 1, start: 10, program: [spin('tryLock', { waitMs: 300 })] }],
      },
      { redisson: { lockWatchdogTimeout: 3000 } },
    );
    expect(s.results('B:1')).toEqual([false]);
    const failed = first(s, 'lock.failed', 'B:1').t;
    expect(failed).toBeGreaterThanOrEqual(310);
    expect(failed).toBeLessThan(310 + 140);
    expect(s.of('watchdog.renew').map((e) => e.result)).toEqual([1]);
  });

  it('lockInterruptibly: an interrupt ends the back-off sleep with InterruptedException', () => {
    const s = run(
      {
        A: [{ id: 1, program: [spin('lock'), work(2000), spin('unlock')] }],
        B: [{ id: 1, start: 10, program: [{ op: 'lockInterruptibly', lock: 'spin', type: 'SpinLock' }] }],
      },
      { faults: [{ at: 500, kind: 'interrupt', client: 'B', thread: 1 }] },
    );
    expect(s.results('B:1')).toEqual([{ error: 'InterruptedException' }]);
    expect(first(s, 'lock.error', 'B:1').t).toBe(500);
    expect(s.of('lock.acquired', 'B:1')).toEqual([]);
  });
});
