/**
 * RedissonSpinLock (3.15+): RLock's hash and acquire script, but no pub/sub at all. A waiting
 * thread polls: it sleeps a back-off period and tries again, so a released lock is noticed at the
 * next poll, not by a message, and unlock publishes nothing.
 *
 * LockOptions.ExponentialBackOff (the default) starts at 1 ms and doubles up to 128 ms, adding a
 * random 0..fails-1 ms each step so that pollers drift apart; ConstantBackOff sleeps 64 ms.
 * It uses the watchdog like RLock.
 */
import { acquire, now, sleep, type Process } from '../sim/effects';
import type { Prng } from '../sim/api';
import type { Reply } from '../redis/reply';
import { RedissonLock, NO_LEASE } from './RedissonLock';
import type { ScriptCall } from './executor';
import type { UnlockRequest } from './RedissonBaseLock';
import { IllegalStateException, InterruptedException } from './errors';
import { SPIN_FORCE_UNLOCK, SPIN_LOCK, SPIN_UNLOCK } from './scripts/RedissonSpinLock';
import { scriptText } from './scripts';

export interface BackOffOptions {
  kind: 'exponential' | 'constant';
  initialDelay: number;
  maxDelay: number;
  multiplier: number;
  /** ConstantBackOff's delay */
  delay: number;
}

/** LockOptions defaults */
export const DEFAULT_BACKOFF: BackOffOptions = {
  kind: 'exponential',
  initialDelay: 1,
  maxDelay: 128,
  multiplier: 2,
  delay: 64,
};

/** One wait's back-off policy (LockOptions.BackOffPolicy), created afresh for every lock call. */
export class BackOffPolicy {
  private nextSleep: number;
  private fails = 0;

  constructor(
    private readonly o: BackOffOptions,
    private readonly rng: Prng,
  ) {
    this.nextSleep = o.initialDelay;
  }

  getNextSleepPeriod(): number {
    if (this.o.kind === 'constant') return this.o.delay;
    if (this.nextSleep === this.o.maxDelay) return this.o.maxDelay;
    const result = this.nextSleep;
    // nextInt(++fails): a jitter in [0, fails)
    this.fails++;
    const jitter = this.rng.int(0, this.fails - 1);
    this.nextSleep = Math.min(this.o.maxDelay, this.nextSleep * this.o.multiplier + jitter);
    return result;
  }
}

export class RedissonSpinLock extends RedissonLock {
  backOff: BackOffOptions = DEFAULT_BACKOFF;

  /** lock() is lockInterruptibly() with an interrupt turned into IllegalStateException. */
  override *lock(threadId: number, leaseTime = NO_LEASE): Process<void> {
    try {
      yield* this.spin(threadId, leaseTime, true);
    } catch (e) {
      if (e instanceof InterruptedException) throw new IllegalStateException('');
      throw e;
    }
  }

  override *lockInterruptibly(threadId: number, leaseTime = NO_LEASE): Process<void> {
    yield* this.spin(threadId, leaseTime, true);
  }

  private *spin(threadId: number, leaseTime: number, interruptibly: boolean): Process<void> {
    let ttl = yield* this.tryAcquire(leaseTime, threadId);
    if (ttl === null) return;
    const policy = this.policy(threadId);
    this.emitPolling(threadId, ttl);
    while (ttl !== null) {
      yield* this.pause(policy.getNextSleepPeriod(), interruptibly);
      ttl = yield* this.tryAcquire(leaseTime, threadId);
    }
  }

  override *tryLock(threadId: number, waitTime: number, leaseTime = NO_LEASE): Process<boolean> {
    let time = waitTime;
    let current = yield* now();
    let ttl = yield* this.tryAcquire(leaseTime, threadId, waitTime);
    if (ttl === null) return true;
    time -= (yield* now()) - current;
    if (time <= 0) return false;
    const policy = this.policy(threadId);
    this.emitPolling(threadId, ttl);
    for (;;) {
      current = yield* now();
      yield* this.pause(policy.getNextSleepPeriod(), true);
      ttl = yield* this.tryAcquire(leaseTime, threadId, waitTime);
      if (ttl === null) return true;
      time -= (yield* now()) - current;
      if (time <= 0) return false;
    }
  }

  protected override *unlockInner(threadId: number, { requestId, attempts, onAbandoned }: UnlockRequest): Process<Reply> {
    const { traits } = this.client.config;
    const script = scriptText(SPIN_UNLOCK, traits);
    const args = [this.internalLockLeaseTime, this.getLockName(threadId)];
    // the latch key and its TTL since 3.24.0, as RLock's
    if (!traits.unlockLatch) return yield* this.client.syncedEval(script, [this.name], args, onAbandoned, attempts);
    return yield* this.client.syncedEval(
      script,
      [this.name, this.latchKey(requestId)],
      [...args, this.unlockLatchTtl()],
      onAbandoned,
      attempts,
    );
  }

  protected override acquireScript(lease: number, threadId: number): ScriptCall {
    return [scriptText(SPIN_LOCK, this.client.config.traits), [this.name], [lease, this.getLockName(threadId)]];
  }

  /** forceUnlock: a script that only deletes, nobody to notify. */
  protected override forceUnlockScript(): ScriptCall {
    return [scriptText(SPIN_FORCE_UNLOCK, this.client.config.traits), [this.name], []];
  }

  private policy(threadId: number): BackOffPolicy {
    return new BackOffPolicy(this.backOff, this.client.ctx.rng(`redisson.spin:${this.actor(threadId)}`));
  }

  /** Thread.sleep: a wait nobody signals, so that an interrupt can still end it. */
  private *pause(ms: number, interruptibly: boolean): Process<void> {
    if (!interruptibly) return yield* sleep(ms);
    const r = yield* acquire(this.client.ctx.semaphore(), ms, true);
    if (r === 'interrupted') throw new InterruptedException('');
  }

  /** Polling has no ttl-long wait: report its start, as the naive locks do. */
  private emitPolling(threadId: number, ttl: number): void {
    this.client.ctx.emit('lock.wait', {
      actor: this.actor(threadId),
      lock: this.name,
      ttl,
      waitMs: null,
      polling: true,
    });
  }
}
