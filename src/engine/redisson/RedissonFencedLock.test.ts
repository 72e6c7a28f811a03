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

  it('passes the token to a fenced resource, which refuses a stale one', () => {
    const s = run(
      {
        A: [
          { id: 1, program: [fenced('lock', { leaseMs: 1000 }), { op: 'use', ms: 3000 }, fenced('unlock')] },
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
