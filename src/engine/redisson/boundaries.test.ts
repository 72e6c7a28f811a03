/**
 * Release boundaries of the watchdog and of failed calls, read in Redisson's source at the tags
 * on both sides of each change. Each test names the release and the Java method it follows.
 */
import { describe, expect, it } from 'vitest';
import { versionTraits } from './versions';
import { first, redis, run, work, lockOps, type Op } from './testing/family';
import type { Simulation } from './testing/simulate';

const lock: Op = { op: 'lock', lock: 'myLock' };
const unlock: Op = { op: 'unlock', lock: 'myLock' };
const readOp = lockOps('rw', 'ReadLock');

const renewals = (s: Simulation, actor: string) => s.of('watchdog.renew', actor);
/** key.expired times: a key counts as expired the ms after its deadline (lease + the 1 ms latency) */
const expiries = (s: Simulation, key: string) => s.of('key.expired').filter((e) => e.key === key);

describe('a watchdog that stops leaves EXPIRATION_RENEWAL_MAP (renewalStopRemovesEntry)', () => {
  /**
   * A:1 locks; A is cut off from 9 s to 27 s, so the renewal at 10 s ends in an error after its
   * retries; the lock expires at 30 s. A:2 of the same client locks the same name at 35 s.
   */
  const afterError = (version: string) =>
    run(
      {
        A: [
          { id: 1, program: [lock, work(60_000)] },
          { id: 2, start: 35_000, program: [lock, work(40_000)] },
        ],
      },
      {
        redisson: { version },
        until: 80_000,
        faults: [{ at: 9000, kind: 'partition', groups: [['A'], ['master']], healAt: 27_000 }],
      },
    );

  it('3.13.0 RedissonLock.renewExpiration: an error leaves the entry, so A:2’s lock() starts no timer and expires', () => {
    const s = afterError('3.13.0');
    expect(renewals(s, 'A:1').map((e) => e.result)).toEqual(['error']);
    expect(renewals(s, 'A:2')).toEqual([]);
    // A:2's lock script waits behind the renewals TCP held since 10 s: it runs at their
    // retransmission at 35.4 s (10 s + 25.4 s), so its unrenewed lease ends at 65.4 s
    expect(expiries(s, 'myLock').map((e) => e.t)).toEqual([30_002, 65_404]);
  });

  it('3.14.0 RedissonLock.renewExpiration: EXPIRATION_RENEWAL_MAP.remove on an error (PR #3195), so A:2 is renewed', () => {
    const s = afterError('3.14.0');
    expect(renewals(s, 'A:1').map((e) => e.result)).toEqual(['error']);
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(expiries(s, 'myLock').map((e) => e.t)).toEqual([30_002]);
  });

  /** B deletes A:1's lock at 5 s, so A's renewal at 10 s answers 0; A:2 locks the name at 20 s. */
  const afterZero = (version: string) =>
    run(
      {
        A: [
          { id: 1, program: [lock, work(60_000)] },
          { id: 2, start: 20_000, program: [lock, work(40_000)] },
        ],
        B: [{ id: 1, start: 5000, program: [redis('DEL', 'myLock')] }],
      },
      { redisson: { version }, until: 70_000 },
    );

  it('3.16.0 RedissonBaseLock.renewExpiration: a 0 answer only stops the timer; the entry stays and A:2 is not renewed', () => {
    const s = afterZero('3.16.0');
    expect(renewals(s, 'A:1').map((e) => e.result)).toEqual([0]);
    expect(renewals(s, 'A:2')).toEqual([]);
    expect(expiries(s, 'myLock').map((e) => e.t)).toEqual([50_002]);
  });

  it('3.16.1 RedissonBaseLock.renewExpiration: a 0 answer calls cancelExpirationRenewal(null), so A:2 is renewed', () => {
    const s = afterZero('3.16.1');
    expect(renewals(s, 'A:1').map((e) => e.result)).toEqual([0]);
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(expiries(s, 'myLock')).toEqual([]);
  });

  it('the trait: never before 3.14.0, on an error from 3.14.0, also on a 0 answer from 3.16.1', () => {
    expect(versionTraits('3.13.0').renewalStopRemovesEntry).toBe('never');
    expect(versionTraits('3.14.0').renewalStopRemovesEntry).toBe('on-error');
    expect(versionTraits('3.16.0').renewalStopRemovesEntry).toBe('on-error');
    expect(versionTraits('3.16.1').renewalStopRemovesEntry).toBe('always');
  });
});

describe('unlock cancels the watchdog before it checks the result (cancelRenewalOnFailedUnlock)', () => {
  /** B takes A:1's lock after deleting it; A:1's unlock then finds no hold of its own. */
  const failedUnlock = (version: string) =>
    run(
      {
        A: [{ id: 1, program: [lock, work(2000), unlock] }],
        B: [{ id: 1, start: 1000, program: [redis('DEL', 'myLock'), lock, work(20_000)] }],
      },
      { redisson: { version }, until: 15_000 },
    );

  it('3.12.0 RedissonLock.unlockAsync(threadId): a nil answer throws without cancelExpirationRenewal; the timer runs on and finds B', () => {
    const s = failedUnlock('3.12.0');
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/^IllegalMonitorStateException/);
    expect(s.of('watchdog.cancel', 'A:1').filter((e) => e.reason === 'unlock')).toEqual([]);
    expect(renewals(s, 'A:1').map((e) => e.result)).toEqual([0]);
  });

  it('3.12.1 RedissonLock.unlockAsync(threadId): cancelExpirationRenewal runs first, whatever the answer', () => {
    const s = failedUnlock('3.12.1');
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/^IllegalMonitorStateException/);
    expect(first(s, 'watchdog.cancel', 'A:1').reason).toBe('unlock');
    expect(renewals(s, 'A:1')).toEqual([]);
  });
});

describe('3.44.0–3.45.x: renewal/LockEntry after a reentrant lock/unlock (#6144)', () => {
  /** RedissonLockExpirationRenewalTest.testLockReentrantRenew: A:1 locks twice and unlocks twice, then A:2 locks. */
  const reentrant = (version: string) =>
    run(
      {
        A: [
          { id: 1, program: [lock, lock, unlock, unlock] },
          { id: 2, start: 1000, program: [lock, work(45_000)] },
        ],
      },
      { redisson: { version }, until: 45_000 },
    );

  it('3.45.0 LockEntry.removeThreadId: A:1 stays first in the queue without a lock name; every round fails and A:2’s lock expires', () => {
    const s = reentrant('3.45.0');
    const rounds = renewals(s, 'A:1');
    expect(rounds.length).toBeGreaterThan(2);
    expect(rounds.every((e) => e.result === 'error' && /NullPointerException/.test(String(e.error)))).toBe(
      true,
    );
    expect(renewals(s, 'A:2')).toEqual([]);
    expect(expiries(s, 'myLock').map((e) => e.t)).toEqual([31_002]);
  });

  it('3.46.0 LockEntry.removeThreadId removes every occurrence (a98cd54a): A:2 is renewed', () => {
    const s = reentrant('3.46.0');
    expect(renewals(s, 'A:1')).toEqual([]);
    expect(renewals(s, 'A:2').every((e) => e.result === 1)).toBe(true);
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(expiries(s, 'myLock')).toEqual([]);
  });

  it('3.43.0 ExpirationEntry (the per-lock timer) has no such leak', () => {
    const s = reentrant('3.43.0');
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(expiries(s, 'myLock')).toEqual([]);
  });
});

describe('before 3.8.1 the watchdog does not renew a read lock’s rwlock_timeout keys', () => {
  const reader = (version: string) =>
    run(
      { A: [{ id: 1, program: [readOp('lock'), work(40_000), readOp('unlock')] }] },
      { redisson: { version }, until: 45_000 },
    );
  const timeoutKeyExpiries = (s: Simulation) =>
    s.of('key.expired').filter((e) => /rwlock_timeout/.test(String(e.key)));

  it('3.8.0 RedissonReadLock (no renewExpirationAsync of its own): the hash is renewed, the hold’s timeout key expires at 30 s', () => {
    const s = reader('3.8.0');
    expect(renewals(s, 'A:1').every((e) => e.result === 1)).toBe(true);
    expect(timeoutKeyExpiries(s).map((e) => e.t)).toEqual([30_002]);
  });

  it('3.8.1 RedissonReadLock.renewExpirationAsync: every hold’s timeout key is renewed with the hash', () => {
    const s = reader('3.8.1');
    expect(renewals(s, 'A:1').every((e) => e.result === 1)).toBe(true);
    expect(timeoutKeyExpiries(s)).toEqual([]);
  });
});

describe('3.12.5: a failed EVAL+WAIT batch never completes the EVAL (#2790)', () => {
  /** The node is gone for good before A tries the lock. */
  const down = (version: string) =>
    run(
      {
        A: [
          { id: 1, start: 100, program: [{ op: 'tryLock', lock: 'myLock', waitMs: 5000, leaseMs: 10_000 }] },
        ],
      },
      { redisson: { version }, until: 60_000, faults: [{ at: 10, kind: 'crash', node: 'master' }] },
    );

  it('3.12.5 RedissonLock.evalWriteAsync (CommandBatchService): tryLock hangs after the batch gave up', () => {
    const s = down('3.12.5');
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    expect(s.of('thread.done', 'A:1')).toEqual([]);
  });

  it('3.13.0 CommandBatchService.executeAsync fails the batch’s commands too (1abb29e27): tryLock throws the timeout', () => {
    const s = down('3.13.0');
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/RedisResponseTimeoutException/);
    expect(first(s, 'thread.done', 'A:1').outcome).toBe('exception');
  });

  it('3.12.4 (no batch yet) throws the timeout as well', () => {
    expect(first(down('3.12.4'), 'lock.error', 'A:1').error).toMatch(/RedisResponseTimeoutException/);
  });

  it('3.12.5: an interrupt ends the hang', () => {
    const s = run(
      {
        A: [
          { id: 1, start: 100, program: [{ op: 'tryLock', lock: 'myLock', waitMs: 5000, leaseMs: 10_000 }] },
        ],
      },
      {
        redisson: { version: '3.12.5' },
        until: 60_000,
        faults: [
          { at: 10, kind: 'crash', node: 'master' },
          { at: 40_000, kind: 'interrupt', client: 'A', thread: 1 },
        ],
      },
    );
    const err = first(s, 'lock.error', 'A:1');
    expect(err.t).toBe(40_000);
    expect(err.error).toMatch(/InterruptedException/);
  });
});

describe('an acquire abandoned by an interrupt, answered later (abandonedAcquireRenewed)', () => {
  /** A:1's lock() is interrupted while its EVAL is on the wire; the EVAL still takes the lock. */
  const abandoned = (version: string) =>
    run(
      { A: [{ id: 1, start: 100, program: [lock] }] },
      {
        network: { latencyMs: 50 },
        redisson: { version },
        until: 70_000,
        faults: [{ at: 120, kind: 'interrupt', client: 'A', thread: 1 }],
      },
    );

  it('3.16.2 CommandAsyncService.get(): the future is not cancelled, tryAcquireAsync’s callback starts the watchdog, the lock is renewed for ever', () => {
    const s = abandoned('3.16.2');
    expect(first(s, 'lock.error', 'A:1').t).toBe(120);
    expect(renewals(s, 'A:1').length).toBeGreaterThan(4);
    expect(expiries(s, 'myLock')).toEqual([]);
  });

  it('3.16.3 CommandAsyncService.get(): future.cancel(true) (6153d0557), no watchdog: the lock expires after its lease', () => {
    const s = abandoned('3.16.3');
    expect(renewals(s, 'A:1')).toEqual([]);
    expect(expiries(s, 'myLock').map((e) => e.t)).toEqual([30_151]);
  });

  it('3.20.1 RedissonLock.tryAcquire → get(tryAcquireAsync0) → ServiceManager.execute (65320f76f): get() cancels only the wrapper, the watchdog starts again', () => {
    // 3.20.0 still cancels the acquire's own future
    expect(renewals(abandoned('3.20.0'), 'A:1')).toEqual([]);
    const s = abandoned('3.20.1');
    expect(first(s, 'lock.error', 'A:1').t).toBe(120);
    expect(renewals(s, 'A:1').length).toBeGreaterThan(4);
    expect(expiries(s, 'myLock')).toEqual([]);
  });
});
