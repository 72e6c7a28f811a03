/**
 * Behaviours that changed between Redisson releases: each test names the release
 * and the Java method it follows; a behaviour that changes at a release is tested on both sides.
 */
import { redissonScriptOf } from './scripts/family';
import './versions_text';
import { describe, expect, it } from 'vitest';
import {
  BEHAVIOUR_CHANGES,
  NEWEST_RELEASE,
  resolveRelease,
  traitsFor,
  versionTraits,
  type VersionTraits,
} from './versions';
import { first, redis, run, work, type Op, lockOps } from './testing/family';
import type { Simulation } from './testing/simulate';
import { validateScenario } from '../scenario/schema';
import { runScenario } from '../scenario/run';
import { holdAs } from '../scenario/build';

const lock = (extra: Op = {}): Op => ({ op: 'lock', lock: 'myLock', ...extra });
const unlock: Op = { op: 'unlock', lock: 'myLock' };
const fairOp = lockOps('fair', 'FairLock');
const readOp = lockOps('rw', 'ReadLock');

describe('the release table', () => {
  it('resolves the short forms links use: 3.11 → 3.11.6, 3.27 → 3.27.2, latest → the newest release', () => {
    expect(resolveRelease('3.11')).toBe('3.11.6');
    expect(resolveRelease('3.27')).toBe('3.27.2');
    expect(resolveRelease('latest')).toBe(NEWEST_RELEASE);
    expect(resolveRelease(undefined)).toBe('4.7.0');
    expect(resolveRelease('3.44.0')).toBe('3.44.0');
  });

  // [trait, last release without the change, first release with it, value before, value after]
  const boundaries: [keyof VersionTraits, string, string, unknown, unknown][] = [
    ['readRenewTimeoutKeys', '3.8.0', '3.8.1', false, true],
    ['cancelRenewalOnFailedUnlock', '3.12.0', '3.12.1', false, true],
    ['hsetFirstAcquire', '3.12.2', '3.12.3', true, false],
    ['batchFailureHangs', '3.12.4', '3.12.5', false, true],
    ['batchFailureHangs', '3.12.5', '3.13.0', true, false],
    ['renewalStopRemovesEntry', '3.13.0', '3.14.0', 'never', 'on-error'],
    ['renewalStopRemovesEntry', '3.16.0', '3.16.1', 'on-error', 'always'],
    ['abandonedAcquireRenewed', '3.16.2', '3.16.3', true, false],
    ['abandonedAcquireRenewed', '3.20.0', '3.20.1', false, true],
    ['timeoutResendAfterInterval', '3.15.1', '3.15.2', false, true],
    ['reentrantRenewalEntryLeaks', '3.43.0', '3.44.0', false, true],
    ['reentrantRenewalEntryLeaks', '3.45.0', '3.46.0', true, false],
    ['syncedEval', '3.12.4', '3.12.5', false, true],
    ['clusterDownRetry', '3.13.1', '3.13.2', false, true],
    ['fairLockWaitMs', '3.13.2', '3.13.3', 5000, 300_000],
    ['spinLock', '3.14.1', '3.15.0', false, true],
    ['multiLockSequentialGiveBack', '3.15.0', '3.15.1', false, true],
    ['replicaCheck', '3.16.6', '3.16.7', 'none', 'all'],
    ['replicaCheck', '3.17.4', '3.17.5', 'all', 'zero'],
    ['zeroLeaseMeansWatchdog', '3.17.0', '3.17.1', false, true],
    ['fencedLock', '3.18.1', '3.19.0', false, true],
    ['resetLeaseOnUnlock', '3.19.1', '3.19.2', false, true],
    ['noSyncHandling', '3.20.0', '3.20.1', 'throw', 'undo-retry'],
    ['shardedLockPubSub', '3.21.3', '3.22.0', 'classic', 'probe-seed'],
    ['shardedLockPubSub', '3.26.0', '3.27.0', 'probe-seed', 'probe-entry'],
    ['shardedLockPubSub', '3.27.2', '3.28.0', 'probe-entry', 'shardnumsub'],
    ['shardedLockPubSub', '3.28.0', '3.29.0', 'shardnumsub', 'auto'],
    ['unlockLatch', '3.23.5', '3.24.0', false, true],
    ['movedLoopSameNodeOnly', '3.24.1', '3.24.2', false, true],
    ['noSyncHandling', '3.24.3', '3.25.0', 'undo-retry', 'throw'],
    ['reentrantUnlockKeepsLease', '3.27.1', '3.27.2', false, true],
    ['multiLockSequentialUnlock', '3.27.1', '3.27.2', false, true],
    ['fairQueuedEstimatePttl', '3.31.0', '3.32.0', false, true],
    ['resendLockScriptsOnTimeout', '3.36.0', '3.37.0', 'always', 'replicated'],
    ['renewal', '3.43.0', '3.44.0', 'per-lock-timer', 'batched-task'],
    ['rwUnlockMissingKeyReturnsTrue', '3.43.0', '3.44.0', true, false],
    ['readRenewOwnOnly', '4.3.1', '4.4.0', false, true],
    ['useScriptCache', '3.45.0', '3.46.0', false, true],
    ['noSyncHandling', '3.46.1', '3.47.0', 'throw', 'undo-retry'],
    ['equalJitterRetryDelay', '3.47.0', '3.48.0', false, true],
    ['unlockRequestIdReused', '3.51.0', '3.52.0', false, true],
    ['latchDelRightKey', '3.51.0', '3.52.0', true, false],
    ['latchDelRightKey', '4.2.0', '4.3.0', false, true],
    ['tryLockCatchesResponseTimeout', '4.6.0', '4.7.0', false, true],
  ];
  it.each(boundaries)('%s changes between %s and %s', (trait, before, after, was, is) => {
    expect(versionTraits(before)[trait]).toEqual(was);
    expect(versionTraits(after)[trait]).toEqual(is);
  });

  it('lists the releases where behaviour changes, oldest first, for the picker', () => {
    expect(BEHAVIOUR_CHANGES[0]).toBe('3.11.6');
    expect(BEHAVIOUR_CHANGES[BEHAVIOUR_CHANGES.length - 1]).toBe('4.7.0');
    for (const r of [
      '3.12.3',
      '3.12.5',
      '3.24.0',
      '3.25.0',
      '3.27.2',
      '3.37.0',
      '3.44.0',
      '3.47.0',
      '3.52.0',
      '4.3.0',
    ])
      expect(BEHAVIOUR_CHANGES).toContain(r);
    const sorted = [...BEHAVIOUR_CHANGES].sort((a, b) => {
      const pa = a.split('.').map(Number);
      const pb = b.split('.').map(Number);
      return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
    });
    expect(BEHAVIOUR_CHANGES).toEqual(sorted);
  });

  it('traitsFor(version) says what is in force, in English and Chinese', () => {
    const wait = (v: string) => traitsFor(v).find((t) => t.id === 'wait-after-scripts')!;
    expect(wait('3.27.2')).toEqual({
      id: 'wait-after-scripts',
      en: 'WAIT after lock scripts',
      zh: '锁脚本之后发送 WAIT',
      value: 'yes',
      valueZh: '是',
    });
    expect(wait('3.11').value).toBe('no');
    const ids = traitsFor('latest').map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of traitsFor('3.27')) expect(t.zh).toMatch(/[\u4e00-\u9fff]|[A-Za-z]/);
  });

  it('the trace header names the release in force', () => {
    const v = validateScenario({
      format: 'lockscope/1',
      redisson: { version: '3.27' },
      clients: [{ id: 'A', threads: [{ id: 1, program: [] }] }],
    });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    expect(runScenario(v.scenario).trace.redisson).toEqual({ version: '3.27', release: '3.27.2' });
  });
});

describe('lock types a release does not have are schema errors', () => {
  const scenario = (version: string, type: string) => ({
    format: 'lockscope/1',
    redisson: { version },
    clients: [
      {
        id: 'A',
        threads: [{ id: 1, program: [{ op: 'repeat', times: 1, body: [{ op: 'lock', lock: 'x', type }] }] }],
      },
    ],
  });
  it('SpinLock first appeared in 3.15.0 (RedissonSpinLock)', () => {
    const v = validateScenario(scenario('3.14.1', 'SpinLock'));
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.issues).toEqual([
        {
          path: 'clients[0].threads[0].program[0].body[0].type',
          segments: ['clients', 0, 'threads', 0, 'program', 0, 'body', 0, 'type'],
          message:
            'SpinLock first appeared in Redisson 3.15.0; redisson.version "3.14.1" (3.14.1) does not have it',
        },
      ]);
    expect(validateScenario(scenario('3.15.0', 'SpinLock')).ok).toBe(true);
  });
  it('FencedLock first appeared in 3.19.0 (RedissonFencedLock); "3.11" means 3.11.6', () => {
    const v = validateScenario(scenario('3.11', 'FencedLock'));
    expect(!v.ok && v.issues[0].message).toMatch(
      /FencedLock first appeared in Redisson 3\.19\.0; redisson\.version "3\.11" \(3\.11\.6\)/,
    );
    expect(validateScenario(scenario('3.19.0', 'FencedLock')).ok).toBe(true);
  });
});

/** One replica, cut off from the master (and A) at 500; A locks at 1000, B looks at the key at 2500. */
function noReplica(version: string): Simulation {
  return run(
    {
      // only the acquire: whether a program goes on after a failed lock() is not this test's concern
      A: [{ id: 1, start: 1000, program: [lock()] }],
      B: [{ id: 1, start: 12_000, program: [redis('EXISTS', 'myLock')] }],
    },
    {
      until: 40_000,
      redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
      redisson: { version, retryDelayMs: 500 },
      faults: [{ at: 500, kind: 'partition', groups: [['A', 'B', 'master'], ['replica-1']] }],
    },
  );
}

describe('H3: no replica synced an acquire', () => {
  it('3.27.2 RedissonLock.lock(): handleNoSync never matches (3.25–3.46): wrapped IllegalStateException, the lock stays without a watchdog', () => {
    const s = noReplica('3.27');
    expect(first(s, 'lock.error', 'A:1').error).toBe(
      'RedisException: Unexpected exception while processing command; caused by IllegalStateException: None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.',
    );
    expect(s.of('cmd', 'A:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]))).toHaveLength(1);
    expect(s.results('B:1')).toEqual([1]); // still on the master
    expect(s.of('watchdog.renew')).toEqual([]);
    const expired = first(s, 'key.expired');
    expect(expired.key).toBe('myLock');
    expect(expired.t).toBeGreaterThanOrEqual(31_000);
  });

  it('3.46.1 is still broken; 3.47.0 RedissonLock.lock(): undo and retry, then NoSyncedSlavesException wrapped', () => {
    expect(noReplica('3.46.1').results('B:1')).toEqual([1]);
    const s = noReplica('3.47.0');
    expect(first(s, 'lock.error', 'A:1').error).toMatch(
      /^RedisException: Unexpected exception while processing command; caused by NoSyncedSlavesException: None of slaves were synced\. Try/,
    );
    const evals = s
      .of('cmd', 'A:1')
      .filter((e) => /^EVAL/.test((e.argv as string[])[0]) && !JSON.stringify(e.reply).includes('NOSCRIPT'));
    expect(evals).toHaveLength(2 * 4); // (acquire + undo) × (1 + retryAttempts)
    expect(s.results('B:1')).toEqual([0]);
    // each undo failed its own replica check too: its future failed, so no latch DEL after it
    expect(s.of('cmd', 'A/unlock').filter((e) => (e.argv as string[])[0] === 'DEL')).toEqual([]);
  });

  it('4.7.0 RedissonBaseLock.handleNoSync -> unlockInnerAsync(threadId, null): an undo that passes its replica check deletes its latch', () => {
    // the acquire's WAIT gives up at 2011 with no replica; the undo's WAIT sees it back (healed at 2500)
    const s = run(
      {
        A: [{ id: 1, start: 1000, program: [lock(), work(100), unlock] }],
      },
      {
        until: 40_000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
        redisson: { version: '4.7.0', retryDelayMs: 500 },
        faults: [{ at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']], healAt: 2500 }],
      },
    );
    const undo = s
      .of('cmd', 'A:1')
      .map((e) => e.argv as string[])
      .filter((a) => /^EVAL/.test(a[0]) && a[2] === '3');
    expect(undo.length).toBeGreaterThanOrEqual(2); // the undo, then the unlock
    const undoLatch = undo[0][5];
    expect(undoLatch).toMatch(/^redisson_unlock_latch:\{myLock\}:/);
    expect(
      s
        .of('cmd', 'A/unlock')
        .map((e) => e.argv as string[])
        .filter((a) => a[0] === 'DEL')
        .map((a) => a[1]),
    ).toContain(undoLatch);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
  });

  it('3.24.3 RedissonLock.lock(): undo and retry with the old message; 3.25.0 breaks it', () => {
    const s = noReplica('3.24.3');
    expect(first(s, 'lock.error', 'A:1').error).toBe(
      'RedisException: Unexpected exception while processing command; caused by IllegalStateException: None of slaves were synced',
    );
    expect(s.results('B:1')).toEqual([0]);
    expect(noReplica('3.25.0').results('B:1')).toEqual([1]);
  });

  it('3.20.0 has no handleNoSync (the lock stays); 3.20.1 undoes it', () => {
    expect(noReplica('3.20.0').results('B:1')).toEqual([1]);
    expect(noReplica('3.20.1').results('B:1')).toEqual([0]);
  });

  it('3.16.7 RedissonBaseLock.evalWriteAsync: every replica must ack ("Only 0 of 1 slaves were synced"); 3.16.6 does not check', () => {
    expect(first(noReplica('3.16.7'), 'lock.error', 'A:1').error).toMatch(
      /caused by IllegalStateException: Only 0 of 1 slaves were synced$/,
    );
    const old = noReplica('3.16.6');
    expect(old.of('lock.error', 'A:1')).toEqual([]);
    expect(old.of('cmd', 'A:1').some((e) => (e.argv as string[])[0] === 'WAIT')).toBe(true);
  });
});

/** A sends its acquire at 1002; it runs on the node at 1003, when A is cut off until 2000. */
function lostAcquire(version: string, program: Op[] = [work(1002), lock(), unlock]): Simulation {
  return run(
    {
      A: [{ id: 1, program }],
      B: [{ id: 1, start: 9000, program: [redis('HVALS', 'myLock')] }],
    },
    {
      until: 20_000,
      redisson: { version, retryDelayMs: 500 },
      // A's connection is reset: the reply to the acquire is lost (a plain partition would only delay it)
      faults: [{ at: 1003, kind: 'partition', groups: [['A'], ['master']], healAt: 2000, reset: true }],
    },
  );
}

describe('M1: a lost reply to the acquire', () => {
  it('3.27.2 RedisExecutor re-sends the acquire EVAL: it re-enters (hold count 2), so one unlock leaves the lock held', () => {
    const s = lostAcquire('3.27');
    const evals = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'EVAL');
    expect(evals.slice(0, 2).map((e) => [e.t, e.reply])).toEqual([
      [1003, null],
      [1002 + 3000 + 500 + 1, null],
    ]);
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    expect(s.results('B:1')).toEqual([['1']]);
  });

  it('3.37.0 RedissonLock.lock() in single-server mode: no re-send, RedisResponseTimeoutException; the lock stays unrenewed', () => {
    const s = lostAcquire('3.37.0', [work(1002), lock()]);
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/^RedisResponseTimeoutException/);
    expect(s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'EVAL')[0].reply).toBeNull();
    expect(s.results('B:1')).toEqual([['1']]);
    expect(s.of('watchdog.renew')).toEqual([]);
  });
});

describe('tryLock after a response timeout inside the wait loop', () => {
  /** B holds with a 2 s lease; A's tryLock waits, and the attempt after the 1.9 s wait (runs at 2007) loses its reply. */
  const s = (version: string) =>
    run(
      {
        B: [{ id: 1, program: [lock({ leaseMs: 2000 }), work(5000)] }],
        A: [{ id: 1, start: 100, program: [{ op: 'tryLock', lock: 'myLock', waitMs: 10_000 }] }],
      },
      {
        until: 20_000,
        redisson: { version },
        faults: [{ at: 2007, kind: 'partition', groups: [['A'], ['master', 'B']], healAt: 9000 }],
      },
    );
  it('4.7.0 RedissonLock.tryLock(): logs it, acquireFailed, returns false', () => {
    const r = s('4.7.0');
    expect(r.of('lock.error', 'A:1')).toEqual([]);
    expect(r.of('lock.failed', 'A:1')).toHaveLength(1);
  });
  it('4.6.0 RedissonLock.tryLock(): RedisResponseTimeoutException', () => {
    expect(first(s('4.6.0'), 'lock.error', 'A:1').error).toMatch(/^RedisResponseTimeoutException/);
  });
});

describe('M2: unlocking a read/write lock whose key is gone', () => {
  const expired = (version: string, type = 'WriteLock') =>
    run(
      { A: [{ id: 1, program: holdAs(lockOps('rw', type), 2000, { leaseMs: 1000 }) }] },
      { redisson: { version } },
    );
  it('3.43.0 RedissonWriteLock.unlockInnerAsync: returns 1 and publishes, no exception', () => {
    const s = expired('3.43.0');
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    expect(s.of('pubsub.publish')).toHaveLength(1);
  });
  it('3.44.0 RedissonWriteLock.unlockInnerAsync: nil, IllegalMonitorStateException', () => {
    expect(first(expired('3.44.0'), 'lock.error', 'A:1').error).toMatch(/^IllegalMonitorStateException/);
  });
  it('3.43.0 / 3.44.0 RedissonReadLock.unlockInnerAsync: the same boundary', () => {
    const read = (version: string) => expired(version, 'ReadLock');
    expect(read('3.43.0').of('lock.error', 'A:1')).toEqual([]);
    expect(first(read('3.44.0'), 'lock.error', 'A:1').error).toMatch(/^IllegalMonitorStateException/);
  });
});

describe('M3: FairLock estimate for a thread already queued', () => {
  const fair = (version: string) =>
    run(
      {
        A: [{ id: 1, program: holdAs(fairOp, 70_000) }],
        B: [{ id: 1, start: 100, program: [fairOp('lock')] }],
      },
      { redisson: { version }, until: 80_000 },
    );
  it('3.32.0 RedissonFairLock.tryLockInnerAsync: max(0, pttl), so the waiter keeps waking with the renewed lease', () => {
    const waits = fair('3.32.0').of('lock.wait', 'B:1');
    expect(waits.length).toBeGreaterThan(2);
    expect(waits[1].ttl as number).toBeGreaterThan(10_000);
  });
  it('3.31.0 RedissonFairLock.tryLockInnerAsync: deadline − threadWaitTime − now, which runs out and then waits for a message only', () => {
    const waits = fair('3.31.0').of('lock.wait', 'B:1');
    expect(waits[1].ttl as number).toBeLessThan(1000);
    expect(waits.some((w) => w.waitMs === null)).toBe(true);
  });
});

describe('M4: read-lock renewal', () => {
  /** A and B read-lock; B's client crashes at 1000; A keeps its hold for 50 s. */
  const readers = (version: string) =>
    run(
      {
        A: [{ id: 1, program: [readOp('lock'), work(50_000)] }],
        B: [{ id: 1, start: 10, program: [readOp('lock'), work(60_000)] }],
      },
      { redisson: { version }, until: 45_000, faults: [{ at: 1000, kind: 'crash', client: 'B' }] },
    );
  const bTimeoutExpired = (s: Simulation) =>
    s.of('key.expired').filter((e) => /rwlock_timeout/.test(String(e.key))).length > 0;
  it('3.43.0 RedissonReadLock.renewExpirationAsync: A renews every reader, so crashed B stays', () => {
    expect(bTimeoutExpired(readers('3.43.0'))).toBe(false);
  });
  it('4.3.1 ReadLockTask.buildChunk (script of 3.44–4.3.x): A renews every reader, so crashed B stays', () => {
    expect(bTimeoutExpired(readers('4.3.1'))).toBe(false);
  });
  it('4.4.0 ReadLockTask.buildChunk: A renews only its own hold, so crashed B’s expires', () => {
    expect(bTimeoutExpired(readers('4.4.0'))).toBe(true);
  });
});

describe('one UUID per Redisson instance', () => {
  it('Redisson.create() per master (ServiceManager.id): a RedLock over three masters writes three lock names', () => {
    const s = run(
      { A: [{ id: 1, program: [{ op: 'lock', lock: 'red', type: 'RedLock', locks: ['a', 'b', 'c'] }] }] },
      { redis: { topology: 'independent', masters: 3 } },
    );
    const acquired = first(s, 'lock.acquired', 'A:1');
    const names = [acquired.owner, ...(acquired.owners as string[])];
    expect(names).toHaveLength(3);
    expect(new Set(names.map((n) => String(n).split(':')[0])).size).toBe(3);
    expect(names.every((n) => String(n).endsWith(':1'))).toBe(true);
  });
});

describe('M5 (part): SpinLock.lock() is interruptible', () => {
  it('4.7.0 RedissonSpinLock.lock(): an interrupt while spinning ends it with IllegalStateException', () => {
    const spin = lockOps('s', 'SpinLock');
    const s = run(
      {
        A: [{ id: 1, program: [spin('lock'), work(5000), spin('unlock')] }],
        B: [{ id: 1, start: 10, program: [spin('lock')] }],
      },
      { faults: [{ at: 1000, kind: 'interrupt', client: 'B', thread: 1 }] },
    );
    const err = first(s, 'lock.error', 'B:1');
    expect(err.error).toBe('IllegalStateException');
    expect(err.t).toBeLessThan(1200);
  });
});

describe('low: Java long division for the watchdog period', () => {
  it('4.7.0 LockTask: lockWatchdogTimeout 10000 renews every 3333 ms, not 3333.33', () => {
    const s = run(
      { A: [{ id: 1, program: [lock(), work(8000), unlock] }] },
      { redisson: { lockWatchdogTimeout: 10_000 } },
    );
    const renews = s.of('watchdog.renew', 'A:1').map((e) => e.t);
    expect(renews.every((t) => Number.isInteger(t))).toBe(true);
  });
});

describe('low: FairLock.acquireFailed goes through the synced path', () => {
  it('3.27.2 RedissonFairLock.acquireFailedAsync (evalWriteSyncedAsync): WAIT follows the dequeue script', () => {
    const s = run(
      {
        A: [{ id: 1, program: [fairOp('lock'), work(3000), fairOp('unlock')] }],
        B: [{ id: 1, start: 10, program: [fairOp('tryLock', { waitMs: 200 })] }],
      },
      { redis: { topology: 'sentinel', replicas: [{ lagMs: 1 }] }, redisson: { version: '3.27' } },
    );
    const cmds = s.of('cmd', 'B:1').map((e) => e.argv as string[]);
    const i = cmds.findIndex((a) => a[0] === 'EVAL' && redissonScriptOf(a[1])?.method === 'RedissonFairLock.acquireFailedAsync');
    expect(i).toBeGreaterThan(0);
    expect(cmds[i + 1][0]).toBe('WAIT');
  });
});

describe('low: FairLock slot length', () => {
  const slot = (version: string) => {
    const s = run(
      {
        A: [{ id: 1, program: [fairOp('lock'), work(1000), fairOp('unlock')] }],
        B: [{ id: 1, start: 10, program: [fairOp('tryLock', { waitMs: 200 })] }],
      },
      { redisson: { version } },
    );
    const acquire = s.of('cmd', 'B:1').find((e) => /^EVAL/.test((e.argv as string[])[0]))!;
    // EVAL script 3 lock queue timeouts | lease name wait now
    return (acquire.argv as string[])[8];
  };
  it('3.13.2 RedissonFairLock.tryLockInnerAsync: every slot is threadWaitTime (5000), tryLock’s wait too', () => {
    expect(slot('3.13.2')).toBe('5000');
  });
  it('3.13.3 RedissonFairLock.tryLockInnerAsync: tryLock’s wait is the slot', () => {
    expect(slot('3.13.3')).toBe('200');
  });
});

describe('M5: an interrupt aborts a blocking Redisson call', () => {
  it('4.7.0 CommandAsyncService.get(): interrupted while the acquire is in flight, lock() throws RedisException(InterruptedException); the EVAL still takes the lock', () => {
    const s = run(
      {
        A: [{ id: 1, start: 100, program: [lock()] }],
        B: [{ id: 1, start: 1000, program: [redis('HLEN', 'myLock')] }],
      },
      {
        network: { latencyMs: 50 },
        redisson: { version: '3.27' },
        faults: [{ at: 120, kind: 'interrupt', client: 'A', thread: 1 }],
      },
    );
    const err = first(s, 'lock.error', 'A:1');
    expect(err.t).toBe(120);
    expect(err.error).toBe('RedisException: java.lang.InterruptedException; caused by InterruptedException');
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
    expect(s.results('B:1')).toEqual([1]); // A's EVAL ran on the node at 150
  });
});

describe('low: ReadLockTask after a 0 answer', () => {
  /** A read-locks twice (reentrant), then the key is deleted under it. */
  const gone = (version: string) =>
    run(
      {
        A: [
          {
            id: 1,
            program: [readOp('lock'), readOp('lock'), work(40_000)],
          },
        ],
        B: [{ id: 1, start: 1000, program: [redis('DEL', 'rw')] }],
      },
      { redisson: { version }, until: 35_000 },
    );
  it('4.7.0 ReadLockTask.buildChunk: drops one registration per thread, so the reentrant reader is tried again', () => {
    const s = gone('4.7.0');
    expect(s.of('watchdog.renew', 'A:1').map((e) => e.result)).toEqual([0, 0]);
    expect(s.of('watchdog.cancel', 'A:1')).toHaveLength(1);
  });
  it('3.43.0 renewExpiration(): the first 0 stops it', () => {
    expect(
      gone('3.43.0')
        .of('watchdog.renew', 'A:1')
        .map((e) => e.result),
    ).toEqual([0]);
  });
});
