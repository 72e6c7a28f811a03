/**
 * 中文 for the comment blocks of the Lua scripts (D27), keyed by the English block. It ships in
 * the Chinese chunk, loaded with zh.ts, so an English reader does not download it.
 */
/** [the English block, its lines without "-- "; the same number of lines in Chinese] */
export const LUA_COMMENTS_ZH: readonly (readonly [string, string])[] = [
  // lesson crossslot's sale script
  ['sell one, but only while the lock is still there', '只在锁键还在时卖出一件'],
  [
    `Already queued: the wait estimate is its own deadline minus threadWaitTime minus now, which can
go negative (3.32.0 returns the holder's ttl instead, #5503).`,
    `已经在队列中：等待估计是它自己的截止时间减去 threadWaitTime 再减去当前时间，可能变成负数
（3.32.0 改为返回持有者的剩余 TTL，#5503）。`,
  ],
  [
    `Release a SET NX PX lock only if it still holds this acquisition's token: the compare and the
delete run as one atomic script, so a lock someone else took after our lease ran out survives.
KEYS[1] lock key, ARGV[1] our token. Returns 1 if deleted, 0 if the lock was not ours (or gone).`,
    `只有当 SET NX PX 锁里仍是本次加锁写入的随机值时才释放它：比较和删除
在同一个原子脚本里执行，所以我们的租期过后别人拿到的锁不会被误删。
KEYS[1] 锁的键，ARGV[1] 我们的随机值。删除了返回 1，锁不是我们的（或已不存在）返回 0。`,
  ],
  [
    `RedissonFairLock.acquireFailedAsync: a tryLock gave up. Leave the queue, and give the waiters
behind us back the slot we no longer need.
KEYS[1] queue, KEYS[2] timeouts
ARGV[1] lock name, ARGV[2] the wait (tryLock's waitTime, or threadWaitTime)`,
    `RedissonFairLock.acquireFailedAsync：tryLock 放弃了。离开队列，把我们不再需要的时间槽
还给排在后面的等待者。
KEYS[1] 队列，KEYS[2] 超时表
ARGV[1] 锁名，ARGV[2] 等待时长（tryLock 的 waitTime，或 threadWaitTime）`,
  ],
  [
    `RedissonFairLock.forceUnlockAsync: delete the lock whoever holds it; if there was one, wake the
head of the queue. Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] client time in ms, ARGV[3] publish command`,
    `RedissonFairLock.forceUnlockAsync：不管谁持有都删除锁；如果确实有锁，
唤醒队首的等待者。删除了锁返回 1，否则返回 0。
KEYS[1] 锁的键，KEYS[2] 队列，KEYS[3] 超时表，KEYS[4] 频道前缀
ARGV[1] 解锁消息（0），ARGV[2] 客户端时间（毫秒），ARGV[3] 发布命令`,
  ],
  [
    `RedissonFairLock.tryLockInnerAsync, EVAL_LONG form (lock(), tryLock(wait)): take the lock if it
is free and this thread is first in the queue; otherwise join the queue (once) and return how
long this thread should expect to wait.
KEYS[1] lock key (a hash), KEYS[2] queue "redisson_lock_queue:{name}" (LIST of lock names),
KEYS[3] timeouts "redisson_lock_timeout:{name}" (ZSET lock name -> deadline, client epoch ms)
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
ARGV[3] threadWaitTime in ms, ARGV[4] the client's current time in ms
Returns nil (acquired) or a wait estimate in ms.`,
    `RedissonFairLock.tryLockInnerAsync，EVAL_LONG 形式（lock()、tryLock(wait)）：锁空闲
且本线程排在队首时拿到锁；否则加入队列（只加入一次），并返回本线程
预计要等多久。
KEYS[1] 锁的键（哈希），KEYS[2] 队列 "redisson_lock_queue:{name}"（锁名的 LIST），
KEYS[3] 超时表 "redisson_lock_timeout:{name}"（ZSET：锁名 -> 截止时间，客户端纪元毫秒）
ARGV[1] 租期（毫秒），ARGV[2] 锁名 "<clientId>:<threadId>"，
ARGV[3] threadWaitTime（毫秒），ARGV[4] 客户端当前时间（毫秒）
返回 nil（已获得）或预计的等待时长（毫秒）。`,
  ],
  [
    `Waiters whose deadline has passed gave up long ago: drop them, but only from the head.`,
    `截止时间已过的等待者早已放弃：移除它们，但只从队首开始移除。`,
  ],
  [
    `Free, and nobody queued ahead of us: take it and pull everyone's deadline forward one slot.`,
    `锁空闲，且没有人排在我们前面：拿到锁，并把所有人的截止时间提前一个时间槽。`,
  ],
  [`Reentry.`, `重入。`],
  [
    `Already queued: wait for the holder's ttl (or a message).`,
    `已在队列中：等待持有者的 TTL（或一条消息）。`,
  ],
  [
    `Join the queue behind the last waiter: its deadline (or the lock's ttl) plus our slot.`,
    `排到最后一个等待者后面：它的截止时间（或锁的 TTL）再加上我们的时间槽。`,
  ],
  [
    `RedissonFairLock.tryLockInnerAsync, EVAL_NULL_BOOLEAN form (tryLock() without a wait): one
attempt that never joins the queue.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts (as in the EVAL_LONG form)
ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] client time in ms, ARGV[4] the wait in ms
Returns nil (acquired) or 1 (not acquired).`,
    `RedissonFairLock.tryLockInnerAsync，EVAL_NULL_BOOLEAN 形式（不带等待时间的 tryLock()）：
只尝试一次，从不加入队列。
KEYS[1] 锁的键，KEYS[2] 队列，KEYS[3] 超时表（同 EVAL_LONG 形式）
ARGV[1] 租期（毫秒），ARGV[2] 锁名，ARGV[3] 客户端时间（毫秒），ARGV[4] 等待时长（毫秒）
返回 nil（已获得）或 1（未获得）。`,
  ],
  [
    `RedissonFairLock.unlockInnerAsync: release one hold and, when the lock is free, wake only the
thread at the head of the queue, on its own channel. A lock that no longer exists (its lease
ran out) is not an error for the fair lock: the head waiter is woken and 1 returned.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts,
KEYS[4] channel prefix "redisson_lock__channel:{name}" (a waiter listens on <prefix>:<lock name>),
KEYS[5] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms,
ARGV[5] publish command, ARGV[6] latch TTL in ms
Returns nil (not the owner), 0 (still held) or 1 (released).`,
    `RedissonFairLock.unlockInnerAsync：释放一次持有；锁空闲后，只唤醒队首的线程，
而且在它自己的频道上唤醒。锁已不存在（租期已过）
对公平锁不算错误：照样唤醒队首等待者并返回 1。
KEYS[1] 锁的键，KEYS[2] 队列，KEYS[3] 超时表，
KEYS[4] 频道前缀 "redisson_lock__channel:{name}"（等待者监听 <前缀>:<锁名>），
KEYS[5] 解锁 latch 键
ARGV[1] 解锁消息（0），ARGV[2] 租期（毫秒），ARGV[3] 锁名，ARGV[4] 客户端时间（毫秒），
ARGV[5] 发布命令，ARGV[6] latch 的 TTL（毫秒）
返回 nil（不是持有者）、0（仍被持有）或 1（已释放）。`,
  ],
  [
    `RedissonFencedLock.tryLockInnerAsync (Redisson 3.19+): RLock's acquire, plus a fencing token.
Every successful acquire, reentrant ones included, increments the token counter; the counter
is never deleted, so tokens only grow (on this node).
Returns {-1, token} when acquired, {pttl, -1} when another owner holds the lock.
KEYS[1] lock key (a hash), KEYS[2] token counter "redisson_lock_token:{name}"
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>"`,
    `RedissonFencedLock.tryLockInnerAsync（Redisson 3.19+）：RLock 的加锁，外加一个防护令牌。
每次成功加锁（包括重入）都让防护令牌计数器加一；计数器
从不删除，所以防护令牌只增不减（在这个节点上）。
获得锁时返回 {-1, 防护令牌}，锁被别的持有者占着时返回 {pttl, -1}。
KEYS[1] 锁的键（哈希），KEYS[2] 防护令牌计数器 "redisson_lock_token:{name}"
ARGV[1] 租期（毫秒），ARGV[2] 锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonLock.forceUnlockAsync: delete the lock whoever holds it, and wake waiters if there was
one. Returns 1 if a lock was deleted, 0 if there was none.
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] publish command ('PUBLISH' or 'SPUBLISH')`,
    `RedissonLock.forceUnlockAsync：不管谁持有都删除锁，如果确实有锁就唤醒
等待者。删除了锁返回 1，没有锁返回 0。
KEYS[1] 锁的键，KEYS[2] pub/sub 频道
ARGV[1] 解锁消息（0），ARGV[2] 发布命令（'PUBLISH' 或 'SPUBLISH'）`,
  ],
  [
    `RedissonLock.forceUnlockAsync before Redisson 3.22: delete the lock whoever holds it and wake
waiters if there was one; the publish command is always PUBLISH.
Returns 1 if a lock was deleted, 0 if there was none.
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0)`,
    `Redisson 3.22 之前的 RedissonLock.forceUnlockAsync：不管谁持有都删除锁，
如果确实有锁就唤醒等待者；发布命令总是 PUBLISH。
删除了锁返回 1，没有锁返回 0。
KEYS[1] 锁的键，KEYS[2] pub/sub 频道
ARGV[1] 解锁消息（0）`,
  ],
  [
    `RedissonLock.tryLockInnerAsync (Redisson 3.19+): take the lock, or re-enter it if this owner
already holds it; either way the TTL is reset to the lease. nil means acquired; otherwise the
remaining TTL (ms) of the current holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms (30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>"`,
    `RedissonLock.tryLockInnerAsync（Redisson 3.19+）：拿到锁，或在本持有者已持有时重入；
两种情况都把 TTL 重置为租期。返回 nil 表示已获得；否则返回
当前持有者的锁剩余的 TTL（毫秒）。
KEYS[1] 锁的键（哈希）
ARGV[1] 租期（毫秒；有看门狗时为 30000）
ARGV[2] 锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonLock.tryLockInnerAsync as of Redisson 3.11 (2.2.4 .. 3.12.2): the first acquire writes
the hold count with HSET, a reentrant one with HINCRBY; either way the TTL is reset to the
lease. nil means acquired; otherwise the remaining TTL (ms) of the current holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms (30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>"`,
    `Redisson 3.11 时的 RedissonLock.tryLockInnerAsync（2.2.4 .. 3.12.2）：首次加锁用 HSET 写入
持有次数，重入时用 HINCRBY；两种情况都把 TTL 重置为
租期。返回 nil 表示已获得；否则返回当前持有者的锁剩余的 TTL（毫秒）。
KEYS[1] 锁的键（哈希）
ARGV[1] 租期（毫秒；有看门狗时为 30000）
ARGV[2] 锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonReadLock.tryLockInnerAsync: share the lock with other readers. The hash says
mode=read; each reader's field counts its holds, and every hold n has its own timeout key
<prefix>:n, so one reader's stale hold cannot keep the whole lock alive. A thread that holds
the write lock may also read.
KEYS[1] lock key (a hash), KEYS[2] this thread's timeout prefix "{name}:<lock name>:rwlock_timeout"
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
ARGV[3] the same thread's write lock name "<clientId>:<threadId>:write"
Returns nil (acquired) or the lock's PTTL.`,
    `RedissonReadLock.tryLockInnerAsync：与其他读者共享锁。哈希里写着
mode=read；每个读者的字段记录它的持有次数，第 n 次持有有自己的超时键
<前缀>:n，这样一个读者过时的持有不会让整个锁一直存活。持有
写锁的线程也可以读。
KEYS[1] 锁的键（哈希），KEYS[2] 本线程的超时键前缀 "{name}:<lock name>:rwlock_timeout"
ARGV[1] 租期（毫秒），ARGV[2] 锁名 "<clientId>:<threadId>"，
ARGV[3] 同一线程的写锁名 "<clientId>:<threadId>:write"
返回 nil（已获得）或锁的 PTTL。`,
  ],
  [
    `RedissonReadLock.renewExpirationAsync up to 3.43: if this thread still holds the read lock,
push back the hash's TTL and then the hold timeout keys of EVERY field in the hash, so the
holds of other clients' readers (crashed ones too) are kept alive as well.
KEYS[1] lock key, KEYS[2] key prefix "{name}"
ARGV[1] lease in ms, ARGV[2] lock name of the renewing thread
Returns 1 (renewed) or 0 (this thread holds nothing).`,
    `3.43 及以前的 RedissonReadLock.renewExpirationAsync：如果本线程仍持有读锁，
就延长哈希的 TTL，再延长哈希里【每一个】字段的持有超时键，所以
其他客户端读者的持有（包括已崩溃的）也一并被续命。
KEYS[1] 锁的键，KEYS[2] 键前缀 "{name}"
ARGV[1] 租期（毫秒），ARGV[2] 续期线程的锁名
返回 1（已续期）或 0（本线程什么也没持有）。`,
  ],
  [
    `RedissonReadLock.unlockInnerAsync: release one read hold and its timeout key. While other
holds remain, the hash lives as long as the longest remaining timeout key; when none remain
the lock is deleted and waiters are told (0).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}",
KEYS[3] this thread's timeout prefix, KEYS[4] key prefix "{name}", KEYS[5] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lock name, ARGV[3] publish command, ARGV[4] latch TTL in ms
Returns nil (not a holder), 0 (others still hold it) or 1 (deleted).`,
    `RedissonReadLock.unlockInnerAsync：释放一次读持有及其超时键。还有其他
持有时，哈希的存活时间等于剩余超时键中最长的那个；一个都不剩时
删除锁并通知等待者（0）。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"，
KEYS[3] 本线程的超时键前缀，KEYS[4] 键前缀 "{name}"，KEYS[5] 解锁 latch 键
ARGV[1] 解锁消息（0），ARGV[2] 锁名，ARGV[3] 发布命令，ARGV[4] latch 的 TTL（毫秒）
返回 nil（不是持有者）、0（别人仍持有）或 1（已删除）。`,
  ],
  [
    `LockTask (Redisson 3.44+ watchdog): renew a batch of locks in one call. For each lock key that
still holds this client's lock name, reset its TTL to the lease and report 1; otherwise 0, which
tells the client to stop renewing that lock.
KEYS[i]   lock key i
ARGV[1]   lease in ms (lockWatchdogTimeout, 30000)
ARGV[i+1] lock name "<clientId>:<threadId>" of the first waiting thread for KEYS[i]`,
    `LockTask（Redisson 3.44+ 的看门狗）：一次调用续期一批锁。对仍存着本客户端锁名的
每个锁键，把它的 TTL 重置为租期并报告 1；否则报告 0，
告诉客户端停止为这个锁续期。
KEYS[i]   第 i 个锁键
ARGV[1]   租期（毫秒；lockWatchdogTimeout，30000）
ARGV[i+1] KEYS[i] 的第一个等待线程的锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonBaseLock.renewExpirationAsync (Redisson 2.6 .. 3.43, one timer per lock): push the
lock's TTL back to the lease if this owner still holds it. 1 renewed, 0 lost (stop renewing).
KEYS[1] lock key
ARGV[1] lease in ms (internalLockLeaseTime, 30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>" of the first thread registered for this lock`,
    `RedissonBaseLock.renewExpirationAsync（Redisson 2.6 .. 3.43，每个锁一个定时器）：如果本持有者
仍持有锁，就把锁的 TTL 重置为租期。1 表示已续期，0 表示锁已丢失（停止续期）。
KEYS[1] 锁的键
ARGV[1] 租期（毫秒；internalLockLeaseTime，有看门狗时为 30000）
ARGV[2] 为这个锁登记的第一个线程的锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonSpinLock.unlockInnerAsync: release one hold, like RLock's unlock but without any
PUBLISH: nobody is subscribed, waiters poll. The latch key makes a retried unlock idempotent.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released).
KEYS[1] lock key, KEYS[2] unlock latch key
ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] latch TTL in ms`,
    `RedissonSpinLock.unlockInnerAsync：释放一次持有，和 RLock 的解锁一样，但没有
PUBLISH：没有人订阅，等待者轮询。latch 键让重试的解锁保持幂等。
返回 nil（不是持有者）、0（仍被持有：持有次数 > 0）或 1（已释放）。
KEYS[1] 锁的键，KEYS[2] 解锁 latch 键
ARGV[1] 租期（毫秒），ARGV[2] 锁名，ARGV[3] latch 的 TTL（毫秒）`,
  ],
  [
    `RedissonLock.unlockInnerAsync (Redisson 3.24+): release one hold. A latch key remembers the
outcome so a retried unlock (same request id) returns the same answer instead of failing.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel, KEYS[3] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name,
ARGV[4] publish command ('PUBLISH' or 'SPUBLISH'), ARGV[5] latch TTL in ms`,
    `RedissonLock.unlockInnerAsync（Redisson 3.24+）：释放一次持有。latch 键记住
结果，所以重试的解锁（同一个请求 id）得到同样的回答，而不是失败。
返回 nil（不是持有者）、0（仍被持有：持有次数 > 0）或 1（已释放，已发布）。
KEYS[1] 锁的键，KEYS[2] pub/sub 频道，KEYS[3] 解锁 latch 键
ARGV[1] 解锁消息（0），ARGV[2] 租期（毫秒），ARGV[3] 锁名，
ARGV[4] 发布命令（'PUBLISH' 或 'SPUBLISH'），ARGV[5] latch 的 TTL（毫秒）`,
  ],
  [
    `RedissonLock.unlockInnerAsync as of Redisson 3.11 (3.10.6 .. 3.21): release one hold. No unlock
latch yet, and the publish command is always PUBLISH.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name`,
    `Redisson 3.11 时的 RedissonLock.unlockInnerAsync（3.10.6 .. 3.21）：释放一次持有。还没有解锁
latch，发布命令总是 PUBLISH。
返回 nil（不是持有者）、0（仍被持有：持有次数 > 0）或 1（已释放，已发布）。
KEYS[1] 锁的键，KEYS[2] pub/sub 频道
ARGV[1] 解锁消息（0），ARGV[2] 租期（毫秒），ARGV[3] 锁名`,
  ],
  [
    `RedissonWriteLock.tryLockInnerAsync: exclusive. Only a free lock (no mode) or this thread's own
write lock can be taken; a reader cannot upgrade. A reentrant write acquire ADDS the lease to
the remaining TTL instead of resetting it.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms, ARGV[2] write lock name "<clientId>:<threadId>:write"
Returns nil (acquired) or the lock's PTTL.`,
    `RedissonWriteLock.tryLockInnerAsync：独占。只能拿到空闲的锁（没有 mode）或本线程自己的
写锁；读者不能升级。重入的写加锁把租期【加到】剩余的 TTL 上，
而不是重置它。
KEYS[1] 锁的键（哈希）
ARGV[1] 租期（毫秒），ARGV[2] 写锁名 "<clientId>:<threadId>:write"
返回 nil（已获得）或锁的 PTTL。`,
  ],
  [
    `RedissonWriteLock.unlockInnerAsync: release one write hold. The last one deletes the lock and
publishes READ_UNLOCK_MESSAGE (1), which wakes every waiter (readers can all go in at once);
if the writer still holds read locks, the lock stays, downgraded to mode=read.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", KEYS[3] unlock latch key
ARGV[1] read-unlock message (1), ARGV[2] lease in ms, ARGV[3] write lock name,
ARGV[4] publish command, ARGV[5] latch TTL in ms
Returns nil (not the writer), 0 (still held) or 1 (released).`,
    `RedissonWriteLock.unlockInnerAsync：释放一次写持有。最后一次释放删除锁并
发布 READ_UNLOCK_MESSAGE（1），唤醒所有等待者（读者可以同时进入）；
如果写者仍持有读锁，锁保留下来，降级为 mode=read。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"，KEYS[3] 解锁 latch 键
ARGV[1] 读解锁消息（1），ARGV[2] 租期（毫秒），ARGV[3] 写锁名，
ARGV[4] 发布命令，ARGV[5] latch 的 TTL（毫秒）
返回 nil（不是写者）、0（仍被持有）或 1（已释放）。`,
  ],
  [
    `RedissonLock.tryLockInnerAsync, 3.12.3 .. 3.18.x (and RedissonSpinLock's acquire): take a free lock with HINCRBY, or re-enter it if this owner holds it; either way the TTL is reset to the lease. nil means acquired; otherwise the remaining TTL (ms) of the holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>"`,
    `RedissonLock.tryLockInnerAsync，3.12.3 .. 3.18.x（也是 RedissonSpinLock 的加锁脚本）：锁空闲时用 HINCRBY 拿到锁，本持有者已持有时重入；两种情况都把 TTL 重置为租期。返回 nil 表示已获得，否则返回持有者的锁剩余的 TTL（毫秒）。
KEYS[1] 锁的键（哈希）
ARGV[1] 租期（毫秒），ARGV[2] 锁名 "<clientId>:<threadId>"`,
  ],
  [
    `RedissonLock.unlockInnerAsync, 3.22 .. 3.23: release one hold; no unlock latch yet, and the publish command comes as ARGV[4] (PUBLISH, or SPUBLISH in a sharded cluster).
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] publish command`,
    `RedissonLock.unlockInnerAsync，3.22 .. 3.23：释放一次持有；还没有解锁 latch，发布命令由 ARGV[4] 传入（PUBLISH，分片集群中为 SPUBLISH）。
返回 nil（不是持有者）、0（仍被持有：持有次数 > 0）或 1（已释放并已发布）。
KEYS[1] 锁的键，KEYS[2] 发布/订阅频道
ARGV[1] 解锁消息（0），ARGV[2] 租期（毫秒），ARGV[3] 锁名，ARGV[4] 发布命令`,
  ],
  [
    `RedissonSpinLock.forceUnlockAsync: delete the lock whoever holds it; nobody is subscribed, so nothing is published. Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key`,
    `RedissonSpinLock.forceUnlockAsync：不管谁持有都删除锁；没有人订阅，所以不发布消息。删除了锁返回 1，否则返回 0。
KEYS[1] 锁的键`,
  ],
  [
    `RedissonSpinLock.unlockInnerAsync before 3.24: release one hold, without any PUBLISH (waiters poll) and without an unlock latch.
Returns nil (not the owner), 0 (still held) or 1 (released).
KEYS[1] lock key
ARGV[1] lease in ms, ARGV[2] lock name`,
    `3.24 之前的 RedissonSpinLock.unlockInnerAsync：释放一次持有，不发 PUBLISH（等待者自己轮询），也没有解锁 latch。
返回 nil（不是持有者）、0（仍被持有）或 1（已释放）。
KEYS[1] 锁的键
ARGV[1] 租期（毫秒），ARGV[2] 锁名`,
  ],
  [
    `RedissonReadLock.forceUnlockAsync: delete the lock, but only while it is in read mode (a write lock is left alone); wake the waiters if it was deleted.
Returns 1 if deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}"
ARGV[1] unlock message (0), from 3.22 ARGV[2] the publish command`,
    `RedissonReadLock.forceUnlockAsync：删除锁，但只在它处于读模式时（写锁不受影响）；删除后唤醒等待者。
删除了返回 1，否则返回 0。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"
ARGV[1] 解锁消息（0），从 3.22 起 ARGV[2] 为发布命令`,
  ],
  [
    `RedissonWriteLock.forceUnlockAsync: delete the lock, but only while it is in write mode (read locks are left alone); wake every waiter with READ_UNLOCK_MESSAGE (1).
Returns 1 if deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}"
ARGV[1] read-unlock message (1), from 3.22 ARGV[2] the publish command`,
    `RedissonWriteLock.forceUnlockAsync：删除锁，但只在它处于写模式时（读锁不受影响）；用 READ_UNLOCK_MESSAGE（1）唤醒所有等待者。
删除了返回 1，否则返回 0。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"
ARGV[1] 读解锁消息（1），从 3.22 起 ARGV[2] 为发布命令`,
  ],
  [
    `ReadLockTask.buildChunk (4.4+, the read-lock watchdog): for each read lock in the batch (a pair of KEYS), push back the hold timeout keys of this client's threads only, and then the hash's, if any of them still holds it.
KEYS[i] lock key, KEYS[i+1] key prefix "{name}"
ARGV[1] lease in ms, then per lock: how many lock names follow, and the names
Returns a list with 1 (renewed) or 0 (none of them holds it any more) per lock.`,
    `ReadLockTask.buildChunk（4.4+，读锁的看门狗）：对批次里的每个读锁（一对 KEYS），只要本客户端还有线程持有它，就只延长这些线程的持有超时键，然后延长哈希的。
KEYS[i] 锁的键，KEYS[i+1] 键前缀 "{name}"
ARGV[1] 租期（毫秒），之后每个锁：后面跟着几个锁名，以及这些锁名
返回一个列表，每个锁一项：1（已续期）或 0（它们都不再持有）。`,
  ],
  [
    `ReadLockTask.buildChunk (3.44 .. 4.3, the read-lock watchdog): for each read lock in the batch (a pair of KEYS) that the first registered thread still holds, push back the hash's TTL and the hold timeout keys of every field, other clients' readers (crashed ones too) included.
KEYS[i] lock key, KEYS[i+1] key prefix "{name}"
ARGV[1] lease in ms, then per lock the lock name of its first thread
Returns a list with 1 (renewed) or 0 (that thread holds nothing) per lock.`,
    `ReadLockTask.buildChunk（3.44 .. 4.3，读锁的看门狗）：对批次里的每个读锁（一对 KEYS），只要第一个登记的线程还持有它，就延长哈希的 TTL 以及每一个字段的持有超时键，其他客户端的读者（包括已崩溃的）也在内。
KEYS[i] 锁的键，KEYS[i+1] 键前缀 "{name}"
ARGV[1] 租期（毫秒），之后每个锁是它第一个线程的锁名
返回一个列表，每个锁一项：1（已续期）或 0（该线程什么也没持有）。`,
  ],
  [
    `RedissonReadLock.unlockInnerAsync up to 3.43: release one read hold and its timeout key. While other holds remain, the hash lives as long as the longest remaining timeout key; when none remain the lock is deleted and waiters are told (0). A lock that is already gone counts as released (1).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", KEYS[3] this thread's timeout prefix, KEYS[4] key prefix "{name}", from 3.24 KEYS[5] the unlock latch key
ARGV[1] unlock message (0), ARGV[2] lock name, from 3.22 ARGV[3] the publish command, from 3.24 ARGV[4] the latch TTL in ms
Returns nil (not a holder), 0 (others still hold it) or 1 (deleted, or gone).`,
    `3.43 及以前的 RedissonReadLock.unlockInnerAsync：释放一次读持有及其超时键。还有其他持有时，哈希的存活时间取剩余超时键中最长的那个；都没有了就删除锁并通知等待者（0）。锁已经不存在时算作已释放（1）。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"，KEYS[3] 本线程的超时前缀，KEYS[4] 键前缀 "{name}"，从 3.24 起 KEYS[5] 为解锁 latch 键
ARGV[1] 解锁消息（0），ARGV[2] 锁名，从 3.22 起 ARGV[3] 为发布命令，从 3.24 起 ARGV[4] 为 latch TTL（毫秒）
返回 nil（不是持有者）、0（还有其他持有）或 1（已删除，或锁已不存在）。`,
  ],
  [
    `RedissonWriteLock.unlockInnerAsync up to 3.43: release one write hold. The last one deletes the lock and publishes READ_UNLOCK_MESSAGE (1), which wakes every waiter; if the writer still holds read locks, the lock stays, downgraded to mode=read. A lock that is already gone counts as released (1).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", from 3.24 KEYS[3] the unlock latch key
ARGV[1] read-unlock message (1), ARGV[2] lease in ms, ARGV[3] write lock name, from 3.22 ARGV[4] the publish command, from 3.24 ARGV[5] the latch TTL in ms
Returns nil (not the writer), 0 (still held) or 1 (released, or gone).`,
    `3.43 及以前的 RedissonWriteLock.unlockInnerAsync：释放一次写持有。最后一次释放删除锁并发布 READ_UNLOCK_MESSAGE（1），唤醒所有等待者；如果写者还持有读锁，锁会保留并降级为 mode=read。锁已经不存在时算作已释放（1）。
KEYS[1] 锁的键，KEYS[2] 频道 "redisson_rwlock:{name}"，从 3.24 起 KEYS[3] 为解锁 latch 键
ARGV[1] 读解锁消息（1），ARGV[2] 租期（毫秒），ARGV[3] 写锁名，从 3.22 起 ARGV[4] 为发布命令，从 3.24 起 ARGV[5] 为 latch TTL（毫秒）
返回 nil（不是写者）、0（仍被持有）或 1（已释放，或锁已不存在）。`,
  ],
  [
    `RedissonFairLock.unlockInnerAsync before 3.24: release one hold and, when the lock is free, wake only the thread at the head of the queue, on its own channel; no unlock latch yet. A lock that no longer exists is not an error: the head waiter is woken and 1 returned.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms, from 3.22 ARGV[5] the publish command
Returns nil (not the owner), 0 (still held) or 1 (released).`,
    `3.24 之前的 RedissonFairLock.unlockInnerAsync：释放一次持有；锁空闲时只唤醒队首的线程，用它自己的频道；还没有解锁 latch。锁已经不存在不算错误：唤醒队首等待者并返回 1。
KEYS[1] 锁的键，KEYS[2] 队列，KEYS[3] 超时表，KEYS[4] 频道前缀
ARGV[1] 解锁消息（0），ARGV[2] 租期（毫秒），ARGV[3] 锁名，ARGV[4] 客户端时间（毫秒），从 3.22 起 ARGV[5] 为发布命令
返回 nil（不是持有者）、0（仍被持有）或 1（已释放）。`,
  ],
  [
    `RedissonFairLock.forceUnlockAsync before 3.22: delete the lock whoever holds it; if there was one, wake the head of the queue (always with PUBLISH). Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] client time in ms`,
    `3.22 之前的 RedissonFairLock.forceUnlockAsync：不管谁持有都删除锁；如果确实有锁，唤醒队首的等待者（总是用 PUBLISH）。删除了锁返回 1，否则返回 0。
KEYS[1] 锁的键，KEYS[2] 队列，KEYS[3] 超时表，KEYS[4] 频道前缀
ARGV[1] 解锁消息（0），ARGV[2] 客户端时间（毫秒）`,
  ],
  [
    `RedissonReadLock.isLocked (3.24+): is the lock held for reading? Yes in read mode, and in write mode when the writer also holds read locks (more fields than the mode and the writer's own).
KEYS[1] lock key
Returns 1 (locked for reading) or 0.`,
    `RedissonReadLock.isLocked（3.24+）：锁是否被读持有？读模式下是；写模式下，如果写者同时还持有读锁（字段多于 mode 和写者自己的那个），也是。
KEYS[1] 锁的键
返回 1（被读持有）或 0。`,
  ],
];
