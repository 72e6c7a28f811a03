import { describe, expect, it } from 'vitest';
import { simulate } from '../redisson/testing/simulate';
import { RETRY_SLEEP_MS } from './NaiveLock';
import { client, hold, scenario } from '../scenario/build';

const one = (type: string, program: unknown[], faults: unknown[] = [], extra: Record<string, unknown> = {}) =>
  simulate(scenario([client('A', program)], { faults, ...extra }));

const argvs = (s: ReturnType<typeof simulate>) => s.of('cmd').map((e) => (e.argv as string[]).join(' '));

describe('naive locks', () => {
  it('setnx: SETNX with the constant value 1 and no expiry, DEL to release', () => {
    const s = one('setnx', [
      { op: 'lock', lock: 'L', type: 'setnx' },
      { op: 'redis', argv: ['PTTL', 'L'] },
      { op: 'unlock', lock: 'L' },
    ]);
    expect(argvs(s)).toEqual(['SETNX L 1', 'PTTL L', 'DEL L']);
    expect(s.results('A:1')).toEqual([-1, true]);
  });

  it('setnx-expire: a crash between SETNX and EXPIRE leaves a lock without a TTL', () => {
    // SETNX runs on the node at t=1 and its reply reaches A at t=2; A dies before sending EXPIRE.
    const s = one(
      'setnx-expire',
      [{ op: 'lock', lock: 'L', type: 'setnx-expire', leaseMs: 30000 }],
      [{ at: 2, kind: 'crash', client: 'A' }],
    );
    expect(argvs(s)).toEqual(['SETNX L 1']);
    expect(s.trace.final.nodes.master.keys.L.expireAt).toBeNull();
    const ok = one('setnx-expire', [{ op: 'lock', lock: 'L', type: 'setnx-expire', leaseMs: 1500 }]);
    expect(argvs(ok)).toEqual(['SETNX L 1', 'EXPIRE L 2']);
  });

  it('set-nx-px-get-del: a random token per acquisition, checked with GET before DEL', () => {
    const s = one('set-nx-px-get-del', [
      { op: 'lock', lock: 'L', type: 'set-nx-px-get-del', leaseMs: 5000 },
      { op: 'unlock', lock: 'L' },
      { op: 'lock', lock: 'L', type: 'set-nx-px-get-del', leaseMs: 5000 },
    ]);
    const [set1, get, del, set2] = s.of('cmd').map((e) => e.argv as string[]);
    expect(set1.slice(0, 2).concat(set1.slice(3))).toEqual(['SET', 'L', 'NX', 'PX', '5000']);
    expect(get).toEqual(['GET', 'L']);
    expect(del).toEqual(['DEL', 'L']);
    expect(set2[2]).not.toBe(set1[2]);
    expect(s.of('lock.acquired').map((e) => e.owner)).toEqual([set1[2], set2[2]]);
  });

  it('set-nx-px-lua: the compare-and-delete script leaves a lock it does not own', () => {
    const s = simulate(
      scenario([
        client('A', hold('L', 2000, { type: 'set-nx-px-lua', leaseMs: 1000 })),
        client(
          'B',
          [
            { op: 'lock', lock: 'L', type: 'set-nx-px-lua', leaseMs: 5000 },
            { op: 'work', ms: 3000 },
          ],
          { start: 1500 },
        ),
      ]),
    );
    expect(s.results('A:1')).toEqual([false]);
    expect(s.trace.final.nodes.master.keys.L.value).toBe(s.of('lock.acquired', 'B:1')[0].owner);
  });

  it('set-nx-px-watch: WATCH, GET, MULTI, DEL, EXEC; a token not its own ends with UNWATCH', () => {
    const s = one('set-nx-px-watch', hold('L', 10, { type: 'set-nx-px-watch', leaseMs: 5000 }));
    expect(argvs(s).slice(1)).toEqual(['WATCH L', 'GET L', 'MULTI', 'DEL L', 'EXEC']);
    expect(s.of('cmd').at(-1)!.reply).toEqual([1]);
    expect(s.results('A:1')).toEqual([true]);
    // A's lease ran out and B took the key: the GET already tells A it is not its lock
    const lost = simulate(
      scenario([
        client('A', hold('L', 2000, { type: 'set-nx-px-watch', leaseMs: 1000 })),
        client('B', [{ op: 'lock', lock: 'L', type: 'set-nx-px-watch', leaseMs: 5000 }], { start: 1500 }),
      ]),
    );
    expect(
      argvs(lost)
        .filter((a) => !a.startsWith('SET'))
        .slice(0, 3),
    ).toEqual(['WATCH L', 'GET L', 'UNWATCH']);
    expect(lost.results('A:1')).toEqual([false]);
    expect(lost.trace.final.nodes.master.keys.L.value).toBe(lost.of('lock.acquired', 'B:1')[0].owner);
  });

  it('set-nx-px-watch in a cluster: MULTI and EXEC follow the lock key to its master', () => {
    // myLock is slot 12769 (master-3); MULTI and EXEC name no key and would otherwise go elsewhere
    const s = simulate(
      scenario([client('A', hold('myLock', 10, { type: 'set-nx-px-watch', leaseMs: 5000 }))], {
        redis: { topology: 'cluster' },
      }),
    );
    const sent = s.of('cmd', 'A:1').map((e) => `${(e.argv as string[])[0]}@${String(e.node)}`);
    expect(sent.slice(1)).toEqual([
      'WATCH@master-3',
      'GET@master-3',
      'MULTI@master-3',
      'DEL@master-3',
      'EXEC@master-3',
    ]);
    expect(s.results('A:1')).toEqual([true]);
  });

  it('polls every RETRY_SLEEP_MS and tryLock(wait) gives up once the wait is spent', () => {
    const s = simulate(
      scenario([
        client('A', [{ op: 'lock', lock: 'L', type: 'set-nx-px', leaseMs: 10000 }]),
        client('B', [{ op: 'tryLock', lock: 'L', type: 'set-nx-px', waitMs: 350 }], { start: 10 }),
      ]),
    );
    const tries = s.of('cmd', 'B:1').map((e) => e.t);
    expect(tries[1] - tries[0]).toBe(RETRY_SLEEP_MS + 2);
    expect(tries).toEqual([11, 113, 215, 317, 361]); // a last try when the wait runs out at 360
    expect(s.results('B:1')).toEqual([false]);
    // one lock.wait when polling starts (the thread shows as waiting), not one per poll
    expect(s.of('lock.wait', 'B:1').map((e) => [e.t, e.polling, e.waitMs])).toEqual([
      [12, true, RETRY_SLEEP_MS],
    ]);
    expect(s.of('lock.failed', 'B:1')[0].t).toBeLessThanOrEqual(362);
  });

  it('is not reentrant: a second lock() by the holder waits for its own lease to run out', () => {
    const s = one('set-nx-px', [
      { op: 'lock', lock: 'L', type: 'set-nx-px', leaseMs: 1000 },
      { op: 'lock', lock: 'L', type: 'set-nx-px', leaseMs: 1000 },
    ]);
    const [first, second] = s.of('lock.acquired', 'A:1');
    expect(second.t - first.t).toBeGreaterThanOrEqual(1000);
  });
});
