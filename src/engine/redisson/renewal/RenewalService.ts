/**
 * The watchdog as the lock sees it: register a thread's lock for renewal, and cancel it. Which
 * design runs behind it depends on the version (versions.ts `renewal`).
 */
import type { RedissonClient } from '../RedissonClient';
import type { RedissonBaseLock } from '../RedissonBaseLock';
import { LockRenewalScheduler } from './LockRenewalScheduler';
import { ExpirationRenewal } from './ExpirationRenewal';
import type { EventFields } from '../../trace/types';
import { threadActor, watchdogActor as watchdogOf } from '../../trace/actors';

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

/** Trace actor (process name) of a client's watchdog timers. */
export function watchdogActor(client: RedissonClient): string {
  return watchdogOf(client.name);
}

/**
 * watchdog.renew / watchdog.cancel are told on the lane of the thread whose lock they concern
 * (`actor`), with the timer that did it as `timer`; the renewal's own command carries the timer.
 */
export function emitWatchdog<K extends 'watchdog.renew' | 'watchdog.cancel'>(
  client: RedissonClient,
  kind: K,
  lock: string,
  threadId: number | null,
  fields: Omit<EventFields<K>, 'actor' | 'lock' | 'timer'>,
): void {
  const actor = threadId === null ? watchdogActor(client) : threadActor(client.name, threadId);
  client.ctx.emit(kind, { actor, lock, timer: watchdogActor(client), ...fields } as EventFields<K>);
}
