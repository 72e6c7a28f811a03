/**
 * Default values and size limits of the scenario format (docs/scenario-format.md). Kept apart
 * from the schema so the editor, the URL codec and the runner can quote the same numbers.
 */

export { DEFAULT_RUN_CAP_MS, MAX_EVENTS } from './run_limits';

export const LIMITS = {
  clients: 100,
  threadsPerClient: 100,
  threadsTotal: 1_000,
  /** largest explicit lock owner id (lockAsync(threadId)) */
  ownerId: 999_999_999,
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
  replicasPerMaster: 3,
  sentinels: 7,
  /** subscriptionConnectionPoolSize and subscriptionsPerConnection */
  pubSubPool: 10_000,
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

/**
 * topology "cluster": three masters as seed 002's demo (and `redis-cli --cluster create` with
 * three nodes), no replicas unless asked for, Redis's cluster-node-timeout.
 */
export const CLUSTER_DEFAULTS = { masters: 3, replicasPerMaster: 0, nodeTimeoutMs: 15_000 } as const;

export const REPLICA_DEFAULTS = { lagMs: 1 } as const;

export const NETWORK_DEFAULTS = { latencyMs: 1 } as const;

/** The Redisson settings' defaults belong to the Redisson model; the format only quotes them. */
export { REDISSON_LATEST, compareVersions } from '../redisson/versions';
export { redissonDefaults } from '../redisson/config';
