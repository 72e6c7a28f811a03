/**
 * RedissonFairLock: RLock's hash, plus a queue that hands the lock over in arrival order.
 *
 *   redisson_lock_queue:{name}     LIST of waiting lock names, first come first served
 *   redisson_lock_timeout:{name}   ZSET lock name -> deadline (client epoch ms) after which a
 *                                  waiter at the head counts as gone and is purged
 *
 * A waiter's deadline is the one of the waiter before it (or the lock's ttl) plus threadWaitTime,
 * so a queue of N waiters spans N slots. Unlock wakes only the head, on its own channel
 * `redisson_lock__channel:{name}:<lock name>`; each waiting thread subscribes separately. A
 * tryLock that gives up leaves the queue (acquireFailed) and hands its slot back to those behind.
 */
import type { Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import { versionTraits } from './versions';
import { prefixName } from './RedissonBaseLock';
import { RedissonLock } from './RedissonLock';
import type { ScriptCall } from './executor';
import { exceptionFor } from './errors';
import { UNLOCK_MESSAGE } from './pubsub/LockPubSub';
import fairLockLua from './scripts/fair_lock.lua?raw';
import fairTryLockLua from './scripts/fair_try_lock.lua?raw';
import fairAcquireFailedLua from './scripts/fair_acquire_failed.lua?raw';
import fairUnlockLua from './scripts/fair_unlock.lua?raw';
import fairForceUnlockLua from './scripts/fair_force_unlock.lua?raw';
import { trustScriptBodies } from '../redis/script_lua';

/** threadWaitTime: 5 s up to 3.13.2, then 5 min (a6bbb11bf), configurable as fairLockWaitTimeout since 3.46. */
export function fairLockWaitTimeout(version: string): number {
  return versionTraits(version).fairLockWaitMs;
}

/**
 * Up to 3.31 a thread already in the queue was told `its deadline − threadWaitTime − now` (the
 * previous waiter's deadline, fixed at enqueue time), which can go negative and then makes
 * lock() wait for a message only; 3.32.0 (f08dfd894, #4705) answers `max(0, pttl)`.
 */
const QUEUED_PTTL = "    local ttl = redis.call('pttl', KEYS[1]);\n    return math.max(0, ttl);";
const QUEUED_DEADLINE = '    return queued - tonumber(ARGV[3]) - tonumber(ARGV[4]);';
if (!fairLockLua.includes(QUEUED_PTTL)) throw new Error('fair_lock.lua changed: update QUEUED_PTTL');
const fairLockLua331 = fairLockLua.replace(QUEUED_PTTL, QUEUED_DEADLINE);
// a Redisson script too, built here: a Lua state that ran it may serve another node (script_lua.ts)
trustScriptBodies([fairLockLua331]);

export class RedissonFairLock extends RedissonLock {
  readonly threadWaitTime = this.client.config.traits.fairLockWaitMs;

  getThreadsQueueName(): string {
    return prefixName('redisson_lock_queue', this.name);
  }

  getTimeoutSetName(): string {
    return prefixName('redisson_lock_timeout', this.name);
  }

  protected override subscriptionNames(threadId: number): [string, string] {
    return [`${this.entryName}:${threadId}`, `${this.getChannelName()}:${this.getLockName(threadId)}`];
  }

  /**
   * tryLock's own wait replaces threadWaitTime when given, since the same 3.13.3 change that made
   * threadWaitTime 5 min (a6bbb11bf); before, every slot was threadWaitTime (5 s).
   */
  private waitFor(waitTime: number): number {
    const slotIsWait = this.client.config.traits.fairLockWaitMs !== 5000;
    return waitTime > 0 && slotIsWait ? waitTime : this.threadWaitTime;
  }

  protected override acquireScript(
    lease: number,
    threadId: number,
    waitTime: number,
    once: boolean,
  ): ScriptCall {
    return [
      once ? fairTryLockLua : this.client.config.traits.fairQueuedEstimatePttl ? fairLockLua : fairLockLua331,
      [this.name, this.getThreadsQueueName(), this.getTimeoutSetName()],
      [lease, this.getLockName(threadId), this.waitFor(waitTime), this.client.ctx.now()],
    ];
  }

  protected override *acquireFailed(waitTime: number, threadId: number): Process<void> {
    // syncedEvalWithRetry in 4.7.0, evalWriteSyncedAsync in 3.27: WAIT after it either way
    const reply = yield* this.client.syncedEvalWithRetry(
      fairAcquireFailedLua,
      [this.getThreadsQueueName(), this.getTimeoutSetName()],
      [this.getLockName(threadId), this.waitFor(waitTime)],
    );
    if (reply.t === 'error') throw exceptionFor(reply);
  }

  protected override *unlockInner(threadId: number, requestId: string): Process<Reply> {
    const { client } = this;
    return yield* client.syncedEval(
      fairUnlockLua,
      [
        this.name,
        this.getThreadsQueueName(),
        this.getTimeoutSetName(),
        this.getChannelName(),
        this.latchKey(requestId),
      ],
      [
        UNLOCK_MESSAGE,
        this.internalLockLeaseTime,
        this.getLockName(threadId),
        client.ctx.now(),
        ...this.latchArgs(),
      ],
    );
  }

  protected override forceUnlockScript(): ScriptCall {
    return [
      fairForceUnlockLua,
      [this.name, this.getThreadsQueueName(), this.getTimeoutSetName(), this.getChannelName()],
      [UNLOCK_MESSAGE, this.client.ctx.now(), this.client.pubSubCommands().publish],
    ];
  }
}
