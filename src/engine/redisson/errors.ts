/**
 * The Java exceptions a lock call can end in. Program steps catch them and record them as results
 * ("IllegalMonitorStateException: attempt to unlock lock, ..."), as a Java test would assert on them.
 */
import type { ErrorReply } from '../redis/reply';
import {
  CALL_NOT_WRITTEN_PREFIX,
  CALL_TIMEOUT_PREFIX,
  isCallInterrupted,
  isCallNotWritten,
  isCallTimeout,
} from '../sim/effects';

export class JavaException extends Error {
  /** Java class name, as it would appear in a stack trace */
  readonly javaClass: string = 'java.lang.Exception';
  /** getCause(): what a wrapping exception wraps ("Caused by:" in a stack trace) */
  readonly javaCause: JavaException | undefined;

  constructor(message: string, cause?: JavaException) {
    // No JavaScript stack: nothing reads it (a result shows toString()), and V8 walks and keeps
    // the stack for every Error made: 8% of a run of redlock-clock-jump. The limit is V8's
    // (elsewhere the assignment is harmless), put back before anything else runs.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.javaCause = cause;
  }

  override toString(): string {
    const simple = this.javaClass.slice(this.javaClass.lastIndexOf('.') + 1);
    const own = this.message ? `${simple}: ${this.message}` : simple;
    return this.javaCause ? `${own}; caused by ${this.javaCause.toString()}` : own;
  }
}

export class IllegalMonitorStateException extends JavaException {
  override readonly javaClass = 'java.lang.IllegalMonitorStateException';
}

export class InterruptedException extends JavaException {
  override readonly javaClass = 'java.lang.InterruptedException';
}

/** What lock() / lock(leaseTime) turn an InterruptedException they did not swallow into. */
export class IllegalStateException extends JavaException {
  override readonly javaClass: string = 'java.lang.IllegalStateException';
}

/** Future.get() of a cancelled future (java.util.concurrent.CancellationException). */
export class CancellationException extends IllegalStateException {
  override readonly javaClass: string = 'java.util.concurrent.CancellationException';
}

/** An error reply or a failed command (org.redisson.client.RedisException). */
export class RedisException extends JavaException {
  override readonly javaClass: string = 'org.redisson.client.RedisException';
}

/** CommandDecoder's class for a CLUSTERDOWN reply from 3.13.2 (a RedisRetryException from 3.2x). */
export class RedisClusterDownException extends RedisException {
  override readonly javaClass: string = 'org.redisson.client.RedisClusterDownException';
}

/**
 * The CLUSTERDOWN replies a release decodes as RedisClusterDownException (3.13.2+), marked by the
 * client that received them; before 3.13.2 the same text is a plain RedisException.
 */
const clusterDownReplies = new WeakSet<object>();

export function decodedAsClusterDown(reply: ErrorReply): ErrorReply {
  clusterDownReplies.add(reply);
  return reply;
}

export class RedisTimeoutException extends RedisException {
  override readonly javaClass: string = 'org.redisson.client.RedisTimeoutException';
}

/** No reply within the response timeout (org.redisson.client.RedisResponseTimeoutException). */
export class RedisResponseTimeoutException extends RedisTimeoutException {
  override readonly javaClass: string = 'org.redisson.client.RedisResponseTimeoutException';
}

/**
 * WAIT after a lock script was acknowledged by no replica (checkLockSyncedSlaves), 3.47.0+. It is
 * a RuntimeException, not a RedisException, so a sync caller gets it wrapped (convertException).
 */
export class NoSyncedSlavesException extends JavaException {
  override readonly javaClass: string = 'org.redisson.command.NoSyncedSlavesException';
}

/** The message of the 0-ack failure since 3.25.0 (279cb9b3c). */
export const NO_SYNCED_SLAVES =
  'None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.';
/** ... and before: the text handleNoSync and ServiceManager.execute still compare with up to 3.46. */
export const NO_SYNCED_SLAVES_OLD = 'None of slaves were synced';

/**
 * How RedissonClient.syncedEval hands a failed replica check on: an error reply
 * `<cause class>: <message>`, where the class is IllegalStateException (≤ 3.46) or
 * NoSyncedSlavesException (3.47+) and the message one of the above (or 3.16.7's "Only x of y").
 */
export function noSyncedReply(
  causeClass: 'IllegalStateException' | 'NoSyncedSlavesException',
  message: string,
) {
  return `${causeClass}: ${message}`;
}

const NO_SYNCED = /^(IllegalStateException|NoSyncedSlavesException): (.*slaves were synced.*)$/;

/** Is this error reply a failed replica check (any release)? */
export function isNoSyncedReply(reply: ErrorReply): boolean {
  return NO_SYNCED.test(reply.v);
}

/** CommandAsyncService.convertException: anything that is not a RedisException gets wrapped. */
export const UNEXPECTED = 'Unexpected exception while processing command';

/** The exception an error reply surfaces as in Java. */
export function exceptionFor(reply: ErrorReply): RedisException {
  const m = NO_SYNCED.exec(reply.v);
  if (m) {
    const cause =
      m[1] === 'NoSyncedSlavesException'
        ? new NoSyncedSlavesException(m[2])
        : new IllegalStateException(m[2]);
    return new RedisException(UNEXPECTED, cause);
  }
  if (isCallTimeout(reply))
    return new RedisResponseTimeoutException(reply.v.slice(CALL_TIMEOUT_PREFIX.length));
  if (isCallNotWritten(reply))
    return new RedisTimeoutException(reply.v.slice(CALL_NOT_WRITTEN_PREFIX.length));
  // CommandAsyncService.get(): `throw new RedisException(e)` with the InterruptedException
  if (isCallInterrupted(reply))
    return new RedisException('java.lang.InterruptedException', new InterruptedException(''));
  if (clusterDownReplies.has(reply)) return new RedisClusterDownException(reply.v);
  return new RedisException(reply.v);
}

/** The failed replica check inside a wrapped exception, if that is what `e` is. */
export function isNoSynced(e: unknown): boolean {
  return (
    e instanceof RedisException &&
    (e.javaCause instanceof NoSyncedSlavesException ||
      (e.javaCause instanceof IllegalStateException && e.javaCause.message.includes('slaves were synced')))
  );
}

/** Describes any thrown value the way a recorded result shows it. */
export function describeThrown(e: unknown): string {
  if (e instanceof JavaException) return e.toString();
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
