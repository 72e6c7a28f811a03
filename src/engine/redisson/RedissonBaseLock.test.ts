import { describe, expect, it } from 'vitest';
import { masterWorld } from '../scenario/testing/world';
import { sleep, type Process } from '../sim/effects';
import { RedissonClient } from './RedissonClient';
import { prefixName } from './RedissonBaseLock';

function world() {
  return masterWorld({ seed: 11, threads: ['A:1', 'A:2'] });
}

describe('RedissonBaseLock helpers', () => {
  it('names channels and latches with a cluster hash tag unless the name has one', () => {
    expect(prefixName('redisson_lock__channel', 'myLock')).toBe('redisson_lock__channel:{myLock}');
    expect(prefixName('redisson_lock__channel', 'a{b}c')).toBe('redisson_lock__channel:a{b}c');
  });

  it('isLocked, isHeldByThread, getHoldCount and remainTimeToLive read the lock hash', () => {
    const w = world();
    const k = w.kernel;
    const client = new RedissonClient(k, 'A', { version: 'latest' });
    const lock = client.getLock('myLock');
    const seen: unknown[] = [];
    k.spawn(
      'A',
      'A:1',
      (function* (): Process<void> {
        seen.push(yield* lock.isLocked(), yield* lock.getHoldCount(1), yield* lock.remainTimeToLive());
        yield* lock.lock(1, 10_000);
        yield* lock.lock(1, 10_000);
        yield* sleep(1000);
        seen.push(
          yield* lock.isLocked(),
          yield* lock.isHeldByThread(1),
          yield* lock.isHeldByThread(2),
          yield* lock.getHoldCount(1),
          yield* lock.getHoldCount(2),
        );
        const ttl = yield* lock.remainTimeToLive();
        seen.push(ttl > 8_900 && ttl <= 9_000);
        seen.push(yield* lock.unlock(1), yield* lock.unlock(1), yield* lock.isLocked());
      })(),
    );
    k.run(1e6, () => false, 1e5);
    expect(seen).toEqual([false, 0, -2, true, true, false, 2, 0, true, false, true, false]);
  });
});
