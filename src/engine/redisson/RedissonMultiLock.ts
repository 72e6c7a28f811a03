/**
 * RedissonMultiLock: several independent locks (possibly on different servers) taken as one, all
 * or nothing. It has no key of its own.
 *
 *   tryLock(wait, lease)   take the locks in order; at the first failure give back those taken,
 *                          then (while wait time is left) start over from the first one
 *   lock(lease)            tryLock rounds of locks × 1500 ms each (with a lease: a random wait
 *                          derived from it), until one succeeds
 *   unlock()               unlock every lock (one by one from 3.27.2, all at once before)
 *
 * Giving locks back inside tryLock (unlockInner) and the final PEXPIREs go one lock at a time
 * from 3.15.1, all at once before.
 *
 * Sub-locks taken with both a wait and a lease get 2 × wait as their lease while the round runs
 * (so early locks do not expire before the last is taken) and are PEXPIREd to the real lease at
 * the end. RedissonRedLock (RedissonRedLock.ts) relaxes "all" to a majority.
 */
import { acquireEffect, type Process } from '../sim/effects';
import type { Prng } from '../sim/api';
import type { LockServices, ServiceManager } from './executor';
import type { RedissonLock } from './RedissonLock';
import { NO_LEASE } from './RedissonLock';
import type { Reply } from '../redis/reply';
import { compareVersions } from './versions';
import { scriptText } from './scripts';
import { EXPIRE } from './scripts/RedissonExpirable';
import { JavaException, RedisResponseTimeoutException, exceptionFor } from './errors';
import { threadActor } from '../trace/actors';

export class UnsupportedOperationException extends JavaException {
  override readonly javaClass = 'java.lang.UnsupportedOperationException';
}

/**
 * Starts processes side by side (the async API: every future made first) and hands back, for
 * each, a process that joins it: its value, or what it threw, once it has ended. Joined in order,
 * as Java's loops over the futures do, the first failure is seen as soon as it and those before it
 * have ended, whatever the later ones are still doing.
 */
function fork<T>(client: ServiceManager, actor: string, procs: Process<T>[]): (() => Process<T>)[] {
  const { ctx } = client;
  return procs.map((p) => {
    const done = ctx.semaphore();
    let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    ctx.spawn(
      client.name,
      actor,
      (function* () {
        try {
          outcome = { ok: true, value: yield* p };
        } catch (e) {
          outcome = { ok: false, error: e };
        }
        ctx.release(done);
      })(),
    );
    return function* join(): Process<T> {
      yield acquireEffect(done);
      if (outcome === undefined) throw new Error('a forked process ended without an outcome');
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    };
  });
}

/** expireAsync's answer as its future completes: an error reply fails it. */
function expired(r: Reply): boolean {
  if (r.t === 'error') throw exceptionFor(r);
  return true;
}

export class RedissonMultiLock {
  private readonly rng: Prng;
  /** thread -> when its latest successful tryLock sent the final PEXPIREs (the lease starts there) */
  protected readonly leaseSetAt = new Map<number, number>();

  constructor(
    readonly name: string,
    readonly locks: readonly RedissonLock[],
    /** the JVM whose thread uses it (for actors and randomness) */
    readonly client: LockServices,
  ) {
    this.rng = client.ctx.rng(`redisson.multilock:${client.name}:${name}`);
  }

  /** Lock name of a thread on the first sub-lock (each Redisson instance has its own id). */
  getLockName(threadId: number): string {
    return this.locks[0].getLockName(threadId);
  }

  /** How many locks may fail while the whole still succeeds (MultiLock: none). */
  protected failedLocksLimit(): number {
    return 0;
  }

  /** The wait each sub-lock gets out of what is left (MultiLock: all of it). */
  protected calcLockWaitTime(remainTime: number): number {
    return remainTime;
  }

  *lock(threadId: number, leaseTime = NO_LEASE): Process<void> {
    yield* this.lockInterruptibly(threadId, leaseTime);
  }

  /** lockInterruptibly: rounds of tryLock until one succeeds. */
  *lockInterruptibly(threadId: number, leaseTime = NO_LEASE): Process<void> {
    const baseWaitTime = this.locks.length * 1500;
    for (;;) {
      let waitTime: number;
      if (leaseTime <= 0) waitTime = baseWaitTime;
      else if (leaseTime <= baseWaitTime) waitTime = this.nextLong(Math.floor(leaseTime / 2), leaseTime);
      else waitTime = this.nextLong(baseWaitTime, leaseTime);
      if ((yield this.tryLock(threadId, waitTime, leaseTime)) as boolean) return;
    }
  }

  /** tryLock(): one pass, each lock tried once. */
  *tryLockOnce(threadId: number, leaseTime = NO_LEASE): Process<boolean> {
    return yield* this.tryLock(threadId, NO_LEASE, leaseTime);
  }

  *tryLock(threadId: number, waitTime: number, leaseTime = NO_LEASE): Process<boolean> {
    let newLeaseTime = NO_LEASE;
    if (leaseTime > 0) newLeaseTime = waitTime > 0 ? waitTime * 2 : leaseTime;
    // the clock read in place, and each sub-lock's attempt a sub-process of the kernel: a `now`
    // effect or a `yield*` chain resumed every generator of the caller's chain at each step
    const { ctx } = this.client;
    let time = ctx.now();
    let remainTime = waitTime > 0 ? waitTime : -1;
    const lockWaitTime = this.calcLockWaitTime(remainTime);
    let failedLocksLimit = this.failedLocksLimit();
    const acquired: RedissonLock[] = [];
    for (let i = 0; i < this.locks.length; i++) {
      const lock = this.locks[i];
      let lockAcquired: boolean;
      try {
        if (waitTime <= 0 && leaseTime <= 0) lockAcquired = (yield lock.tryLockOnce(threadId)) as boolean;
        else
          lockAcquired = (yield lock.tryLock(
            threadId,
            Math.min(lockWaitTime, remainTime),
            newLeaseTime,
          )) as boolean;
      } catch (e) {
        if (!(e instanceof JavaException)) throw e;
        // no answer: the lock may have been taken all the same, so give it back
        if (e instanceof RedisResponseTimeoutException) yield* this.unlockInner([lock], threadId);
        lockAcquired = false;
      }
      if (lockAcquired) {
        acquired.push(lock);
      } else {
        if (this.locks.length - acquired.length === this.failedLocksLimit()) break;
        if (failedLocksLimit === 0) {
          yield* this.unlockInner(acquired, threadId);
          if (waitTime <= 0) return false;
          failedLocksLimit = this.failedLocksLimit();
          acquired.length = 0;
          i = -1; // start over from the first lock
        } else {
          failedLocksLimit--;
        }
      }
      if (remainTime > 0) {
        const t = ctx.now();
        remainTime -= t - time;
        time = t;
        if (remainTime <= 0) {
          yield* this.unlockInner(acquired, threadId);
          return false;
        }
      }
    }
    if (leaseTime > 0) {
      this.leaseSetAt.set(threadId, ctx.now());
      yield* this.expireAll(acquired, leaseTime, threadId);
    }
    return true;
  }

  /**
   * RedissonExpirable.expireAsync(leaseTime) on one sub-lock: from 3.17.0 a script (one key, the
   * lease, '' for no NX/XX/GT/LT option), sent like any evalWriteAsync (EVAL, or EVALSHA with the
   * script cache); before 3.17.0 a plain PEXPIRE.
   */
  private expire(l: RedissonLock, leaseTime: number): Process<Reply> {
    if (compareVersions(l.client.config.traits.release, '3.17.0') < 0)
      return l.client.command(['PEXPIRE', l.name, String(leaseTime)]);
    return l.client.eval(scriptText(EXPIRE, l.client.config.traits), [l.name], [leaseTime, '']);
  }

  /**
   * The lease step: every acquired lock's key PEXPIREd to the real lease. From 3.15.1 (cd11accae) a
   * lazy stream joins each expireAsync before making the next; before, all were sent, then each
   * synced in order. Either way the first failure is thrown out of tryLock (the locks stay held
   * with the round's lease), and from 3.15.1 the locks after it get no PEXPIRE at all.
   */
  private *expireAll(acquired: readonly RedissonLock[], leaseTime: number, threadId: number): Process<void> {
    if (this.client.config.traits.multiLockSequentialGiveBack) {
      for (const l of acquired) expired(yield* this.expire(l, leaseTime));
      return;
    }
    const joins = fork(
      this.client,
      this.actor(threadId),
      acquired.map((l) => this.expire(l, leaseTime)),
    );
    for (const join of joins) expired(yield* join());
  }

  /**
   * unlock(). From 3.27.2 (0f05a859f) `locks.forEach(Lock::unlock)`: one after another, and the
   * first exception (say an IllegalMonitorStateException because sub-lock 1 expired) ends the
   * loop, so the later sub-locks stay held, and renewed by the watchdog. Before, every
   * unlockAsync was sent at once and then each awaited; the first failure is rethrown.
   */
  *unlock(threadId: number): Process<boolean> {
    if (this.client.config.traits.multiLockSequentialUnlock) {
      for (const l of this.locks) yield* l.unlock(threadId);
      return true;
    }
    const joins = fork(
      this.client,
      this.actor(threadId),
      this.locks.map((l) => l.unlock(threadId)),
    );
    for (const join of joins) yield* join();
    return true;
  }

  /**
   * unlockInner: give back locks, ignoring what fails (a lock never taken answers
   * IllegalMonitorState). From 3.15.1 (cd11accae) a lazy stream: each unlockAsync is made once the
   * one before it has completed, so the next lock's server hears nothing until the previous one
   * answered; before, every unlockAsync was made at once and then each awaited.
   */
  protected *unlockInner(locks: readonly RedissonLock[], threadId: number): Process<void> {
    if (locks.length === 0) return;
    const sequential = this.client.config.traits.multiLockSequentialGiveBack;
    const joins = sequential
      ? locks.map((l) => () => l.unlock(threadId))
      : fork(
          this.client,
          this.actor(threadId),
          locks.map((l) => l.unlock(threadId)),
        );
    for (const join of joins) {
      try {
        yield* join();
      } catch (e) {
        if (!(e instanceof JavaException)) throw e;
      }
    }
  }

  /** isHeldByThread: the AND over all locks. */
  *isHeldByThread(threadId: number): Process<boolean> {
    for (const l of this.locks) if (!(yield* l.isHeldByThread(threadId))) return false;
    return true;
  }

  // eslint-disable-next-line require-yield
  *forceUnlock(): Process<boolean> {
    throw new UnsupportedOperationException('');
  }

  protected actor(threadId: number): string {
    return threadActor(this.client.name, threadId);
  }

  /** ThreadLocalRandom.nextLong(lo, hi): lo inclusive, hi exclusive. */
  private nextLong(lo: number, hi: number): number {
    return hi > lo ? this.rng.int(lo, hi - 1) : lo;
  }
}
