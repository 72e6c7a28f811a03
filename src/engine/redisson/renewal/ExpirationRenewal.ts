/**
 * The watchdog before Redisson 3.44 (RedissonBaseLock.EXPIRATION_RENEWAL_MAP): one timer per lock
 * per client, firing internalLockLeaseTime/3 after it was set. It renews with the first
 * registered thread's lock name and reschedules itself only while the answer is 1. An answer of
 * 0 or an error stops it: later releases also drop the entry, 3.11 leaves the entry in the map
 * (see versions.ts `renewalStopRemovesEntry`), so it only goes away with an unlock.
 */
import { sleep, type Process } from '../../sim/effects';
import type { RedissonClient } from '../RedissonClient';
import type { RedissonBaseLock } from '../RedissonBaseLock';
import { LockEntry } from './LockEntry';
import { emitWatchdog, watchdogActor, type CancelReason, type RenewalService } from './RenewalService';

export class ExpirationRenewal implements RenewalService {
  /** entryName (`<clientId>:<lock>`) -> ExpirationEntry */
  private readonly map = new Map<string, LockEntry>();
  /** entries whose timer stopped but which stay in the map (3.11) */
  private readonly stopped = new WeakSet<LockEntry>();

  constructor(private readonly client: RedissonClient) {}

  renewLock(lock: RedissonBaseLock, threadId: number): void {
    const old = this.map.get(lock.entryName);
    if (old) {
      old.addThreadId(threadId, lock.getLockName(threadId));
      return;
    }
    const entry = new LockEntry();
    entry.addThreadId(threadId, lock.getLockName(threadId));
    this.map.set(lock.entryName, entry);
    this.renewExpiration(lock, entry);
  }

  cancelLockRenewal(lock: RedissonBaseLock, threadId: number | null, reason: CancelReason): void {
    const entry = this.map.get(lock.entryName);
    if (!entry) return;
    const whose = threadId ?? entry.getFirstThreadId();
    if (threadId !== null) entry.removeThreadId(threadId);
    if (threadId !== null && !entry.hasNoThreads()) return;
    this.map.delete(lock.entryName);
    if (!this.stopped.has(entry)) emitWatchdog(this.client, 'watchdog.cancel', lock.name, whose, { reason });
  }

  /** The timer stopped renewing: drop the entry, or (3.11) keep it without a timer. */
  private stop(lock: RedissonBaseLock, entry: LockEntry, threadId: number, reason: CancelReason): void {
    if (this.client.config.traits.renewalStopRemovesEntry) this.map.delete(lock.entryName);
    else this.stopped.add(entry);
    emitWatchdog(this.client, 'watchdog.cancel', lock.name, threadId, { reason });
  }

  /**
   * The timer chain of one entry. Cancelling removes the entry from the map; a timer that fires
   * afterwards finds its entry gone and does nothing, as a cancelled Netty timeout would.
   */
  private renewExpiration(lock: RedissonBaseLock, entry: LockEntry): void {
    this.client.ctx.spawn(this.client.name, watchdogActor(this.client), this.timerChain(lock, entry));
  }

  private *timerChain(lock: RedissonBaseLock, entry: LockEntry): Process<void> {
    const { client } = this;
    for (;;) {
      yield* sleep(lock.internalLockLeaseTime / 3);
      if (this.map.get(lock.entryName) !== entry) return;
      const threadId = entry.getFirstThreadId();
      if (threadId === null) return;
      const lockName = lock.getLockName(threadId);
      const reply = yield* client.syncedEvalWithRetry(
        client.scripts.renew,
        [lock.name],
        [lock.internalLockLeaseTime, lockName],
      );
      if (reply.t === 'error') {
        emitWatchdog(client, 'watchdog.renew', lock.name, threadId, { result: 'error', error: reply.v });
        if (this.map.get(lock.entryName) === entry) this.stop(lock, entry, threadId, 'error');
        return;
      }
      const result = reply.t === 'int' ? Number(reply.v) : 0;
      emitWatchdog(client, 'watchdog.renew', lock.name, threadId, { result, lockName });
      if (this.map.get(lock.entryName) !== entry) return;
      if (result !== 1) {
        this.stop(lock, entry, threadId, 'lost');
        return;
      }
    }
  }
}
