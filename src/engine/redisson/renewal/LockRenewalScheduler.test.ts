import { describe, expect, it } from 'vitest';
import { runA } from '../testing/family';
import { simulate } from '../testing/simulate';

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

describe('LockRenewalScheduler in a cluster (3.44.0 RenewalTask.execute → renewSlots)', () => {
  // one client holds seat:1 (slot 5749, master-2) and seat:4 (slot 1744, master-1) for 35 s
  const scenario = (version: string) => ({
    format: 'lockscope/1',
    redis: { topology: 'cluster' },
    redisson: { version },
    clients: [
      {
        id: 'A',
        threads: [1, 2].map((id) => ({
          id,
          program: [
            { op: 'lock', lock: id === 1 ? 'seat:1' : 'seat:4' },
            { op: 'work', ms: 35_000 },
            { op: 'unlock', lock: id === 1 ? 'seat:1' : 'seat:4' },
          ],
        })),
      },
      {
        id: 'B',
        threads: [
          {
            id: 1,
            start: 31_000,
            program: [
              { op: 'tryLock', lock: 'seat:4', waitMs: 0 },
              { op: 'work', ms: 100 },
              { op: 'unlock', lock: 'seat:4' },
            ],
          },
        ],
      },
    ],
  });

  it('3.44.0 RenewalTask.renewSlots: one renewal EVAL per slot group, each on its own master; no CROSSSLOT', () => {
    const s = simulate(scenario('3.44.0'));
    const evals = s
      .of('cmd', 'A/watchdog')
      .filter((e) => /^EVAL/.test((e.argv as string[])[0]) && e.t < 11_000);
    // the slot groups in slot2names' bucket order: 1744 & 15 = 0 before 5749 & 15 = 5
    expect(evals.map((e) => [e.node, (e.argv as string[]).slice(2, 4)])).toEqual([
      ['master-1', ['1', 'seat:4']],
      ['master-2', ['1', 'seat:1']],
    ]);
    expect(s.of('watchdog.renew').every((e) => e.result === 1)).toBe(true);
    expect(s.events.some((e) => e.kind === 'cmd' && /CROSSSLOT/.test(JSON.stringify(e.reply)))).toBe(false);
    // A keeps both locks: B's tryLock at 31 s fails, nobody holds seat:4 twice
    expect(s.results('B:1')[0]).toBe(false);
    expect(s.violations).toEqual([]);
  });

  it('4.7.0 RenewalTask: the batch lists the locks in name2entry’s ConcurrentHashMap order, as the real client sent them (oracle: incident-subscribe-timeout)', () => {
    const s = runA(
      [...[1, 2, 3, 4, 5].map((n) => ({ op: 'lock', lock: `order-${n}` })), { op: 'work', ms: 11_000 }],
      { redisson: { version: '4.7.0' } },
    );
    const renew = s.of('cmd', 'A/watchdog').find((e) => (e.argv as string[])[0] === 'EVALSHA')!;
    expect((renew.argv as string[]).slice(3, 8)).toEqual([
      'order-3',
      'order-4',
      'order-5',
      'order-1',
      'order-2',
    ]);
  });
});
