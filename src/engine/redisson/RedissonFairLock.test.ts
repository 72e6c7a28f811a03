/** FairLock: FIFO queue, timeout zset, per-thread channels, acquireFailed. */
import { describe, expect, it } from 'vitest';
import { fairLockWaitTimeout } from './RedissonFairLock';
import { acquisitions, first, redis, run, work, lockOps } from './testing/family';

const fair = lockOps('fair', 'FairLock');
const Q = 'redisson_lock_queue:{fair}';
const Z = 'redisson_lock_timeout:{fair}';

describe('FairLock', () => {
  it('threadWaitTime is 5 s up to 3.13.2 and 5 min after', () => {
    expect(fairLockWaitTimeout('3.11')).toBe(5000);
    expect(fairLockWaitTimeout('3.13.2')).toBe(5000);
    expect(fairLockWaitTimeout('3.13.3')).toBe(300_000);
    expect(fairLockWaitTimeout('latest')).toBe(300_000);
  });

  it('hands the lock over in arrival order, waking only the head on its own channel', () => {
    const waiter = (start: number) => ({
      id: 1,
      start,
      program: [fair('lock'), work(100), fair('unlock')],
    });
    const s = run({
      A: [{ id: 1, program: [fair('lock'), work(1000), fair('unlock')] }],
      // arrival order D, B, C: the queue, not the client names, decides
      D: [waiter(100)],
      B: [waiter(200)],
      C: [waiter(300)],
      P: [
        {
          id: 1,
          start: 500,
          program: [redis('LRANGE', Q, '0', '-1'), redis('ZRANGE', Z, '0', '-1', 'WITHSCORES')],
        },
      ],
    });
    expect(s.violations).toEqual([]);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['A:1', 'D:1', 'B:1', 'C:1']);
    const [queue, zset] = s.results('P:1') as [string[], string[]];
    const owner = (c: string) => first(s, 'lock.acquired', `${c}:1`).owner;
    expect(queue).toEqual(['D', 'B', 'C'].map(owner));
    // deadlines: the first waiter's is A's ttl + threadWaitTime after its arrival, each next one slot later
    const scores = [zset[1], zset[3], zset[5]].map(Number);
    expect(scores[0]).toBeGreaterThan(100 + 29_000 + 300_000);
    expect(scores[1] - scores[0]).toBe(300_000);
    expect(scores[2] - scores[1]).toBe(300_000);
    // every waiter subscribed to its own channel; each unlock published to the head's channel only
    const subs = s.of('pubsub.subscribe').map((e) => e.channel);
    expect(subs).toEqual(['D', 'B', 'C'].map((c) => `redisson_lock__channel:{fair}:${owner(c)}`));
    const published = s.of('pubsub.publish').map((e) => e.channel);
    expect(published.slice(0, 3)).toEqual(
      ['D', 'B', 'C'].map((c) => `redisson_lock__channel:{fair}:${owner(c)}`),
    );
  });

  it('a tryLock that gives up leaves the queue and hands its slot back to those behind it', () => {
    const s = run({
      A: [{ id: 1, program: [fair('lock'), work(2000), fair('unlock')] }],
      B: [{ id: 1, start: 100, program: [fair('tryLock', { waitMs: 500 })] }],
      C: [{ id: 1, start: 200, program: [fair('lock'), fair('unlock')] }],
      P: [
        {
          id: 1,
          start: 300,
          program: [
            redis('ZRANGE', Z, '0', '-1', 'WITHSCORES'),
            { op: 'sleep', ms: 500 },
            redis('LRANGE', Q, '0', '-1'),
            redis('ZRANGE', Z, '0', '-1', 'WITHSCORES'),
          ],
        },
      ],
    });
    expect(s.results('B:1')).toEqual([false]);
    const [before, queueAfter, after] = s.results('P:1') as [string[], string[], string[]];
    const cOwner = first(s, 'lock.acquired', 'C:1').owner;
    expect(queueAfter).toEqual([cOwner]);
    expect(before[2]).toBe(cOwner);
    // B's tryLock wait (500 ms) is taken off C's deadline
    expect(Number(before[3]) - Number(after[1])).toBe(500);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['A:1', 'C:1']);
  });

  it('tryLock() without a wait never joins the queue; unlock after the lease ran out is not an error', () => {
    const s = run({
      A: [{ id: 1, program: [fair('lock', { leaseMs: 300 }), work(500), fair('unlock')] }],
      B: [{ id: 1, start: 50, program: [fair('tryLock'), redis('EXISTS', Q)] }],
    });
    expect(s.results('B:1')).toEqual([false, 0]);
    expect(s.results('A:1')).toEqual([]);
    expect(s.of('lock.error')).toEqual([]);
  });

  it('before 3.13.3 a waiter’s slot is 5 s: the deadline in the zset says so', () => {
    const s = run(
      {
        A: [{ id: 1, program: [fair('lock'), work(500), fair('unlock')] }],
        B: [{ id: 1, start: 100, program: [fair('lock'), fair('unlock')] }],
        P: [{ id: 1, start: 200, program: [redis('ZRANGE', Z, '0', '-1', 'WITHSCORES')] }],
      },
      { redisson: { version: '3.12' } },
    );
    const [, score] = s.results('P:1')[0] as [string, string];
    expect(Number(score)).toBeGreaterThan(100 + 29_000 + 5000);
    expect(Number(score)).toBeLessThanOrEqual(100 + 30_000 + 5000);
    expect(s.violations).toEqual([]);
  });
});
