/**
 * The watchdog as the lock sees it: register a thread's lock for renewal, and cancel it. Which
 * design runs behind it depends on the version (versions.ts `renewal`).
 */
import type { RedissonClient } from '../RedissonClient';
import type { RedissonBaseLock } from '../RedissonBaseLock';
import { LockRenewalScheduler } from './LockRenewalScheduler';
import { ExpirationRenewal } from './ExpirationRenewal';

export type CancelReason = 'unlock' | 'forceUnlock' | 'lost' | 'error';

export interface RenewalService {
  /** scheduleExpirationRenewal(threadId) */
  renewLock(lock: RedissonBaseLock, threadId: number): void;
  /** cancelExpirationRenewal(threadId); null cancels every thread of this client on the lock */
  cancelLockRenewal(lock: RedissonBaseLock, threadId: number | null, reason: CancelReason): void;
}

export function newRenewalService(client: RedissonClient): RenewalService {
  return client.config.traits.renewal === 'batched-task'
    ? new LockRenewalScheduler(client)
    : new ExpirationRenewal(client);
}

/** Trace actor of a client's watchdog timers. */
export function watchdogActor(client: RedissonClient): string {
  return `${client.name}/watchdog`;
}
