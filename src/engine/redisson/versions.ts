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
 * One behaviour across releases: the ranges in order, each with the value the model uses and the
 * text the playground shows. `from` is the first release with that value (inclusive).
 */
interface TraitRow<T> {
  readonly id: string;
  readonly en: string;
  readonly zh: string;
  readonly ranges: readonly { from?: string; value: T; en: string; zh: string }[];
}

function row<T>(r: TraitRow<T>): TraitRow<T> {
  return r;
}

const YES = { en: 'yes', zh: '是' };
const NO = { en: 'no', zh: '否' };

/** The table. Everything version-dependent in redisson/ reads one of these rows. */
export const RELEASE_TRAITS = {
  hsetFirstAcquire: row({
    id: 'first-acquire',
    en: 'First acquire writes',
    zh: '首次加锁写入',
    ranges: [
      { value: true, en: 'HSET', zh: 'HSET' },
      { from: '3.12.3', value: false, en: 'HINCRBY', zh: 'HINCRBY' },
    ],
  }),
  cancelRenewalOnFailedUnlock: row({
    id: 'cancel-on-failed-unlock',
    en: 'A failed unlock cancels the watchdog',
    zh: '解锁失败也取消看门狗',
    ranges: [
      { value: false, ...NO },
      // RedissonLock.unlockAsync(threadId): cancelExpirationRenewal moved before the result checks
      { from: '3.12.1', value: true, ...YES },
    ],
  }),
  renewalStopRemovesEntry: row({
    id: 'renewal-stop-removes-entry',
    en: 'A watchdog that stops leaves the renewal map',
    zh: '停止的看门狗移出续期表',
    ranges: [
      {
        value: 'never' as const,
        en: 'no: the entry stays, a later lock() of the name starts no timer',
        zh: '否：条目留下，之后同名 lock() 不再启动定时器',
      },
      // RedissonLock.renewExpiration: EXPIRATION_RENEWAL_MAP.remove on an error (PR #3195)
      { from: '3.14.0', value: 'on-error' as const, en: 'after an error only', zh: '仅在出错后' },
      // RedissonBaseLock.renewExpiration: a 0 answer calls cancelExpirationRenewal(null)
      { from: '3.16.1', value: 'always' as const, en: 'after an error or a 0 answer', zh: '出错或返回 0 后' },
    ],
  }),
  batchFailureHangs: row({
    id: 'batch-failure-hangs',
    en: 'A lock script whose batch fails (Redis down, no reply)',
    zh: '锁脚本所在的批处理失败时（Redis 宕机、无应答）',
    ranges: [
      { value: false, en: 'fails with the error', zh: '以该错误失败' },
      // RedissonLock.evalWriteAsync sends every lock script as a CommandBatchService batch, whose
      // failure did not fail the commands' own futures (#2790)
      {
        from: '3.12.5',
        value: true,
        en: 'never completes: lock/tryLock/unlock hang, the watchdog stops silently',
        zh: '永不完成：lock/tryLock/unlock 挂起，看门狗悄悄停止',
      },
      // CommandBatchService.executeAsync fails every command of a failed batch (1abb29e27)
      { from: '3.13.0', value: false, en: 'fails with the error', zh: '以该错误失败' },
    ],
  }),
  abandonedAcquireRenewed: row({
    id: 'abandoned-acquire-renewed',
    en: 'An acquire whose thread was interrupted, answered later',
    zh: '线程被中断后才返回的加锁',
    ranges: [
      {
        value: true,
        en: 'starts the watchdog: the abandoned lock is renewed for ever',
        zh: '启动看门狗：被放弃的锁被永远续期',
      },
      // CommandAsyncService.get cancels the future on interrupt (6153d0557), so tryAcquireAsync's
      // callback that registers the watchdog never runs
      {
        from: '3.16.3',
        value: false,
        en: 'is not renewed (expires after its lease)',
        zh: '不续期（租期到后过期）',
      },
      // 65320f76f (#4822): tryAcquire goes through execute(), whose own result future is what get()
      // cancels; the inner tryAcquireAsync callback still starts the watchdog (seen by the oracle
      // at 3.27.2 and 4.7.0: abandoned-acquire-stall)
      {
        from: '3.20.1',
        value: true,
        en: 'starts the watchdog again (the cancel reaches only the retry wrapper)',
        zh: '再次启动看门狗（取消只作用于重试包装）',
      },
    ],
  }),
  syncedEval: row({
    id: 'wait-after-scripts',
    en: 'WAIT after lock scripts',
    zh: '锁脚本之后发送 WAIT',
    ranges: [
      { value: false, ...NO },
      { from: '3.12.5', value: true, ...YES },
    ],
  }),
  clusterDownRetry: row({
    id: 'cluster-down-retry',
    en: 'A CLUSTERDOWN reply',
    zh: 'CLUSTERDOWN 回复',
    ranges: [
      { value: false, en: 'fails the call', zh: '调用失败' },
      // 52f786ed5 (#2831): CommandDecoder → RedisClusterDownException, re-sent by RedisExecutor
      {
        from: '3.13.2',
        value: true,
        en: 're-sent after retryInterval, up to retryAttempts times',
        zh: '间隔 retryInterval 后重发，最多 retryAttempts 次',
      },
    ],
  }),
  timeoutResendAfterInterval: row({
    id: 'timeout-resend-delay',
    en: 'A command whose reply is late',
    zh: '回复迟到的命令',
    ranges: [
      // RedisExecutor.scheduleResponseTimeout: execute() at once from the timeout task
      { value: false, en: 'is re-sent at once', zh: '立即重发' },
      // ca9bd8e7a (#3494): the re-send waits retryInterval
      { from: '3.15.2', value: true, en: 'is re-sent after retryInterval', zh: '间隔 retryInterval 后重发' },
    ],
  }),
  fairLockWaitMs: row({
    id: 'fair-wait',
    en: 'FairLock threadWaitTime',
    zh: 'FairLock 排队等待时间 threadWaitTime',
    ranges: [
      { value: 5000, en: '5 s', zh: '5 秒' },
      { from: '3.13.3', value: 300_000, en: '5 min', zh: '5 分钟' },
    ],
  }),
  spinLock: row({
    id: 'spin-lock',
    en: 'SpinLock exists',
    zh: '有 SpinLock',
    ranges: [
      { value: false, ...NO },
      { from: '3.15.0', value: true, ...YES },
    ],
  }),
  replicaCheck: row({
    id: 'replica-check',
    en: 'After WAIT, the lock fails when',
    zh: 'WAIT 之后锁失败的条件',
    ranges: [
      { value: 'none' as const, en: 'never (the ack count is not checked)', zh: '从不（不检查确认数）' },
      { from: '3.16.7', value: 'all' as const, en: 'any replica did not ack', zh: '任一从节点未确认' },
      { from: '3.17.5', value: 'zero' as const, en: 'no replica acked', zh: '没有从节点确认' },
    ],
  }),
  zeroLeaseMeansWatchdog: row({
    id: 'zero-lease',
    en: 'leaseTime 0 means the watchdog',
    zh: 'leaseTime 为 0 表示使用看门狗',
    ranges: [
      { value: false, en: 'no (0 expires at once)', zh: '否（0 立即过期）' },
      { from: '3.17.1', value: true, ...YES },
    ],
  }),
  fencedLock: row({
    id: 'fenced-lock',
    en: 'FencedLock exists',
    zh: '有 FencedLock',
    ranges: [
      { value: false, ...NO },
      { from: '3.19.0', value: true, ...YES },
    ],
  }),
  resetLeaseOnUnlock: row({
    id: 'reset-lease',
    en: 'Unlock resets an explicit lease to the watchdog',
    zh: '解锁后显式租期恢复为看门狗',
    ranges: [
      { value: false, ...NO },
      { from: '3.19.2', value: true, ...YES },
    ],
  }),
  noSyncHandling: row({
    id: 'no-synced-replicas',
    en: 'When no replica acked an acquire',
    zh: '加锁没有从节点确认时',
    ranges: [
      {
        value: 'throw' as const,
        en: 'lock() throws; the lock stays on the master',
        zh: 'lock() 抛异常；锁留在主节点上',
      },
      {
        from: '3.20.1',
        value: 'undo-retry' as const,
        en: 'undo the acquire and retry it',
        zh: '撤销加锁并重试',
      },
      {
        from: '3.25.0',
        value: 'throw' as const,
        en: 'lock() throws; the lock stays on the master without a watchdog (message check broken)',
        zh: 'lock() 抛异常；锁留在主节点上且没有看门狗（消息比较失效）',
      },
      {
        from: '3.47.0',
        value: 'undo-retry' as const,
        en: 'undo the acquire and retry it (NoSyncedSlavesException)',
        zh: '撤销加锁并重试（NoSyncedSlavesException）',
      },
    ],
  }),
  shardedLockPubSub: row({
    id: 'cluster-sharded-pubsub',
    en: 'In a Redis 7 cluster, the lock channel uses',
    zh: 'Redis 7 集群中锁频道使用',
    ranges: [
      { value: 'classic' as const, en: 'SUBSCRIBE / PUBLISH', zh: 'SUBSCRIBE / PUBLISH' },
      // ClusterConnectionManager: connection.async(SPUBLISH, "", "") on the first seed node to
      // connect; channel "" is slot 0, any other shard answers MOVED (PublishSubscribeService
      // .setShardingSupported only on success)
      {
        from: '3.22.0',
        value: 'probe-seed' as const,
        en: 'SSUBSCRIBE if SPUBLISH "" "" works on the first seed node (slot 0’s shard only), else SUBSCRIBE',
        zh: '若 SPUBLISH "" "" 在第一个种子节点上成功（仅槽 0 的分片）则 SSUBSCRIBE，否则 SUBSCRIBE',
      },
      // detectSharding(): the same probe on getEntrySet().iterator().next(), an arbitrary master
      {
        from: '3.27.0',
        value: 'probe-entry' as const,
        en: 'SSUBSCRIBE only if the arbitrary master probed (SPUBLISH "" "") serves slot 0, else SUBSCRIBE',
        zh: '仅当被探测（SPUBLISH "" ""）的任意主节点负责槽 0 时 SSUBSCRIBE，否则 SUBSCRIBE',
      },
      // c93363a3d "Fixed - incorrect sharded pubsub detection": PUBSUB SHARDNUMSUB
      {
        from: '3.28.0',
        value: 'shardnumsub' as const,
        en: 'SSUBSCRIBE / SPUBLISH (PUBSUB SHARDNUMSUB probe)',
        zh: 'SSUBSCRIBE / SPUBLISH（PUBSUB SHARDNUMSUB 探测）',
      },
      // shardedSubscriptionMode (AUTO by default: the same probe; ON, OFF)
      {
        from: '3.29.0',
        value: 'auto' as const,
        en: 'SSUBSCRIBE / SPUBLISH (shardedSubscriptionMode AUTO)',
        zh: 'SSUBSCRIBE / SPUBLISH（shardedSubscriptionMode AUTO）',
      },
    ],
  }),
  movedLoopSameNodeOnly: row({
    id: 'moved-loop',
    en: 'A MOVED answered to a redirected command',
    zh: '重定向后的命令再收到 MOVED',
    ranges: [
      {
        value: false,
        en: 'fails: "MOVED redirection loop detected"',
        zh: '失败："MOVED redirection loop detected"',
      },
      // c0bf257ab (#4656): only a redirect back to the same node is a loop
      {
        from: '3.24.2',
        value: true,
        en: 'followed, unless it names the same node',
        zh: '继续跟随，除非指向同一节点',
      },
    ],
  }),
  unlockLatch: row({
    id: 'unlock-latch',
    en: 'Unlock latch key remembers the outcome',
    zh: '解锁 latch 键记住结果',
    ranges: [
      { value: false, ...NO },
      { from: '3.24.0', value: true, ...YES },
    ],
  }),
  reentrantUnlockKeepsLease: row({
    id: 'reentrant-unlock-keeps-lease',
    en: 'A reentrant unlock keeps the explicit lease',
    zh: '重入解锁保留显式租期',
    ranges: [
      { value: false, ...NO },
      { from: '3.27.2', value: true, ...YES },
    ],
  }),
  multiLockSequentialUnlock: row({
    id: 'multilock-unlock',
    en: 'MultiLock unlock',
    zh: 'MultiLock 解锁',
    ranges: [
      { value: false, en: 'all at once', zh: '全部同时' },
      {
        from: '3.27.2',
        value: true,
        en: 'one by one, stops at the first failure',
        zh: '逐个解锁，遇到第一个失败即停止',
      },
    ],
  }),
  fairQueuedEstimatePttl: row({
    id: 'fair-queued-estimate',
    en: 'FairLock wait estimate of a queued thread',
    zh: 'FairLock 已排队线程的等待估计',
    ranges: [
      { value: false, en: 'deadline − threadWaitTime − now', zh: '截止时间 − threadWaitTime − 当前时间' },
      { from: '3.32.0', value: true, en: 'max(0, pttl)', zh: 'max(0, pttl)' },
    ],
  }),
  resendLockScriptsOnTimeout: row({
    id: 'resend-on-timeout',
    en: 'Lock and unlock scripts re-sent after a response timeout',
    zh: '响应超时后重发加锁/解锁脚本',
    ranges: [
      { value: 'always' as const, en: 'yes (retryAttempts)', zh: '是（retryAttempts 次）' },
      {
        from: '3.37.0',
        value: 'replicated' as const,
        en: 'only with replicas (not in single-server mode)',
        zh: '仅在有从节点时（单机模式不重发）',
      },
    ],
  }),
  renewal: row({
    id: 'watchdog',
    en: 'Watchdog',
    zh: '看门狗',
    ranges: [
      {
        value: 'per-lock-timer' as const,
        en: 'one timer per lock, stops at the first failure',
        zh: '每个锁一个定时器，首次失败即停止',
      },
      {
        from: '3.44.0',
        value: 'batched-task' as const,
        en: 'one LockTask per client, batched; a failure waits for the next round',
        zh: '每个客户端一个 LockTask，批量续期；失败后等下一轮',
      },
    ],
  }),
  rwUnlockMissingKeyReturnsTrue: row({
    id: 'rw-unlock-missing-key',
    en: 'Read/write unlock of a vanished lock',
    zh: '读写锁解锁时锁已消失',
    ranges: [
      { value: true, en: 'returns true and publishes', zh: '返回 true 并发布消息' },
      {
        from: '3.44.0',
        value: false,
        en: 'IllegalMonitorStateException',
        zh: 'IllegalMonitorStateException',
      },
    ],
  }),
  readRenewTimeoutKeys: row({
    id: 'read-renew-timeout-keys',
    en: "Read-lock renewal extends the holds' rwlock_timeout keys",
    zh: '读锁续期延长各持有的 rwlock_timeout 键',
    ranges: [
      // RedissonReadLock had no renewExpirationAsync: RedissonLock's renews the hash only
      { value: false, en: 'no (the hash only)', zh: '否（仅哈希键）' },
      { from: '3.8.1', value: true, ...YES },
    ],
  }),
  reentrantRenewalEntryLeaks: row({
    id: 'reentrant-renewal-entry',
    en: 'After a reentrant lock/unlock, the renewal entry',
    zh: '重入加锁/解锁之后，续期条目',
    ranges: [
      { value: false, en: 'is removed', zh: '被移除' },
      // renewal/LockEntry.removeThreadId removed one occurrence of a thread queued once per acquire
      {
        from: '3.44.0',
        value: true,
        en: 'keeps the thread without a lock name: the next lock() of the name is not renewed',
        zh: '留下没有锁名的线程：之后同名 lock() 不被续期',
      },
      // LockEntry.removeThreadId removes every occurrence (a98cd54a, #6144)
      { from: '3.46.0', value: false, en: 'is removed', zh: '被移除' },
    ],
  }),
  readRenewOwnOnly: row({
    id: 'read-renewal',
    en: 'Read-lock renewal extends',
    zh: '读锁续期延长',
    ranges: [
      { value: false, en: "every reader's timeout keys", zh: '所有读者的超时键' },
      { from: '4.4.0', value: true, en: "this client's holds only", zh: '仅本客户端的持有' },
    ],
  }),
  useScriptCache: row({
    id: 'script-cache',
    en: 'Scripts sent as EVALSHA (useScriptCache)',
    zh: '脚本以 EVALSHA 发送（useScriptCache）',
    ranges: [
      { value: false, ...NO },
      { from: '3.46.0', value: true, ...YES },
    ],
  }),
  equalJitterRetryDelay: row({
    id: 'retry-delay',
    en: 'Retry delay',
    zh: '重试间隔',
    ranges: [
      { value: false, en: '1500 ms, 3 retries', zh: '1500 毫秒，重试 3 次' },
      {
        from: '3.48.0',
        value: true,
        en: 'EqualJitterDelay(1 s, 2 s), 4 retries',
        zh: 'EqualJitterDelay(1 秒, 2 秒)，重试 4 次',
      },
    ],
  }),
  unlockRequestIdReused: row({
    id: 'unlock-request-id',
    en: 'A retried unlock reuses its request id',
    zh: '重试的解锁复用请求 id',
    ranges: [
      { value: false, ...NO },
      { from: '3.52.0', value: true, ...YES },
    ],
  }),
  latchDelRightKey: row({
    id: 'latch-del',
    en: 'The DEL after unlock removes the latch key',
    zh: '解锁后的 DEL 删除 latch 键',
    ranges: [
      { value: true, ...YES },
      {
        from: '3.52.0',
        value: false,
        en: 'no (deletes latch:<client id>; the latch lives out its TTL)',
        zh: '否（删除 latch:<客户端 id>；latch 存活到 TTL）',
      },
      { from: '4.3.0', value: true, ...YES },
    ],
  }),
  subscriptionPoolWait: row({
    id: 'subscription-pool-wait',
    en: 'lock() when the pub/sub pool has no free slot',
    zh: 'pub/sub 连接池没有空闲槽位时的 lock()',
    ranges: [
      // CommandAsyncService.syncSubscription: the whole subscribe future, timeout + retryInterval × retryAttempts
      {
        value: 'subscribe-timeout' as const,
        en: 'waits; RedisTimeoutException “Subscribe timeout” after timeout + retryInterval × retryAttempts',
        zh: '等待；timeout + retryInterval × retryAttempts 后抛出 RedisTimeoutException “Subscribe timeout”',
      },
      // PublishSubscribeService.subscribe: the pool wait is cancelled and retried every retryInterval
      {
        from: '3.16.8',
        value: 'connection-attempts' as const,
        en: 'retries the pool every retryInterval; “Unable to acquire connection for subscription after N attempts”',
        zh: '每隔 retryInterval 重新向连接池申请；“Unable to acquire connection for subscription after N attempts”',
      },
      // RedissonLock.lock: pubSub.timeout(future) bounds it by subscriptionTimeout as well
      {
        from: '3.24.0',
        value: 'subscription-timeout' as const,
        en: 'as before, and at most subscriptionTimeout (“Unable to acquire subscription lock”)',
        zh: '同上，且最多 subscriptionTimeout（“Unable to acquire subscription lock”）',
      },
    ],
  }),
  tryLockCatchesResponseTimeout: row({
    id: 'trylock-timeout',
    en: 'tryLock after a response timeout',
    zh: '响应超时后的 tryLock',
    ranges: [
      { value: false, en: 'throws RedisResponseTimeoutException', zh: '抛出 RedisResponseTimeoutException' },
      { from: '4.7.0', value: true, en: 'returns false', zh: '返回 false' },
    ],
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

function rangeOf<T>(r: TraitRow<T>, release: string): { value: T; en: string; zh: string } {
  let found = r.ranges[0];
  for (const x of r.ranges) if (x.from === undefined || within(release, x.from)) found = x;
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
  const out: Record<string, unknown> = { release, preset: presetFor(release) };
  for (const [k, r] of Object.entries(RELEASE_TRAITS) as [string, TraitRow<unknown>][])
    out[k] = rangeOf(r, release).value;
  // every client of every run asks again; frozen, so sharing one object cannot leak a change
  const traits = Object.freeze(out) as VersionTraits;
  if (traitsByRelease.size < TRAITS_CACHE_MAX) traitsByRelease.set(release, traits);
  return traits;
}

const traitsByRelease = new Map<string, VersionTraits>();
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

/** What `version` does, row by row, in English and Chinese (pure; the picker shows it). */
export function traitsFor(version: string | undefined): TraitText[] {
  const release = resolveRelease(version);
  return Object.values(RELEASE_TRAITS).map((r: TraitRow<unknown>) => {
    const x = rangeOf(r, release);
    return { id: r.id, en: r.en, zh: r.zh, value: x.en, valueZh: x.zh };
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
