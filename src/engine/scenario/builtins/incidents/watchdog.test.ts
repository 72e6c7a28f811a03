/** The watchdog incidents that follow Redisson's renewal bookkeeping release by release. */
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../../../redisson/testing/simulate';
import { at, near, sim } from '../../testing/builtins';
import { kinds } from '../../testing/incidents';

const renewals = (s: Simulation, actor: string) => s.of('watchdog.renew', actor).map((e) => e.result);

describe('renewal-map incidents', () => {
  it('3.12.5 RedissonLock.renewExpiration: a 0 answer leaves the entry; A:2’s lock is never renewed and B takes it at 50 s', () => {
    const s = sim('incident-renewal-map-after-delete');
    expect(renewals(s, 'A:1')).toEqual([0]);
    expect(renewals(s, 'A:2')).toEqual([]);
    near(at(s.of('lock.acquired', 'B:1')[0]), 50_000, 10);
    expect(kinds(s)).toEqual(['V1 A:2+B:1', 'V3 A:2+B:1']);
  });

  it('3.16.1: the 0 answer clears the entry; A:2 is renewed and B waits for its unlock', () => {
    const s = sim('incident-renewal-map-after-delete-fixed');
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(renewals(s, 'A:2').every((r) => r === 1)).toBe(true);
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'A:2')[0]));
  });

  it('3.13.6: the failed renewal leaves the entry; A:2 (35.4 s, behind what TCP held until its retransmission) is never renewed and B takes over at 65.4 s', () => {
    const s = sim('incident-renewal-map-after-error');
    expect(renewals(s, 'A:1')).toEqual(['error']);
    expect(renewals(s, 'A:2')).toEqual([]);
    near(at(s.of('lock.acquired', 'A:2')[0]), 35_404, 5);
    near(at(s.of('lock.acquired', 'B:1')[0]), 65_406, 10);
    expect(kinds(s)).toEqual(['V1 A:2+B:1', 'V3 A:2+B:1']);
  });

  it('3.14.0: the error clears the entry; A:2 is renewed and B waits', () => {
    const s = sim('incident-renewal-map-after-error-fixed');
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(s.violations).toEqual([]);
    expect(at(s.of('lock.acquired', 'B:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'A:2')[0]));
  });

  it('3.45.0 LockEntry.removeThreadId: after A:1’s reentry every round fails; A:2’s lease ends at 31 s', () => {
    const s = sim('incident-reentrant-watchdog-leak');
    expect(renewals(s, 'A:2')).toEqual([]);
    near(at(s.of('lock.acquired', 'B:1')[0]), 31_000, 10);
    expect(kinds(s)).toEqual(['V1 A:2+B:1', 'V3 A:2+B:1']);
  });

  it('3.46.0: A:2 is renewed; B after A:2', () => {
    const s = sim('incident-reentrant-watchdog-leak-fixed');
    expect(renewals(s, 'A:2').every((r) => r === 1)).toBe(true);
    expect(renewals(s, 'A:2').length).toBeGreaterThan(2);
    expect(s.violations).toEqual([]);
  });

  it('3.7.5 read locks: the timeout keys expire at 30 s, the writer enters beside A:2, A:2’s unlock throws', () => {
    const s = sim('incident-read-lock-timeout-keys');
    const expired = s.of('key.expired').filter((e) => /rwlock_timeout/.test(String(e.key)));
    expect(expired.map((e) => e.t)).toEqual([30_002, 30_012]);
    expect(kinds(s)).toEqual(['V1 A:2+W:1']);
    expect(String((s.results('A:2')[0] as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
  });

  it('3.8.1: the timeout keys are renewed; the writer waits for both readers', () => {
    const s = sim('incident-read-lock-timeout-keys-fixed');
    expect(s.of('key.expired').filter((e) => /rwlock_timeout/.test(String(e.key)))).toEqual([]);
    expect(s.violations).toEqual([]);
    expect(at(s.of('lock.acquired', 'W:1')[0])).toBeGreaterThan(at(s.of('lock.released', 'A:2')[0]));
  });
});
