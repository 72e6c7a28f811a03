/** FencedLock: RLock plus a token counter that only grows. */
import { describe, expect, it } from 'vitest';
import { cmds, first, redis, run, runA, work, lockOps } from './testing/family';

const fenced = lockOps('res', 'FencedLock');

describe('FencedLock', () => {
  it('increments redisson_lock_token:{name} on every acquire, reentrant ones included, and never deletes it', () => {
    const s = runA([
      fenced('lock'),
      fenced('lock'),
      fenced('unlock'),
      fenced('unlock'),
      fenced('tryLock'),
      fenced('unlock'),
      redis('GET', 'redisson_lock_token:{res}'),
      redis('EXISTS', 'res'),
    ]);
    expect(s.of('lock.acquired').map((e) => e.token)).toEqual([1, 2, 3]);
    expect(s.results('A:1')).toEqual([true, '3', 0]);
  });

  it('a waiter gets the next token once the holder unlocks; a refused attempt takes none', () => {
    const s = run({
      A: [{ id: 1, program: [fenced('lock'), work(500), fenced('unlock')] }],
      B: [{ id: 1, start: 100, program: [fenced('tryLock'), fenced('lock'), fenced('unlock')] }],
    });
    expect(s.results('B:1')).toEqual([false]);
    expect(first(s, 'lock.acquired', 'A:1').token).toBe(1);
    expect(first(s, 'lock.acquired', 'B:1').token).toBe(2);
    // the script answers {pttl, -1} when it is held by someone else
    const refused = s.of('cmd', 'B:1').find((e) => Array.isArray(e.reply) && (e.reply as number[])[1] === -1);
    expect((refused?.reply as number[])[0]).toBeGreaterThan(29_000);
  });

  it('3.27.2 and 4.7.0 RedissonFencedLock.lockAndGetToken(leaseTime, unit) drops the lease: the watchdog keeps the lock', () => {
    for (const version of ['3.27.2', '4.7.0']) {
      const s = run(
        {
          A: [{ id: 1, program: [fenced('lock', { leaseMs: 1000 }), { op: 'work', ms: 3000 }, fenced('unlock')] }],
          B: [{ id: 1, start: 100, program: [fenced('tryLock', { waitMs: 0 })] }],
        },
        { redisson: { version } },
      );
      // the acquire script gets the watchdog's 30000, not 1000
      const acquire = cmds(s, 'A:1').find((a) => /^EVAL/.test(a[0]) && a[3] === 'res');
      expect(acquire?.[5]).toBe('30000');
      expect(s.of('key.expired')).toEqual([]);
      expect(s.results('B:1')).toEqual([false]);
      expect(s.of('lock.released', 'A:1')).toHaveLength(1);
    }
  });

  it('passes the token to a fenced resource, which refuses a stale one', () => {
    const s = run(
      {
        A: [
          // tryLockAndGetToken(0, 1 s): it keeps the lease that lockAndGetToken(lease) would drop
          { id: 1, program: [fenced('tryLock', { waitMs: 0, leaseMs: 1000 }), { op: 'use', ms: 3000 }, fenced('unlock')] },
        ],
        B: [{ id: 1, start: 100, program: [fenced('lock'), { op: 'use', ms: 10 }, fenced('unlock')] }],
      },
      { resource: { kind: 'fenced' } },
    );
    const uses = s.of('resource.use');
    expect(uses.map((e) => [e.actor, e.token, e.accepted])).toEqual([
      ['B:1', 2, true],
      ['A:1', 1, false],
    ]);
    expect(s.violations.map((v) => v.kind)).toEqual(['V1']);
    expect(cmds(s, 'A:1').some((a) => a[0] === 'EVALSHA')).toBe(true);
  });
});
