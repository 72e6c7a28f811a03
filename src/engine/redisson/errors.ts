/**
 * The Java exceptions a lock call can end in. Program steps catch them and record them as results
 * ("IllegalMonitorStateException: attempt to unlock lock, ..."), as a Java test would assert on them.
 */
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

/** An error reply or a failed command (org.redisson.client.RedisException). */
export class RedisException extends JavaException {
  override readonly javaClass: string = 'org.redisson.client.RedisException';
}

export class RedisTimeoutException extends RedisException {
  override readonly javaClass = 'org.redisson.client.RedisTimeoutException';
}

/** Describes any thrown value the way a recorded result shows it. */
export function describeThrown(e: unknown): string {
  if (e instanceof JavaException) return e.toString();
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
