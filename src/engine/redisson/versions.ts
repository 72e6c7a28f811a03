/**
 * Every difference between Redisson releases that the model shows, in one table. A scenario's
 * `redisson.version` ("3.11", "3.27.2", "latest", ...) is resolved to a preset; each row below says
 * which releases behave which way (reference/redisson-locks.md §2).
 *
 * Presets are points in history, not guesses: "3.11" is the classic design the Chinese blog posts
 * walk through (HSET first acquire, one Netty timer per lock), "3.27" the pre-3.44 design with the
 * unlock latch, "latest" the batched LockTask watchdog of 3.44+. Other versions map to the nearest
 * preset that behaves the same on a timeline.
 */
/** The scenario's name for the newest release the model knows. */
export const REDISSON_LATEST = 'latest';

/** Orders "3.11" < "3.27.2" < "latest"; a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === REDISSON_LATEST) return 1;
  if (b === REDISSON_LATEST) return -1;
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export type VersionPreset = '3.11' | '3.27' | 'latest';

export interface VersionTraits {
  readonly preset: VersionPreset;
  /** The first acquire writes HSET (≤ 3.12.2) instead of HINCRBY (3.12.3+, for RedisLabs). */
  readonly hsetFirstAcquire: boolean;
  /** Unlock remembers its outcome in `redisson_unlock_latch:{name}:<requestId>` (3.24.0+). */
  readonly unlockLatch: boolean;
  /**
   * 'per-lock-timer': one timer per lock, rescheduled while renew returns 1; an error stops it
   * for good (≤ 3.43). 'batched-task': one LockTask per client renews every lock in one EVAL
   * and keeps going after errors (3.44.0+).
   */
  readonly renewal: 'per-lock-timer' | 'batched-task';
  /**
   * An unlock that finds no hold (IllegalMonitorStateException) still cancels this thread's
   * renewal. 3.11 cancelled only after a successful or failed-with-error unlock, so a lost lock
   * kept its renewal registration.
   */
  readonly cancelRenewalOnFailedUnlock: boolean;
  /**
   * When renewal answers 0 or fails, the renewal entry is removed (later releases). In 3.11 the
   * timer just stops and the entry stays until an unlock or forceUnlock removes it, so another
   * watchdog lock of the same client on that lock gets no timer until then.
   */
  readonly renewalStopRemovesEntry: boolean;
  /** leaseTime 0 means "use the watchdog" (3.17.1+); before, only -1 did and 0 expired at once. */
  readonly zeroLeaseMeansWatchdog: boolean;
  /** After unlock the next lock() goes back to the watchdog lease (3.19.2+, issue #4818). */
  readonly resetLeaseOnUnlock: boolean;
  /** ... but a reentrant unlock (result false) keeps an explicit lease (3.27.2+, issue #5623). */
  readonly reentrantUnlockKeepsLease: boolean;
  /** EVALSHA with NOSCRIPT fallback (Config.useScriptCache = true) instead of plain EVAL. */
  readonly useScriptCache: boolean;
  /**
   * Lock, unlock, renew and forceUnlock are followed by `WAIT <replicas> slavesSyncTimeout` when
   * the master has replicas; with checkLockSyncedSlaves, 0 acks fail the call and an acquire is
   * undone and retried (3.12.5 added WAIT; the 0-ack check, undo and renew-through-WAIT are
   * 3.17–3.25, so "3.27" and "latest" have it all; reference/redisson-locks.md §1.7).
   */
  readonly syncedEval: boolean;
  /**
   * Retry delays are EqualJitterDelay(retryDelay, 2 s) (3.48.0+) instead of the constant
   * retryInterval. Read from the exact version, not the preset: it only shapes the unlock latch TTL.
   */
  readonly equalJitterRetryDelay: boolean;
}

const PRESETS: Record<VersionPreset, Omit<VersionTraits, 'equalJitterRetryDelay'>> = {
  '3.11': {
    preset: '3.11',
    hsetFirstAcquire: true,
    unlockLatch: false,
    renewal: 'per-lock-timer',
    cancelRenewalOnFailedUnlock: false,
    renewalStopRemovesEntry: false,
    zeroLeaseMeansWatchdog: false,
    resetLeaseOnUnlock: false,
    reentrantUnlockKeepsLease: false,
    useScriptCache: false,
    syncedEval: false,
  },
  '3.27': {
    preset: '3.27',
    hsetFirstAcquire: false,
    unlockLatch: true,
    renewal: 'per-lock-timer',
    cancelRenewalOnFailedUnlock: true,
    renewalStopRemovesEntry: true,
    zeroLeaseMeansWatchdog: true,
    resetLeaseOnUnlock: true,
    reentrantUnlockKeepsLease: true,
    useScriptCache: false,
    syncedEval: true,
  },
  latest: {
    preset: 'latest',
    hsetFirstAcquire: false,
    unlockLatch: true,
    renewal: 'batched-task',
    cancelRenewalOnFailedUnlock: true,
    renewalStopRemovesEntry: true,
    zeroLeaseMeansWatchdog: true,
    resetLeaseOnUnlock: true,
    reentrantUnlockKeepsLease: true,
    useScriptCache: true,
    syncedEval: true,
  },
};

/**
 * "3.27" and every release from 3.12.3 to 3.43 share the HINCRBY acquire and the per-lock timer;
 * releases before 3.24 also lack the unlock latch, which only changes what a *retried* unlock
 * sees, so they are shown as "3.27" too. Anything older than 3.12.3 is shown as "3.11".
 */
export function presetFor(version: string | undefined): VersionPreset {
  const v = version ?? REDISSON_LATEST;
  if (v === REDISSON_LATEST || !/^\d+(\.\d+)*$/.test(v)) return 'latest';
  if (compareVersions(v, '3.12.3') < 0) return '3.11';
  if (compareVersions(v, '3.44') < 0) return '3.27';
  return 'latest';
}

export function versionTraits(version: string | undefined): VersionTraits {
  const v = version ?? REDISSON_LATEST;
  return { ...PRESETS[presetFor(v)], equalJitterRetryDelay: compareVersions(v, '3.48') >= 0 };
}
