/** Calls whose get() an interrupt abandoned: what still happens behind the thread's back. */
import { describe, expect, it } from 'vitest';
import { cmds, redis, run, work } from './testing/family';

/** A:1's interrupt flag is set while it works (work does not look at it), then it runs `then`. */
const flagSetThen = (version: string, then: Record<string, unknown>[], lockFirst = false) =>
  run(
    {
      A: [
        {
          id: 1,
          program: [...(lockFirst ? [{ op: 'lock', lock: 'a' }] : []), work(300), ...then],
        },
        {
          id: 2,
          start: 2000,
          program: [{ op: 'isLocked', lock: 'a' }, redis('KEYS', 'redisson_unlock_latch*')],
        },
      ],
    },
    { redisson: { version }, faults: [{ kind: 'interrupt', at: 100, client: 'A', thread: 1 }] },
  );

/** 3.27.2, one replica cut off from 500: A:1 locks, works 1 s and unlocks; interrupted at `at`. */
const replicaCutOff = (at: number) =>
  run(
    { A: [{ id: 1, program: [{ op: 'lock', lock: 'a' }, work(1000), { op: 'unlock', lock: 'a' }] }] },
    {
      until: 10_000,
      redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
      redisson: { version: '3.27.2' },
      faults: [
        { at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']] },
        { at, kind: 'interrupt', client: 'A', thread: 1 },
      ],
    },
  );

describe('interrupted get()', () => {
  it('4.7.0 CommandAsyncService.evalAsync: an abandoned EVALSHA that answers NOSCRIPT is loaded and run again in the background, so lock() throws and the lock is taken all the same', () => {
    const s = flagSetThen('4.7.0', [{ op: 'lock', lock: 'a' }]);
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(
      /^RedisException: java.lang.InterruptedException/,
    );
    // the retry runs on the client's own process, not the thread
    expect(cmds(s, 'A/script').map((a) => a[0])).toEqual(['SCRIPT', 'EVALSHA']);
    expect(s.results('A:2')[0]).toBe(true);
  });

  it('3.27.2 RedissonBaseLock.unlockAsync0: an unlock abandoned by the interrupt still deletes its latch when the script answers', () => {
    const s = flagSetThen('3.27.2', [{ op: 'unlock', lock: 'a' }], true);
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(
      /^RedisException: java.lang.InterruptedException/,
    );
    const dels = cmds(s, 'A/unlock').filter((a) => a[0] === 'DEL');
    expect(dels).toHaveLength(1);
    expect(dels[0][1]).toMatch(/^redisson_unlock_latch:\{a\}:/);
    // the script ran (the lock is gone) and the latch with it
    expect(s.results('A:2')).toEqual([false, []]);
  });

  it('3.27.2 the EVAL+WAIT batch: an unlock whose WAIT the interrupt abandoned, and whose replica check then fails, deletes no latch (the future failed)', () => {
    // the unlock's script has answered; its WAIT waits slavesSyncTimeout for a replica cut off
    const s = replicaCutOff(1500);
    const waits = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'WAIT' && e.t > 1000);
    expect(waits).toHaveLength(1);
    expect(waits[0].reply).toBe(0);
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(
      /^RedisException: java.lang.InterruptedException/,
    );
    expect(cmds(s, 'A/unlock').filter((a) => a[0] === 'DEL')).toEqual([]);
  });

  it('4.7.0 CommandAsyncService.evalAsync: an interrupt while the script loads (NOSCRIPT, SCRIPT LOAD) does not stop the EVALSHA chained after it', () => {
    for (const at of [1, 3, 5]) {
      const s = run(
        {
          A: [
            { id: 1, program: [{ op: 'lock', lock: 'a' }] },
            { id: 2, start: 2000, program: [{ op: 'isLocked', lock: 'a' }] },
          ],
        },
        { redisson: { version: '4.7.0' }, faults: [{ kind: 'interrupt', at, client: 'A', thread: 1 }] },
      );
      expect([at, s.results('A:2')[0]]).toEqual([at, true]);
    }
  });

  it('3.27.2 the EVAL+WAIT batch: a script abandoned by the interrupt leaves the batch to finish alone: one call of the thread, the WAIT behind it, no latch DEL when the replica check fails', () => {
    const s = replicaCutOff(700);
    const after = (actor: string) =>
      s
        .of('cmd', actor)
        .filter((e) => e.t > 1000)
        .map((e) => (e.argv as string[])[0]);
    expect(after('A:1')).toEqual(['EVAL']);
    expect(after('A/batch')).toEqual(['WAIT']);
    expect(s.of('cmd', 'A/batch')[0].reply).toBe(0);
    expect(cmds(s, 'A/unlock').filter((a) => a[0] === 'DEL')).toEqual([]);
  });
});

/**
 * cluster-moved-stale-map's cluster (master-3 fails at 100 ms, replica-3 takes its slots, master-3
 * rejoins as a replica at 3.8 s, B's slot map is rescanned at 5 s). At 4 s B:1 locks myLock (slot
 * 12769), the first lock on that entry: the replica check's INFO (answered at 4002), at 4.7.0 the
 * batch's SCRIPT LOAD (at 4004), then the script, all to master-3 by the stale map; the script is
 * answered MOVED. B:1 is interrupted at `at`; B:3 asks whether myLock is held at 5.5 s.
 */
const movedBehindInterrupt = (version: string, at: number) =>
  run(
    {
      B: [
        { id: 1, start: 4000, program: [{ op: 'lock', lock: 'myLock' }] },
        { id: 2, program: [{ op: 'lock', lock: 'seat:4' }, work(50), { op: 'unlock', lock: 'seat:4' }] },
        { id: 3, start: 5500, program: [{ op: 'isLocked', lock: 'myLock' }] },
      ],
    },
    {
      until: 6000,
      redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
      redisson: { version },
      faults: [
        { at: 100, kind: 'crash', node: 'master-3' },
        { at: 3800, kind: 'restart', node: 'master-3' },
        { at, kind: 'interrupt', client: 'B', thread: 1 },
      ],
    },
  );

/** [node, command] of what B's client sent on its own after B:1 gave up, and whether myLock is held. */
function behindTheThread(version: string, at: number) {
  const s = movedBehindInterrupt(version, at);
  expect(String((s.results('B:1')[0] as { error: string }).error)).toMatch(
    /^RedisException: java.lang.InterruptedException/,
  );
  const left = s.trace.events.filter((e) => e.kind === 'cmd' && e.t >= 4000 && e.actor.startsWith('B/'));
  return {
    sent: left.map((e) => `${e.actor} ${e.node} ${(e.argv as string[])[0]}`),
    held: s.results('B:3')[0],
  };
}

describe('interrupted get() before 3.21 (RedissonBaseLock.evalWriteAsync)', () => {
  /** 3.17.5, one replica cut off from 500: A:1 locks at 1 s and is interrupted while the script is in flight. */
  const cutOffThenLock = (version: string) =>
    run(
      { A: [{ id: 1, start: 1000, program: [{ op: 'lock', lock: 'a' }] }] },
      {
        until: 15_000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
        redisson: { version },
        faults: [
          { at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']] },
          { at: 1001, kind: 'interrupt', client: 'A', thread: 1 },
        ],
      },
    );

  it('3.17.5: the script and its WAIT are one batch, so an abandoned lock script still has its WAIT sent, and its failed replica check keeps the watchdog off', () => {
    const s = cutOffThenLock('3.17.5');
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(
      /^RedisException: java.lang.InterruptedException/,
    );
    // the batch's WAIT went out from the client, and no replica acknowledged it
    const waits = s.of('cmd', 'A/batch');
    expect(waits.map((e) => [(e.argv as string[])[0], e.reply])).toEqual([['WAIT', 0]]);
    // the lock was taken on the master all the same, but nothing renews it (the future failed)
    expect(
      s.of('cmd').filter((e) => e.actor?.startsWith('A/') && (e.argv as string[])[0] !== 'WAIT'),
    ).toEqual([]);
  });
});

describe('interrupted get() while the batch waits after NOSCRIPT', () => {
  it('4.7.0 CommandAsyncService.syncedEval: the WAIT behind a NOSCRIPT script, interrupted, leaves the reload and the call again to the client; the thread sends nothing more', () => {
    // A:1 locks and unlocks (scripts loaded), a SCRIPT FLUSH at 500 ms, then A:1 locks again at
    // 1.6 s: NOSCRIPT, and its WAIT (replica 300 ms behind) is interrupted
    const s = run(
      {
        A: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'a' },
              { op: 'unlock', lock: 'a' },
              work(1000),
              { op: 'lock', lock: 'a' },
            ],
          },
          { id: 2, start: 500, program: [redis('SCRIPT', 'FLUSH')] },
          { id: 3, start: 3000, program: [{ op: 'isLocked', lock: 'a' }] },
        ],
      },
      {
        until: 5000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 300 }] },
        redisson: { version: '4.7.0' },
        faults: [{ at: 1619, kind: 'interrupt', client: 'A', thread: 1 }],
      },
    );
    expect(String((s.results('A:1').at(-1) as { error: string }).error)).toMatch(
      /^RedisException: java.lang.InterruptedException/,
    );
    const after = s.of('cmd').filter((e) => e.t > 1619);
    expect(after.filter((e) => e.actor === 'A:1')).toEqual([]);
    expect(after.filter((e) => e.actor === 'A/batch').map((e) => (e.argv as string[])[0])).toEqual([
      'SCRIPT',
      'EVALSHA',
      'WAIT',
    ]);
    expect(s.results('A:3')[0]).toBe(true);
  });
});

describe('interrupted get() in a cluster', () => {
  it("3.27.2 RedisExecutor.checkAttemptPromise: a command nobody waits for still follows its MOVED, so the abandoned lock script runs on the slot's owner and the lock is taken", () => {
    expect(behindTheThread('3.27.2', 4003)).toEqual({ sent: ['B/redirect replica-3 EVAL'], held: true });
  });

  it("4.7.0 the same; NOSCRIPT there loads the script on the key's entry by the stale map and runs syncedEval again, round after round until the scan", () => {
    const { sent, held } = behindTheThread('4.7.0', 4005);
    expect(sent.slice(0, 4)).toEqual([
      'B/redirect replica-3 EVALSHA',
      'B/batch master-3 SCRIPT',
      'B/batch master-3 EVALSHA',
      'B/batch replica-3 EVALSHA',
    ]);
    // after the scan at 5 s: the replica count, the script and the lock on replica-3
    expect(sent.slice(-4)).toEqual([
      'B/batch replica-3 INFO',
      'B/batch replica-3 SCRIPT',
      'B/batch replica-3 EVALSHA',
      'B/batch replica-3 WAIT',
    ]);
    expect(held).toBe(true);
  });

  it("4.7.0 CommandAsyncService.syncedEval: an interrupt during the replica check (INFO) or the batch's SCRIPT LOAD does not stop the chain after it", () => {
    for (const at of [4001, 4003]) {
      const { sent, held } = behindTheThread('4.7.0', at);
      expect([at, sent[0], held]).toEqual([
        at,
        at === 4001 ? 'B/batch master-3 SCRIPT' : 'B/batch master-3 EVALSHA',
        true,
      ]);
    }
  });

  it("4.7.0 an interrupt during a round's SCRIPT LOAD (the reload after NOSCRIPT) leaves the rounds to the client too: the lock is taken after the scan", () => {
    const { sent, held } = behindTheThread('4.7.0', 4009);
    expect(sent[0]).toBe('B/batch master-3 EVALSHA');
    expect(sent.at(-2)).toBe('B/batch replica-3 EVALSHA');
    expect(held).toBe(true);
  });

  it("3.27.2 the same for the replica check's INFO", () => {
    expect(behindTheThread('3.27.2', 4001)).toEqual({
      sent: ['B/batch master-3 EVAL', 'B/batch replica-3 EVAL'],
      held: true,
    });
  });
});
