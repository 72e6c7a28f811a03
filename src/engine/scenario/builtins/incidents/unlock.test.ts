/** The unlock-failure incidents: the exception the users saw, who held the lock, and the damage. */
import { describe, expect, it } from 'vitest';
import { at, near, sim } from '../../testing/builtins';
import { errorOf, kinds, isError } from '../../testing/incidents';

describe('unlock-failure incidents', () => {
  it('lease shorter than the work (3.11.6): B takes over at 10 s, A overwrites B and its unlock throws IMSE', () => {
    const s = sim('incident-lease-shorter-than-work');
    expect(s.trace.redisson?.release).toBe('3.11.6');
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    near(at(s.of('lock.acquired', 'B:1')[0]), at(s.of('lock.acquired', 'A:1')[0]) + 10_000);
    expect(s.of('watchdog.renew')).toEqual([]);
    expect(errorOf(s, 'A:1')[0]).toMatch(/^IllegalMonitorStateException: attempt to unlock lock/);
    expect(s.resource).toMatchObject({ value: 1, accepted: 2, lost: 1 });
  });

  it('the remedy, lock() with the watchdog: renewed, B waits for the unlock, no exception', () => {
    const s = sim('incident-lease-shorter-than-work-remedy');
    expect(s.trace.verdict).toBe('safe');
    expect(s.of('watchdog.renew').map((e) => e.result)).toEqual([1]);
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'A:1')[0]));
    expect(errorOf(s, 'A:1').filter(Boolean)).toEqual([]);
    expect(s.resource).toEqual({ value: 2, accepted: 2, rejected: 0 });
  });

  it('unlock after a failed tryLock: false after 10 s, the work runs unlocked (V3), unlock throws IMSE', () => {
    const s = sim('incident-unlock-after-failed-trylock');
    const [tried, unlocked] = s.results('B:1');
    expect(tried).toBe(false);
    near(at(s.of('lock.failed', 'B:1')[0]), 10_500, 10);
    expect(String((unlocked as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
    expect(s.violations.map((v) => `${v.kind} ${v.cause} ${v.holders.join('+')}`)).toEqual([
      'V3 unlocked B:1+A:1',
    ]);
    expect(s.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1']);
  });

  it('re-sent unlock (3.23.1): the first unlock deletes the lock, its reply is lost, the re-send returns nil: IMSE', () => {
    const s = sim('incident-resent-unlock-imse');
    const unlocks = s
      .of('cmd', 'A:1')
      .filter((e) => String((e.argv as string[])[0]).startsWith('EVAL') && e.t > 5000);
    expect(unlocks.map((e) => [e.t, e.reply])).toEqual([
      [5003, 1],
      [9503, null],
    ]);
    expect(errorOf(s, 'A:1')[0]).toMatch(/^IllegalMonitorStateException/);
    expect(s.trace.final.nodes.master.keys).toEqual({});
  });

  it('re-sent unlock, fixed in 3.24.1: the re-send finds the latch and returns 1; no exception', () => {
    const s = sim('incident-resent-unlock-imse-fixed');
    const unlocks = s
      .of('cmd', 'A:1')
      .filter((e) => String((e.argv as string[])[0]).startsWith('EVAL') && e.t > 5000);
    expect(unlocks.map((e) => e.reply)).toEqual([1, 1]);
    expect(String((unlocks[1].argv as string[])[5])).toMatch(/^redisson_unlock_latch:\{rw\}:/);
    expect(errorOf(s, 'A:1').filter(Boolean)).toEqual([]);
    expect(s.of('lock.released', 'A:1')).toHaveLength(1);
  });

  it('WAIT 0 on unlock (3.50.0): each retry has a new request id, misses the latch and ends in IMSE', () => {
    const s = sim('incident-nosynced-unlock-imse');
    const unlocks = s
      .of('cmd', 'A:1')
      .filter((e) => String((e.argv as string[])[0]) === 'EVALSHA' && e.t > 5000 && !isError(e.reply));
    expect(unlocks.length).toBeGreaterThan(1);
    const latches = new Set(unlocks.map((e) => String((e.argv as string[])[5])));
    expect(latches.size).toBe(unlocks.length);
    expect(unlocks.at(-1)!.reply).toBeNull();
    expect(errorOf(s, 'A:1')[0]).toMatch(/^IllegalMonitorStateException/);
  });

  it('3.20.1+ RedissonBaseLock.unlockAsync: the first unlock attempt that fails its replica check cancels the watchdog, so no renewal runs between the retries', () => {
    for (const id of ['incident-nosynced-unlock-imse', 'incident-nosynced-unlock-imse-fixed']) {
      const s = sim(id);
      const firstNoSync = s.of('wait.result', 'A:1').find((e) => e.t > 5000 && e.acked === 0)!;
      const cancel = s.of('watchdog.cancel', 'A:1')[0];
      expect(cancel.reason, id).toBe('unlock');
      expect(at(cancel), id).toBeLessThanOrEqual(at(firstNoSync) + 1);
      // the lock was taken at 0: a watchdog still running would renew at 10 s, during the retries
      expect(s.of('watchdog.renew', 'A:1'), id).toEqual([]);
    }
  });

  it('WAIT 0 on unlock, fixed in 3.52.0: one request id, the retry returns the latch’s answer', () => {
    const s = sim('incident-nosynced-unlock-imse-fixed');
    const unlocks = s
      .of('cmd', 'A:1')
      .filter((e) => String((e.argv as string[])[0]) === 'EVALSHA' && e.t > 5000);
    expect(new Set(unlocks.map((e) => String((e.argv as string[])[5]))).size).toBe(1);
    expect(errorOf(s, 'A:1').filter(Boolean)).toEqual([]);
    expect(s.of('lock.released', 'A:1')).toHaveLength(1);
  });

  it('lock name is a data key (3.18.0): tryLock throws WRONGTYPE; with its own name it gets the lock', () => {
    const s = sim('incident-lock-name-is-data-key');
    for (const t of ['A:1', 'A:2']) expect(errorOf(s, t)[0]).toMatch(/^RedisException: WRONGTYPE/);
    expect(s.of('lock.acquired')).toEqual([]);
    const r = sim('incident-lock-name-is-data-key-remedy');
    expect([...r.results('A:1'), ...r.results('A:2')]).toEqual([true, true]);
    expect(r.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1', 'A:2']);
  });
});

describe('unlock-failure incidents, continued', () => {
  it('JVM frozen by a saturated CPU (3.10.2): no renewal for 35 s, B holds from 30 s, A’s unlock throws', () => {
    const s = sim('incident-jvm-freeze-imse');
    near(at(s.of('lock.acquired', 'B:1')[0]), 30_000, 10);
    expect(s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    expect(String((s.results('A:1')[1] as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
  });

  it('RLock and ReadLock on one name (3.13.1): both acquire, the reader’s unlock deletes the hash, IMSE', () => {
    const s = sim('incident-rlock-readlock-same-name');
    expect(s.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1', 'A:2']);
    expect(s.violations[0]).toMatchObject({ kind: 'V1', holders: ['A:1', 'A:2'] });
    // the reader's unlock (1 = done) leaves no hash `A`, so the writer's unlock script finds no field: nil
    const evals = s.of('cmd').filter((e) => String((e.argv as string[])[0]).startsWith('EVAL') && e.t > 1000);
    expect(evals.map((e) => [e.actor, e.reply])).toEqual([
      ['A:2', 1],
      ['A:1', null],
    ]);
    expect(s.trace.final.nodes.master.keys.A).toBeUndefined();
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
  });
});
