/**
 * The watchdog before Redisson 3.44 (RedissonBaseLock.EXPIRATION_RENEWAL_MAP): one timer per lock
 * per client, firing internalLockLeaseTime/3 after it was set. It renews with the first
 * registered thread's lock name and reschedules itself only while the answer is 1. An answer of
 * 0 or an error stops it. Whether the stopped entry leaves the map depends on the release
 * (versions.ts `renewalStopRemovesEntry`: never before 3.14.0, on an error from 3.14.0, on a 0
 * answer too from 3.16.1); an entry that stays only goes away with an unlock, and until then a
 * lock() of the same name by this client starts no timer.
 */
import { sleep, type Process } from '../../sim/effects';
import type { CommandExecutor, ServiceManager } from '../executor';
import { LockEntry } from './LockEntry';
import type { RenewalService } from './RenewalService';
import { emitWatchdog, watchdogActor, type CancelReason } from './watchdog';

/** One lock's renewal: the registering lock's key and lease, and the threads that hold it. */
interface Renewal {
  readonly name: string;
  readonly leaseMs: () => number;
  readonly entry: LockEntry;
}

export class ExpirationRenewal implements RenewalService {
  /**
   * lock key -> ExpirationEntry. Redisson keys it `<clientId>:<lock>` in a JVM-wide map; this map
   * belongs to one client, so the key alone is the same thing.
   */
  private readonly map = new Map<string, Renewal>();
  /** entries whose timer stopped but which stay in the map (3.11) */
  private readonly stopped = new WeakSet<Renewal>();

  constructor(private readonly client: CommandExecutor & ServiceManager) {}

  renewLock(name: string, threadId: number, lockName: string, leaseMs?: () => number): void {
    const old = this.map.get(name);
    if (old) {
      old.entry.addThreadId(threadId, lockName);
      return;
    }
    const { lockWatchdogTimeout } = this.client.config;
    const r: Renewal = { name, leaseMs: leaseMs ?? (() => lockWatchdogTimeout), entry: new LockEntry() };
    r.entry.addThreadId(threadId, lockName);
    this.map.set(name, r);
    this.client.ctx.spawn(this.client.name, watchdogActor(this.client), this.timerChain(r));
  }

  cancelLockRenewal(name: string, threadId: number | null, reason: CancelReason): void {
    const r = this.map.get(name);
    if (!r) return;
    const { entry } = r;
    const whose = threadId ?? entry.getFirstThreadId();
    if (threadId !== null) entry.removeThreadId(threadId);
    if (threadId !== null && !entry.hasNoThreads()) return;
    this.map.delete(name);
    if (!this.stopped.has(r)) emitWatchdog(this.client, 'watchdog.cancel', name, whose, { reason });
  }

  /** The timer stopped renewing: drop the entry, or keep it without a timer (see the class comment). */
  private stop(r: Renewal, threadId: number, reason: 'error' | 'lost'): void {
    const removes = this.client.config.traits.renewalStopRemovesEntry;
    if (removes === 'always' || (removes === 'on-error' && reason === 'error')) this.map.delete(r.name);
    else this.stopped.add(r);
    emitWatchdog(this.client, 'watchdog.cancel', r.name, threadId, { reason });
  }

  /**
   * The timer chain of one entry (renewExpiration). Cancelling removes the entry from the map; a
   * timer that fires afterwards finds its entry gone and does nothing, as a cancelled Netty
   * timeout would.
   */
  private *timerChain(r: Renewal): Process<void> {
    const { client } = this;
    const { name, entry } = r;
    for (;;) {
      // Java divides longs
      yield* sleep(Math.trunc(r.leaseMs() / 3));
      if (this.map.get(name) !== r) return;
      const threadId = entry.getFirstThreadId();
      if (threadId === null) return;
      const lockName = entry.getLockName(threadId) ?? '';
      // syncedEval, not ServiceManager.execute: a failed replica check is not retried
      const reply = yield* client.retrying(
        (attempts) => client.syncedEval(client.scripts.renew, [name], [r.leaseMs(), lockName], undefined, attempts),
        'resend',
      );
      if (reply.t === 'error') {
        emitWatchdog(client, 'watchdog.renew', name, threadId, { result: 'error', error: reply.v });
        if (this.map.get(name) === r) this.stop(r, threadId, 'error');
        return;
      }
      const result = reply.t === 'int' ? Number(reply.v) : 0;
      emitWatchdog(client, 'watchdog.renew', name, threadId, { result, lockName });
      if (this.map.get(name) !== r) return;
      if (result !== 1) {
        this.stop(r, threadId, 'lost');
        return;
      }
    }
  }
}
