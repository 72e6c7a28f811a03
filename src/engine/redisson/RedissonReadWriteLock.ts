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
import { prefixName } from './RedissonBaseLock';
import { RedissonLock } from './RedissonLock';
import { exceptionFor } from './errors';
import { READ_UNLOCK_MESSAGE, UNLOCK_MESSAGE } from './pubsub/LockPubSub';
import type { RenewalService } from './renewal/RenewalService';
import { readKeyPrefix, readLockTaskOf } from './renewal/ReadLockTask';
import readLockLua from './scripts/read_lock.lua?raw';
import readUnlockLua from './scripts/read_unlock.lua?raw';
import writeLockLua from './scripts/write_lock.lua?raw';
import writeUnlockLua from './scripts/write_unlock.lua?raw';
import rwForceUnlockLua from './scripts/rw_force_unlock.lua?raw';
import { trustScriptBodies } from '../redis/script_lua';

/**
 * Up to 3.43 the unlock scripts answered 1 when the lock key was gone (published, "released");
 * 3.44.0 (1ce49b7a2) made that nil, an IllegalMonitorStateException. Same text otherwise.
 */
function missingKeyReturnsOne(script: string, publish: string): string {
  const from = `redis.call(${publish}, KEYS[2], ARGV[1]);\n    return nil;`;
  if (!script.includes(from)) throw new Error('unlock script changed: update missingKeyReturnsOne');
  return script.replace(from, `redis.call(${publish}, KEYS[2], ARGV[1]);\n    return 1;`);
}
const readUnlockLua343 = missingKeyReturnsOne(readUnlockLua, 'ARGV[3]');
const writeUnlockLua343 = missingKeyReturnsOne(writeUnlockLua, 'ARGV[4]');
// Redisson scripts too, built here: a Lua state that ran them may serve another node (script_lua.ts)
trustScriptBodies([readUnlockLua343, writeUnlockLua343]);

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
    const msg = this.mode === 'write' ? READ_UNLOCK_MESSAGE : UNLOCK_MESSAGE;
    return [
      rwForceUnlockLua,
      [this.name, this.getChannelName()],
      [msg, this.mode, this.client.pubSubCommands().publish],
    ];
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
      readLockLua,
      [this.name, this.getReadWriteTimeoutNamePrefix(threadId)],
      [lease, this.getLockName(threadId), this.getWriteLockName(threadId)],
    ];
  }

  protected override *unlockInner(threadId: number, requestId: string): Process<Reply> {
    const old = this.client.config.traits.rwUnlockMissingKeyReturnsTrue;
    return yield* this.client.syncedEval(
      old ? readUnlockLua343 : readUnlockLua,
      [
        this.name,
        this.getChannelName(),
        this.getReadWriteTimeoutNamePrefix(threadId),
        this.getKeyPrefix(),
        this.latchKey(requestId),
      ],
      [UNLOCK_MESSAGE, this.getLockName(threadId), ...this.latchArgs()],
    );
  }
}

export class RedissonWriteLock extends RwHalf {
  protected readonly mode = 'write';

  override getLockName(threadId: number): string {
    return `${super.getLockName(threadId)}:write`;
  }

  protected override acquireScript(lease: number, threadId: number): ScriptCall {
    return [writeLockLua, [this.name], [lease, this.getLockName(threadId)]];
  }

  protected override *unlockInner(threadId: number, requestId: string): Process<Reply> {
    const old = this.client.config.traits.rwUnlockMissingKeyReturnsTrue;
    return yield* this.client.syncedEval(
      old ? writeUnlockLua343 : writeUnlockLua,
      [this.name, this.getChannelName(), this.latchKey(requestId)],
      [READ_UNLOCK_MESSAGE, this.internalLockLeaseTime, this.getLockName(threadId), ...this.latchArgs()],
    );
  }
}
