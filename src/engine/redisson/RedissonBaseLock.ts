/**
 * RedissonBaseLock: what every hash-based Redisson lock shares: names, unlock, forceUnlock, the
 * read-only helpers and the hooks into the watchdog. Methods are generators (Process<T>): a
 * `yield*` is where the Java code would block on a future.
 */
import type { Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import type { Attempts, LockServices, ScriptCall } from './executor';
import { IllegalMonitorStateException, RedisException, exceptionFor, isNoSyncedReply } from './errors';
import { UNLOCK_MESSAGE } from './pubsub/LockPubSub';
import { publishInArgv } from './scripts';
import type { RenewalService } from './renewal/RenewalService';

/** RedissonObject.prefixName: wrap the name in a cluster hash tag unless it already has one. */
export function prefixName(prefix: string, name: string): string {
  return name.includes('{') ? `${prefix}:${name}` : `${prefix}:{${name}}`;
}

export type UnlockResult = boolean | null;

/**
 * One unlock script's call: its latch id ('' without a latch), the executor's attempts so far, and
 * what runs with its reply when an interrupt abandoned the wait for it.
 */
export interface UnlockRequest {
  readonly requestId: string;
  readonly attempts?: Attempts;
  readonly onAbandoned?: (reply: Reply) => void;
}

export abstract class RedissonBaseLock {
  /** `<clientId>:<name>`: the key of this client's pub/sub entry and (≤ 3.43) renewal entry */
  readonly entryName: string;
  /** lease the scripts use when the caller gave none; the watchdog timeout unless an explicit lease stuck */
  internalLockLeaseTime: number;

  constructor(
    readonly client: LockServices,
    readonly name: string,
  ) {
    this.entryName = `${client.id}:${name}`;
    this.internalLockLeaseTime = client.config.lockWatchdogTimeout;
  }

  getName(): string {
    return this.name;
  }

  /**
   * Hash field of the owner: `<clientId>:<threadId>`. A thread's lock object asks for its own on
   * every call: handing back one string object lets V8 hash it once wherever it is a key (the
   * Lua bridge's interned strings, the lock hash's fields) instead of once per call.
   */
  getLockName(threadId: number): string {
    const last = this.lastLockName;
    if (last !== null && last.threadId === threadId) return last.name;
    const name = `${this.client.id}:${threadId}`;
    this.lastLockName = { threadId, name };
    return name;
  }

  private lastLockName: { threadId: number; name: string } | null = null;
  private channelName: string | null = null;

  getChannelName(): string {
    return (this.channelName ??= prefixName('redisson_lock__channel', this.name));
  }

  getUnlockLatchName(requestId: string): string {
    return `${prefixName('redisson_unlock_latch', this.name)}:${requestId}`;
  }

  /** Trace actor of a thread of this client. */
  actor(threadId: number): string {
    return this.client.laneOf(threadId);
  }

  /** The watchdog task this lock type registers with (read locks have their own, ReadLockTask). */
  protected renewalService(): RenewalService {
    return this.client.renewal;
  }

  protected scheduleExpirationRenewal(threadId: number): void {
    this.renewalService().renewLock(
      this.name,
      threadId,
      this.getLockName(threadId),
      () => this.internalLockLeaseTime,
    );
  }

  /** Whatever the unlock result, the watchdog stops renewing for this thread (null: all threads). */
  protected cancelExpirationRenewal(threadId: number | null, _unlockResult: UnlockResult): void {
    this.renewalService().cancelLockRenewal(
      this.name,
      threadId,
      threadId === null ? 'forceUnlock' : 'unlock',
    );
  }

  /** isExistsAsync: readAsync, so a replica answers under the default ReadMode.SLAVE */
  *isLocked(): Process<boolean> {
    return readInt(yield* this.client.readCommand(['EXISTS', this.name])) === 1;
  }

  *isHeldByThread(threadId: number): Process<boolean> {
    return readInt(yield* this.client.command(['HEXISTS', this.name, this.getLockName(threadId)])) === 1;
  }

  *getHoldCount(threadId: number): Process<number> {
    const r = yield* this.client.command(['HGET', this.name, this.getLockName(threadId)]);
    if (r.t === 'error') throw exceptionFor(r);
    return r.t === 'bulk' && r.v !== null ? Number(r.v) : 0;
  }

  /** PTTL of the lock key: -2 when there is no lock, -1 without a TTL (readAsync, as isLocked). */
  *remainTimeToLive(): Process<number> {
    return readInt(yield* this.client.readCommand(['PTTL', this.name]));
  }

  /**
   * unlock(): release one hold of this thread. Throws IllegalMonitorStateException when the thread
   * holds nothing (never locked, or its lease ran out and maybe someone else holds it now).
   * Returns the script's answer: true released (and published), false still held (reentrant).
   *
   * Retries run the script again. The executor's re-send of a lost reply is the same command, so
   * a retry whose first attempt did run finds the unlock latch and gets the same answer back.
   * A ServiceManager.execute retry (failed replica check) reuses the requestId from 3.52.0;
   * 3.24.0–3.51.x drew a new one, so such a retry finds no hold (#6651). Each attempt that
   * completes deletes its latch without waiting.
   */
  *unlock(threadId: number): Process<boolean> {
    const { client } = this;
    const { traits } = client.config;
    let requestId = traits.unlockLatch ? client.generateId() : '';
    let last: Reply | null = null;
    const reply = yield* client.retrying((attempts) => {
      // A re-sent EVAL (lost reply) is the same command; ServiceManager.execute calls
      // unlockInnerAsync again, which drew a new id before 3.52.0.
      if (last?.t === 'error' && isNoSyncedReply(last) && traits.unlockLatch && !traits.unlockRequestIdReused)
        requestId = client.generateId();
      return this.unlockAttempt(threadId, requestId, (r) => {
        last = r;
        // 3.20.1+ RedissonBaseLock.unlockAsync: ServiceManager.execute(() -> unlockAsync0(..)), whose
        // handle() cancels the renewal when each attempt ends, so an attempt that failed its
        // replica check stops the watchdog before the retry (seen by the oracle at 4.7.0)
        if (r.t === 'error' && isNoSyncedReply(r) && traits.cancelRenewalOnFailedUnlock)
          this.cancelExpirationRenewal(threadId, null);
      }, attempts);
    }, 'lock-script');
    let res: UnlockResult = null;
    let failure: RedisException | null = null;
    if (reply.t === 'error') failure = exceptionFor(reply);
    else res = reply.t === 'int' ? Number(reply.v) === 1 : null;
    if (failure || res !== null || traits.cancelRenewalOnFailedUnlock)
      this.cancelExpirationRenewal(threadId, failure ? null : res);
    if (failure) throw failure;
    if (res === null) {
      throw new IllegalMonitorStateException(
        `attempt to unlock lock, not locked by current thread by node id: ${client.id} thread-id: ${threadId}`,
      );
    }
    return res;
  }

  /** unlockInnerAsync(threadId) and its thenApply: the DEL of the latch once the script answered. */
  private *unlockAttempt(
    threadId: number,
    requestId: string,
    seen: (r: Reply) => void,
    attempts: Attempts,
  ): Process<Reply> {
    const afterScript = (r: Reply): void => this.latchDelAfter(r, requestId);
    // the DEL is chained on the script's future, so it follows a reply that an interrupted get()
    // no longer waits for too (seen by the oracle at 3.27.2: multilock-interrupted-spin)
    const reply = yield* this.unlockInner(threadId, { requestId, attempts, onAbandoned: afterScript });
    seen(reply);
    afterScript(reply);
    return reply;
  }

  /**
   * unlockInnerAsync(threadId[, requestId])'s thenApply: once the unlock script answered, the DEL
   * of its latch (also after the undo of an acquire that failed its replica check, handleNoSync).
   */
  protected latchDelAfter(reply: Reply, requestId: string): void {
    const { client } = this;
    if (reply.t !== 'error' && client.config.traits.unlockLatch)
      // 3.52.0–4.2.x deleted `latch:<client id>` instead (fixed in 4.3.0, 255aa9748)
      this.deleteLatchLater(client.config.traits.latchDelRightKey ? requestId : client.id);
  }

  protected unlockInner(threadId: number, { requestId, attempts, onAbandoned }: UnlockRequest): Process<Reply> {
    // Not a generator: its callers yield what it returns at once, so its arguments are read at
    // what was its first step (a generator per unlock less)
    const { client } = this;
    if (!client.config.traits.unlockLatch) {
      const args: (string | number)[] = [
        UNLOCK_MESSAGE,
        this.internalLockLeaseTime,
        this.getLockName(threadId),
      ];
      if (publishInArgv(client.config.traits)) args.push(client.pubSubCommands().publish);
      return client.syncedEval(client.scripts.unlock, [this.name, this.getChannelName()], args, onAbandoned, attempts);
    }
    const [publish, latchTtl] = this.latchArgs();
    return client.syncedEval(
      client.scripts.unlock,
      [this.name, this.getChannelName(), this.getUnlockLatchName(requestId)],
      [UNLOCK_MESSAGE, this.internalLockLeaseTime, this.getLockName(threadId), publish, latchTtl],
      onAbandoned,
      attempts,
    );
  }

  /** The unlock latch's key; scripts that always keep one get a fresh id from presets before 3.24, which pass none. */
  protected latchKey(requestId: string): string {
    return this.getUnlockLatchName(requestId || this.client.generateId());
  }

  /** The last ARGV of every unlock script that keeps a latch: the publish command, then the latch's TTL. */
  protected latchArgs(): [publish: string, latchTtl: number] {
    return [this.client.pubSubCommands().publish, this.unlockLatchTtl()];
  }

  /**
   * (timeout + retryDelay(retryAttempts)) × retryAttempts, at least 1 ms: how long a retried unlock
   * can still arrive. Worked out for every attempt, as Redisson does.
   */
  protected unlockLatchTtl(): number {
    const { config } = this.client;
    const t = (config.timeoutMs + this.client.retryDelay(config.retryAttempts)) * config.retryAttempts;
    return Math.max(t, 1);
  }

  /** After the script, Redisson deletes the latch key without waiting for the answer. */
  protected deleteLatchLater(requestId: string): void {
    const { client } = this;
    const key = this.getUnlockLatchName(requestId);
    // through the executor, so in a cluster a MOVED is followed like any write's
    client.ctx.spawn(client.name, `${client.name}/unlock`, client.command(['DEL', key]));
  }

  /** forceUnlock(): delete the lock whoever holds it; true if there was one (syncedEvalWithRetry). */
  *forceUnlock(): Process<boolean> {
    this.cancelExpirationRenewal(null, null);
    const [script, keys, args] = this.forceUnlockScript();
    return readInt(yield* this.client.syncedEvalWithRetry(script, keys, args)) === 1;
  }

  /** forceUnlockAsync's script, KEYS and ARGV: what each lock type changes in forceUnlock. */
  protected forceUnlockScript(): ScriptCall {
    const { client } = this;
    const args: (string | number)[] = [UNLOCK_MESSAGE];
    if (publishInArgv(client.config.traits)) args.push(client.pubSubCommands().publish);
    return [client.scripts.forceUnlock, [this.name, this.getChannelName()], args];
  }
}

function readInt(r: Reply): number {
  if (r.t === 'error') throw exceptionFor(r);
  if (r.t === 'int') return Number(r.v);
  throw new RedisException(`unexpected reply ${JSON.stringify(r)}`);
}
