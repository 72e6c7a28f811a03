/**
 * The Redisson Config a simulated client runs with: the scenario's `redisson` block over the
 * defaults of its release, plus the release's traits (versions.ts). The scenario schema fills in
 * its defaults with the same function (`withRedissonDefaults`), so there is one place for them.
 */
import {
  compareVersions,
  REDISSON_LATEST,
  resolveRelease,
  versionTraits,
  type VersionTraits,
} from './versions';

/**
 * Lua texts a scenario puts in place of RLock's acquire, unlock and renew scripts (the learner's
 * edits). Each runs with the KEYS and ARGV of the script it replaces in the chosen release.
 */
export interface RedissonScriptTexts {
  lock?: string;
  unlock?: string;
  renew?: string;
}

/** The `redisson` block of a scenario, every field filled in. */
export interface RedissonSettingsResolved {
  /** "latest" or "major.minor[.patch]" (versions.ts resolves it to a release) */
  version: string;
  lockWatchdogTimeout: number;
  checkLockSyncedSlaves: boolean;
  slavesSyncTimeout: number;
  retryAttempts: number;
  retryDelayMs: number;
  /** response timeout: a command without a reply fails after this long */
  timeoutMs: number;
  subscriptionTimeoutMs: number;
  /** pub/sub connections per master (Redisson's subscriptionConnectionPoolSize) */
  subscriptionConnectionPoolSize: number;
  /** channels one pub/sub connection carries (subscriptionsPerConnection) */
  subscriptionsPerConnection: number;
  /** absent: the release's own scripts */
  scripts?: RedissonScriptTexts;
}

export type RedissonSettings = Partial<RedissonSettingsResolved>;

export interface RedissonConfig extends Readonly<RedissonSettingsResolved> {
  readonly traits: VersionTraits;
}

/**
 * Redisson settings whose default changed across versions:
 * `retryAttempts` was 3 before 3.48.0, and the constant `retryInterval` of 1500 ms was replaced by
 * EqualJitterDelay(1000, 2000) in the same release.
 */
export function redissonDefaults(version: string): Omit<RedissonSettingsResolved, 'version'> {
  const before348 = compareVersions(resolveRelease(version), '3.48') < 0;
  return {
    lockWatchdogTimeout: 30_000,
    checkLockSyncedSlaves: true,
    slavesSyncTimeout: 1000,
    retryAttempts: before348 ? 3 : 4,
    retryDelayMs: before348 ? 1500 : 1000,
    timeoutMs: 3000,
    subscriptionTimeoutMs: 7500,
    subscriptionConnectionPoolSize: 50,
    subscriptionsPerConnection: 5,
  };
}

/** Every field the settings leave out, from the defaults of their release. */
export function withRedissonDefaults(settings: RedissonSettings = {}): RedissonSettingsResolved {
  const version = settings.version ?? REDISSON_LATEST;
  const d = redissonDefaults(version);
  return {
    version,
    lockWatchdogTimeout: settings.lockWatchdogTimeout ?? d.lockWatchdogTimeout,
    checkLockSyncedSlaves: settings.checkLockSyncedSlaves ?? d.checkLockSyncedSlaves,
    slavesSyncTimeout: settings.slavesSyncTimeout ?? d.slavesSyncTimeout,
    retryAttempts: settings.retryAttempts ?? d.retryAttempts,
    retryDelayMs: settings.retryDelayMs ?? d.retryDelayMs,
    timeoutMs: settings.timeoutMs ?? d.timeoutMs,
    subscriptionTimeoutMs: settings.subscriptionTimeoutMs ?? d.subscriptionTimeoutMs,
    subscriptionConnectionPoolSize: settings.subscriptionConnectionPoolSize ?? d.subscriptionConnectionPoolSize,
    subscriptionsPerConnection: settings.subscriptionsPerConnection ?? d.subscriptionsPerConnection,
    // only when given, so a scenario without edits resolves to the same object as before
    ...(settings.scripts === undefined ? {} : { scripts: settings.scripts }),
  };
}

export function redissonConfig(settings: RedissonSettings = {}): RedissonConfig {
  const r = withRedissonDefaults(settings);
  // Every field written out, `scripts` too when absent: one object shape for every scenario and
  // release (a spread of the settings gave each run's config a map of its own, and the model's
  // `config.x` reads saw dozens in a session)
  return {
    version: r.version,
    lockWatchdogTimeout: r.lockWatchdogTimeout,
    checkLockSyncedSlaves: r.checkLockSyncedSlaves,
    slavesSyncTimeout: r.slavesSyncTimeout,
    retryAttempts: r.retryAttempts,
    retryDelayMs: r.retryDelayMs,
    timeoutMs: r.timeoutMs,
    subscriptionTimeoutMs: r.subscriptionTimeoutMs,
    subscriptionConnectionPoolSize: r.subscriptionConnectionPoolSize,
    subscriptionsPerConnection: r.subscriptionsPerConnection,
    scripts: r.scripts,
    traits: versionTraits(r.version),
  };
}
