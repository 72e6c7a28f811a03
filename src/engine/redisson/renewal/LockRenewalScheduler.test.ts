import { describe, expect, it } from 'vitest';
import { runA } from '../testing/family';

describe('LockRenewalScheduler (3.44+)', () => {
  it('renews all of a client’s watchdog locks in one EVAL every lockWatchdogTimeout/3', () => {
    const s = runA([
      { op: 'lock', lock: 'a' },
      { op: 'work', ms: 3000 },
      { op: 'lock', lock: 'b' },
      { op: 'work', ms: 25_000 },
    ]);
    const renewals = s.of('watchdog.renew');
    // the task started with the first lock; b joined the running task
    expect(renewals.map((e) => [e.lock, Math.round(e.t / 1000)])).toEqual([
      ['a', 10],
      ['b', 10],
      ['a', 20],
      ['b', 20],
    ]);
  });

  it('keeps a scheduled round alive when the last lock is released and a new one taken before it fires', () => {
    // RenewalTask.stop() only clears `running`; the next add() starts a second timer chain while
    // the first is still scheduled, and both keep renewing (as Redisson's code does).
    const s = runA([
      { op: 'lock', lock: 'a' },
      { op: 'unlock', lock: 'a' },
      { op: 'work', ms: 1000 },
      { op: 'lock', lock: 'a' },
      { op: 'work', ms: 25_000 },
    ]);
    const times = s.of('watchdog.renew').map((e) => Math.round(e.t / 1000));
    expect(times).toEqual([10, 11, 20, 21]);
  });

  it('drops a lock whose renewal answers 0 and stops when none is left', () => {
    const s = runA([
      { op: 'lock', lock: 'a' },
      { op: 'redis', argv: ['DEL', 'a'] },
      { op: 'work', ms: 25_000 },
    ]);
    expect(s.of('watchdog.renew').map((e) => e.result)).toEqual([0]);
    expect(s.of('watchdog.cancel').map((e) => e.reason)).toEqual(['lost']);
  });
});
