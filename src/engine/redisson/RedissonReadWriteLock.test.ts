/** ReadLock / WriteLock: mode field, per-hold timeout keys, wake-all on write unlock. */
import { describe, expect, it } from 'vitest';
import { sha1hex } from '../redis/sha1';
import { acquisitions, first, redis, run, work, lockOps } from './testing/family';

const read = lockOps('rw', 'ReadLock');
const write = lockOps('rw', 'WriteLock');

describe('ReadWriteLock', () => {
  it('readers share: mode=read, a field per reader, one timeout key per hold', () => {
    const s = run({
      A: [{ id: 1, program: [read('lock'), read('lock'), work(500), read('unlock'), read('unlock')] }],
      B: [
        {
          id: 1,
          start: 100,
          program: [
            read('lock'),
            redis('HGETALL', 'rw'),
            redis('KEYS', '{rw}:*'),
            read('unlock'),
            redis('KEYS', '{rw}:*'),
          ],
        },
      ],
      P: [{ id: 1, start: 700, program: [redis('EXISTS', 'rw')] }],
    });
    expect(s.violations).toEqual([]);
    const a = first(s, 'lock.acquired', 'A:1').owner as string;
    const b = first(s, 'lock.acquired', 'B:1').owner as string;
    const [hash, keys, keysAfter] = s.results('B:1') as [string[], string[], string[]];
    expect(hash).toEqual(['mode', 'read', a, '2', b, '1']);
    expect(keys.sort()).toEqual(
      [`{rw}:${a}:rwlock_timeout:1`, `{rw}:${a}:rwlock_timeout:2`, `{rw}:${b}:rwlock_timeout:1`].sort(),
    );
    expect(keysAfter.sort()).toEqual([`{rw}:${a}:rwlock_timeout:1`, `{rw}:${a}:rwlock_timeout:2`].sort());
    expect(s.results('P:1')).toEqual([0]);
  });

  it('a writer waits for the readers, and new readers still get in meanwhile (no writer preference)', () => {
    const s = run({
      R: [{ id: 1, program: [read('lock'), work(1000), read('unlock')] }],
      W: [{ id: 1, start: 100, program: [write('lock'), work(100), write('unlock')] }],
      X: [{ id: 1, start: 200, program: [read('lock'), work(1000), read('unlock')] }],
    });
    expect(s.violations).toEqual([]);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['R:1', 'X:1', 'W:1']);
    expect(first(s, 'lock.acquired', 'W:1').t).toBeGreaterThanOrEqual(first(s, 'lock.released', 'X:1').t);
  });

  it("the writer's unlock publishes 1 (READ_UNLOCK_MESSAGE) and wakes every waiting reader at once", () => {
    const s = run({
      W: [{ id: 1, program: [write('lock'), work(1000), write('unlock')] }],
      X: [
        { id: 1, start: 100, program: [read('lock'), work(300), read('unlock')] },
        { id: 2, start: 200, program: [read('lock'), work(300), read('unlock')] },
      ],
    });
    expect(s.violations).toEqual([]);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['W:1', 'X:1', 'X:2']);
    expect(first(s, 'lock.acquired', 'W:1').owner).toMatch(/:1:write$/);
    const publish = first(s, 'pubsub.publish');
    expect([publish.channel, publish.message, publish.receivers]).toEqual(['redisson_rwlock:{rw}', '1', 1]);
    const woken = s.of('waiter.wakeup').filter((e) => e.cause === 'message');
    expect(woken.map((e) => e.actor).sort()).toEqual(['X:1', 'X:2']);
    expect(woken[0].t).toBe(woken[1].t);
    const [x1, x2] = [first(s, 'lock.acquired', 'X:1').t, first(s, 'lock.acquired', 'X:2').t];
    expect(Math.abs(x1 - x2)).toBeLessThanOrEqual(2);
  });

  it('a writer may also read and re-enter (reentry adds the lease); a reader cannot upgrade', () => {
    const s = run({
      W: [
        {
          id: 1,
          program: [
            write('lock', { leaseMs: 10_000 }),
            write('lock', { leaseMs: 10_000 }),
            redis('PTTL', 'rw'),
            read('lock'),
            write('unlock'),
            write('unlock'),
            redis('HGET', 'rw', 'mode'),
            read('unlock'),
            redis('EXISTS', 'rw'),
          ],
        },
      ],
      R: [{ id: 1, start: 100, program: [read('lock'), write('tryLock', { waitMs: 200 }), read('unlock')] }],
    });
    const [pttl, mode, exists] = s.results('W:1') as [number, string, number];
    expect(pttl).toBeGreaterThan(19_900);
    expect(mode).toBe('read'); // downgraded: the writer still reads
    expect(exists).toBe(0);
    expect(s.results('R:1')).toEqual([false]);
  });

  it('ReadLockTask renews every hold timeout key and the hash while a reader holds it', () => {
    const s = run(
      {
        A: [
          {
            id: 1,
            program: [read('lock'), read('lock'), work(2500), redis('KEYS', '{rw}:*'), redis('PTTL', 'rw')],
          },
        ],
        B: [{ id: 1, start: 2000, program: [redis('PTTL', 'rw')] }],
      },
      { redisson: { lockWatchdogTimeout: 1500 } },
    );
    const renewals = s.of('watchdog.renew');
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    expect(renewals.every((e) => e.result === 1)).toBe(true);
    expect(renewals[0].t).toBeGreaterThanOrEqual(500);
    const [keys, pttl] = s.results('A:1') as [string[], number];
    expect(keys).toHaveLength(2); // both holds' timeout keys outlived their 1.5 s lease
    expect(pttl).toBeGreaterThan(900);
    expect(s.results('B:1')[0]).toBeGreaterThan(900);
  });

  it('the writer is renewed by the ordinary watchdog, under its ":write" lock name', () => {
    const s = run(
      {
        W: [{ id: 1, program: [write('lock'), work(2000), redis('PTTL', 'rw'), write('unlock')] }],
        R: [{ id: 1, start: 100, program: [read('lock'), read('unlock')] }],
      },
      { redisson: { lockWatchdogTimeout: 900 } },
    );
    const renewals = s.of('watchdog.renew');
    expect(renewals.length).toBeGreaterThanOrEqual(5);
    expect(renewals.every((e) => e.result === 1 && String(e.lockName).endsWith(':write'))).toBe(true);
    expect(s.results('W:1')[0]).toBeGreaterThan(500);
    expect(first(s, 'lock.acquired', 'R:1').t).toBeGreaterThanOrEqual(first(s, 'lock.released', 'W:1').t);
    expect(s.violations).toEqual([]);
  });

  it('forceUnlock only deletes the lock in its own mode', () => {
    const s = run({
      W: [{ id: 1, program: [write('lock'), work(300)] }],
      X: [
        {
          id: 1,
          start: 100,
          program: [
            { op: 'forceUnlock', lock: 'rw', type: 'ReadLock' },
            redis('EXISTS', 'rw'),
            { op: 'forceUnlock', lock: 'rw', type: 'WriteLock' },
            redis('EXISTS', 'rw'),
          ],
        },
      ],
    });
    expect(s.results('X:1')).toEqual([false, 1, true, 0]);
  });

  it('RedissonReadLock / RedissonWriteLock.isLocked(): each half answers for its own mode', () => {
    const s = run({
      A: [
        { id: 1, program: [write('lock'), read('isLocked'), write('isLocked'), work(100), write('unlock')] },
      ],
      B: [
        { id: 1, start: 500, program: [read('lock'), read('isLocked'), write('isLocked'), read('unlock')] },
      ],
    });
    expect(s.results('A:1').slice(0, 2)).toEqual([false, true]);
    expect(s.results('B:1').slice(0, 2)).toEqual([true, false]);
  });

  /** A:1 write-locks, then also read-locks (a writer may read), and asks the read half */
  const writerReads = (version: string) =>
    run(
      {
        A: [
          {
            id: 1,
            program: [write('lock'), read('lock'), read('isLocked'), read('unlock'), write('unlock')],
          },
        ],
      },
      { redisson: { version } },
    );
  it('3.23.5 RedissonReadLock.isLocked(): HGET mode == read, so a writer that also reads answers false', () => {
    const s = writerReads('3.23.5');
    expect(s.results('A:1')).toEqual([false]);
    expect(s.of('cmd', 'A:1').some((e) => (e.argv as string[])[0] === 'HGET')).toBe(true);
  });
  it('3.24.0 RedissonReadLock.isLocked(): its own script, true in write mode when the writer also reads', () => {
    const s = writerReads('3.24.0');
    expect(s.results('A:1')).toEqual([true]);
    const evals = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'EVAL');
    expect(
      evals.some((e) => sha1hex((e.argv as string[])[1]) === '8ad44f1ba014938c20da38206b6d496c85ec1aed'),
    ).toBe(true);
    expect(s.of('cmd', 'A:1').some((e) => (e.argv as string[])[0] === 'HGET')).toBe(false);
  });
});
