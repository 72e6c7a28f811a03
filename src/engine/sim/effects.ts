/**
 * What a simulated process can ask the kernel for. Processes are generator functions that `yield`
 * an Effect and are resumed with its result, so a thread's code reads like the Java it models:
 *
 *   const ttl: Reply = yield* call(conn, ['EVALSHA', sha, '1', name, lease, owner]);
 *   if (ttl is nil) return;                           // acquired
 *   const r = yield* acquire(entry.latch, ttlMs);    // LockEntry latch: 'acquired' | 'timeout' | 'interrupted'
 *
 * Every process belongs to an owner (a client id, or a node id for server-side processes), so a
 * client fault can stop all of its threads and timers at once: `crash` kills them, `pause`
 * freezes them and their timers catch up on resume.
 */
import type { Reply } from '../redis/reply';

/** A counting semaphore living in the kernel (java.util.concurrent.Semaphore(0) of RedissonLockEntry). */
export interface Semaphore {
  readonly id: number;
}

/** A client's connection to one node, handed out by the kernel/net layer. */
export interface ConnectionRef {
  readonly id: number;
  readonly client: string;
  readonly node: string;
  readonly label: string;
}

export type Effect =
  /** Send argv to the node over conn; resumes with the reply one round trip later (or a timeout error reply). */
  | {
      readonly type: 'call';
      readonly conn: ConnectionRef;
      readonly argv: readonly string[];
      /**
       * Thread.interrupt() ends the wait for the reply at once (the command still runs), as
       * Redisson's CommandAsyncService.get() does; a pending interrupt ends it as soon as it is sent.
       */
      readonly interruptible?: boolean;
      /**
       * Runs with the reply if it arrives after an interrupt abandoned the call: the callbacks
       * chained on a Java future still run on the Netty thread when nobody waits any more.
       */
      readonly onAbandonedReply?: (reply: Reply) => void;
      /** this call's response timeout, when not the scenario's `redisson.timeoutMs` */
      readonly timeoutMs?: number;
      /**
       * How long the request may wait to be written while its client's event loop starves
       * before the call fails with a CALL_NOT_WRITTEN_PREFIX error (Redisson's retry timer:
       * "Command still hasn't been written into connection!"); none: it waits as long as it takes.
       */
      readonly writeTimeoutMs?: number;
    }
  /** Advance this process's time (Thread.sleep, or business work). */
  | { readonly type: 'sleep'; readonly ms: number }
  /** Take one permit, waiting at most timeoutMs (undefined: forever). */
  | {
      readonly type: 'acquire';
      readonly sem: Semaphore;
      readonly timeoutMs?: number;
      readonly interruptible?: boolean;
    }
  /** Resume immediately with the current virtual time; lets code measure elapsed time like System.currentTimeMillis(). */
  | { readonly type: 'now' };

/**
 * A call whose request or reply is lost (node down, partition, connection closed or dropped)
 * resumes after the response timeout (scenario `redisson.timeoutMs`) with an error reply whose
 * text starts with this prefix, like Redisson's RedisResponseTimeoutException. Retrying is the
 * client model's business.
 */
export const CALL_TIMEOUT_PREFIX = 'TIMEOUT ';

export function isCallTimeout(reply: Reply): boolean {
  return reply.t === 'error' && reply.v.startsWith(CALL_TIMEOUT_PREFIX);
}

/** The reply an interruptible call resumes with when its thread is interrupted. */
export const CALL_INTERRUPTED = 'INTERRUPTED the calling thread was interrupted';

export function isCallInterrupted(reply: Reply): boolean {
  return reply.t === 'error' && reply.v === CALL_INTERRUPTED;
}

export type AcquireResult = 'acquired' | 'timeout' | 'interrupted';

/**
 * A process is a generator of effects. It may also yield another process (a sub-call): the
 * kernel runs that one to its end and resumes the caller with its result, or throws its exception
 * into the caller, as `yield*` would. The difference is cost: a `yield*` chain is resumed level
 * by level on every effect of its innermost generator (the acquire path is about fifteen deep),
 * a yielded process only once, when it ends. `const r = (yield proc) as T` reads like `yield*`.
 */
export type Process<T = void> = Generator<Step, T, unknown>;

/** What a process yields: an effect for the kernel, or a sub-process to run (see Process). */
export type Step = Effect | Generator<Step, unknown, unknown>;

/** A call's options besides its connection and argv (see the `call` effect). */
export interface CallOptions {
  readonly interruptible?: boolean;
  readonly onAbandonedReply?: (reply: Reply) => void;
  readonly timeoutMs?: number;
  readonly writeTimeoutMs?: number;
}

/**
 * Every effect this module makes is one of these: all fields present, in one order, so the
 * kernel's reads of an effect (its `type`, a call's options) see one object shape whatever the
 * run's processes yield (literals of five shapes made those reads polymorphic, and a shape a
 * built-in yielded first threw the kernel's optimised `step` away). Fields an effect's type does
 * not use are undefined. The kernel still takes an effect written as a literal.
 */
export class EffectRecord {
  // every field is a parameter, so every record gets all of them in one order (one shape) even
  // when the trailing ones are left out
  constructor(
    readonly type: Effect['type'],
    readonly conn?: ConnectionRef,
    readonly argv?: readonly string[],
    readonly interruptible?: boolean,
    readonly onAbandonedReply?: (reply: Reply) => void,
    readonly timeoutMs?: number,
    readonly writeTimeoutMs?: number,
    readonly sem?: Semaphore,
    readonly ms?: number,
  ) {}
}

/** A `call` effect (see Effect) as an EffectRecord. */
export function callRecord(
  conn: ConnectionRef,
  argv: readonly string[],
  interruptible: boolean | undefined,
  onAbandonedReply: ((reply: Reply) => void) | undefined,
  timeoutMs: number | undefined,
  writeTimeoutMs: number | undefined,
): Effect {
  return new EffectRecord(
    'call',
    conn,
    argv,
    interruptible,
    onAbandonedReply,
    timeoutMs,
    writeTimeoutMs,
  ) as Effect;
}

/** `opts`: the options, or just whether the call is interruptible. */
export function* call(
  conn: ConnectionRef,
  argv: readonly string[],
  opts: boolean | CallOptions = false,
): Process<Reply> {
  return (yield callEffect(conn, argv, opts)) as Reply;
}

/**
 * The `call` effect itself, for a hot path to yield without a generator of its own:
 * `(yield callEffect(conn, argv, opts)) as Reply` is `yield* call(conn, argv, opts)`.
 */
export function callEffect(
  conn: ConnectionRef,
  argv: readonly string[],
  opts: boolean | CallOptions = false,
): Effect {
  if (typeof opts !== 'boolean')
    return callRecord(
      conn,
      argv,
      opts.interruptible,
      opts.onAbandonedReply,
      opts.timeoutMs,
      opts.writeTimeoutMs,
    );
  return callRecord(conn, argv, opts ? true : undefined, undefined, undefined, undefined);
}

/**
 * A request that could not be written in time (its client's event loop starved) fails with an
 * error reply starting with this prefix: Redisson's RedisTimeoutException "Command still hasn't
 * been written into connection!".
 */
export const CALL_NOT_WRITTEN_PREFIX = 'NOTWRITTEN ';

export function isCallNotWritten(reply: Reply): boolean {
  return reply.t === 'error' && reply.v.startsWith(CALL_NOT_WRITTEN_PREFIX);
}

export function* sleep(ms: number): Process<void> {
  yield new EffectRecord(
    'sleep',
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    ms,
  ) as Effect;
}

export function* acquire(sem: Semaphore, timeoutMs?: number, interruptible = false): Process<AcquireResult> {
  return (yield acquireEffect(sem, timeoutMs, interruptible)) as AcquireResult;
}

/** The `acquire` effect, for a hot path: `(yield acquireEffect(..)) as AcquireResult` is `yield* acquire(..)`. */
export function acquireEffect(sem: Semaphore, timeoutMs?: number, interruptible = false): Effect {
  return new EffectRecord(
    'acquire',
    undefined,
    undefined,
    interruptible,
    undefined,
    timeoutMs,
    undefined,
    sem,
  ) as Effect;
}

export function* now(): Process<number> {
  return (yield NOW) as number;
}

/** The `now` effect, for a hot path: `(yield NOW) as number` is `yield* now()` (read only, not frozen: a frozen one had a shape of its own). */
export const NOW: Effect = new EffectRecord('now') as Effect;
