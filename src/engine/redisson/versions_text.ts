/**
 * The words of versions.ts's release table: each row's name and what each of its ranges means, in
 * English and Chinese, range for range (the ranges, their releases and the values the model uses
 * are in versions.ts, with the source each one follows). Only the version picker shows them, so
 * the page's engine worker loads this module when the picker first asks (a `traits` request);
 * every Node entry that lists a release's traits imports it.
 */
import { provideTraitText, type TraitTextTable } from './versions';

const YES = { en: 'yes', zh: '是' };
const NO = { en: 'no', zh: '否' };

export const RELEASE_TRAIT_TEXT: TraitTextTable = {
  hsetFirstAcquire: {
    en: 'First acquire writes',
    zh: '首次加锁写入',
    values: [
      { en: 'HSET', zh: 'HSET' },
      { en: 'HINCRBY', zh: 'HINCRBY' },
    ],
  },
  cancelRenewalOnFailedUnlock: {
    en: 'A failed unlock cancels the watchdog',
    zh: '解锁失败也取消看门狗',
    values: [NO, YES],
  },
  renewalStopRemovesEntry: {
    en: 'A watchdog that stops leaves the renewal map',
    zh: '停止的看门狗移出续期表',
    values: [
      {
        en: 'no: the entry stays, a later lock() of the name starts no timer',
        zh: '否：条目留下，之后同名 lock() 不再启动定时器',
      },
      { en: 'after an error only', zh: '仅在出错后' },
      { en: 'after an error or a 0 answer', zh: '出错或返回 0 后' },
    ],
  },
  batchFailureHangs: {
    en: 'A lock script whose batch fails (Redis down, no reply)',
    zh: '锁脚本所在的批处理失败时（Redis 宕机、无应答）',
    values: [
      { en: 'fails with the error', zh: '以该错误失败' },
      {
        en: 'never completes: lock/tryLock/unlock hang, the watchdog stops silently',
        zh: '永不完成：lock/tryLock/unlock 挂起，看门狗悄悄停止',
      },
      { en: 'fails with the error', zh: '以该错误失败' },
    ],
  },
  abandonedAcquireRenewed: {
    en: 'An acquire whose thread was interrupted, answered later',
    zh: '线程被中断后才返回的加锁',
    values: [
      {
        en: 'starts the watchdog: the abandoned lock is renewed for ever',
        zh: '启动看门狗：被放弃的锁被永远续期',
      },
      { en: 'is not renewed (expires after its lease)', zh: '不续期（租期到后过期）' },
      {
        en: 'starts the watchdog again (the cancel reaches only the retry wrapper)',
        zh: '再次启动看门狗（取消只作用于重试包装）',
      },
    ],
  },
  syncedEval: {
    en: 'WAIT after lock scripts',
    zh: '锁脚本之后发送 WAIT',
    values: [NO, YES],
  },
  clusterDownRetry: {
    en: 'A CLUSTERDOWN reply',
    zh: 'CLUSTERDOWN 回复',
    values: [
      { en: 'fails the call', zh: '调用失败' },
      {
        en: 're-sent after retryInterval, up to retryAttempts times',
        zh: '间隔 retryInterval 后重发，最多 retryAttempts 次',
      },
    ],
  },
  timeoutResendAfterInterval: {
    en: 'A command whose reply is late',
    zh: '回复迟到的命令',
    values: [
      { en: 'is re-sent at once', zh: '立即重发' },
      { en: 'is re-sent after retryInterval', zh: '间隔 retryInterval 后重发' },
    ],
  },
  fairLockWaitMs: {
    en: 'FairLock threadWaitTime',
    zh: 'FairLock 排队等待时间 threadWaitTime',
    values: [
      { en: '5 s', zh: '5 秒' },
      { en: '5 min', zh: '5 分钟' },
    ],
  },
  spinLock: {
    en: 'SpinLock exists',
    zh: '有 SpinLock',
    values: [NO, YES],
  },
  replicaCheck: {
    en: 'After WAIT, the lock fails when',
    zh: 'WAIT 之后锁失败的条件',
    values: [
      { en: 'never (the ack count is not checked)', zh: '从不（不检查确认数）' },
      { en: 'any replica did not ack', zh: '任一从节点未确认' },
      { en: 'no replica acked', zh: '没有从节点确认' },
    ],
  },
  zeroLeaseMeansWatchdog: {
    en: 'leaseTime 0 means the watchdog',
    zh: 'leaseTime 为 0 表示使用看门狗',
    values: [{ en: 'no (0 expires at once)', zh: '否（0 立即过期）' }, YES],
  },
  fencedLock: {
    en: 'FencedLock exists',
    zh: '有 FencedLock',
    values: [NO, YES],
  },
  resetLeaseOnUnlock: {
    en: 'Unlock resets an explicit lease to the watchdog',
    zh: '解锁后显式租期恢复为看门狗',
    values: [NO, YES],
  },
  noSyncHandling: {
    en: 'When no replica acked an acquire',
    zh: '加锁没有从节点确认时',
    values: [
      { en: 'lock() throws; the lock stays on the master', zh: 'lock() 抛异常；锁留在主节点上' },
      { en: 'undo the acquire and retry it', zh: '撤销加锁并重试' },
      {
        en: 'lock() throws; the lock stays on the master without a watchdog (message check broken)',
        zh: 'lock() 抛异常；锁留在主节点上且没有看门狗（消息比较失效）',
      },
      {
        en: 'undo the acquire and retry it (NoSyncedSlavesException)',
        zh: '撤销加锁并重试（NoSyncedSlavesException）',
      },
    ],
  },
  shardedLockPubSub: {
    en: 'In a Redis 7 cluster, the lock channel uses',
    zh: 'Redis 7 集群中锁频道使用',
    values: [
      { en: 'SUBSCRIBE / PUBLISH', zh: 'SUBSCRIBE / PUBLISH' },
      {
        en: 'SSUBSCRIBE if SPUBLISH "" "" works on the first seed node (slot 0’s shard only), else SUBSCRIBE',
        zh: '若 SPUBLISH "" "" 在第一个种子节点上成功（仅槽 0 的分片）则 SSUBSCRIBE，否则 SUBSCRIBE',
      },
      {
        en: 'SSUBSCRIBE only if the arbitrary master probed (SPUBLISH "" "") serves slot 0, else SUBSCRIBE',
        zh: '仅当被探测（SPUBLISH "" ""）的任意主节点负责槽 0 时 SSUBSCRIBE，否则 SUBSCRIBE',
      },
      {
        en: 'SSUBSCRIBE / SPUBLISH (PUBSUB SHARDNUMSUB probe)',
        zh: 'SSUBSCRIBE / SPUBLISH（PUBSUB SHARDNUMSUB 探测）',
      },
      {
        en: 'SSUBSCRIBE / SPUBLISH (shardedSubscriptionMode AUTO)',
        zh: 'SSUBSCRIBE / SPUBLISH（shardedSubscriptionMode AUTO）',
      },
    ],
  },
  movedLoopSameNodeOnly: {
    en: 'A MOVED answered to a redirected command',
    zh: '重定向后的命令再收到 MOVED',
    values: [
      { en: 'fails: "MOVED redirection loop detected"', zh: '失败："MOVED redirection loop detected"' },
      { en: 'followed, unless it names the same node', zh: '继续跟随，除非指向同一节点' },
    ],
  },
  unlockLatch: {
    en: 'Unlock latch key remembers the outcome',
    zh: '解锁 latch 键记住结果',
    values: [NO, YES],
  },
  reentrantUnlockKeepsLease: {
    en: 'A reentrant unlock keeps the explicit lease',
    zh: '重入解锁保留显式租期',
    values: [NO, YES],
  },
  multiLockSequentialGiveBack: {
    en: 'MultiLock/RedLock give-back and final PEXPIREs',
    zh: 'MultiLock/RedLock 归还锁与最终 PEXPIRE',
    values: [
      { en: 'all sent at once', zh: '全部同时发送' },
      {
        en: 'one lock at a time, each after the one before it answered',
        zh: '逐个进行，前一个应答后才发下一个',
      },
    ],
  },
  multiLockSequentialUnlock: {
    en: 'MultiLock unlock',
    zh: 'MultiLock 解锁',
    values: [
      { en: 'all at once', zh: '全部同时' },
      { en: 'one by one, stops at the first failure', zh: '逐个解锁，遇到第一个失败即停止' },
    ],
  },
  fairQueuedEstimatePttl: {
    en: 'FairLock wait estimate of a queued thread',
    zh: 'FairLock 已排队线程的等待估计',
    values: [
      { en: 'deadline − threadWaitTime − now', zh: '截止时间 − threadWaitTime − 当前时间' },
      { en: 'max(0, pttl)', zh: 'max(0, pttl)' },
    ],
  },
  resendLockScriptsOnTimeout: {
    en: 'Lock and unlock scripts re-sent after a response timeout',
    zh: '响应超时后重发加锁/解锁脚本',
    values: [
      { en: 'yes (retryAttempts)', zh: '是（retryAttempts 次）' },
      { en: 'only with replicas (not in single-server mode)', zh: '仅在有从节点时（单机模式不重发）' },
    ],
  },
  renewal: {
    en: 'Watchdog',
    zh: '看门狗',
    values: [
      { en: 'one timer per lock, stops at the first failure', zh: '每个锁一个定时器，首次失败即停止' },
      {
        en: 'one LockTask per client, batched; a failure waits for the next round',
        zh: '每个客户端一个 LockTask，批量续期；失败后等下一轮',
      },
    ],
  },
  rwUnlockMissingKeyReturnsTrue: {
    en: 'Read/write unlock of a vanished lock',
    zh: '读写锁解锁时锁已消失',
    values: [
      { en: 'returns true and publishes', zh: '返回 true 并发布消息' },
      { en: 'IllegalMonitorStateException', zh: 'IllegalMonitorStateException' },
    ],
  },
  readRenewTimeoutKeys: {
    en: "Read-lock renewal extends the holds' rwlock_timeout keys",
    zh: '读锁续期延长各持有的 rwlock_timeout 键',
    values: [{ en: 'no (the hash only)', zh: '否（仅哈希键）' }, YES],
  },
  reentrantRenewalEntryLeaks: {
    en: 'After a reentrant lock/unlock, the renewal entry',
    zh: '重入加锁/解锁之后，续期条目',
    values: [
      { en: 'is removed', zh: '被移除' },
      {
        en: 'keeps the thread without a lock name: the next lock() of the name is not renewed',
        zh: '留下没有锁名的线程：之后同名 lock() 不被续期',
      },
      { en: 'is removed', zh: '被移除' },
    ],
  },
  readRenewOwnOnly: {
    en: 'Read-lock renewal extends',
    zh: '读锁续期延长',
    values: [
      { en: "every reader's timeout keys", zh: '所有读者的超时键' },
      { en: "this client's holds only", zh: '仅本客户端的持有' },
    ],
  },
  useScriptCache: {
    en: 'Scripts sent as EVALSHA (useScriptCache)',
    zh: '脚本以 EVALSHA 发送（useScriptCache）',
    values: [NO, YES],
  },
  equalJitterRetryDelay: {
    en: 'Retry delay',
    zh: '重试间隔',
    values: [
      { en: '1500 ms, 3 retries', zh: '1500 毫秒，重试 3 次' },
      { en: 'EqualJitterDelay(1 s, 2 s), 4 retries', zh: 'EqualJitterDelay(1 秒, 2 秒)，重试 4 次' },
    ],
  },
  unlockRequestIdReused: {
    en: 'A retried unlock reuses its request id',
    zh: '重试的解锁复用请求 id',
    values: [NO, YES],
  },
  latchDelRightKey: {
    en: 'The DEL after unlock removes the latch key',
    zh: '解锁后的 DEL 删除 latch 键',
    values: [
      YES,
      {
        en: 'no (deletes latch:<client id>; the latch lives out its TTL)',
        zh: '否（删除 latch:<客户端 id>；latch 存活到 TTL）',
      },
      YES,
    ],
  },
  subscriptionPoolWait: {
    en: 'lock() when the pub/sub pool has no free slot',
    zh: 'pub/sub 连接池没有空闲槽位时的 lock()',
    values: [
      {
        en: 'waits; RedisTimeoutException “Subscribe timeout” after timeout + retryInterval × retryAttempts',
        zh: '等待；timeout + retryInterval × retryAttempts 后抛出 RedisTimeoutException “Subscribe timeout”',
      },
      {
        en: 'retries the pool every retryInterval; “Unable to acquire connection for subscription after N attempts”',
        zh: '每隔 retryInterval 重新向连接池申请；“Unable to acquire connection for subscription after N attempts”',
      },
      {
        en: 'as before, and at most subscriptionTimeout (“Unable to acquire subscription lock”)',
        zh: '同上，且最多 subscriptionTimeout（“Unable to acquire subscription lock”）',
      },
    ],
  },
  tryLockCatchesResponseTimeout: {
    en: 'tryLock after a response timeout',
    zh: '响应超时后的 tryLock',
    values: [
      { en: 'throws RedisResponseTimeoutException', zh: '抛出 RedisResponseTimeoutException' },
      { en: 'returns false', zh: '返回 false' },
    ],
  },
};

provideTraitText(RELEASE_TRAIT_TEXT);
