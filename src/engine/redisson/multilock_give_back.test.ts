/**
 * MultiLock and RedLock giving locks back (unlockInner) and the lease step's PEXPIREs: side by side
 * up to 3.15.0, one lock at a time from 3.15.1 (cd11accae: both became lazy streams, each future
 * made once the one before it completed).
 */
import { describe, expect, it } from 'vitest';
import { lockOps, redis, run, work } from './testing/family';
import type { Simulation } from './testing/simulate';
import type { TraceEvent } from '../trace/types';

const multi = lockOps('multi', 'MultiLock', { locks: ['l1', 'l2', 'l3'] });
const red = lockOps('red', 'RedLock', { locks: ['res', 'res', 'res'] });

const argv = (e: TraceEvent) => e.argv as string[];
/** The unlock scripts a thread sent (3 keys: the lock, its channel, the latch; 2 before 3.24), by time. */
const unlockScripts = (s: Simulation, actor: string) =>
  s.of('cmd', actor).filter((e) => {
    const a = argv(e);
    return (a[0] === 'EVAL' || a[0] === 'EVALSHA') && (a[2] === '2' || a[2] === '3');
  });
/** The first unlock script that reached each lock's key (or node), as [where, t]. */
const firstReach = (events: TraceEvent[], where: (e: TraceEvent) => string) => {
  const out = new Map<string, number>();
  for (const e of events) if (!out.has(where(e))) out.set(where(e), e.t);
  return [...out];
};

/** B:1 holds l3; A:1's tryLock() takes l1 and l2, fails on l3 and gives both back. */
const givesBack = (version: string) =>
  run(
    {
      B: [{ id: 1, program: [{ op: 'lock', lock: 'l3' }, work(1000), { op: 'unlock', lock: 'l3' }] }],
      A: [{ id: 1, start: 100, program: [multi('tryLock'), redis('EXISTS', 'l1', 'l2')] }],
    },
    { redisson: { version } },
  );

describe('giving back the locks of a failed MultiLock round (unlockInner)', () => {
  it('3.15.1 RedissonMultiLock.unlockInner: l2 is given back only once l1 has answered', () => {
    const s = givesBack('3.15.1');
    expect(s.results('A:1')).toEqual([false, 0]);
    const [[k1, t1], [k2, t2]] = firstReach(unlockScripts(s, 'A:1'), (e) => argv(e)[3]);
    expect([k1, k2]).toEqual(['l1', 'l2']);
    // l1's unlock answered (a 1 ms hop back), then l2's unlockAsync was made (a 1 ms hop there)
    const l1Answered = unlockScripts(s, 'A:1').filter((e) => argv(e)[3] === 'l1').at(-1)!.t;
    expect(t2).toBeGreaterThanOrEqual(l1Answered + 2);
    expect(t2).toBeGreaterThan(t1);
  });

  it('3.15.0 RedissonMultiLock.unlockInner: every unlockAsync is made at once, then each awaited', () => {
    const s = givesBack('3.15.0');
    expect(s.results('A:1')).toEqual([false, 0]);
    const reached = firstReach(unlockScripts(s, 'A:1'), (e) => argv(e)[3]);
    expect(reached.map(([k]) => k).sort()).toEqual(['l1', 'l2']);
    expect(reached[0][1]).toBe(reached[1][1]);
  });

  it('4.7.0 RedissonMultiLock.unlockInner: the latch DEL of l1 goes out before l2 is given back', () => {
    const s = givesBack('4.7.0');
    const dels = s.of('cmd').filter((e) => argv(e)[0] === 'DEL' && argv(e)[1].startsWith('redisson_unlock_latch'));
    const l2 = firstReach(unlockScripts(s, 'A:1'), (e) => argv(e)[3]).find(([k]) => k === 'l2')!;
    expect(dels.length).toBeGreaterThanOrEqual(1);
    expect(dels[0].t).toBeLessThanOrEqual(l2[1]);
  });
});

/** A RedLock over three masters with master-2 down: A:1 takes a majority (1 and 3), works, unlocks. */
const redlockOneDown = (version: string) =>
  run(
    { A: [{ id: 1, program: [red('tryLock', { waitMs: 300, leaseMs: 10_000 }), work(100), red('unlock')] }] },
    {
      redis: { topology: 'independent', masters: 3 },
      redisson: { version, timeoutMs: 50, retryAttempts: 0 },
      faults: [{ at: 0, kind: 'crash', node: 'master-2' }],
    },
  );
const unlockStart = (s: Simulation) => s.of('unlock.request', 'A:1')[0].t;
/** When each master first saw one of A:1's unlock scripts (master-2 is down: it never does). */
const unlockReach = (s: Simulation) =>
  new Map(firstReach(unlockScripts(s, 'A:1').filter((e) => e.t >= unlockStart(s)), (e) => e.node as string));

describe('RedLock.unlock() (RedissonRedLock.unlock → unlockInner over every lock)', () => {
  it('3.15.1 RedissonRedLock.unlock: master-3 hears nothing until master-2’s unlock has failed (its 50 ms timeout)', () => {
    const s = redlockOneDown('3.15.1');
    expect(s.results('A:1')).toEqual([true]);
    const reach = unlockReach(s);
    expect(reach.has('master-2')).toBe(false);
    // the failed unlock in the middle is skipped (awaitUninterruptibly), the next one still made
    expect(reach.get('master-3')! - reach.get('master-1')!).toBeGreaterThanOrEqual(50);
    expect(s.of('lock.released', 'A:1')).toHaveLength(1);
  });

  it('3.15.0 RedissonRedLock.unlock: master-1 and master-3 are unlocked at the same instant', () => {
    const s = redlockOneDown('3.15.0');
    const reach = unlockReach(s);
    expect(reach.get('master-3')).toBe(reach.get('master-1'));
  });
});

/** The commands that set the lease at the end of tryLock(wait, lease): PEXPIRE before 3.17.0, the expire script after. */
const leaseStep = (s: Simulation) =>
  s.of('cmd', 'A:1').filter((e) => {
    const a = argv(e);
    return a[0] === 'PEXPIRE' || ((a[0] === 'EVAL' || a[0] === 'EVALSHA') && a[4] === '10000' && a[5] === '');
  });
const leased = (version: string) =>
  run(
    { A: [{ id: 1, program: [multi('tryLock', { waitMs: 2000, leaseMs: 10_000 }), redis('PTTL', 'l3')] }] },
    { redisson: { version } },
  );

describe('the lease step of MultiLock.tryLock(wait, lease)', () => {
  it('3.15.1 RedissonMultiLock.tryLock: each PEXPIRE is sent once the one before it answered', () => {
    const s = leased('3.15.1');
    const step = leaseStep(s);
    expect(step.map((e) => [argv(e)[0], argv(e)[1]])).toEqual([
      ['PEXPIRE', 'l1'],
      ['PEXPIRE', 'l2'],
      ['PEXPIRE', 'l3'],
    ]);
    expect(step.map((e) => e.t - step[0].t)).toEqual([0, 2, 4]);
    expect(s.results('A:1')[0]).toBe(true);
  });

  it('3.15.0 RedissonMultiLock.tryLock: all PEXPIREs are sent at once', () => {
    const step = leaseStep(leased('3.15.0'));
    expect(step).toHaveLength(3);
    expect(new Set(step.map((e) => e.t)).size).toBe(1);
  });

  it('4.7.0 RedissonMultiLock.tryLock: the expire script, one lock after another', () => {
    const step = leaseStep(leased('4.7.0'));
    // l1's EVALSHA misses (NOSCRIPT) and is sent again after SCRIPT LOAD; one server, so l2 and l3 hit
    expect(step.map((e) => argv(e)[3])).toEqual(['l1', 'l1', 'l2', 'l3']);
    const times = step.map((e) => e.t);
    expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true);
  });
});

/** A RedLock over three masters; master-2 dies after A:1 has locked it, before the lease step reaches it. */
const leaseStepFails = (version: string) =>
  run(
    {
      A: [
        {
          id: 1,
          program: [{ op: 'try', body: [red('tryLock', { waitMs: 300, leaseMs: 10_000 })], catch: [] }],
        },
      ],
    },
    {
      redis: { topology: 'independent', masters: 3 },
      redisson: { version, timeoutMs: 50, retryAttempts: 0 },
      faults: [{ at: 6, kind: 'crash', node: 'master-2' }],
    },
  );
const pexpiredOn = (s: Simulation) =>
  s
    .of('cmd', 'A:1')
    .filter((e) => argv(e)[0] === 'PEXPIRE')
    .map((e) => e.node);

describe('a failed PEXPIRE in the lease step', () => {
  it('3.15.1 RedissonMultiLock.tryLock: the join throws out of tryLock, and the locks after it get no PEXPIRE', () => {
    const s = leaseStepFails('3.15.1');
    expect(s.of('lock.error', 'A:1')[0]?.error).toMatch(/RedisResponseTimeoutException/);
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
    expect(pexpiredOn(s)).toEqual(['master-1']);
  });

  it('3.15.0 RedissonMultiLock.tryLock: every PEXPIRE was sent; the first failure, synced in order, is thrown', () => {
    const s = leaseStepFails('3.15.0');
    expect(s.of('lock.error', 'A:1')[0]?.error).toMatch(/RedisResponseTimeoutException/);
    expect(pexpiredOn(s)).toEqual(['master-1', 'master-3']);
  });
});
