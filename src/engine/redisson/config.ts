/**
 * The Redisson Config a simulated client runs with: the scenario's `redisson` block over the
 * defaults of its version (scenario/defaults.ts), plus the version's traits (versions.ts).
 */
import { redissonDefaults, REDISSON_LATEST } from '../scenario/defaults';
import { versionTraits, type VersionTraits } from './versions';

export interface RedissonSettings {
  version?: string;
  lockWatchdogTimeout?: number;
  checkLockSyncedSlaves?: boolean;
  slavesSyncTimeout?: number;
  retryAttempts?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  subscriptionTimeoutMs?: number;
}

export interface RedissonConfig {
  readonly version: string;
  readonly traits: VersionTraits;
  readonly lockWatchdogTimeout: number;
  readonly checkLockSyncedSlaves: boolean;
  readonly slavesSyncTimeout: number;
  readonly retryAttempts: number;
  readonly retryDelayMs: number;
  /** response timeout (BaseConfig.timeout) */
  readonly timeoutMs: number;
  readonly subscriptionTimeoutMs: number;
}

export function redissonConfig(settings: RedissonSettings = {}): RedissonConfig {
  const version = settings.version ?? REDISSON_LATEST;
  const d = redissonDefaults(version);
  return {
    version,
    traits: versionTraits(version),
    lockWatchdogTimeout: settings.lockWatchdogTimeout ?? d.lockWatchdogTimeout,
    checkLockSyncedSlaves: settings.checkLockSyncedSlaves ?? d.checkLockSyncedSlaves,
    slavesSyncTimeout: settings.slavesSyncTimeout ?? d.slavesSyncTimeout,
    retryAttempts: settings.retryAttempts ?? d.retryAttempts,
    retryDelayMs: settings.retryDelayMs ?? d.retryDelayMs,
    timeoutMs: settings.timeoutMs ?? d.timeoutMs,
    subscriptionTimeoutMs: settings.subscriptionTimeoutMs ?? d.subscriptionTimeoutMs,
  };
}
