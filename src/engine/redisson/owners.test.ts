/**
 * Owners that are not threads: lockAsync(threadId) / unlockAsync(threadId) take the owner id from
 * the caller, and a program may go on running on another thread (a coroutine, a future callback).
 * RedissonBaseLock.getLockName(threadId) is `<client id>:<threadId>` whatever thread calls.
 */
import { describe, expect, it } from 'vitest';
import { first, redis, run, work, type Op } from './testing/family';

const continueOn = (thread: number): Op => ({ op: 'continueOn', thread });

describe('a program that continues on another thread', () => {
  const waiter = { id: 1, start: 50, program: [{ op: 'tryLock', lock: 'myLock', waitMs: 2000 }] };

  it('4.7.0 RedissonBaseLock.unlockAsync(threadId): unlock() after the hop uses the new thread’s id: IllegalMonitorStateException, the lock stays held (and renewed)', () => {
    const s = run(
      {
        A: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'myLock' },
              work(100),
              continueOn(2),
              { op: 'unlock', lock: 'myLock' },
            ],
          },
        ],
        B: [waiter],
      },
      { until: 15_000 },
    );
    expect(first(s, 'thread.continue', 'A:1').thread).toBe(2);
    const err = first(s, 'lock.error', 'A:1');
    expect(err.error).toMatch(
      /^IllegalMonitorStateException: attempt to unlock lock, not locked by current thread by node id: \S+ thread-id: 2$/,
    );
    expect(s.results('B:1')).toEqual([false]);
    // the hold of thread 1 is still there, and the watchdog (registered for thread 1) renews it
    expect(s.of('watchdog.renew', 'A:1').map((e) => e.result)).toEqual([1]);
  });

  it('4.7.0 lockAsync(77) / unlockAsync(77): the same explicit owner id on both sides releases it; B gets the lock', () => {
    const s = run(
      {
        A: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'myLock', owner: 77 },
              work(100),
              continueOn(2),
              { op: 'unlock', lock: 'myLock', owner: 77 },
            ],
          },
        ],
        B: [waiter],
      },
      { until: 15_000 },
    );
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    expect(first(s, 'lock.released', 'A:1').holdCount).toBe(0);
    expect(s.results('B:1')).toEqual([true]);
    // the owner's events stay on the program's lane
    expect(first(s, 'watchdog.cancel', 'A:1').reason).toBe('unlock');
    expect(s.events.some((e) => e.actor === 'A:77')).toBe(false);
  });

  it('the hash field is <client id>:<owner>, and the watchdog renews with it', () => {
    const s = run(
      {
        A: [{ id: 1, program: [{ op: 'lock', lock: 'myLock', owner: 77 }, work(11_000)] }],
        B: [{ id: 1, start: 500, program: [redis('HKEYS', 'myLock')] }],
      },
      { until: 12_000 },
    );
    const [field] = s.results('B:1')[0] as string[];
    expect(field).toMatch(/:77$/);
    const renew = first(s, 'watchdog.renew', 'A:1');
    expect(renew).toMatchObject({ result: 1, lockName: field });
  });
});

describe('cancelling an in-flight acquire (lockAsync(...).cancel())', () => {
  it('RedissonLock.lockAsync (3.11.6 … 4.7.0): cancelled while the acquire script is on the wire, get() throws CancellationException; the script still takes the lock and the callback unlocks it at once', () => {
    for (const version of ['3.11.6', '3.27.2', '4.7.0']) {
      const s = run(
        {
          A: [{ id: 1, start: 100, program: [{ op: 'lock', lock: 'myLock' }, work(5000)] }],
          B: [{ id: 1, start: 1000, program: [{ op: 'tryLock', lock: 'myLock' }] }],
        },
        {
          network: { latencyMs: 50 },
          redisson: { version },
          until: 40_000,
          faults: [{ at: 120, kind: 'cancel', client: 'A', thread: 1 }],
        },
      );
      expect(first(s, 'thread.cancel', 'A:1').acquiring).toBe(true);
      const err = first(s, 'lock.error', 'A:1');
      expect(err.t).toBe(120);
      expect(err.error).toBe('CancellationException');
      expect(first(s, 'thread.done', 'A:1')).toMatchObject({
        outcome: 'exception',
        exception: 'java.util.concurrent.CancellationException',
      });
      expect(s.of('lock.acquired', 'A:1')).toEqual([]);
      // the late "acquired" is given back: B's single attempt at 1 s finds the lock free
      expect(s.results('B:1')).toEqual([true]);
      expect(s.of('watchdog.renew', 'A:1')).toEqual([]);
    }
  });

  it('3.11.6 / 3.27.2 / 4.7.0 RedissonLock.lockAsync(leaseTime, unit, entry, result, threadId): a waiter cancelled while it waits keeps waiting, takes the lock when A lets go, unsubscribes and gives it back', () => {
    const s = run(
      {
        A: [
          { id: 1, program: [{ op: 'lock', lock: 'myLock' }, work(3000), { op: 'unlock', lock: 'myLock' }] },
        ],
        B: [{ id: 1, start: 100, program: [{ op: 'lock', lock: 'myLock' }, work(100)] }],
      },
      { until: 10_000, faults: [{ at: 1000, kind: 'cancel', client: 'B', thread: 1 }] },
    );
    expect(first(s, 'lock.error', 'B:1')).toMatchObject({ t: 1000, error: 'CancellationException' });
    // the loop never looks at the cancelled result: the subscription stays until it acquires
    const unsub = s.of('pubsub.unsubscribe', 'B:1');
    expect(unsub).toHaveLength(1);
    expect(unsub[0].t).toBeGreaterThan(3000);
    const scripts = s.of('cmd', 'B/lockAsync').map((e) => e.reply);
    // the acquire answers nil (taken), then the unlock script releases it (1)
    expect(scripts).toEqual([null, 1]);
    expect(s.of('lock.acquired', 'B:1')).toEqual([]);
    expect(s.trace.final.nodes.master.keys).not.toHaveProperty('myLock');
  });

  it('3.11.6: without `until` the run ends only after the cancelled waiter, woken by the last unlock message, took the lock and gave it back (run_scenario: a waiter the client carries on is work in flight)', () => {
    const s = run(
      {
        A: [
          { id: 1, program: [{ op: 'lock', lock: 'myLock' }, work(3000), { op: 'unlock', lock: 'myLock' }] },
        ],
        B: [{ id: 1, start: 100, program: [{ op: 'lock', lock: 'myLock' }, work(100)] }],
      },
      { redisson: { version: '3.11.6' }, faults: [{ at: 1000, kind: 'cancel', client: 'B', thread: 1 }] },
    );
    expect(s.of('cmd', 'B/lockAsync').map((e) => e.reply)).toEqual([null, 1]);
    expect(s.of('pubsub.unsubscribe', 'B:1')).toHaveLength(1);
    expect(s.trace.final.nodes.master.keys).not.toHaveProperty('myLock');
  });

  it('a cancel that finds no acquire in progress does nothing', () => {
    const s = run(
      { A: [{ id: 1, program: [work(2000), { op: 'lock', lock: 'myLock' }] }] },
      { until: 5000, faults: [{ at: 1000, kind: 'cancel', client: 'A', thread: 1 }] },
    );
    expect(first(s, 'thread.cancel', 'A:1').acquiring).toBe(false);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
  });
});
