/** The unlock-failure incidents: the exception the users saw, who held the lock, and the damage. */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../../redisson/testing/simulate';
import { at, near, sim } from '../../testing/builtins';

const errorOf = (s: Simulation, actor: string) =>
  s.results(actor).map((r) => String((r as { error?: string } | null)?.error ?? ''));
const kinds = (s: Simulation) => s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`);

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
});
