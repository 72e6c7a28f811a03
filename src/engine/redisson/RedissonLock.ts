/**
 * RedissonLock (RLock): the reentrant lock, laid out like RedissonLock.java. The thread id is
 * passed explicitly where Java reads Thread.currentThread().getId().
 *
 *   lock()            tryAcquire; if someone holds it, subscribe to the lock's channel and loop:
 *                     tryAcquire, then wait on the shared latch for the holder's ttl (an unlock
 *                     message or the ttl running out ends the wait); unsubscribe at the end.
 *   tryLock(w, l)     the same loop, bounded by the wait time w.
 *   tryLock()         one attempt.
 *
 * The acquire script returns nil (acquired) or the holder's PTTL. A lock taken without a lease is
 * handed to the watchdog; with a lease it simply expires.
 */
import { acquire, acquireEffect, sleep, type AcquireResult, type Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import { RedissonBaseLock, type UnlockResult } from './RedissonBaseLock';
import {
  CancellationException,
  IllegalStateException,
  InterruptedException,
  JavaException,
  RedisException,
  RedisResponseTimeoutException,
  RedisTimeoutException,
  exceptionFor,
  isNoSynced,
} from './errors';
import type { Attempts, ScriptCall } from './executor';
import type { RedissonLockEntry } from './pubsub/RedissonLockEntry';
import type { AssembledEvent } from '../trace/types';

/** leaseTime / waitTime "not given", as Java's -1 */
export const NO_LEASE = -1;

export class RedissonLock extends RedissonBaseLock {
  /**
   * The caller's future of the acquire in progress was cancelled (lockAsync(...).cancel()): an
   * acquire that still succeeds is given back at once, as lockAsync's callback does with
   * `if (!result.complete(null)) unlockAsync(threadId)` (3.11.6 … 4.7.0 alike).
   */
  cancelled = false;

  /** lock() / lock(leaseTime): waits as long as it takes. */
  *lock(threadId: number, leaseTime = NO_LEASE): Process<void> {
    yield this.lockImpl(threadId, leaseTime, false);
  }

  /** lockInterruptibly(leaseTime): as lock(), but an interrupt ends the wait with InterruptedException. */
  *lockInterruptibly(threadId: number, leaseTime = NO_LEASE): Process<void> {
    yield* this.lockImpl(threadId, leaseTime, true);
  }

  private *lockImpl(threadId: number, leaseTime: number, interruptibly: boolean): Process<void> {
    let ttl = (yield this.tryAcquire(leaseTime, threadId)) as number | null;
    if (ttl === null) return;

    const entry = yield* this.subscribe(threadId, interruptibly);
    /** the end of the latch wait in progress (Infinity: until a message), null between waits */
    let waitingUntil: number | null = null;
    let handedOver = false;
    try {
      for (;;) {
        const attempt = this.client.ctx.now();
        ttl = (yield this.tryAcquire(leaseTime, threadId)) as number | null;
        if (ttl === null) break;
        if (ttl >= 0) {
          // latch.tryAcquire(ttl) always reacts to an interrupt (and clears the flag); lock()
          // catches the InterruptedException and waits the ttl once more, and a second interrupt
          // during that wait leaves lock() as IllegalStateException.
          // the clock read in place: a `now` effect would resume this whole call once more
          const now = this.client.ctx.now();
          const wait = ttlWait(ttl, attempt, now);
          this.emitWait(threadId, ttl, wait);
          waitingUntil = now + wait;
          let r = (yield acquireEffect(entry.latch, wait, true)) as AcquireResult;
          waitingUntil = null;
          this.emitWakeup(threadId, r, entry);
          if (r === 'interrupted') {
            if (interruptibly) throw new InterruptedException('');
            this.emitWait(threadId, ttl, ttl);
            waitingUntil = this.client.ctx.now() + ttl;
            r = (yield acquireEffect(entry.latch, ttl, true)) as AcquireResult;
            waitingUntil = null;
            this.emitWakeup(threadId, r, entry);
            if (r === 'interrupted') throw new IllegalStateException('');
          }
        } else {
          // The key has no expiry, only an unlock message can end the wait: latch.acquire(), or
          // acquireUninterruptibly() for lock(), which keeps the interrupt flag set.
          this.emitWait(threadId, ttl, undefined);
          waitingUntil = Infinity;
          const r = (yield acquireEffect(entry.latch, undefined, interruptibly)) as AcquireResult;
          waitingUntil = null;
          this.emitWakeup(threadId, r, entry);
          if (r === 'interrupted') throw new InterruptedException('');
        }
      }
    } catch (e) {
      if (e instanceof CancellationException && this.cancelled && waitingUntil !== null) {
        handedOver = true;
        const { client } = this;
        client.ctx.spawn(client.name, `${client.name}/lockAsync`, this.waitOnCancelled(threadId, leaseTime, entry, waitingUntil));
      }
      throw e;
    } finally {
      if (!handedOver) this.client.pubSub.unsubscribe(entry, this.actor(threadId));
    }
  }

  /**
   * lockAsync's wait after its result future was cancelled. The loop
   * (RedissonLock.lockAsync(leaseTime, unit, entry, result, threadId), 3.11.6, 3.27.2 and 4.7.0
   * alike) never looks at the future: the waiter keeps its subscription and its wait, takes the
   * lock once it is free, unsubscribes, and, finding the result already done, gives the lock
   * back (`if (!result.complete(null)) unlockAsync(threadId)`). Seen by the oracle
   * (owners-continue-cancel at 4.7.0). Only a cancel during a latch wait is handed over here; one
   * while the acquire script is in flight ends as before (its late success is given back).
   */
  private *waitOnCancelled(threadId: number, leaseTime: number, entry: RedissonLockEntry, until: number): Process<void> {
    let subscribed = true;
    try {
      for (let deadline = until; ; ) {
        const left = deadline === Infinity ? undefined : Math.max(0, deadline - this.client.ctx.now());
        yield* acquire(entry.latch, left, false);
        const attempt = this.client.ctx.now();
        const ttl = yield* this.tryAcquire(leaseTime, threadId);
        if (ttl === null) {
          this.client.pubSub.unsubscribe(entry, this.actor(threadId));
          subscribed = false;
          yield* this.unlockUnjoined(threadId);
          return;
        }
        const now = this.client.ctx.now();
        deadline = ttl >= 0 ? now + ttlWait(ttl, attempt, now) : Infinity;
      }
    } catch (e) {
      // the result future is done: a failure is only logged by Redisson
      if (!(e instanceof JavaException)) throw e;
    } finally {
      if (subscribed) this.client.pubSub.unsubscribe(entry, this.actor(threadId));
    }
  }

  /** tryLock(): a single attempt; true if acquired. */
  *tryLockOnce(threadId: number, leaseTime = NO_LEASE): Process<boolean> {
    const ttl = yield* this.tryAcquire(leaseTime, threadId, NO_LEASE, true);
    return ttl === null;
  }

  /**
   * tryLock(waitTime, leaseTime): wait at most waitTime ms; true if acquired. The clock is read in
   * place and the attempts and waits are yielded to the kernel (the attempt as a sub-process):
   * through `yield NOW` and `yield*` every read and step resumed each generator of the caller's
   * chain (a MultiLock's retry rounds call this every 3 s for a whole run).
   */
  *tryLock(threadId: number, waitTime: number, leaseTime = NO_LEASE): Process<boolean> {
    const { ctx } = this.client;
    let time = waitTime;
    let current = ctx.now();
    let ttl = (yield this.tryAcquire(leaseTime, threadId, waitTime)) as number | null;
    if (ttl === null) return true;
    time -= ctx.now() - current;
    if (time <= 0) return yield* this.failed(waitTime, threadId);

    current = ctx.now();
    const [entryName, channelName] = this.subscriptionNames(threadId);
    const sub = yield* this.client.pubSub.subscribe(entryName, channelName, time, true, this.actor(threadId));
    if (sub === 'interrupted') throw new InterruptedException('');
    if (!isEntry(sub)) return yield* this.failed(waitTime, threadId);
    const entry = sub;
    try {
      time -= ctx.now() - current;
      if (time <= 0) return yield* this.failed(waitTime, threadId);
      for (;;) {
        let currentTime = ctx.now();
        try {
          ttl = (yield this.tryAcquire(leaseTime, threadId, waitTime)) as number | null;
        } catch (e) {
          // 4.7.0 (a5077398e) logs a lost reply inside the loop and gives up.
          if (!(
            e instanceof RedisResponseTimeoutException &&
            this.client.config.traits.tryLockCatchesResponseTimeout
          ))
            throw e;
          return yield* this.failed(waitTime, threadId);
        }
        if (ttl === null) return true;
        time -= ctx.now() - currentTime;
        if (time <= 0) return yield* this.failed(waitTime, threadId);

        const waitMs = ttl >= 0 && ttl < time ? ttlWait(ttl, currentTime, ctx.now()) : time;
        currentTime = ctx.now();
        this.emitWait(threadId, ttl, waitMs);
        const r = (yield acquireEffect(entry.latch, waitMs, true)) as AcquireResult;
        this.emitWakeup(threadId, r, entry);
        if (r === 'interrupted') throw new InterruptedException('');
        time -= ctx.now() - currentTime;
        if (time <= 0) return yield* this.failed(waitTime, threadId);
      }
    } finally {
      this.client.pubSub.unsubscribe(entry, this.actor(threadId));
    }
  }

  /** acquireFailed: a tryLock that gives up tells the lock (a no-op for RLock; FairLock dequeues). */
  protected *acquireFailed(_waitTime: number, _threadId: number): Process<void> {}

  private *failed(waitTime: number, threadId: number): Process<false> {
    yield* this.acquireFailed(waitTime, threadId);
    return false;
  }

  /** [pub/sub entry name, channel] a waiting thread subscribes with (FairLock: per thread). */
  protected subscriptionNames(_threadId: number): [string, string] {
    return [this.entryName, this.getChannelName()];
  }

  /**
   * tryAcquireAsync: run the acquire script; on success either remember the explicit lease or
   * register the lock with the watchdog. Returns null (acquired) or the holder's ttl. `waitTime`
   * is tryLock's (NO_LEASE for lock()); `once` marks the single-attempt tryLock() (EVAL_NULL_BOOLEAN).
   */
  protected tryAcquire(
    leaseTime: number,
    threadId: number,
    waitTime = NO_LEASE,
    once = false,
  ): Process<number | null> {
    // Not a generator: the caller yields what this returns at once, so reading the lease here is
    // reading it at its first step (a generator per attempt less, 7,000 in contention-100).
    const traits = this.client.config.traits;
    const explicit = traits.zeroLeaseMeansWatchdog ? leaseTime > 0 : leaseTime !== NO_LEASE;
    const lease = explicit
      ? leaseTime
      : traits.preset === '3.11'
        ? this.client.config.lockWatchdogTimeout
        : this.internalLockLeaseTime;
    // 3.11's tryLockInnerAsync stored whatever lease it was given.
    if (traits.preset === '3.11') this.internalLockLeaseTime = lease;
    const onAbandoned = this.abandonedAcquire(threadId, explicit);
    return this.tryLockInnerSynced(waitTime, lease, threadId, once, onAbandoned, explicit ? leaseTime : null);
  }

  /**
   * What an acquire's reply does when it comes after its caller stopped waiting. Before 3.16.3
   * CommandAsyncService.get() left the future of an interrupted caller running: when its reply
   * says "acquired", tryAcquireAsync's callback still starts the watchdog for a thread that has
   * given up, and the lock is renewed for ever. One function per thread and kind of lease,
   * reused by its attempts (it reads `cancelled` when it runs).
   */
  private abandonedAcquire(threadId: number, explicit: boolean): (reply: Reply) => void {
    const last = this.lastAbandoned;
    if (last !== null && last.threadId === threadId && last.explicit === explicit) return last.fn;
    const { traits } = this.client.config;
    const fn = (reply: Reply) => {
      if (reply.t === 'error' || !decodesToAcquired(() => this.acquireResult(reply, threadId))) return;
      if (this.cancelled) this.giveBack(threadId, explicit);
      else if (!explicit && traits.abandonedAcquireRenewed) this.scheduleExpirationRenewal(threadId);
    };
    this.lastAbandoned = { threadId, explicit, fn };
    return fn;
  }

  private lastAbandoned: { threadId: number; explicit: boolean; fn: (reply: Reply) => void } | null = null;

  /**
   * The late acquire of a cancelled future: tryAcquireAsync's callback registers the watchdog,
   * then lockAsync's finds the result done and unlocks, which cancels it again.
   */
  private giveBack(threadId: number, explicit: boolean): void {
    if (!explicit) this.scheduleExpirationRenewal(threadId);
    this.client.ctx.spawn(this.client.name, `${this.client.name}/unlock`, this.unlockUnjoined(threadId));
  }

  /** unlockAsync(threadId) whose future nobody joins: a failure is only logged. */
  private *unlockUnjoined(threadId: number): Process<void> {
    try {
      yield* this.unlock(threadId);
    } catch {
      // logged by Redisson, seen by nobody
    }
  }

  /**
   * handleNoSync: where the release recognises a failed replica check (3.20.1–3.24.x and 3.47+),
   * the unlock script undoes the acquire on the master and ServiceManager.execute retries the
   * whole acquire up to retryAttempts times, retryDelay apart; the last failure is thrown. Other
   * releases throw at once and leave the lock on the master, with no watchdog (3.25–3.46 compare
   * the old message text with the new one, so the check never matches).
   *
   * A lost reply is re-sent where Redisson re-sends lock scripts (≤ 3.36, or with replicas): if
   * the first EVAL did run, the second one finds the hold and makes it reentrant (hold count 2).
   */
  private *tryLockInnerSynced(
    waitTime: number,
    lease: number,
    threadId: number,
    once: boolean,
    onAbandoned: (reply: Reply) => void,
    explicitLease: number | null,
  ): Process<number | null> {
    const { client } = this;
    const { traits, retryAttempts } = client.config;
    // the executor's attempts (timeouts and CLUSTERDOWN share them); a replica-check retry is a new executor
    let attempts: Attempts = { n: 0 };
    for (let attempt = 1, noSynced = 0; ; attempt++) {
      const last = attempts.n >= retryAttempts || !client.resendsLockScripts();
      let ttl: number | null;
      try {
        // tryLockInnerAsync: the acquire script itself; null (acquired) or a ttl (not acquired).
        // In this loop rather than a generator of its own: one per attempt, 7,000 in contention-100.
        const call = this.acquireScript(lease, threadId, waitTime, once);
        const reply = (yield client.syncedEval(call[0], call[1], call[2], onAbandoned, attempts)) as Reply;
        ttl =
          !last || !client.batchHangs(reply)
            ? this.acquireResult(reply, threadId)
            : this.acquireResult(yield* client.batchOutcome(reply), threadId);
      } catch (e) {
        if (isNoSynced(e) && traits.noSyncHandling === 'undo-retry') {
          // handleNoSync: unlockInnerAsync(threadId), its latch deleted once it answered
          const requestId = traits.unlockLatch ? client.generateId() : '';
          this.latchDelAfter(yield* this.unlockInner(threadId, { requestId }), requestId);
          if (noSynced++ >= retryAttempts) throw e;
          attempts = { n: 0 };
        } else if (e instanceof RedisResponseTimeoutException && client.resendsLockScripts()) {
          if (attempts.n++ >= retryAttempts) throw e;
          // before 3.15.2 the timeout task re-sends at once (RedisExecutor.scheduleResponseTimeout)
          if (!traits.timeoutResendAfterInterval) continue;
        } else throw e;
        yield* sleep(client.retryDelay(attempt));
        continue;
      }
      // tryAcquireAsync's callback: on success remember the explicit lease, or start the watchdog
      if (ttl === null) {
        if (explicitLease !== null) this.internalLockLeaseTime = explicitLease;
        else this.scheduleExpirationRenewal(threadId);
      }
      return ttl;
    }
  }

  /**
   * The script, KEYS and ARGV of this lock type's tryLockInnerAsync: the one part the subclasses
   * change, as in Redisson, where each overrides tryLockInnerAsync around the same synced eval.
   */
  protected acquireScript(lease: number, threadId: number, _waitTime: number, _once: boolean): ScriptCall {
    // A thread's lock object sends the same script, key and arguments on every attempt: the last
    // call is handed back while they are unchanged (read only: its arrays are copied into argv).
    const script = this.client.scripts.lock;
    const owner = this.getLockName(threadId);
    const last = this.lastAcquireCall;
    if (last !== null && last[0] === script && last[2][0] === lease && last[2][1] === owner) return last;
    const call: ScriptCall = [script, [this.name], [lease, owner]];
    this.lastAcquireCall = call;
    return call;
  }

  private lastAcquireCall: ScriptCall | null = null;

  /** EVAL_LONG: what the acquire script's reply means; the fenced lock's reply also carries a token. */
  protected acquireResult(reply: Reply, _threadId: number): number | null {
    return decodeTtl(reply);
  }

  /**
   * lock()'s subscribe. What bounds it and what it throws when the pub/sub pool is exhausted
   * depends on the release (trait `subscriptionPoolWait`): up to 3.16.7
   * CommandAsyncService.syncSubscription (timeout + retryInterval × retryAttempts, "Subscribe
   * timeout"); 3.16.8-3.23.x no bound of its own (get(future)); from 3.24.0
   * PublishSubscribeService.timeout(future, subscriptionTimeout). The pub/sub layer's own errors
   * (LockPubSub) come through as they are.
   */
  private *subscribe(threadId: number, interruptibly: boolean): Process<RedissonLockEntry> {
    const { config } = this.client;
    const mode = config.traits.subscriptionPoolWait;
    const bound =
      mode === 'subscribe-timeout'
        ? config.timeoutMs + config.retryDelayMs * config.retryAttempts
        : mode === 'subscription-timeout'
          ? config.subscriptionTimeoutMs
          : undefined;
    const [entryName, channelName] = this.subscriptionNames(threadId);
    const sub = yield* this.client.pubSub.subscribe(
      entryName,
      channelName,
      bound,
      interruptibly,
      this.actor(threadId),
    );
    if (sub === 'interrupted') throw new InterruptedException('');
    if (sub === 'timeout') {
      throw new RedisTimeoutException(
        mode === 'subscribe-timeout'
          ? `Subscribe timeout: (${bound}ms). Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.`
          : `Unable to acquire subscription lock after ${bound}ms. Try to increase 'subscriptionTimeout', 'subscriptionsPerConnection', 'subscriptionConnectionPoolSize' parameters.`,
      );
    }
    if (!isEntry(sub))
      throw sub.timeout ? new RedisTimeoutException(sub.error) : new RedisException(sub.error);
    return sub;
  }

  protected override cancelExpirationRenewal(threadId: number | null, unlockResult: UnlockResult): void {
    super.cancelExpirationRenewal(threadId, unlockResult);
    const { traits, lockWatchdogTimeout } = this.client.config;
    if (!traits.resetLeaseOnUnlock) return;
    if (!traits.reentrantUnlockKeepsLease || unlockResult === null || unlockResult === true) {
      this.internalLockLeaseTime = lockWatchdogTimeout;
    }
  }

  /** `waitMs`: how long the latch wait may last (null: until a message comes). */
  private emitWait(threadId: number, ttl: number, waitMs: number | undefined): void {
    this.client.ctx.record({
      t: 0,
      seq: 0,
      kind: 'lock.wait',
      actor: this.actor(threadId),
      lock: this.name,
      ttl,
      waitMs: waitMs ?? null,
    });
  }

  /** `causeSeq`: the pubsub.deliver whose unlock message put the permit this waiter took. */
  private emitWakeup(threadId: number, r: string, entry: RedissonLockEntry): void {
    const cause = r === 'acquired' ? 'message' : r;
    const causeSeq = r === 'acquired' ? entry.permitCauses.shift() : undefined;
    const actor = this.actor(threadId);
    // one literal each way: a field added after the literal moved the event's fields out of the
    // object into a store of their own (allocated, and kept by the trace)
    const ev: AssembledEvent<'waiter.wakeup'> =
      causeSeq === undefined
        ? { t: 0, seq: 0, kind: 'waiter.wakeup', actor, lock: this.name, cause }
        : { t: 0, seq: 0, kind: 'waiter.wakeup', actor, lock: this.name, cause, causeSeq };
    this.client.ctx.record(ev);
  }
}

/**
 * How long a waiter waits on the latch for a holder's ttl. Redis counts in milliseconds and
 * expires a key once the time is past its own, so a ttl of 0 is the key's last millisecond. A
 * reply that comes back at the very instant the script ran (latencyMs 0) finds that millisecond
 * still ahead: the real client spends it re-trying, a few round trips of 0.1 ms; the model waits
 * it out, where re-trying would never let its clock move.
 */
function ttlWait(ttl: number, attemptStart: number, now: number): number {
  return ttl === 0 && now === attemptStart ? 1 : ttl;
}

/** An answer that is not a ttl fails the Java callback as well: nothing is registered. */
function decodesToAcquired(decode: () => number | null): boolean {
  try {
    return decode() === null;
  } catch {
    return false;
  }
}

function isEntry(x: unknown): x is RedissonLockEntry {
  return typeof x === 'object' && x !== null && 'latch' in x;
}

/** EVAL_LONG: nil is "acquired", an integer the holder's ttl. */
export function decodeTtl(r: Reply): number | null {
  if (r.t === 'error') throw exceptionFor(r);
  if (r.t === 'int') return Number(r.v);
  if ((r.t === 'bulk' || r.t === 'array') && r.v === null) return null;
  throw new RedisException(`unexpected reply to the acquire script: ${JSON.stringify(r)}`);
}
