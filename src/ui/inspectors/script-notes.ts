/**
 * The teaching notes shown over Redisson's scripts, in English (their 中文 ships with the Chinese
 * dictionary, lua-comments.zh.ts, keyed by the English). Redisson's scripts carry no comments: the
 * text Redis runs is the release's own, byte for byte. A note sits above the first line (after the
 * previous note's) that contains its anchor, or above the script when it has none. Notes are per
 * script family (`lock`, `fairLock`, ...), or per variant as `family@since` when the variants
 * differ in what a note would say; a variant without notes shows none rather than a wrong one.
 */
export type ScriptNote = readonly [anchor: string | null, en: string];

/** The already-queued branch: what it returns changed in 3.32.0, the other notes did not. */
const FAIR_REQUEUE = "local timeout = redis.call('zscore', KEYS[3], ARGV[2]);";
const FAIR_REQUEUE_3_11: ScriptNote = [
  FAIR_REQUEUE,
  `Already queued: the wait estimate is its own deadline minus threadWaitTime minus now, which can
go negative (3.32.0 returns the holder's ttl instead, #5503).`,
];

/** RedissonFairLock.tryLockInnerAsync (EVAL_LONG form), the notes every variant shares. */
const FAIR_LOCK: readonly ScriptNote[] = [
  [
    null,
    `RedissonFairLock.tryLockInnerAsync, EVAL_LONG form (lock(), tryLock(wait)): take the lock if it
is free and this thread is first in the queue; otherwise join the queue (once) and return how
long this thread should expect to wait.
KEYS[1] lock key (a hash), KEYS[2] queue "redisson_lock_queue:{name}" (LIST of lock names),
KEYS[3] timeouts "redisson_lock_timeout:{name}" (ZSET lock name -> deadline, client epoch ms)
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
ARGV[3] threadWaitTime in ms, ARGV[4] the client's current time in ms
Returns nil (acquired) or a wait estimate in ms.`,
  ],
  [
    'while true do ',
    `Waiters whose deadline has passed gave up long ago: drop them, but only from the head.`,
  ],
  [
    "if (redis.call('exists', KEYS[1]) == 0) ",
    `Free, and nobody queued ahead of us: take it and pull everyone's deadline forward one slot.`,
  ],
  ["redis.call('hexists', KEYS[1], ARGV[2]) == 1 then ", `Reentry.`],
  [
    "local timeout = redis.call('zscore', KEYS[3], ARGV[2]);",
    `Already queued: wait for the holder's ttl (or a message).`,
  ],
  [
    'local lastThreadId',
    `Join the queue behind the last waiter: its deadline (or the lock's ttl) plus our slot.`,
  ],
];

export const SCRIPT_NOTES: Readonly<Record<string, readonly ScriptNote[]>> = {
  'lock@3.11.1': [
    [
      null,
      `RedissonLock.tryLockInnerAsync as of Redisson 3.11 (2.2.4 .. 3.12.2): the first acquire writes
the hold count with HSET, a reentrant one with HINCRBY; either way the TTL is reset to the
lease. nil means acquired; otherwise the remaining TTL (ms) of the current holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms (30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>"`,
    ],
  ],
  'lock@3.19.0': [
    [
      null,
      `RedissonLock.tryLockInnerAsync (Redisson 3.19+): take the lock, or re-enter it if this owner
already holds it; either way the TTL is reset to the lease. nil means acquired; otherwise the
remaining TTL (ms) of the current holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms (30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>"`,
    ],
  ],
  'unlock@3.11.1': [
    [
      null,
      `RedissonLock.unlockInnerAsync as of Redisson 3.11 (3.10.6 .. 3.21): release one hold. No unlock
latch yet, and the publish command is always PUBLISH.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name`,
    ],
  ],
  'unlock@3.24.0': [
    [
      null,
      `RedissonLock.unlockInnerAsync (Redisson 3.24+): release one hold. A latch key remembers the
outcome so a retried unlock (same request id) returns the same answer instead of failing.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel, KEYS[3] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name,
ARGV[4] publish command ('PUBLISH' or 'SPUBLISH'), ARGV[5] latch TTL in ms`,
    ],
  ],
  'forceUnlock@3.11.1': [
    [
      null,
      `RedissonLock.forceUnlockAsync before Redisson 3.22: delete the lock whoever holds it and wake
waiters if there was one; the publish command is always PUBLISH.
Returns 1 if a lock was deleted, 0 if there was none.
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0)`,
    ],
  ],
  'forceUnlock@3.22.0': [
    [
      null,
      `RedissonLock.forceUnlockAsync: delete the lock whoever holds it, and wake waiters if there was
one. Returns 1 if a lock was deleted, 0 if there was none.
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] publish command ('PUBLISH' or 'SPUBLISH')`,
    ],
  ],
  renew: [
    [
      null,
      `RedissonBaseLock.renewExpirationAsync (Redisson 2.6 .. 3.43, one timer per lock): push the
lock's TTL back to the lease if this owner still holds it. 1 renewed, 0 lost (stop renewing).
KEYS[1] lock key
ARGV[1] lease in ms (internalLockLeaseTime, 30000 under the watchdog)
ARGV[2] lock name "<clientId>:<threadId>" of the first thread registered for this lock`,
    ],
  ],
  renewBatch: [
    [
      null,
      `LockTask (Redisson 3.44+ watchdog): renew a batch of locks in one call. For each lock key that
still holds this client's lock name, reset its TTL to the lease and report 1; otherwise 0, which
tells the client to stop renewing that lock.
KEYS[i]   lock key i
ARGV[1]   lease in ms (lockWatchdogTimeout, 30000)
ARGV[i+1] lock name "<clientId>:<threadId>" of the first waiting thread for KEYS[i]`,
    ],
  ],
  'fairLock@3.11.1': FAIR_LOCK.map((note) => (note[0] === FAIR_REQUEUE ? FAIR_REQUEUE_3_11 : note)),
  fairLock: FAIR_LOCK,
  fairAcquireFailed: [
    [
      null,
      `RedissonFairLock.acquireFailedAsync: a tryLock gave up. Leave the queue, and give the waiters
behind us back the slot we no longer need.
KEYS[1] queue, KEYS[2] timeouts
ARGV[1] lock name, ARGV[2] the wait (tryLock's waitTime, or threadWaitTime)`,
    ],
  ],
  'fairUnlock@3.24.0': [
    [
      null,
      `RedissonFairLock.unlockInnerAsync: release one hold and, when the lock is free, wake only the
thread at the head of the queue, on its own channel. A lock that no longer exists (its lease
ran out) is not an error for the fair lock: the head waiter is woken and 1 returned.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts,
KEYS[4] channel prefix "redisson_lock__channel:{name}" (a waiter listens on <prefix>:<lock name>),
KEYS[5] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms,
ARGV[5] publish command, ARGV[6] latch TTL in ms
Returns nil (not the owner), 0 (still held) or 1 (released).`,
    ],
  ],
  'fairUnlock@3.32.0': [
    [
      null,
      `RedissonFairLock.unlockInnerAsync: release one hold and, when the lock is free, wake only the
thread at the head of the queue, on its own channel. A lock that no longer exists (its lease
ran out) is not an error for the fair lock: the head waiter is woken and 1 returned.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts,
KEYS[4] channel prefix "redisson_lock__channel:{name}" (a waiter listens on <prefix>:<lock name>),
KEYS[5] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms,
ARGV[5] publish command, ARGV[6] latch TTL in ms
Returns nil (not the owner), 0 (still held) or 1 (released).`,
    ],
  ],
  'fairForceUnlock@3.22.0': [
    [
      null,
      `RedissonFairLock.forceUnlockAsync: delete the lock whoever holds it; if there was one, wake the
head of the queue. Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] client time in ms, ARGV[3] publish command`,
    ],
  ],
  'fairForceUnlock@3.32.0': [
    [
      null,
      `RedissonFairLock.forceUnlockAsync: delete the lock whoever holds it; if there was one, wake the
head of the queue. Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] client time in ms, ARGV[3] publish command`,
    ],
  ],
  readLock: [
    [
      null,
      `RedissonReadLock.tryLockInnerAsync: share the lock with other readers. The hash says
mode=read; each reader's field counts its holds, and every hold n has its own timeout key
<prefix>:n, so one reader's stale hold cannot keep the whole lock alive. A thread that holds
the write lock may also read.
KEYS[1] lock key (a hash), KEYS[2] this thread's timeout prefix "{name}:<lock name>:rwlock_timeout"
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
ARGV[3] the same thread's write lock name "<clientId>:<threadId>:write"
Returns nil (acquired) or the lock's PTTL.`,
    ],
  ],
  'readUnlock@3.44.0': [
    [
      null,
      `RedissonReadLock.unlockInnerAsync: release one read hold and its timeout key. While other
holds remain, the hash lives as long as the longest remaining timeout key; when none remain
the lock is deleted and waiters are told (0).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}",
KEYS[3] this thread's timeout prefix, KEYS[4] key prefix "{name}", KEYS[5] unlock latch key
ARGV[1] unlock message (0), ARGV[2] lock name, ARGV[3] publish command, ARGV[4] latch TTL in ms
Returns nil (not a holder), 0 (others still hold it) or 1 (deleted).`,
    ],
  ],
  readRenew: [
    [
      null,
      `RedissonReadLock.renewExpirationAsync up to 3.43: if this thread still holds the read lock,
push back the hash's TTL and then the hold timeout keys of EVERY field in the hash, so the
holds of other clients' readers (crashed ones too) are kept alive as well.
KEYS[1] lock key, KEYS[2] key prefix "{name}"
ARGV[1] lease in ms, ARGV[2] lock name of the renewing thread
Returns 1 (renewed) or 0 (this thread holds nothing).`,
    ],
  ],
  writeLock: [
    [
      null,
      `RedissonWriteLock.tryLockInnerAsync: exclusive. Only a free lock (no mode) or this thread's own
write lock can be taken; a reader cannot upgrade. A reentrant write acquire ADDS the lease to
the remaining TTL instead of resetting it.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms, ARGV[2] write lock name "<clientId>:<threadId>:write"
Returns nil (acquired) or the lock's PTTL.`,
    ],
  ],
  'writeUnlock@3.44.0': [
    [
      null,
      `RedissonWriteLock.unlockInnerAsync: release one write hold. The last one deletes the lock and
publishes READ_UNLOCK_MESSAGE (1), which wakes every waiter (readers can all go in at once);
if the writer still holds read locks, the lock stays, downgraded to mode=read.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", KEYS[3] unlock latch key
ARGV[1] read-unlock message (1), ARGV[2] lease in ms, ARGV[3] write lock name,
ARGV[4] publish command, ARGV[5] latch TTL in ms
Returns nil (not the writer), 0 (still held) or 1 (released).`,
    ],
  ],
  'spinUnlock@3.24.0': [
    [
      null,
      `RedissonSpinLock.unlockInnerAsync: release one hold, like RLock's unlock but without any
PUBLISH: nobody is subscribed, waiters poll. The latch key makes a retried unlock idempotent.
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released).
KEYS[1] lock key, KEYS[2] unlock latch key
ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] latch TTL in ms`,
    ],
  ],
  fencedLock: [
    [
      null,
      `RedissonFencedLock.tryLockInnerAsync (Redisson 3.19+): RLock's acquire, plus a fencing token.
Every successful acquire, reentrant ones included, increments the token counter; the counter
is never deleted, so tokens only grow (on this node).
Returns {-1, token} when acquired, {pttl, -1} when another owner holds the lock.
KEYS[1] lock key (a hash), KEYS[2] token counter "redisson_lock_token:{name}"
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>"`,
    ],
  ],
  fairTryLock: [
    [
      null,
      `RedissonFairLock.tryLockInnerAsync, EVAL_NULL_BOOLEAN form (tryLock() without a wait): one
attempt that never joins the queue.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts (as in the EVAL_LONG form)
ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] client time in ms, ARGV[4] the wait in ms
Returns nil (acquired) or 1 (not acquired).`,
    ],
  ],
  'lock@3.12.3': [
    [
      null,
      `RedissonLock.tryLockInnerAsync, 3.12.3 .. 3.18.x (and RedissonSpinLock's acquire): take a free lock with HINCRBY, or re-enter it if this owner holds it; either way the TTL is reset to the lease. nil means acquired; otherwise the remaining TTL (ms) of the holder's lock.
KEYS[1] lock key (a hash)
ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>"`,
    ],
  ],
  'unlock@3.22.0': [
    [
      null,
      `RedissonLock.unlockInnerAsync, 3.22 .. 3.23: release one hold; no unlock latch yet, and the publish command comes as ARGV[4] (PUBLISH, or SPUBLISH in a sharded cluster).
Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
KEYS[1] lock key, KEYS[2] pub/sub channel
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] publish command`,
    ],
  ],
  spinForceUnlock: [
    [
      null,
      `RedissonSpinLock.forceUnlockAsync: delete the lock whoever holds it; nobody is subscribed, so nothing is published. Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key`,
    ],
  ],
  'spinUnlock@3.15.0': [
    [
      null,
      `RedissonSpinLock.unlockInnerAsync before 3.24: release one hold, without any PUBLISH (waiters poll) and without an unlock latch.
Returns nil (not the owner), 0 (still held) or 1 (released).
KEYS[1] lock key
ARGV[1] lease in ms, ARGV[2] lock name`,
    ],
  ],
  readForceUnlock: [
    [
      null,
      `RedissonReadLock.forceUnlockAsync: delete the lock, but only while it is in read mode (a write lock is left alone); wake the waiters if it was deleted.
Returns 1 if deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}"
ARGV[1] unlock message (0), from 3.22 ARGV[2] the publish command`,
    ],
  ],
  writeForceUnlock: [
    [
      null,
      `RedissonWriteLock.forceUnlockAsync: delete the lock, but only while it is in write mode (read locks are left alone); wake every waiter with READ_UNLOCK_MESSAGE (1).
Returns 1 if deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}"
ARGV[1] read-unlock message (1), from 3.22 ARGV[2] the publish command`,
    ],
  ],
  'readRenewBatch@4.4.0': [
    [
      null,
      `ReadLockTask.buildChunk (4.4+, the read-lock watchdog): for each read lock in the batch (a pair of KEYS), push back the hold timeout keys of this client's threads only, and then the hash's, if any of them still holds it.
KEYS[i] lock key, KEYS[i+1] key prefix "{name}"
ARGV[1] lease in ms, then per lock: how many lock names follow, and the names
Returns a list with 1 (renewed) or 0 (none of them holds it any more) per lock.`,
    ],
  ],
  readRenewBatch: [
    [
      null,
      `ReadLockTask.buildChunk (3.44 .. 4.3, the read-lock watchdog): for each read lock in the batch (a pair of KEYS) that the first registered thread still holds, push back the hash's TTL and the hold timeout keys of every field, other clients' readers (crashed ones too) included.
KEYS[i] lock key, KEYS[i+1] key prefix "{name}"
ARGV[1] lease in ms, then per lock the lock name of its first thread
Returns a list with 1 (renewed) or 0 (that thread holds nothing) per lock.`,
    ],
  ],
  readUnlock: [
    [
      null,
      `RedissonReadLock.unlockInnerAsync up to 3.43: release one read hold and its timeout key. While other holds remain, the hash lives as long as the longest remaining timeout key; when none remain the lock is deleted and waiters are told (0). A lock that is already gone counts as released (1).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", KEYS[3] this thread's timeout prefix, KEYS[4] key prefix "{name}", from 3.24 KEYS[5] the unlock latch key
ARGV[1] unlock message (0), ARGV[2] lock name, from 3.22 ARGV[3] the publish command, from 3.24 ARGV[4] the latch TTL in ms
Returns nil (not a holder), 0 (others still hold it) or 1 (deleted, or gone).`,
    ],
  ],
  writeUnlock: [
    [
      null,
      `RedissonWriteLock.unlockInnerAsync up to 3.43: release one write hold. The last one deletes the lock and publishes READ_UNLOCK_MESSAGE (1), which wakes every waiter; if the writer still holds read locks, the lock stays, downgraded to mode=read. A lock that is already gone counts as released (1).
KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", from 3.24 KEYS[3] the unlock latch key
ARGV[1] read-unlock message (1), ARGV[2] lease in ms, ARGV[3] write lock name, from 3.22 ARGV[4] the publish command, from 3.24 ARGV[5] the latch TTL in ms
Returns nil (not the writer), 0 (still held) or 1 (released, or gone).`,
    ],
  ],
  fairUnlock: [
    [
      null,
      `RedissonFairLock.unlockInnerAsync before 3.24: release one hold and, when the lock is free, wake only the thread at the head of the queue, on its own channel; no unlock latch yet. A lock that no longer exists is not an error: the head waiter is woken and 1 returned.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms, from 3.22 ARGV[5] the publish command
Returns nil (not the owner), 0 (still held) or 1 (released).`,
    ],
  ],
  'fairForceUnlock@3.11.1': [
    [
      null,
      `RedissonFairLock.forceUnlockAsync before 3.22: delete the lock whoever holds it; if there was one, wake the head of the queue (always with PUBLISH). Returns 1 if a lock was deleted, 0 otherwise.
KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
ARGV[1] unlock message (0), ARGV[2] client time in ms`,
    ],
  ],
  readIsLocked: [
    [
      null,
      `RedissonReadLock.isLocked (3.24+): is the lock held for reading? Yes in read mode, and in write mode when the writer also holds read locks (more fields than the mode and the writer's own).
KEYS[1] lock key
Returns 1 (locked for reading) or 0.`,
    ],
  ],
};
