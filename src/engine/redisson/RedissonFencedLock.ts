/**
 * RedissonFencedLock (3.19+): an RLock whose acquire script also increments a counter,
 * `redisson_lock_token:{name}`, and hands back its value. The thread passes that token to the
 * resource it protects; a resource that refuses tokens older than the newest it has seen turns
 * a paused ex-holder's late write into a refusal instead of a lost update (built-in fencing-saves-gc-pause).
 *
 * The token is only as good as the counter: it lives on one Redis master, so a failover that
 * loses the last INCR can hand out the same token twice (built-in fencing-after-failover).
 */
import type { Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import type { ScriptCall } from './executor';
import { prefixName } from './RedissonBaseLock';
import { NO_LEASE, RedissonLock } from './RedissonLock';
import { RedisException, exceptionFor } from './errors';
import { FENCED_LOCK } from './scripts/RedissonFencedLock';
import { scriptText } from './scripts';

export class RedissonFencedLock extends RedissonLock {
  /** thread -> token of its latest successful acquire (what lockAndGetToken returned) */
  private readonly tokens = new Map<number, number>();

  getTokenName(): string {
    return prefixName('redisson_lock_token', this.name);
  }

  /** The token the thread's latest acquire returned (lockAndGetToken / tryLockAndGetToken). */
  acquiredToken(threadId: number): number | undefined {
    return this.tokens.get(threadId);
  }

  /**
   * lockAndGetToken() / lockAndGetToken(leaseTime, unit), what a scenario's `lock` on a FencedLock
   * calls. Every release 3.19.0–4.7.0 has `lockAndGetToken(long leaseTime, TimeUnit unit) { return
   * get(lockAndGetTokenAsync()); }`: the lease is dropped and the lock is held with the watchdog
   * (tryLockAndGetToken(waitTime, leaseTime, unit) keeps its lease). Observed by the oracle.
   */
  *lockAndGetToken(threadId: number, _leaseTime: number): Process<void> {
    yield* this.lock(threadId, NO_LEASE);
  }

  /** getToken(): the counter's current value (GET; null before the first acquire). */
  *getToken(): Process<number | null> {
    const r = yield* this.client.command(['GET', this.getTokenName()]);
    if (r.t === 'error') throw exceptionFor(r);
    return r.t === 'bulk' && r.v !== null ? Number(r.v) : null;
  }

  protected override acquireScript(lease: number, threadId: number): ScriptCall {
    return [scriptText(FENCED_LOCK, this.client.config.traits), [this.name, this.getTokenName()], [lease, this.getLockName(threadId)]];
  }

  protected override acquireResult(reply: Reply, threadId: number): number | null {
    const [ttl, token] = decodePair(reply);
    if (ttl !== -1) return ttl;
    this.tokens.set(threadId, token);
    return null;
  }
}

/** {ttl, token}: {-1, token} acquired, {pttl, -1} not. */
function decodePair(r: Reply): [number, number] {
  if (r.t === 'error') throw exceptionFor(r);
  if (r.t === 'array' && r.v !== null && r.v.length === 2 && r.v[0].t === 'int' && r.v[1].t === 'int')
    return [Number(r.v[0].v), Number(r.v[1].v)];
  throw new RedisException(`unexpected reply to the fenced acquire script: ${JSON.stringify(r)}`);
}
