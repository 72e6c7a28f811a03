/**
 * RedissonRedLock (deprecated since 3.12.5 in favour of WAIT-synced RLock / FencedLock): a
 * MultiLock that succeeds with a majority. With N locks, N − (N/2 + 1) of them may fail (1 of 3,
 * 2 of 5); each lock may wait max(remaining / N, 1) ms; unlock releases every lock and ignores
 * failures.
 *
 * The Redlock algorithm (as the Redis docs describe it) also says how long the lock can be trusted:
 * validity = lease − elapsed − drift, with drift = lease × 1% + 2 ms. Redisson's RedLock does not
 * check it. With a lease, Redisson sets every key's final TTL by PEXPIREs at the end of tryLock
 * (all at once up to 3.15.0, one master after another from 3.15.1), so the lease runs from that
 * step: the model reports lease − (time the step took) − drift after a successful tryLock
 * (lastValidity), for the timeline to show where the holder's safe window ends.
 */
import { now, type Process } from '../sim/effects';
import { NO_LEASE } from './RedissonLock';
import { RedissonMultiLock } from './RedissonMultiLock';

/** The Redlock clock drift allowance: 1% of the lease plus 2 ms for Redis's 1 ms expiry resolution. */
export function redlockDrift(leaseMs: number): number {
  return Math.floor(leaseMs * 0.01) + 2;
}

export class RedissonRedLock extends RedissonMultiLock {
  /** thread -> validity (ms) of its latest successful tryLock with a lease */
  private readonly validity = new Map<number, number>();

  protected override failedLocksLimit(): number {
    return this.locks.length - minLocksAmount(this.locks.length);
  }

  protected override calcLockWaitTime(remainTime: number): number {
    return Math.max(Math.trunc(remainTime / this.locks.length), 1);
  }

  override *tryLock(threadId: number, waitTime: number, leaseTime = NO_LEASE): Process<boolean> {
    const ok = yield* super.tryLock(threadId, waitTime, leaseTime);
    const start = this.leaseSetAt.get(threadId);
    if (ok && leaseTime > 0 && start !== undefined) {
      const elapsed = (yield* now()) - start;
      this.validity.set(threadId, leaseTime - elapsed - redlockDrift(leaseTime));
    } else this.validity.delete(threadId);
    return ok;
  }

  /** Redlock's validity of the thread's current acquisition, if it was taken with a lease. */
  lastValidity(threadId: number): number | undefined {
    return this.validity.get(threadId);
  }

  /** unlock(): unlockInner over every lock (one after another from 3.15.1), ignoring failures. */
  override *unlock(threadId: number): Process<boolean> {
    yield* this.unlockInner(this.locks, threadId);
    return true;
  }
}

/** N/2 + 1 */
export function minLocksAmount(n: number): number {
  return Math.floor(n / 2) + 1;
}
