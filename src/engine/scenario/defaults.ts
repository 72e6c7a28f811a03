/**
 * Default values and size limits of the scenario format (docs/scenario-format.md). Kept apart
 * from the schema so the editor, the URL codec and the runner can quote the same numbers.
 */
import type { Scenario } from './schema';

/** Virtual ms a scenario without `until` may run before the runner stops it. */
export const DEFAULT_RUN_CAP_MS = 600_000;
/** Events a run may record before it is stopped (a runaway program, not a realistic scenario). */
export const MAX_EVENTS = 2_000_000;

export const LIMITS = {
  clients: 100,
  threadsPerClient: 100,
  threadsTotal: 256,
  /** program steps of one thread once every `repeat` is expanded */
  stepsPerThread: 10_000,
  stepsTotal: 100_000,
  faults: 200,
  /** virtual ms: `until`, `at`, `ms`, leases and waits */
  ms: 3_600_000,
  repeatTimes: 10_000,
  nameLength: 200,
  argvItems: 64,
  argLength: 4096,
  scriptLength: 65_536,
  replicas: 5,
  masters: 7,
  sentinels: 7,
  latencyMs: 10_000,
  scriptBudget: 100_000_000,
  /** JSON nesting depth (nested `repeat` and `try` bodies count two levels each) */
  nesting: 64,
  /** JSON values in the whole scenario */
  values: 500_000,
} as const;

export const REDIS_DEFAULTS = {
  topology: 'single',
  masters: 1,
  persistence: 'none',
  minReplicasToWrite: 0,
  scriptBudget: 5_000_000,
} as const;

export const SENTINEL_DEFAULTS = { count: 3, quorum: 2, downAfterMs: 5000, failoverMs: 1000 } as const;

export const REPLICA_DEFAULTS = { lagMs: 1 } as const;

export const NETWORK_DEFAULTS = { latencyMs: 1 } as const;

export const REDISSON_LATEST = 'latest';

/**
 * Redisson settings whose default changed across versions (reference/redisson-locks.md §2, §6):
 * `retryAttempts` was 3 before 3.48.0, and the constant `retryInterval` of 1500 ms was replaced by
 * EqualJitterDelay(1000, 2000) in the same release.
 */
export function redissonDefaults(version: string): Omit<Scenario['redisson'], 'version'> {
  const before348 = compareVersions(version, '3.48') < 0;
  return {
    lockWatchdogTimeout: 30_000,
    checkLockSyncedSlaves: true,
    slavesSyncTimeout: 1000,
    retryAttempts: before348 ? 3 : 4,
    retryDelayMs: before348 ? 1500 : 1000,
    timeoutMs: 3000,
    subscriptionTimeoutMs: 7500,
  };
}

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
