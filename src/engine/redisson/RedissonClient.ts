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
 * slot map (kept by the topology, rescanned every scanInterval); a MOVED reply sends that one
 * command on to the node it names (RedisExecutor), the map changes only at the next scan.
 */
import type { SimContext } from '../sim/api';
import {
  CALL_INTERRUPTED,
  acquire,
  callRecord,
  isCallTimeout,
  sleep,
  type ConnectionRef,
  type Effect,
  type Process,
} from '../sim/effects';
import type { Reply } from '../redis/reply';
import { error } from '../redis/reply';
import { isNoSyncedReply } from './errors';
import { scriptSha } from '../redis/eval';
import { commandKeys } from '../redis/server';
import { threadActor } from '../trace/actors';
import { SyncedEval } from './synced_eval';
import { ClusterRoute } from './cluster_route';
import { redissonConfig, type RedissonConfig, type RedissonSettings } from './config';
import { lockScripts, withEditedScripts, type LockScripts } from './scripts';
import { LockPubSub } from './pubsub/LockPubSub';
import { RedissonLock } from './RedissonLock';
import { newRenewalService, type RenewalService } from './renewal/RenewalService';
import type { Attempts, LockServices, PubSubCommands, RetryKind, ScriptArgs } from './executor';

const CLASSIC: PubSubCommands = { subscribe: 'SUBSCRIBE', unsubscribe: 'UNSUBSCRIBE', publish: 'PUBLISH' };
const SHARDED: PubSubCommands = { subscribe: 'SSUBSCRIBE', unsubscribe: 'SUNSUBSCRIBE', publish: 'SPUBLISH' };

export function isNoScript(reply: Reply): boolean {
  return reply.t === 'error' && reply.v.startsWith('NOSCRIPT');
}

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
  /** useSingleServer (also over a master with replicas, and each instance of a RedLock): no WAIT */
  readonly singleConfig: boolean;
  private readonly ids;
  /** RoundRobinLoadBalancer's counter, per master entry */
  private readonly readTurns = new Map<string, number>();
  /** command connections to replicas that said READONLY (cluster) */
  private readonly readonlyConns = new Set<ConnectionRef>();
  /** PublishSubscribeService.shardingSupported, once the probe ran */
  private shardingSupported: boolean | undefined;
  /** the instances pinned to one node each (onNode) */
  private readonly pinned = new Map<string, RedissonClient>();
  /** syncedEval's WAIT paths and what they remember per client */
  private readonly synced = new SyncedEval(this);
  /** how a command is sent in a cluster: MOVED, CLUSTERDOWN (RedisExecutor) */
  readonly route = new ClusterRoute(this);

  constructor(
    readonly ctx: SimContext,
    /** the scenario's client id ("A"); trace actors are "<name>:<threadId>" */
    readonly name: string,
    settings: RedissonSettings = {},
    /**
     * A Redisson instance of the same application connected to one given node (RedLock over
     * independent masters): its own connections, pub/sub, watchdog and id.
     */
    pin?: { readonly node?: string; readonly cluster?: boolean; readonly sentinel?: boolean },
  ) {
    this.config = redissonConfig(settings);
    this.scripts = withEditedScripts(lockScripts(this.config.traits), this.config.scripts);
    this.pinnedNode = pin?.node;
    this.clusterMode = pin?.cluster === true;
    this.singleConfig = !this.clusterMode && pin?.sentinel !== true;
    // Every Redisson.create() draws its own ServiceManager.id (UUID.randomUUID()).
    const instance = pin?.node === undefined ? name : `${name}@${pin.node}`;
    this.id = uuidFrom(ctx.rng(`redisson.uuid:${instance}`).hex(16));
    this.ids = ctx.rng(`redisson.ids:${name}`);
    this.pubSub = new LockPubSub(this);
    this.renewal = newRenewalService(this);
  }

  /** owner id -> the lane its events are drawn on, when not its own thread's ("A:<id>") */
  private readonly lanes = new Map<number, string>();

  /**
   * owner id -> its own thread's actor ("A:<id>"), made once: one string object per actor, which
   * the checkers' maps hash once, instead of a new one for every event about that owner
   */
  private readonly ownLanes = new Map<number, string>();

  /** Events about owner `threadId` (a lockAsync(threadId) id) go on `actor`'s lane. */
  bindLane(threadId: number, actor: string): void {
    if (actor !== this.ownLane(threadId)) this.lanes.set(threadId, actor);
  }

  laneOf(threadId: number): string {
    return this.lanes.get(threadId) ?? this.ownLane(threadId);
  }

  private ownLane(threadId: number): string {
    let actor = this.ownLanes.get(threadId);
    if (actor === undefined) {
      actor = threadActor(this.name, threadId);
      this.ownLanes.set(threadId, actor);
    }
    return actor;
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
   * model ticks at retryDelayMs, without EqualJitter's spread). The effect to yield (also
   * cluster_route.ts's).
   */
  callStep(
    conn: ConnectionRef,
    argv: readonly string[],
    onAbandonedReply?: (reply: Reply) => void,
    timeoutMs?: number,
  ): Effect {
    // the effect itself, in one object: options handed to `call` were copied into a new effect
    // (and `yield* call(...)` made a generator) for each of the run's commands
    const { retryAttempts, retryDelayMs } = this.config;
    return callRecord(conn, argv, true, onAbandonedReply, timeoutMs, retryDelayMs * (retryAttempts + 1));
  }

  /** One call as this client sends every call (callStep), resumed with its reply (also SyncedEval's). */
  *call(
    conn: ConnectionRef,
    argv: readonly string[],
    onAbandonedReply?: (reply: Reply) => void,
    timeoutMs?: number,
  ): Process<Reply> {
    return (yield this.callStep(conn, argv, onAbandonedReply, timeoutMs)) as Reply;
  }

  *command(argv: readonly string[], routeKey?: string): Process<Reply> {
    if (!this.clusterMode) return (yield this.callStep(this.connection(), argv)) as Reply;
    const key = commandKeys(argv)?.[0] ?? routeKey;
    return (yield* this.route.send(this.master(key), argv, key))[0];
  }

  /**
   * readAsync under the default ReadMode.SLAVE (BaseMasterSlaveServersConfig; 3.11.6 to 4.7.0):
   * the key's master's replicas take the read in turn (RoundRobinLoadBalancer: the n-th read goes
   * to replica n mod count), the master only when it has none. In a cluster the connection to a
   * replica first says READONLY (ClusterConnectionManager), or the replica would answer MOVED.
   * The replica answers from its own copy, so under replication lag the answer can be stale.
   */
  *readCommand(argv: readonly string[]): Process<Reply> {
    const key = commandKeys(argv)?.[0];
    const master = this.pinnedNode === undefined ? this.master(key) : this.pinnedNode;
    const replicas = this.ctx.readReplicas?.(this.name, master) ?? [];
    if (replicas.length === 0) return yield* this.command(argv);
    const turn = (this.readTurns.get(master) ?? 0) + 1;
    this.readTurns.set(master, turn);
    const replica = replicas[turn % replicas.length];
    const conn = this.connection(replica);
    if (!this.clusterMode) return (yield this.callStep(conn, argv)) as Reply;
    if (!this.readonlyConns.has(conn)) {
      this.readonlyConns.add(conn);
      yield* this.call(conn, ['READONLY']);
    }
    return (yield* this.route.send(replica, argv, key))[0];
  }

  /** evalWriteAsync: run a script on the current master (in a cluster: its first key's). */
  eval(script: string, keys: readonly string[], args: readonly (string | number)[]): Process<Reply> {
    return this.evalOn(script, keys, args);
  }

  /**
   * The script's reply; the node that ran it (where WAIT must go) into `ranOn` when given. (A
   * pair answered on every script run, and a generator around this one to take its reply out.)
   */
  evalOn(
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
    ranOn?: { node: string },
  ): Process<Reply> {
    // decided when the caller yields it: outside a cluster, with the script cache, a script run
    // is one EVALSHA (no MOVED, no CLUSTERDOWN), and a generator of few slots makes it
    if (this.config.traits.useScriptCache && !this.clusterMode)
      return this.evalSha(script, keys, args, onAbandoned, ranOn);
    return this.evalRouted(script, keys, args, onAbandoned, attempts, ranOn);
  }

  /** evalOn outside a cluster with the script cache: EVALSHA to the master, loaded first on NOSCRIPT. */
  private *evalSha(
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
    ranOn?: { node: string },
  ): Process<Reply> {
    // the master as it is when the process runs (a failover may come between making and running it)
    const node = this.master(keys[0]);
    if (ranOn !== undefined) ranOn.node = node;
    const argv = scriptArgv('EVALSHA', scriptSha(script), keys, args);
    const abandoned = this.reloadWhenAbandoned(node, script, keys, args, onAbandoned);
    const reply = (yield this.callStep(this.connection(node), argv, abandoned)) as Reply;
    if (!isNoScript(reply)) return reply;
    return yield* this.loadAndEvalSha(node, script, keys, args, onAbandoned);
  }

  /**
   * What an EVALSHA's reply does once nobody waits for it (an interrupted get()): the NOSCRIPT
   * retry is chained on the command's own future (CommandAsyncService.evalAsync), so it still loads
   * the script and runs it again, and what was chained after the script gets that run's reply.
   */
  private reloadWhenAbandoned(
    node: string,
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned: ((reply: Reply) => void) | undefined,
  ): (reply: Reply) => void {
    return (reply) => {
      if (!isNoScript(reply)) {
        onAbandoned?.(reply);
        return;
      }
      this.ctx.spawn(this.name, `${this.name}/script`, this.scriptInBackground(true, node, script, keys, args, onAbandoned));
    };
  }

  /** The rest of a script's chain once nobody waits for it: (SCRIPT LOAD and) EVALSHA, then its callbacks. */
  private *scriptInBackground(
    load: boolean,
    node: string,
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned: ((reply: Reply) => void) | undefined,
  ): Process<void> {
    const r = load
      ? yield* this.loadAndEvalSha(node, script, keys, args)
      : yield* this.call(this.connection(node), scriptArgv('EVALSHA', scriptSha(script), keys, args));
    onAbandoned?.(r);
  }

  /** evalOn through `send`: in a cluster (MOVED, CLUSTERDOWN), or plain EVAL without the script cache. */
  private *evalRouted(
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
    ranOn?: { node: string },
  ): Process<Reply> {
    const node = this.master(keys[0]);
    const cached = this.config.traits.useScriptCache;
    const argv = cached
      ? scriptArgv('EVALSHA', scriptSha(script), keys, args)
      : scriptArgv('EVAL', script, keys, args);
    const abandoned = cached
      ? (r: Reply, at: string) => this.reloadWhenAbandoned(at, script, keys, args, onAbandoned)(r)
      : onAbandoned;
    const [reply, at] = yield* this.route.send(node, argv, keys[0], abandoned, attempts);
    if (ranOn !== undefined) ranOn.node = at;
    if (!cached || !isNoScript(reply)) return reply;
    return yield* this.loadAndEvalSha(at, script, keys, args, onAbandoned);
  }

  /** NOSCRIPT: SCRIPT LOAD on `node`, then the same EVALSHA again (CommandAsyncService.evalAsync). */
  private *loadAndEvalSha(
    node: string,
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
  ): Process<Reply> {
    const conn = this.connection(node);
    // the EVALSHA is chained on the SCRIPT LOAD's future: an interrupt while it loads does not stop it
    const loaded = yield* this.call(conn, ['SCRIPT', 'LOAD', script], (r) => {
      if (r.t !== 'error')
        this.ctx.spawn(this.name, `${this.name}/script`, this.scriptInBackground(false, node, script, keys, args, onAbandoned));
    });
    if (loaded.t === 'error') return loaded;
    return yield* this.call(conn, scriptArgv('EVALSHA', scriptSha(script), keys, args), onAbandoned);
  }

  /** The lock channel's commands: sharded where the release's probe found sharding, classic otherwise. */
  pubSubCommands(): PubSubCommands {
    if (!this.clusterMode) return CLASSIC;
    this.shardingSupported ??= this.detectSharding();
    return this.shardingSupported ? SHARDED : CLASSIC;
  }

  /**
   * PublishSubscribeService.isShardingSupported, decided once at start by the release's probe.
   * 3.22–3.26 send SPUBLISH "" "" to the first seed node (here the master of slot 0, as the seed
   * list starts with it), 3.27.x to getEntrySet().iterator().next(): a ConcurrentHashMap keyed by
   * RedisClient, which has no hashCode, so any master (drawn from the scenario's seed). Channel
   * "" is slot 0: only that shard answers, the others MOVED, and sharding stays off. From 3.28.0
   * PUBSUB SHARDNUMSUB always succeeds on Redis 7.
   */
  private detectSharding(): boolean {
    const probe = this.config.traits.shardedLockPubSub;
    if (probe === 'classic') return false;
    if (probe !== 'probe-entry') return true;
    const masters = this.ctx.slotMasters?.(this.name) ?? [];
    if (masters.length === 0) return true;
    return this.ctx.rng(`redisson.entries:${this.name}`).int(0, masters.length - 1) === 0;
  }

  /**
   * syncedEval: the script, then `WAIT <replicas> slavesSyncTimeout` on the same connection when
   * the release has it and the client is not in single-server config (a useSingleServer client
   * never WAITs, even over a master with replicas: 3.12.5–3.20 RedissonBaseLock.evalWriteAsync
   * syncs as many replicas as its entry knows, none there; 3.21+ CommandAsyncService.syncedEval
   * returns the plain eval when isSingleConfig()). 0 acks with checkLockSyncedSlaves come back as
   * the NO_SYNCED_SLAVES error (NoSyncedSlavesException).
   */
  syncedEval(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
  ): Process<Reply> {
    // decided when the caller yields it, as a generator's first step would (no generator of its own)
    if (!this.config.traits.syncedEval || this.singleConfig)
      return this.evalOn(script, keys, args, onAbandoned, attempts);
    return this.synced.withWait(script, keys, args, onAbandoned, attempts);
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
    return yield* this.retrying((attempts) => this.syncedEval(script, keys, args, undefined, attempts));
  }

  /**
   * ServiceManager.execute with the executor's own retries: `attempt` runs again while it ends in
   * a failed replica check (only where Redisson recognises it: 3.20.1–3.24.x and 3.47+; never for
   * `resend`, a call outside ServiceManager.execute) or a response timeout (RedisExecutor
   * re-sends; since 3.37 a `lock-script` is sent with noRetry in single-server mode), at most
   * retryAttempts more times, retryDelay(n) after the n-th failure. A re-send after a timeout
   * counts in the executor's `attempts` with the CLUSTERDOWN re-sends `attempt` already had, and
   * goes out at once before 3.15.2 (the timeout task called execute(); #3494 added the wait); a
   * replica-check retry is a new executor (new `attempts`) and counts on its own. Any other
   * answer, or the last failure, is returned.
   */
  *retrying(attempt: (attempts: Attempts) => Process<Reply>, kind: RetryKind = 'execute'): Process<Reply> {
    let attempts: Attempts = { n: 0 };
    for (let n = 1, noSynced = 0; ; n++) {
      const reply = yield* attempt(attempts);
      if (!this.isRetryable(reply, kind))
        return this.batchHangs(reply) ? yield* this.batchOutcome(reply) : reply;
      if (reply.t === 'error' && isNoSyncedReply(reply)) {
        if (noSynced++ >= this.config.retryAttempts) return reply;
        attempts = { n: 0 };
      } else {
        if (attempts.n++ >= this.config.retryAttempts) return yield* this.batchOutcome(reply);
        if (!this.config.traits.timeoutResendAfterInterval) continue;
      }
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
    if (!this.batchHangs(reply)) return reply;
    yield* acquire(this.ctx.semaphore(), undefined, true);
    return error(CALL_INTERRUPTED);
  }

  /**
   * Whether batchOutcome waits for good on this reply (asked first on the hot path: every reply
   * of the common case returns as it is, without a generator made for it).
   */
  batchHangs(reply: Reply): boolean {
    return this.config.traits.batchFailureHangs && isCallTimeout(reply);
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
   * here a master without replicas, sends them with noRetry). A cluster always takes the batch
   * path: 4.7.0 CommandAsyncService.syncedEval shortcuts only when isSingleConfig(), and the
   * batch (RedisCommonBatchExecutor, noRetry false) re-sends, replicas or not.
   */
  resendsLockScripts(): boolean {
    if (this.config.traits.resendLockScriptsOnTimeout === 'always' || this.clusterMode) return true;
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

/** EVAL / EVALSHA's argv: command, script or sha, numkeys, KEYS, ARGV (one array, no spreads). */
function scriptArgv(command: string, body: string, keys: readonly string[], args: ScriptArgs): string[] {
  // sized once: pushes past the literal's three grew the store twice per script call
  const argv = new Array<string>(3 + keys.length + args.length);
  argv[0] = command;
  argv[1] = body;
  argv[2] = String(keys.length);
  for (let i = 0; i < keys.length; i++) argv[3 + i] = keys[i];
  for (let i = 0; i < args.length; i++) argv[3 + keys.length + i] = String(args[i]);
  return argv;
}
