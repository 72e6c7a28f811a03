/**
 * The Java exceptions a lock call can end in. Program steps catch them and record them as results
 * ("IllegalMonitorStateException: attempt to unlock lock, ..."), as a Java test would assert on them.
 */
import type { ErrorReply } from '../redis/reply';
import { CALL_TIMEOUT_PREFIX, isCallTimeout } from '../sim/effects';

export class JavaException extends Error {
  /** Java class name, as it would appear in a stack trace */
  readonly javaClass: string = 'java.lang.Exception';
  override toString(): string {
    const simple = this.javaClass.slice(this.javaClass.lastIndexOf('.') + 1);
    return this.message ? `${simple}: ${this.message}` : simple;
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
  override readonly javaClass = 'java.lang.IllegalStateException';
}

/** An error reply or a failed command (org.redisson.client.RedisException). */
export class RedisException extends JavaException {
  override readonly javaClass: string = 'org.redisson.client.RedisException';
}

export class RedisTimeoutException extends RedisException {
  override readonly javaClass: string = 'org.redisson.client.RedisTimeoutException';
}

/** No reply within the response timeout (org.redisson.client.RedisResponseTimeoutException). */
export class RedisResponseTimeoutException extends RedisTimeoutException {
  override readonly javaClass: string = 'org.redisson.client.RedisResponseTimeoutException';
}

/** WAIT after a lock script was acknowledged by no replica (checkLockSyncedSlaves). */
export class NoSyncedSlavesException extends RedisException {
  override readonly javaClass: string = 'org.redisson.client.handler.NoSyncedSlavesException';
}

/** The message of NoSyncedSlavesException; RedissonClient.syncedEval hands it on as an error reply. */
export const NO_SYNCED_SLAVES =
  'None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.';

/** The exception an error reply surfaces as in Java. */
export function exceptionFor(reply: ErrorReply): RedisException {
  if (reply.v === NO_SYNCED_SLAVES) return new NoSyncedSlavesException(reply.v);
  if (isCallTimeout(reply))
    return new RedisResponseTimeoutException(reply.v.slice(CALL_TIMEOUT_PREFIX.length));
  return new RedisException(reply.v);
}

/** Describes any thrown value the way a recorded result shows it. */
export function describeThrown(e: unknown): string {
  if (e instanceof JavaException) return e.toString();
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
