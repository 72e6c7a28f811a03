/**
 * One simulated Redisson client (one JVM): its id (ServiceManager.id, a UUID), its connections,
 * the script executor, the lock pub/sub service and the watchdog. `getLock(name)` hands out
 * RLocks the way `redisson.getLock(name)` does.
 *
 * Connections: one command connection and one pub/sub connection per node, opened on first use.
 * Every call is interruptible: a thread interrupted while it waits for a reply gets
 * RedisException(InterruptedException) at once, as CommandAsyncService.get() throws (the command
 * still runs); the watchdog and pub/sub processes are never interrupted.
 * Scripts: with `useScriptCache` (newer releases) the client sends EVALSHA with the SHA-1 it
 * computes itself and, on NOSCRIPT, SCRIPT LOAD followed by the same EVALSHA, as
 * CommandAsyncService.evalAsync does; older releases send plain EVAL with the full text.
 * Cluster mode (useClusterServers): each command goes to the master of its key's slot in the
 * slot map (kept by the topology, rescanned every scanInterval); a MOVED reply is followed to
 * the node it names (RedisExecutor.handleRedirect) and refreshes the map.
 */
import type { SimContext } from '../sim/api';
import {
  CALL_INTERRUPTED,
  acquire,
  call,
  isCallTimeout,
  sleep,
  type CallOptions,
  type ConnectionRef,
  type Process,
} from '../sim/effects';
import type { Reply } from '../redis/reply';
import { error } from '../redis/reply';
import { NO_SYNCED_SLAVES, NO_SYNCED_SLAVES_OLD, isNoSyncedReply, noSyncedReply } from './errors';
import { scriptSha } from '../redis/eval';
import { commandKeys } from '../redis/server';
import { compareVersions } from './versions';
import { threadActor } from '../trace/actors';
import { redissonConfig, type RedissonConfig, type RedissonSettings } from './config';
import { lockScripts, withEditedScripts, type LockScripts } from './scripts';
import { LockPubSub } from './pubsub/LockPubSub';
import { RedissonLock } from './RedissonLock';
import { newRenewalService, type RenewalService } from './renewal/RenewalService';
import type { LockServices, PubSubCommands, RetryKind, ScriptArgs } from './executor';

/** RedisExecutor follows redirects without counting them as attempts; a bound keeps a loop finite. */
const MAX_REDIRECTS = 5;
const CLASSIC: PubSubCommands = { subscribe: 'SUBSCRIBE', unsubscribe: 'UNSUBSCRIBE', publish: 'PUBLISH' };
const SHARDED: PubSubCommands = { subscribe: 'SSUBSCRIBE', unsubscribe: 'SUNSUBSCRIBE', publish: 'SPUBLISH' };

export class RedissonClient implements LockServices {
  readonly config: RedissonConfig;
  readonly scripts: LockScripts;
  /** ServiceManager.getId(): the UUID every lock name of this client starts with */
  readonly id: string;
  readonly pubSub: LockPubSub;
  readonly renewal: RenewalService;
  readonly pinnedNode: string | undefined;
  /** useClusterServers: commands route by key slot */
  readonly clusterMode: boolean;
  private readonly commandConns = new Map<string, ConnectionRef>();
  /** MasterSlaveEntry's cached replica count per master (connected_slaves); absent: read it again */
  private readonly availableSlaves = new Map<string, number>();
  private readonly ids;
  /** the instances pinned to one node each (onNode) */
  private readonly pinned = new Map<string, RedissonClient>();

  constructor(
    readonly ctx: SimContext,
    /** the scenario's client id ("A"); trace actors are "<name>:<threadId>" */
    readonly name: string,
    settings: RedissonSettings = {},
    /**
     * A Redisson instance of the same application connected to one given node (RedLock over
     * independent masters): its own connections, pub/sub, watchdog and id.
     */
    pin?: { readonly node?: string; readonly cluster?: boolean },
  ) {
    this.config = redissonConfig(settings);
    this.scripts = withEditedScripts(lockScripts(this.config.traits), this.config.scripts);
    this.pinnedNode = pin?.node;
    this.clusterMode = pin?.cluster === true;
    // Every Redisson.create() draws its own ServiceManager.id (UUID.randomUUID()).
    const instance = pin?.node === undefined ? name : `${name}@${pin.node}`;
    this.id = uuidFrom(ctx.rng(`redisson.uuid:${instance}`).hex(16));
    this.ids = ctx.rng(`redisson.ids:${name}`);
    this.pubSub = new LockPubSub(this);
    this.renewal = newRenewalService(this);
  }

  /** owner id -> the lane its events are drawn on, when not its own thread's ("A:<id>") */
  private readonly lanes = new Map<number, string>();

  /** Events about owner `threadId` (a lockAsync(threadId) id) go on `actor`'s lane. */
  bindLane(threadId: number, actor: string): void {
    if (actor !== threadActor(this.name, threadId)) this.lanes.set(threadId, actor);
  }

  laneOf(threadId: number): string {
    return this.lanes.get(threadId) ?? threadActor(this.name, threadId);
  }

  /** RedissonClient.getLock(name). Each call returns a new object, as in Redisson. */
  getLock(lockName: string): RedissonLock {
    return new RedissonLock(this, lockName);
  }

  /**
   * The Redisson instance of this application that talks to one given node (an application
   * builds one RedissonClient per independent master and a RedLock over their locks). Each has
   * its own id, so a thread's lock name differs from master to master.
   */
  onNode(node: string): RedissonClient {
    let c = this.pinned.get(node);
    if (!c) {
      c = new RedissonClient(this.ctx, this.name, this.config, { node });
      this.pinned.set(node, c);
    }
    return c;
  }

  /** The node this client currently sends commands to (in a cluster: the master of `key`'s slot). */
  master(key?: string): string {
    return this.ctx.masterFor(this.name, this.pinnedNode, key);
  }

  connection(node = this.master()): ConnectionRef {
    let c = this.commandConns.get(node);
    if (!c) {
      c = this.ctx.connect(this.name, node, `${this.name}/cmd`);
      this.commandConns.set(node, c);
    }
    return c;
  }

  /**
   * How every call of this client is sent: interruptible (CommandAsyncService.get()), and failed
   * with "Command still hasn't been written into connection!" when its event loop cannot write
   * it for retryAttempts + 1 ticks of the retry timer (RedisExecutor.scheduleRetryTimeout; the
   * model ticks at retryDelayMs, without EqualJitter's spread).
   */
  private callOptions(onAbandonedReply?: (reply: Reply) => void, timeoutMs?: number): CallOptions {
    const { retryAttempts, retryDelayMs } = this.config;
    return {
      interruptible: true,
      writeTimeoutMs: retryDelayMs * (retryAttempts + 1),
      ...(onAbandonedReply === undefined ? {} : { onAbandonedReply }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
  }

  *command(argv: readonly string[]): Process<Reply> {
    if (!this.clusterMode) return yield* call(this.connection(), argv, this.callOptions());
    return (yield* this.send(this.master(commandKeys(argv)?.[0]), argv))[0];
  }

  /**
   * One call to `node`, following MOVED to the node it names (RedisExecutor.handleRedirect; a
   * second MOVED to the same address is Redisson's "MOVED redirection loop detected" and ends it).
   * Returns the reply and the node that gave it.
   */
  private *send(
    node: string,
    argv: readonly string[],
    onAbandoned?: (reply: Reply) => void,
  ): Process<[Reply, string]> {
    let target = node;
    for (let hops = 0; ; hops++) {
      const reply = yield* call(this.connection(target), argv, this.callOptions(onAbandoned));
      const moved = this.clusterMode && reply.t === 'error' ? /^MOVED \d+ (\S+)$/.exec(reply.v) : null;
      if (moved === null || hops >= MAX_REDIRECTS) return [reply, target];
      const next = this.ctx.redirect?.(this.name, moved[1]) ?? null;
      if (next === null || next === target) return [reply, target];
      target = next;
    }
  }

  /** evalWriteAsync: run a script on the current master (in a cluster: its first key's). */
  *eval(script: string, keys: readonly string[], args: readonly (string | number)[]): Process<Reply> {
    return (yield* this.evalOn(script, keys, args))[0];
  }

  /** The script's reply and the node that ran it (where WAIT must go). */
  private *evalOn(
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
  ): Process<[Reply, string]> {
    const node = this.master(keys[0]);
    const tail = [String(keys.length), ...keys, ...args.map(String)];
    if (!this.config.traits.useScriptCache)
      return yield* this.send(node, ['EVAL', script, ...tail], onAbandoned);
    const sha = scriptSha(script);
    const [first, at] = yield* this.send(node, ['EVALSHA', sha, ...tail], onAbandoned);
    if (first.t !== 'error' || !first.v.startsWith('NOSCRIPT')) return [first, at];
    const conn = this.connection(at);
    const loaded = yield* call(conn, ['SCRIPT', 'LOAD', script], this.callOptions());
    if (loaded.t === 'error') return [loaded, at];
    return [yield* call(conn, ['EVALSHA', sha, ...tail], this.callOptions(onAbandoned)), at];
  }

  /** The lock channel's commands: sharded in a Redis 7 cluster from 3.22.0, classic otherwise. */
  pubSubCommands(): PubSubCommands {
    return this.clusterMode && this.config.traits.shardedLockPubSub ? SHARDED : CLASSIC;
  }

  /**
   * CommandAsyncService.syncedEval: the script, then `WAIT <replicas> slavesSyncTimeout` on the
   * same connection when the version has it and the master has replicas (none in single-server
   * mode). Redisson pipelines the two; here WAIT leaves when the script's reply is back, one
   * round trip later. 0 acks with checkLockSyncedSlaves come back as the NO_SYNCED_SLAVES error
   * (NoSyncedSlavesException); a count other than expected makes the next call re-read it.
   */
  *syncedEval(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    onAbandoned?: (reply: Reply) => void,
  ): Process<Reply> {
    const [reply, node] = yield* this.evalOn(script, keys, args, onAbandoned);
    if (reply.t === 'error' || !this.config.traits.syncedEval) return reply;
    let expected = this.availableSlaves.get(node);
    if (expected === undefined) {
      expected = this.ctx.replicasOf?.(node) ?? 0;
      this.availableSlaves.set(node, expected);
    }
    if (expected === 0) return reply;
    // the batch completes the script's future once WAIT is answered too
    const w = yield* call(
      this.connection(node),
      ['WAIT', String(expected), String(this.config.slavesSyncTimeout)],
      // the EVAL+WAIT batch's response timeout is timeout + slavesSyncTimeout
      this.callOptions(
        onAbandoned && (() => onAbandoned(reply)),
        this.config.timeoutMs + this.config.slavesSyncTimeout,
      ),
    );
    if (w.t === 'error') return w;
    const synced = w.t === 'int' ? Number(w.v) : 0;
    if (synced !== expected) this.availableSlaves.delete(node);
    const failed = this.noSyncedFailure(synced, expected);
    return failed === null ? reply : error(failed);
  }

  /**
   * The replica check of the release: none before 3.16.7; "all must ack" (IllegalStateException
   * "Only x of y slaves were synced") 3.16.7–3.17.4; "0 acks fail" from 3.17.5, whose message
   * got longer in 3.25.0 and whose class became NoSyncedSlavesException in 3.47.0.
   */
  private noSyncedFailure(synced: number, expected: number): string | null {
    const { traits, checkLockSyncedSlaves } = this.config;
    if (traits.replicaCheck === 'none') return null;
    if (traits.replicaCheck === 'all')
      return synced < expected
        ? noSyncedReply('IllegalStateException', `Only ${synced} of ${expected} slaves were synced`)
        : null;
    if (!checkLockSyncedSlaves || synced !== 0) return null;
    if (compareVersions(traits.release, '3.25.0') < 0)
      return noSyncedReply('IllegalStateException', NO_SYNCED_SLAVES_OLD);
    if (compareVersions(traits.release, '3.47.0') < 0)
      return noSyncedReply('IllegalStateException', NO_SYNCED_SLAVES);
    return noSyncedReply('NoSyncedSlavesException', NO_SYNCED_SLAVES);
  }

  /**
   * syncedEval with Redisson's retries (syncedEvalWithRetry; the watchdog's renew and forceUnlock
   * use it): see `retrying`.
   */
  *syncedEvalWithRetry(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Process<Reply> {
    return yield* this.retrying(() => this.syncedEval(script, keys, args));
  }

  /**
   * ServiceManager.execute with the executor's own retries: `attempt` runs again while it ends in
   * a failed replica check (only where Redisson recognises it: 3.20.1–3.24.x and 3.47+; never for
   * `resend`, a call outside ServiceManager.execute) or a response timeout (RedisExecutor
   * re-sends; since 3.37 a `lock-script` is sent with noRetry in single-server mode), at most
   * retryAttempts more times, retryDelay(n) after the n-th failure. Any other answer, or the last
   * failure, is returned.
   */
  *retrying(attempt: () => Process<Reply>, kind: RetryKind = 'execute'): Process<Reply> {
    for (let n = 1; ; n++) {
      const reply = yield* attempt();
      if (!this.isRetryable(reply, kind) || n > this.config.retryAttempts)
        return yield* this.batchOutcome(reply);
      yield* sleep(this.retryDelay(n));
    }
  }

  /**
   * What the caller of a lock script sees once its batch gave up. 3.12.5 sends every lock script
   * as a CommandBatchService batch (RedissonLock.evalWriteAsync) and a batch that fails without
   * a reply (Redis down, response timeout after the retries) fails only the batch's own promise,
   * not the EVAL's (#2790, fixed in 3.13.0): the EVAL's future never completes, so a thread
   * waiting on it blocks until it is interrupted and a watchdog round never reschedules.
   */
  *batchOutcome(reply: Reply): Process<Reply> {
    if (!this.config.traits.batchFailureHangs || !isCallTimeout(reply)) return reply;
    yield* acquire(this.ctx.semaphore(), undefined, true);
    return error(CALL_INTERRUPTED);
  }

  /** Would Redisson send this again? */
  private isRetryable(reply: Reply, kind: RetryKind): boolean {
    if (reply.t !== 'error') return false;
    if (isNoSyncedReply(reply))
      return kind !== 'resend' && this.config.traits.noSyncHandling === 'undo-retry';
    if (!isCallTimeout(reply)) return false;
    return kind !== 'lock-script' || this.resendsLockScripts();
  }

  /**
   * Does a lost reply to a lock or unlock script get re-sent? Up to 3.36 always; from 3.37 only
   * on the batch path, which Redisson takes when the master has replicas (single-server mode,
   * here a master without replicas, sends them with noRetry).
   */
  resendsLockScripts(): boolean {
    if (this.config.traits.resendLockScriptsOnTimeout === 'always') return true;
    return (this.ctx.replicasOf?.(this.master()) ?? 0) > 0;
  }

  /** ServiceManager.generateId(): 16 random bytes as hex (unlock request ids). */
  generateId(): string {
    return this.ids.hex(16);
  }

  /**
   * RetryDelay.calcDelay(attempt), attempt counting from 1 as ServiceManager.execute does:
   * EqualJitterDelay(base, 2 s) since 3.48, the constant retryInterval before.
   */
  retryDelay(attempt: number): number {
    const base = this.config.retryDelayMs;
    if (!this.config.traits.equalJitterRetryDelay) return base;
    const capped = Math.min(base * 2 ** attempt, 2000);
    const half = Math.floor(capped / 2);
    return half + this.ids.int(0, half);
  }
}

/** 16 random bytes shaped as a version-4 UUID string, like UUID.randomUUID(). */
function uuidFrom(hex: string): string {
  const b = hex.split('');
  b[12] = '4';
  b[16] = '89ab'[parseInt(b[16], 16) & 3];
  const s = b.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}
