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
import { prefixName, type UnlockRequest } from './RedissonBaseLock';
import { RedissonLock } from './RedissonLock';
import type { ScriptCall } from './executor';
import { exceptionFor } from './errors';
import { UNLOCK_MESSAGE } from './pubsub/LockPubSub';
import {
  FAIR_ACQUIRE_FAILED,
  FAIR_FORCE_UNLOCK,
  FAIR_LOCK,
  FAIR_TRY_LOCK,
  FAIR_UNLOCK,
} from './scripts/RedissonFairLock';
import { publishInArgv, scriptText } from './scripts';

/** threadWaitTime: 5 s up to 3.13.2, then 5 min (a6bbb11bf), configurable as fairLockWaitTimeout since 3.46. */
export function fairLockWaitTimeout(version: string): number {
  return versionTraits(version).fairLockWaitMs;
}


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
    const { traits } = this.client.config;
    const keys = [this.name, this.getThreadsQueueName(), this.getTimeoutSetName()];
    const wait = this.waitFor(waitTime);
    const now = this.client.ctx.now();
    // EVAL_NULL_BOOLEAN (tryLock()) takes the time before the wait; EVAL_LONG the other way round
    if (once) return [scriptText(FAIR_TRY_LOCK, traits), keys, [lease, this.getLockName(threadId), now, wait]];
    return [scriptText(FAIR_LOCK, traits), keys, [lease, this.getLockName(threadId), wait, now]];
  }

  protected override *acquireFailed(waitTime: number, threadId: number): Process<void> {
    // syncedEvalWithRetry in 4.7.0, evalWriteSyncedAsync in 3.27: WAIT after it either way
    const reply = yield* this.client.syncedEvalWithRetry(
      scriptText(FAIR_ACQUIRE_FAILED, this.client.config.traits),
      [this.getThreadsQueueName(), this.getTimeoutSetName()],
      [this.getLockName(threadId), this.waitFor(waitTime)],
    );
    if (reply.t === 'error') throw exceptionFor(reply);
  }

  protected override *unlockInner(threadId: number, { requestId, attempts, onAbandoned }: UnlockRequest): Process<Reply> {
    const { client } = this;
    const { traits } = client.config;
    const keys = [this.name, this.getThreadsQueueName(), this.getTimeoutSetName(), this.getChannelName()];
    const args = [UNLOCK_MESSAGE, this.internalLockLeaseTime, this.getLockName(threadId), client.ctx.now()];
    const script = scriptText(FAIR_UNLOCK, traits);
    if (traits.unlockLatch)
      return yield* client.syncedEval(script, [...keys, this.latchKey(requestId)], [...args, ...this.latchArgs()], onAbandoned, attempts);
    if (publishInArgv(traits)) args.push(client.pubSubCommands().publish);
    return yield* client.syncedEval(script, keys, args, onAbandoned, attempts);
  }

  protected override forceUnlockScript(): ScriptCall {
    const { client } = this;
    const args: (string | number)[] = [UNLOCK_MESSAGE, client.ctx.now()];
    if (publishInArgv(client.config.traits)) args.push(client.pubSubCommands().publish);
    return [
      scriptText(FAIR_FORCE_UNLOCK, client.config.traits),
      [this.name, this.getThreadsQueueName(), this.getTimeoutSetName(), this.getChannelName()],
      args,
    ];
  }
}
