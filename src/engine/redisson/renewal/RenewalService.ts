/**
 * The watchdog as the lock sees it: register a thread's hold on a lock name for renewal, and
 * cancel it. Which design runs behind it depends on the release (versions.ts `renewal`).
 */
import type { CommandExecutor, ServiceManager } from '../executor';
import { LockRenewalScheduler } from './LockRenewalScheduler';
import { ExpirationRenewal } from './ExpirationRenewal';
import type { CancelReason } from './watchdog';

export type { CancelReason } from './watchdog';
export { emitWatchdog, watchdogActor } from './watchdog';

export interface RenewalService {
  /**
   * scheduleExpirationRenewal(threadId): `name` is the lock key, `lockName` the hash field of the
   * owner. `leaseMs` is read by the ≤ 3.43 per-lock timer each round (the registering lock's
   * internalLockLeaseTime); the batched task renews with lockWatchdogTimeout.
   */
  renewLock(name: string, threadId: number, lockName: string, leaseMs?: () => number): void;
  /** cancelExpirationRenewal(threadId); null cancels every thread of this client on the lock */
  cancelLockRenewal(name: string, threadId: number | null, reason: CancelReason): void;
}

export function newRenewalService(client: CommandExecutor & ServiceManager): RenewalService {
  return client.config.traits.renewal === 'batched-task'
    ? new LockRenewalScheduler(client)
    : new ExpirationRenewal(client);
}
