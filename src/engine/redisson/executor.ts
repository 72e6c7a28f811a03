/**
 * The two halves of a Redisson instance a lock needs, as in Redisson 3.2x+: CommandAsyncExecutor
 * (sending commands and scripts, with WAIT and retries) and ServiceManager (the instance's id,
 * request ids, retry delays, config). RedissonClient implements both and stays the factory;
 * locks, pub/sub and the watchdog depend only on these interfaces, so none of them imports the
 * client back.
 */
import type { SimContext } from '../sim/api';
import type { ConnectionRef, Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import type { RedissonConfig } from './config';
import type { LockScripts } from './scripts';
import type { LockPubSub } from './pubsub/LockPubSub';
import type { RenewalService } from './renewal/RenewalService';

/**
 * What a retry loop is around: 'execute' ServiceManager.execute (replica check and lost reply),
 * 'lock-script' the same for a lock or unlock script (3.37+ sends them with noRetry in
 * single-server mode), 'resend' a plain call whose lost reply the executor re-sends.
 */
export type RetryKind = 'execute' | 'lock-script' | 'resend';

/**
 * RedisExecutor's `attempt`: how often one command has been re-sent so far. Response timeouts and
 * retryable errors (CLUSTERDOWN, a RedisRetryException from 3.13.2) count against the same
 * `retryAttempts` (3.27.2 / 4.7.0 RedisExecutor.scheduleResponseTimeout and checkAttemptPromise
 * both test and increment it). A ServiceManager.execute retry (failed replica check) builds a new
 * executor, so it starts again from 0.
 */
export interface Attempts {
  n: number;
}

export type ScriptArgs = readonly (string | number)[];
/** One script call: the script, its KEYS and its ARGV. */
export type ScriptCall = readonly [script: string, keys: readonly string[], args: ScriptArgs];

/** The pub/sub commands of the lock channel (PublishSubscribeService, getPublishCommand). */
export interface PubSubCommands {
  readonly subscribe: 'SUBSCRIBE' | 'SSUBSCRIBE';
  readonly unsubscribe: 'UNSUBSCRIBE' | 'SUNSUBSCRIBE';
  readonly publish: 'PUBLISH' | 'SPUBLISH';
}

/** CommandAsyncExecutor: how a lock talks to Redis. */
export interface CommandExecutor {
  /** useClusterServers (Config.isClusterConfig): commands route by key slot */
  readonly clusterMode: boolean;
  /** The node this instance currently sends commands to (in a cluster: the master of `key`'s slot). */
  master(key?: string): string;
  /** SUBSCRIBE/PUBLISH, or their sharded forms in a Redis 7 cluster (3.22.0+) */
  pubSubCommands(): PubSubCommands;
  connection(node?: string): ConnectionRef;
  command(argv: readonly string[]): Process<Reply>;
  /** readAsync: a read the balancer sends to a replica (ReadMode.SLAVE) when there is one */
  readCommand(argv: readonly string[]): Process<Reply>;
  /** evalWriteAsync */
  eval(script: string, keys: readonly string[], args: ScriptArgs): Process<Reply>;
  /**
   * syncedEval: the script, then WAIT for the replicas when the release has it. `onAbandoned`
   * gets the script's reply if the calling thread was interrupted before it came back.
   */
  syncedEval(
    script: string,
    keys: readonly string[],
    args: ScriptArgs,
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
  ): Process<Reply>;
  /** syncedEvalWithRetry: syncedEval inside ServiceManager.execute */
  syncedEvalWithRetry(script: string, keys: readonly string[], args: ScriptArgs): Process<Reply>;
  /** ServiceManager.execute (and the executor's re-send of a lost reply) around any attempt */
  retrying(attempt: (attempts: Attempts) => Process<Reply>, kind?: RetryKind): Process<Reply>;
  /** The final answer of a lock script's batch as its caller sees it (3.12.5: a failure never completes). */
  batchOutcome(reply: Reply): Process<Reply>;
  /** Whether batchOutcome waits for good on this reply (otherwise it returns it as it is). */
  batchHangs(reply: Reply): boolean;
  /** Whether a lost reply to a lock or unlock script is re-sent (release and topology). */
  resendsLockScripts(): boolean;
}

/** ServiceManager: what one Redisson instance knows about itself. */
export interface ServiceManager {
  readonly ctx: SimContext;
  /** the scenario's client id ("A"); trace actors are "<name>:<threadId>" */
  readonly name: string;
  /** ServiceManager.getId(): the UUID every lock name of this instance starts with */
  readonly id: string;
  readonly config: RedissonConfig;
  /** the Lua text this release sends */
  readonly scripts: LockScripts;
  generateId(): string;
  retryDelay(attempt: number): number;
  /** the trace lane of owner `threadId`: its thread's, or the program's that locks with that id */
  laneOf(threadId: number): string;
}

/** Everything a lock object is built on: executor, service manager, pub/sub and watchdog. */
export interface LockServices extends CommandExecutor, ServiceManager {
  readonly pubSub: LockPubSub;
  readonly renewal: RenewalService;
}
