/**
 * Every difference between Redisson releases that the model shows, in one table (RELEASE_TRAITS).
 * A scenario's `redisson.version` is a real release number ("3.11.6", "3.27.2", "4.7.0", ...);
 * the short forms "3.11", "3.27" and "latest" stay accepted and mean 3.11.6, 3.27.2 and 4.7.0.
 * Each row of the table says from which release a behaviour holds (dated from Redisson's source
 * history), so any release
 * behaves like itself rather than like the nearest of a few presets.
 */
// The release names (and what "latest" and the short forms mean) live apart, small enough for
// the page's first screen; the table below stays with the engine.
import { compareVersions, NEWEST_RELEASE, resolveRelease } from './release_names';
export { REDISSON_LATEST, compareVersions, NEWEST_RELEASE, resolveRelease } from './release_names';

/** Is `release` in [from, to)? Either bound may be absent. */
function within(release: string, from?: string, to?: string): boolean {
  return (
    (from === undefined || compareVersions(release, from) >= 0) &&
    (to === undefined || compareVersions(release, to) < 0)
  );
}

/**
 * One behaviour across releases: the ranges in order, each with the value the model uses.
 * `from` is the first release with that value (inclusive). What the playground shows for the row
 * and each range, in English and Chinese, is in versions_text.ts, range for range.
 */
interface TraitRow<T> {
  readonly id: string;
  readonly ranges: readonly { from?: string; value: T }[];
}

function row<T>(r: TraitRow<T>): TraitRow<T> {
  return r;
}

/** The table. Everything version-dependent in redisson/ reads one of these rows. */
export const RELEASE_TRAITS = {
  hsetFirstAcquire: row({
    id: 'first-acquire',
    ranges: [{ value: true }, { from: '3.12.3', value: false }],
  }),
  cancelRenewalOnFailedUnlock: row({
    id: 'cancel-on-failed-unlock',
    ranges: [
      { value: false },
      // RedissonLock.unlockAsync(threadId): cancelExpirationRenewal moved before the result checks
      { from: '3.12.1', value: true },
    ],
  }),
  renewalStopRemovesEntry: row({
    id: 'renewal-stop-removes-entry',
    ranges: [
      {
        value: 'never' as const,
      },
      // RedissonLock.renewExpiration: EXPIRATION_RENEWAL_MAP.remove on an error (PR #3195)
      { from: '3.14.0', value: 'on-error' as const },
      // RedissonBaseLock.renewExpiration: a 0 answer calls cancelExpirationRenewal(null)
      { from: '3.16.1', value: 'always' as const },
    ],
  }),
  batchFailureHangs: row({
    id: 'batch-failure-hangs',
    ranges: [
      { value: false },
      // RedissonLock.evalWriteAsync sends every lock script as a CommandBatchService batch, whose
      // failure did not fail the commands' own futures (#2790)
      {
        from: '3.12.5',
        value: true,
      },
      // CommandBatchService.executeAsync fails every command of a failed batch (1abb29e27)
      { from: '3.13.0', value: false },
    ],
  }),
  abandonedAcquireRenewed: row({
    id: 'abandoned-acquire-renewed',
    ranges: [
      {
        value: true,
      },
      // CommandAsyncService.get cancels the future on interrupt (6153d0557), so tryAcquireAsync's
      // callback that registers the watchdog never runs
      {
        from: '3.16.3',
        value: false,
      },
      // 65320f76f (#4822): tryAcquire goes through execute(), whose own result future is what get()
      // cancels; the inner tryAcquireAsync callback still starts the watchdog (seen by the oracle
      // at 3.27.2 and 4.7.0: abandoned-acquire-stall)
      {
        from: '3.20.1',
        value: true,
      },
    ],
  }),
  syncedEval: row({
    id: 'wait-after-scripts',
    ranges: [{ value: false }, { from: '3.12.5', value: true }],
  }),
  clusterDownRetry: row({
    id: 'cluster-down-retry',
    ranges: [
      { value: false },
      // 52f786ed5 (#2831): CommandDecoder → RedisClusterDownException, re-sent by RedisExecutor
      {
        from: '3.13.2',
        value: true,
      },
    ],
  }),
  timeoutResendAfterInterval: row({
    id: 'timeout-resend-delay',
    ranges: [
      // RedisExecutor.scheduleResponseTimeout: execute() at once from the timeout task
      { value: false },
      // ca9bd8e7a (#3494): the re-send waits retryInterval
      { from: '3.15.2', value: true },
    ],
  }),
  fairLockWaitMs: row({
    id: 'fair-wait',
    ranges: [{ value: 5000 }, { from: '3.13.3', value: 300_000 }],
  }),
  spinLock: row({
    id: 'spin-lock',
    ranges: [{ value: false }, { from: '3.15.0', value: true }],
  }),
  replicaCheck: row({
    id: 'replica-check',
    ranges: [
      { value: 'none' as const },
      { from: '3.16.7', value: 'all' as const },
      { from: '3.17.5', value: 'zero' as const },
    ],
  }),
  zeroLeaseMeansWatchdog: row({
    id: 'zero-lease',
    ranges: [{ value: false }, { from: '3.17.1', value: true }],
  }),
  fencedLock: row({
    id: 'fenced-lock',
    ranges: [{ value: false }, { from: '3.19.0', value: true }],
  }),
  resetLeaseOnUnlock: row({
    id: 'reset-lease',
    ranges: [{ value: false }, { from: '3.19.2', value: true }],
  }),
  noSyncHandling: row({
    id: 'no-synced-replicas',
    ranges: [
      {
        value: 'throw' as const,
      },
      {
        from: '3.20.1',
        value: 'undo-retry' as const,
      },
      {
        from: '3.25.0',
        value: 'throw' as const,
      },
      {
        from: '3.47.0',
        value: 'undo-retry' as const,
      },
    ],
  }),
  shardedLockPubSub: row({
    id: 'cluster-sharded-pubsub',
    ranges: [
      { value: 'classic' as const },
      // ClusterConnectionManager: connection.async(SPUBLISH, "", "") on the first seed node to
      // connect; channel "" is slot 0, any other shard answers MOVED (PublishSubscribeService
      // .setShardingSupported only on success)
      {
        from: '3.22.0',
        value: 'probe-seed' as const,
      },
      // detectSharding(): the same probe on getEntrySet().iterator().next(), an arbitrary master
      {
        from: '3.27.0',
        value: 'probe-entry' as const,
      },
      // c93363a3d "Fixed - incorrect sharded pubsub detection": PUBSUB SHARDNUMSUB
      {
        from: '3.28.0',
        value: 'shardnumsub' as const,
      },
      // shardedSubscriptionMode (AUTO by default: the same probe; ON, OFF)
      {
        from: '3.29.0',
        value: 'auto' as const,
      },
    ],
  }),
  movedLoopSameNodeOnly: row({
    id: 'moved-loop',
    ranges: [
      {
        value: false,
      },
      // c0bf257ab (#4656): only a redirect back to the same node is a loop
      {
        from: '3.24.2',
        value: true,
      },
    ],
  }),
  unlockLatch: row({
    id: 'unlock-latch',
    ranges: [{ value: false }, { from: '3.24.0', value: true }],
  }),
  reentrantUnlockKeepsLease: row({
    id: 'reentrant-unlock-keeps-lease',
    ranges: [{ value: false }, { from: '3.27.2', value: true }],
  }),
  multiLockSequentialGiveBack: row({
    id: 'multilock-give-back',
    ranges: [
      // RedissonMultiLock.unlockInner: every unlockAsync made, then each awaited; the lease step's
      // expireAsync likewise all sent, then each synced
      { value: false },
      // cd11accae: both are lazy streams, each future made once the one before it completed
      { from: '3.15.1', value: true },
    ],
  }),
  multiLockSequentialUnlock: row({
    id: 'multilock-unlock',
    ranges: [
      { value: false },
      {
        from: '3.27.2',
        value: true,
      },
    ],
  }),
  fairQueuedEstimatePttl: row({
    id: 'fair-queued-estimate',
    ranges: [{ value: false }, { from: '3.32.0', value: true }],
  }),
  resendLockScriptsOnTimeout: row({
    id: 'resend-on-timeout',
    ranges: [
      { value: 'always' as const },
      {
        from: '3.37.0',
        value: 'replicated' as const,
      },
    ],
  }),
  renewal: row({
    id: 'watchdog',
    ranges: [
      {
        value: 'per-lock-timer' as const,
      },
      {
        from: '3.44.0',
        value: 'batched-task' as const,
      },
    ],
  }),
  rwUnlockMissingKeyReturnsTrue: row({
    id: 'rw-unlock-missing-key',
    ranges: [
      { value: true },
      {
        from: '3.44.0',
        value: false,
      },
    ],
  }),
  readRenewTimeoutKeys: row({
    id: 'read-renew-timeout-keys',
    ranges: [
      // RedissonReadLock had no renewExpirationAsync: RedissonLock's renews the hash only
      { value: false },
      { from: '3.8.1', value: true },
    ],
  }),
  reentrantRenewalEntryLeaks: row({
    id: 'reentrant-renewal-entry',
    ranges: [
      { value: false },
      // renewal/LockEntry.removeThreadId removed one occurrence of a thread queued once per acquire
      {
        from: '3.44.0',
        value: true,
      },
      // LockEntry.removeThreadId removes every occurrence (a98cd54a, #6144)
      { from: '3.46.0', value: false },
    ],
  }),
  readRenewOwnOnly: row({
    id: 'read-renewal',
    ranges: [{ value: false }, { from: '4.4.0', value: true }],
  }),
  useScriptCache: row({
    id: 'script-cache',
    ranges: [{ value: false }, { from: '3.46.0', value: true }],
  }),
  equalJitterRetryDelay: row({
    id: 'retry-delay',
    ranges: [
      { value: false },
      {
        from: '3.48.0',
        value: true,
      },
    ],
  }),
  unlockRequestIdReused: row({
    id: 'unlock-request-id',
    ranges: [{ value: false }, { from: '3.52.0', value: true }],
  }),
  latchDelRightKey: row({
    id: 'latch-del',
    ranges: [
      { value: true },
      {
        from: '3.52.0',
        value: false,
      },
      { from: '4.3.0', value: true },
    ],
  }),
  subscriptionPoolWait: row({
    id: 'subscription-pool-wait',
    ranges: [
      // CommandAsyncService.syncSubscription: the whole subscribe future, timeout + retryInterval × retryAttempts
      {
        value: 'subscribe-timeout' as const,
      },
      // PublishSubscribeService.subscribe: the pool wait is cancelled and retried every retryInterval
      {
        from: '3.16.8',
        value: 'connection-attempts' as const,
      },
      // RedissonLock.lock: pubSub.timeout(future) bounds it by subscriptionTimeout as well
      {
        from: '3.24.0',
        value: 'subscription-timeout' as const,
      },
    ],
  }),
  tryLockCatchesResponseTimeout: row({
    id: 'trylock-timeout',
    ranges: [{ value: false }, { from: '4.7.0', value: true }],
  }),
} as const;

type Rows = typeof RELEASE_TRAITS;
type ValueOf<R> = R extends TraitRow<infer T> ? T : never;

/** The model's switches for one release, one per row of RELEASE_TRAITS. */
export type VersionTraits = { readonly [K in keyof Rows]: ValueOf<Rows[K]> } & {
  /** the release these traits are for ("latest" resolved) */
  readonly release: string;
  /**
   * Which Lua text the release sends for RLock: '3.11' (before 3.12.3, HSET first acquire, two-key
   * unlock), '3.27' (per-lock renewal script) or 'latest' (the batched renewal of 3.44+).
   */
  readonly preset: VersionPreset;
};

export type VersionPreset = '3.11' | '3.27' | 'latest';

/** The index of the range in force for `release` in row `r`. */
function rangeIndex(r: TraitRow<unknown>, release: string): number {
  let found = 0;
  r.ranges.forEach((x, i) => {
    if (x.from === undefined || within(release, x.from)) found = i;
  });
  return found;
}

/** The script family of a release (kept apart from the behaviour rows: it names Lua files). */
export function presetFor(version: string | undefined): VersionPreset {
  const r = resolveRelease(version);
  if (!/^\d+(\.\d+)*$/.test(r)) return 'latest';
  if (compareVersions(r, '3.12.3') < 0) return '3.11';
  if (compareVersions(r, '3.44') < 0) return '3.27';
  return 'latest';
}

export function versionTraits(version: string | undefined): VersionTraits {
  const release = resolveRelease(version);
  const known = traitsByRelease.get(release);
  if (known !== undefined) return known;
  const out = traitsObject();
  out.release = release;
  out.preset = presetFor(release);
  for (const [k, r] of Object.entries(RELEASE_TRAITS) as [string, TraitRow<unknown>][])
    out[k] = r.ranges[rangeIndex(r, release)].value;
  // every client of every run asks again; frozen, so sharing one object cannot leak a change
  const traits = Object.freeze(out) as VersionTraits;
  if (traitsByRelease.size < TRAITS_CACHE_MAX) traitsByRelease.set(release, traits);
  return traits;
}

const traitsByRelease = new Map<string, VersionTraits>();

/**
 * An object with every key of VersionTraits, in one order, each null, in V8's fast mode. Its keys
 * added one by one (`out[k] = ...`, 35 of them) turned the object into a dictionary past a dozen,
 * and each release's traits had a map of its own: every `traits.x` the Redisson model reads was a
 * dictionary look-up at a site that saw every release of the run, and a site that had seen few
 * threw its optimised code away at each new one. JSON.parse builds objects of one key order on one
 * map; the values are then set on keys that exist, which keeps it.
 */
function traitsObject(): Record<string, unknown> {
  traitsTemplate ??= JSON.stringify(
    Object.fromEntries(['release', 'preset', ...Object.keys(RELEASE_TRAITS)].map((k) => [k, null])),
  );
  return JSON.parse(traitsTemplate) as Record<string, unknown>;
}

let traitsTemplate: string | null = null;
/** a link can name any release string; the cache stops growing here */
const TRAITS_CACHE_MAX = 64;

/** One behaviour as the playground lists it. */
export interface TraitText {
  readonly id: string;
  readonly en: string;
  readonly zh: string;
  /** the value in force, in English ("yes", "no", "4 retries") */
  readonly value: string;
  readonly valueZh: string;
}

/** A row's words: its name, and what each of its ranges means, in the ranges' order. */
export interface RowText {
  readonly en: string;
  readonly zh: string;
  readonly values: readonly { readonly en: string; readonly zh: string }[];
}

export type TraitTextTable = { readonly [K in keyof Rows]: RowText };

let traitText: TraitTextTable | null = null;

/**
 * versions_text.ts registers the table's words here: the page's engine worker loads them only when
 * the version picker asks what a release does (a `traits` request), not with its first chunk.
 */
export function provideTraitText(t: TraitTextTable): void {
  traitText = t;
}

/** What `version` does, row by row, in English and Chinese (pure; the picker shows it). */
export function traitsFor(version: string | undefined): TraitText[] {
  const text = traitText;
  if (text === null)
    throw new Error("the release table's words are not loaded: import redisson/versions_text.ts");
  const release = resolveRelease(version);
  return (Object.entries(RELEASE_TRAITS) as [keyof Rows, TraitRow<unknown>][]).map(([k, r]) => {
    const t = text[k];
    const v = t.values[rangeIndex(r, release)];
    return { id: r.id, en: t.en, zh: t.zh, value: v.en, valueZh: v.zh };
  });
}

/** The oldest release the picker offers: the classic design the blog posts walk through. */
const OLDEST_SHOWN = '3.11.6';

/**
 * The releases where some row changes, oldest first, starting at 3.11.6 and ending with the
 * newest: what the version picker offers.
 */
export const BEHAVIOUR_CHANGES: readonly string[] = (() => {
  const set = new Set<string>([OLDEST_SHOWN, NEWEST_RELEASE]);
  for (const r of Object.values(RELEASE_TRAITS) as TraitRow<unknown>[])
    for (const x of r.ranges) if (x.from !== undefined && within(x.from, OLDEST_SHOWN)) set.add(x.from);
  return [...set].sort(compareVersions);
})();

/** Lock types that a release does not have yet, with the release that added them. */
export function lockTypeSince(type: string): string | undefined {
  if (type === 'SpinLock') return RELEASE_TRAITS.spinLock.ranges[1].from;
  if (type === 'FencedLock') return RELEASE_TRAITS.fencedLock.ranges[1].from;
  return undefined;
}
