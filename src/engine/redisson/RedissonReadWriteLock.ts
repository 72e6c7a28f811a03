/**
 * RedissonReadWriteLock: one hash `name` shared by a read half and a write half.
 *
 *   mode                       'read' | 'write'
 *   <uuid>:<tid>               a reader's hold count
 *   <uuid>:<tid>:write         the writer's hold count
 *   {name}:<uuid>:<tid>:rwlock_timeout:<n>   one STRING per read hold, with its own TTL
 *
 * Any number of readers, or one writer (who may also read). A reader cannot upgrade. Both halves
 * wait on the channel `redisson_rwlock:{name}`; a writer's final unlock publishes
 * READ_UNLOCK_MESSAGE, which wakes every waiting thread, so queued readers all get in at once.
 */
import type { Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import type { LockServices, ScriptCall } from './executor';
import { prefixName, type UnlockRequest } from './RedissonBaseLock';
import { RedissonLock } from './RedissonLock';
import { exceptionFor } from './errors';
import { READ_UNLOCK_MESSAGE, UNLOCK_MESSAGE } from './pubsub/LockPubSub';
import type { RenewalService } from './renewal/RenewalService';
import { readKeyPrefix, readLockTaskOf } from './renewal/ReadLockTask';
import {
  READ_FORCE_UNLOCK,
  READ_IS_LOCKED,
  READ_LOCK,
  READ_UNLOCK,
  WRITE_FORCE_UNLOCK,
  WRITE_LOCK,
  WRITE_UNLOCK,
} from './scripts/RedissonReadWriteLock';
import { publishInArgv, scriptText } from './scripts';
import { compareVersions } from './versions';

/** RedissonObject.suffixName: `{name}:suffix`, or `name:suffix` when the name already has a tag. */
export function suffixName(name: string, suffix: string): string {
  return name.includes('{') ? `${name}:${suffix}` : `{${name}}:${suffix}`;
}

/** redisson.getReadWriteLock(name): hands out the two halves. */
export class RedissonReadWriteLock {
  constructor(
    readonly client: LockServices,
    readonly name: string,
  ) {}

  readLock(): RedissonReadLock {
    return new RedissonReadLock(this.client, this.name);
  }

  writeLock(): RedissonWriteLock {
    return new RedissonWriteLock(this.client, this.name);
  }
}

abstract class RwHalf extends RedissonLock {
  override getChannelName(): string {
    return prefixName('redisson_rwlock', this.name);
  }

  protected abstract readonly mode: 'read' | 'write';

  /** forceUnlock: delete the lock only while it is in this half's mode. */
  protected override forceUnlockScript(): ScriptCall {
    const { traits } = this.client.config;
    const args: (string | number)[] = [this.mode === 'write' ? READ_UNLOCK_MESSAGE : UNLOCK_MESSAGE];
    if (publishInArgv(traits)) args.push(this.client.pubSubCommands().publish);
    const script = scriptText(this.mode === 'write' ? WRITE_FORCE_UNLOCK : READ_FORCE_UNLOCK, traits);
    return [script, [this.name, this.getChannelName()], args];
  }

  /**
   * An unlock script's KEYS and ARGV as the release sends them: the latch key and its TTL from
   * 3.24, the publish command from 3.22.
   */
  protected unlockCall(
    family: typeof READ_UNLOCK,
    keys: string[],
    args: (string | number)[],
    { requestId, attempts, onAbandoned }: UnlockRequest,
  ): Process<Reply> {
    const { client } = this;
    const { traits } = client.config;
    const script = scriptText(family, traits);
    if (traits.unlockLatch)
      return client.syncedEval(script, [...keys, this.latchKey(requestId)], [...args, ...this.latchArgs()], onAbandoned, attempts);
    if (publishInArgv(traits)) args.push(client.pubSubCommands().publish);
    return client.syncedEval(script, keys, args, onAbandoned, attempts);
  }

  /**
   * RedissonReadLock / RedissonWriteLock.isLocked(): `HGET name mode` equals this half's mode, so
   * a read lock asked while the key is write-locked answers false.
   */
  override *isLocked(): Process<boolean> {
    const reply = yield* this.client.command(['HGET', this.name, 'mode']);
    if (reply.t === 'error') throw exceptionFor(reply);
    return reply.t === 'bulk' && reply.v === this.mode;
  }
}

export class RedissonReadLock extends RwHalf {
  protected readonly mode = 'read';

  /**
   * 3.24.0+ RedissonReadLock.isLocked: a script (evalWriteAsync), true in read mode and in write
   * mode when the writer also holds read locks (more than the mode and its own field); before,
   * `HGET name mode` is `read`.
   */
  override *isLocked(): Process<boolean> {
    const { traits } = this.client.config;
    if (compareVersions(traits.release, READ_IS_LOCKED.variants[0].since) < 0) return yield* super.isLocked();
    const reply = yield* this.client.eval(scriptText(READ_IS_LOCKED, traits), [this.name], []);
    if (reply.t === 'error') throw exceptionFor(reply);
    return reply.t === 'int' && Number(reply.v) === 1;
  }

  /** `{name}`: where the hold timeout keys of every reader start. */
  getKeyPrefix(): string {
    return readKeyPrefix(this.name);
  }

  getReadWriteTimeoutNamePrefix(threadId: number): string {
    return `${suffixName(this.name, this.getLockName(threadId))}:rwlock_timeout`;
  }

  getWriteLockName(threadId: number): string {
    return `${super.getLockName(threadId)}:write`;
  }

  protected override renewalService(): RenewalService {
    return readLockTaskOf(this.client);
  }

  protected override acquireScript(lease: number, threadId: number): ScriptCall {
    return [
      scriptText(READ_LOCK, this.client.config.traits),
      [this.name, this.getReadWriteTimeoutNamePrefix(threadId)],
      [lease, this.getLockName(threadId), this.getWriteLockName(threadId)],
    ];
  }

  protected override *unlockInner(threadId: number, req: UnlockRequest): Process<Reply> {
    return yield* this.unlockCall(
      READ_UNLOCK,
      [this.name, this.getChannelName(), this.getReadWriteTimeoutNamePrefix(threadId), this.getKeyPrefix()],
      [UNLOCK_MESSAGE, this.getLockName(threadId)],
      req,
    );
  }
}

export class RedissonWriteLock extends RwHalf {
  protected readonly mode = 'write';

  override getLockName(threadId: number): string {
    return `${super.getLockName(threadId)}:write`;
  }

  protected override acquireScript(lease: number, threadId: number): ScriptCall {
    return [
      scriptText(WRITE_LOCK, this.client.config.traits),
      [this.name],
      [lease, this.getLockName(threadId)],
    ];
  }

  protected override *unlockInner(threadId: number, req: UnlockRequest): Process<Reply> {
    return yield* this.unlockCall(
      WRITE_UNLOCK,
      [this.name, this.getChannelName()],
      [READ_UNLOCK_MESSAGE, this.internalLockLeaseTime, this.getLockName(threadId)],
      req,
    );
  }
}
