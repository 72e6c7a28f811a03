import { describe, expect, it } from 'vitest';
import { simulate } from '../redisson/testing/simulate';

const holder = (work: number, lease = 3000) => ({
  id: 'A',
  threads: [
    {
      id: 1,
      program: [
        { op: 'lock', lock: 'L', type: 'set-nx-px-renew', leaseMs: lease },
        { op: 'work', ms: work },
        { op: 'unlock', lock: 'L' },
      ],
    },
  ],
});

/** B polls for L from t=100 and holds it for `work` ms (plain Lua-release lock, no renewal) */
const contender = (work: number) => ({
  id: 'B',
  threads: [
    {
      id: 1,
      start: 100,
      program: [
        { op: 'lock', lock: 'L', type: 'set-nx-px-lua', leaseMs: 3000 },
        { op: 'work', ms: work },
        { op: 'unlock', lock: 'L' },
      ],
    },
  ],
});

const renewalCmds = (s: ReturnType<typeof simulate>) =>
  s.of('cmd', 'A/renewal').map((e) => [e.t, ...(e.argv as string[])]);

describe('set-nx-px-renew', () => {
  it('checks its token and PEXPIREs every third of the lease while held, and stops at unlock', () => {
    const s = simulate({ format: 'lockscope/1', clients: [holder(5000), contender(500)] });
    const token = s.of('lock.acquired', 'A:1')[0].owner;
    expect(s.of('cmd', 'A:1')[0].argv).toEqual(['SET', 'L', token, 'NX', 'PX', '3000']);
    // acquired at t=2; each round sleeps 1000 ms, then GET and PEXPIRE take a round trip each
    expect(renewalCmds(s)).toEqual([
      [1003, 'GET', 'L'],
      [1005, 'PEXPIRE', 'L', '3000'],
      [2007, 'GET', 'L'],
      [2009, 'PEXPIRE', 'L', '3000'],
      [3011, 'GET', 'L'],
      [3013, 'PEXPIRE', 'L', '3000'],
      [4015, 'GET', 'L'],
      [4017, 'PEXPIRE', 'L', '3000'],
    ]);
    expect(s.of('watchdog.renew', 'A:1').map((e) => [e.timer, e.result])).toEqual(
      Array(4).fill(['A/renewal', 1]),
    );
    const cancel = s.of('watchdog.cancel', 'A:1');
    expect(cancel.map((e) => e.reason)).toEqual(['unlock']);
    // stopped before the compare-and-delete goes out; nothing renews afterwards
    const release = s.of('cmd', 'A:1').find((e) => (e.argv as string[])[0] === 'EVAL')!;
    expect(cancel[0].seq).toBeLessThan(release.seq);
    expect(s.of('key.expired')).toEqual([]);
    expect(s.violations).toEqual([]);
    expect(s.of('lock.acquired', 'B:1')[0].t).toBeGreaterThan(release.t);
  });

  it('without the renewal the same lease runs out under the same work', () => {
    const plain = holder(5000);
    plain.threads[0].program[0].type = 'set-nx-px-lua';
    const s = simulate({ format: 'lockscope/1', clients: [plain, contender(500)] });
    expect(s.of('watchdog.renew')).toEqual([]);
    expect(s.violations.map((v) => [v.kind, v.holders])).toContainEqual(['V1', ['A:1', 'B:1']]);
  });

  it('a lock is renewed once per acquisition: a second lock() after unlock starts a fresh task', () => {
    const s = simulate({
      format: 'lockscope/1',
      clients: [
        {
          id: 'A',
          threads: [
            {
              id: 1,
              program: [
                { op: 'lock', lock: 'L', type: 'set-nx-px-renew', leaseMs: 900 },
                { op: 'work', ms: 400 },
                { op: 'unlock', lock: 'L' },
                { op: 'lock', lock: 'L', type: 'set-nx-px-renew', leaseMs: 900 },
                { op: 'work', ms: 700 },
                { op: 'unlock', lock: 'L' },
              ],
            },
          ],
        },
      ],
    });
    const [first, second] = s.of('lock.acquired', 'A:1');
    const gets = s.of('cmd', 'A/renewal').filter((e) => (e.argv as string[])[0] === 'GET');
    // first hold: one round at +300; second hold: rounds at +300 and +600 (each answered with its own token)
    expect(gets.map((e) => e.reply)).toEqual([first.owner, second.owner, second.owner]);
    expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)).toEqual(['unlock', 'unlock']);
  });

  /** An 8 s holder and a contender, the holder's JVM paused for 3 s from `at`. */
  const pausedHolder = (at: number) =>
    simulate({
      format: 'lockscope/1',
      clients: [holder(8000), contender(6000)],
      faults: [{ at, kind: 'pause', client: 'A', ms: 3000 }],
    });

  it('a pause stops the renewal with the JVM; afterwards it finds the key not its own and gives up', () => {
    const s = pausedHolder(1500);
    const b = s.of('lock.acquired', 'B:1')[0];
    expect(b.t).toBeGreaterThan(3000);
    const renews = s.of('watchdog.renew', 'A:1').map((e) => e.result);
    expect(renews).toEqual([1, 0]);
    expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)).toEqual(['lost']);
    // the give-up round sent only the GET, no PEXPIRE on B's lock
    const last = renewalCmds(s).at(-1)!;
    expect(last.slice(1)).toEqual(['GET', 'L']);
    expect(s.of('cmd', 'A/renewal').at(-1)!.reply).toBe(b.owner);
    expect(s.violations.map((v) => v.kind)).toContain('V1');
  });

  it('GET then PEXPIRE is not atomic: a lease that runs out in between extends the next holder’s lock', () => {
    // A is paused with its GET answered in flight (the GET ran at 1003): the key expires at 3001,
    // B takes it, and A's PEXPIRE after the pause lands on B's lock.
    const s = pausedHolder(1003);
    const b = s.of('lock.acquired', 'B:1')[0];
    const [get, pexpire] = s.of('cmd', 'A/renewal');
    expect(get.reply).toBe(s.of('lock.acquired', 'A:1')[0].owner);
    expect(pexpire.argv).toEqual(['PEXPIRE', 'L', '3000']);
    expect(pexpire.t).toBeGreaterThan(b.t);
    expect(pexpire.reply).toBe(1);
    // B's 3 s lease now ends 3 s after A's PEXPIRE, not 3 s after B's SET
    const expired = s.of('key.expired').filter((e) => e.key === 'L' && e.t > b.t);
    expect(expired[0].t - pexpire.t).toBeGreaterThanOrEqual(3000);
    expect(expired[0].t - pexpire.t).toBeLessThanOrEqual(3002);
  });
});
