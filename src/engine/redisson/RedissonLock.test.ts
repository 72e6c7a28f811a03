/**
 * RLock behaviour, each case taken from how Redisson's RLock behaves and run end to end: the
 * program interpreter, this client model, the kernel and the simulated Redis with its Lua VM.
 */
import { describe, expect, it } from 'vitest';
import { redissonScriptOf } from './scripts/family';
import { cmds, first, redis, run, runA, work, type Op } from './testing/family';
import type { Simulation } from './testing/simulate';

const lock = (extra: Op = {}): Op => ({ op: 'lock', lock: 'myLock', ...extra });
const unlock: Op = { op: 'unlock', lock: 'myLock' };
/** Thread.interrupt() of B's thread `thread` at `at` */
const interruptB = (at: number, thread: number) => ({ at, kind: 'interrupt', client: 'B', thread });

describe('RLock: acquire', () => {
  it('stores a hash field <uuid>:<threadId> = 1 with the watchdog lease when no lease is given', () => {
    const s = run({ A: [{ id: 7, program: [lock(), redis('HGETALL', 'myLock'), redis('PTTL', 'myLock')] }] });
    const owner = first(s, 'lock.acquired', 'A:7').owner as string;
    expect(owner).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}:7$/);
    const [hash, pttl] = s.results('A:7') as [string[], number];
    expect(hash).toEqual([owner, '1']);
    expect(pttl).toBeGreaterThan(29_990);
    expect(pttl).toBeLessThanOrEqual(30_000);
  });

  it('derives each client UUID from the seed and the client id', () => {
    const owners = (seed: number) => {
      const s = run(
        {
          A: [{ id: 1, program: [lock()] }],
          B: [{ id: 1, start: 10, program: [{ op: 'tryLock', lock: 'x' }] }],
        },
        { seed },
      );
      return [first(s, 'lock.acquired', 'A:1').owner, first(s, 'lock.acquired', 'B:1').owner];
    };
    const a = owners(1);
    expect(owners(1)).toEqual(a);
    expect(a[0]).not.toEqual(a[1]);
    expect(owners(2)[0]).not.toEqual(a[0]);
  });

  it('counts reentrant holds in the hash field and resets the TTL to the new lease', () => {
    const s = runA([
      lock({ leaseMs: 10_000 }),
      work(4000),
      lock({ leaseMs: 10_000 }),
      redis('PTTL', 'myLock'),
      { op: 'redis', argv: ['HVALS', 'myLock'] },
      unlock,
      redis('HVALS', 'myLock'),
      unlock,
      redis('EXISTS', 'myLock'),
    ]);
    expect(s.of('lock.acquired', 'A:1').map((e) => e.holdCount)).toEqual([1, 2]);
    const [pttl, afterTwo, afterOne, exists] = s.results('A:1') as [number, string[], string[], number];
    expect(pttl).toBeGreaterThan(9_990); // reset, not 6000 left and not 16000 added
    expect(afterTwo).toEqual(['2']);
    expect(afterOne).toEqual(['1']);
    expect(exists).toBe(0);
    expect(s.of('lock.released', 'A:1').map((e) => e.holdCount)).toEqual([1, 0]);
    expect(s.of('pubsub.publish')).toHaveLength(1); // only the last unlock publishes
  });
});

describe('RLock: leases and the watchdog', () => {
  it('hands the lock over when an explicit lease runs out, and the late unlock throws', () => {
    const s = run({
      A: [{ id: 1, program: [lock({ leaseMs: 3000 }), work(5000), unlock] }],
      B: [{ id: 1, start: 100, program: [lock(), work(100), unlock] }],
    });
    const acquiredA = first(s, 'lock.acquired', 'A:1').t;
    const acquiredB = first(s, 'lock.acquired', 'B:1').t;
    // B waited on the latch for the ttl it was given, retried as the key expired, and won.
    expect(first(s, 'waiter.wakeup', 'B:1').cause).toBe('timeout');
    expect(acquiredB).toBeGreaterThanOrEqual(acquiredA + 3000);
    expect(acquiredB).toBeLessThan(acquiredA + 3010);
    expect(s.of('watchdog.renew')).toHaveLength(0);
    expect(s.results('A:1')).toEqual([
      {
        error: expect.stringMatching(
          /^IllegalMonitorStateException: attempt to unlock lock, not locked by current thread/,
        ),
      },
    ]);
    expect(s.violations.map((v) => v.kind)).toEqual(['V1']);
  });

  it('keeps a lock for minutes while the watchdog renews it every lockWatchdogTimeout/3', () => {
    const s = run({
      A: [{ id: 1, program: [lock(), work(300_000), redis('PTTL', 'myLock'), unlock] }],
      B: [{ id: 1, start: 1000, program: [lock(), unlock] }],
    });
    const renewals = s.of('watchdog.renew');
    expect(renewals.length).toBeGreaterThanOrEqual(29);
    // told on the lane of the thread whose lock it renews; the timer did it
    expect(renewals.every((e) => e.actor === 'A:1' && e.timer === 'A/watchdog')).toBe(true);
    expect(renewals.every((e) => e.result === 1)).toBe(true);
    const gaps = renewals.slice(1).map((e, i) => e.t - renewals[i].t);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(10_000);
    for (const g of gaps) expect(g).toBeLessThan(10_010);
    expect(s.results('A:1')[0]).toBeGreaterThan(19_000);
    expect(first(s, 'lock.acquired', 'B:1').t).toBeGreaterThan(300_000);
    expect(s.of('key.expired')).toHaveLength(0);
    expect(s.of('watchdog.cancel', 'A:1')[0].reason).toBe('unlock');
    expect(s.violations).toEqual([]);
  });

  it('lets a crashed holder’s lock expire lockWatchdogTimeout after its last renewal', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(120_000), unlock] }],
        B: [{ id: 1, start: 1000, program: [lock(), unlock] }],
      },
      { faults: [{ at: 25_000, kind: 'crash', client: 'A' }] },
    );
    const renewals = s.of('watchdog.renew', 'A:1');
    expect(renewals.map((e) => e.result)).toEqual([1, 1]); // at ~10 s and ~20 s; nothing after the crash
    const lastRenewal = renewals[1].t - 1; // the renewal ran on the node one latency before its reply
    const acquiredB = first(s, 'lock.acquired', 'B:1').t;
    expect(acquiredB).toBeGreaterThanOrEqual(lastRenewal + 30_000);
    expect(acquiredB).toBeLessThan(lastRenewal + 30_010);
    expect(s.violations).toEqual([]);
  });
  it.each(['latest', '3.11'])(
    '%s: a renewal that finds the field gone cancels the watchdog quietly',
    (version) => {
      const s = run(
        {
          A: [{ id: 1, program: [lock(), work(60_000), unlock] }],
          B: [{ id: 1, start: 500, program: [lock(), work(100), unlock] }],
        },
        { redisson: { version }, faults: [{ at: 1000, kind: 'pause', client: 'A', ms: 40_000 }] },
      );
      // The renewal due at ~10 s runs when A resumes at 41 s: B has come and gone, the field is gone.
      const renewals = s.of('watchdog.renew', 'A:1');
      expect(renewals.map((e) => e.result)).toEqual([0]);
      expect(renewals[0].t).toBeGreaterThan(41_000);
      expect(renewals[0].t).toBeLessThan(41_010); // latest first loads its script (NOSCRIPT)
      expect(s.of('watchdog.cancel', 'A:1').map((e) => e.reason)).toEqual(['lost']);
      // nobody tells the thread: it works on and only its unlock finds out
      expect(s.results('A:1')).toEqual([{ error: expect.stringMatching(/^IllegalMonitorStateException/) }]);
    },
  );
});

describe('RLock: unlock', () => {
  it('refuses a non-owner with IllegalMonitorStateException, recorded; caught, the thread goes on', () => {
    const s = run({
      A: [
        { id: 1, program: [lock(), work(2000), unlock] },
        { id: 2, start: 500, program: [{ op: 'try', body: [unlock], catch: [] }, redis('HLEN', 'myLock')] },
      ],
    });
    const owner = first(s, 'lock.acquired', 'A:1').owner as string;
    const uuid = owner.slice(0, owner.lastIndexOf(':'));
    expect(s.results('A:2')).toEqual([
      {
        error: `IllegalMonitorStateException: attempt to unlock lock, not locked by current thread by node id: ${uuid} thread-id: 2`,
      },
      1, // A:1's hold is untouched and the thread went on
    ]);
    expect(first(s, 'lock.error', 'A:2').op).toBe('unlock');
    expect(s.of('lock.released', 'A:2')).toHaveLength(0);
    expect(s.of('watchdog.cancel')).toHaveLength(1); // only A:1's own unlock
  });

  it('wakes a waiter one network latency after the unlock message is published', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(1000), unlock] }],
        B: [{ id: 1, start: 100, program: [lock(), unlock] }],
      },
      { network: { latencyMs: 5 } },
    );
    const published = first(s, 'pubsub.publish');
    expect(published.receivers).toBe(1);
    const wake = first(s, 'waiter.wakeup', 'B:1');
    expect(wake.cause).toBe('message');
    expect(wake.t).toBe(published.t + 5);
  });

  it('forceUnlock deletes whoever holds the lock, wakes the waiters and reports whether there was one', () => {
    const s = run({
      A: [{ id: 1, program: [lock(), work(5000), unlock] }],
      B: [{ id: 1, start: 100, program: [lock(), work(100), unlock] }],
      C: [
        {
          id: 1,
          start: 1000,
          program: [
            { op: 'forceUnlock', lock: 'myLock' },
            { op: 'forceUnlock', lock: 'myLock' },
          ],
        },
      ],
    });
    expect(s.results('C:1')).toEqual([true, false]);
    const forced = s.of('cmd', 'C:1').find((e) => (e.argv as string[])[0] === 'EVALSHA' && e.reply === 1)!;
    expect(first(s, 'waiter.wakeup', 'B:1').cause).toBe('message');
    expect(first(s, 'lock.acquired', 'B:1').t).toBeLessThan(forced.t + 5);
    expect(s.violations.map((v) => v.kind)).toContain('V1'); // A still believes it holds it
  });
});

describe('RLock: waiting', () => {
  it('tryLock(wait) gives up when the wait time is spent', () => {
    const s = run({
      A: [{ id: 1, program: [lock(), work(5000), unlock] }],
      B: [{ id: 1, start: 100, program: [{ op: 'tryLock', lock: 'myLock', waitMs: 1000 }] }],
    });
    expect(s.results('B:1')).toEqual([false]);
    const failed = first(s, 'lock.failed', 'B:1');
    expect(failed.t).toBeGreaterThanOrEqual(1100);
    expect(failed.t).toBeLessThan(1105);
    expect(first(s, 'waiter.wakeup', 'B:1').cause).toBe('timeout');
    // it waited for what was left of its wait time, not for the holder's much longer ttl
    const wait = first(s, 'lock.wait', 'B:1');
    expect(wait.ttl).toBeGreaterThan(29_000);
    expect(wait.waitMs).toBeGreaterThan(990);
    expect(wait.waitMs).toBeLessThanOrEqual(1000);
  });

  it('tryLock() tries once and does not subscribe', () => {
    const s = run({
      A: [{ id: 1, program: [lock(), work(1000), unlock] }],
      B: [{ id: 1, start: 100, program: [{ op: 'tryLock', lock: 'myLock' }] }],
    });
    expect(s.results('B:1')).toEqual([false]);
    expect(cmds(s).some((a) => a[0] === 'SUBSCRIBE')).toBe(false);
  });

  it('shares one subscription among the waiting threads of a client and wakes one per message', () => {
    const s = run({
      A: [{ id: 1, program: [lock(), work(1000), unlock] }],
      B: [
        { id: 1, start: 100, program: [lock(), work(500), unlock] },
        { id: 2, start: 100, program: [lock(), work(500), unlock] },
      ],
    });
    const subs = s.of('cmd').filter((e) => (e.argv as string[])[0] === 'SUBSCRIBE');
    expect(subs.map((e) => e.conn)).toEqual(['B/pubsub']);
    const unsubs = s.of('cmd').filter((e) => (e.argv as string[])[0] === 'UNSUBSCRIBE');
    expect(unsubs).toHaveLength(1);
    expect(s.of('pubsub.subscribe').map((e) => [e.actor, e.channel])).toEqual([
      ['B:1', 'redisson_lock__channel:{myLock}'],
    ]);
    // the last thread to stop waiting unsubscribes the client
    expect(s.of('pubsub.unsubscribe').map((e) => e.actor)).toEqual(['B:2']);
    // A's unlock message wakes exactly one of B's threads; the other's turn comes with B's unlock.
    const firstPublish = first(s, 'pubsub.publish').t;
    const wakes = s.of('waiter.wakeup').filter((e) => e.t <= firstPublish + 1);
    expect(wakes).toHaveLength(1);
    expect(s.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1', 'B:1', 'B:2']);
    expect(s.violations).toEqual([]);
  });

  it('ends a lockInterruptibly wait with InterruptedException, while lock() keeps waiting', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(3000), unlock] }],
        B: [
          { id: 1, start: 100, program: [{ op: 'lockInterruptibly', lock: 'myLock' }] },
          { id: 2, start: 100, program: [lock(), unlock] },
        ],
      },
      {
        faults: [interruptB(1000, 1), interruptB(1000, 2)],
      },
    );
    expect(s.results('B:1')).toEqual([{ error: 'InterruptedException' }]);
    expect(first(s, 'lock.error', 'B:1').t).toBe(1000);
    expect(first(s, 'lock.acquired', 'B:2').t).toBeGreaterThan(3000);
  });

  it('lock(): an interrupt during the timed wait is consumed and the thread waits the ttl again', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(3000), unlock] }],
        B: [{ id: 1, start: 100, program: [lock(), { op: 'sleep', ms: 100 }, unlock] }],
      },
      { faults: [interruptB(1000, 1)] },
    );
    const waits = s.of('lock.wait', 'B:1');
    expect(s.of('waiter.wakeup', 'B:1').map((e) => [e.t, e.cause])).toEqual([
      [1000, 'interrupted'],
      [first(s, 'pubsub.publish').t + 1, 'message'],
    ]);
    expect(waits.map((e) => e.t)).toEqual([waits[0].t, 1000]); // the second wait starts at once
    expect(waits[1].waitMs).toBe(waits[0].waitMs); // for the same ttl, not a fresh PTTL
    expect(first(s, 'lock.acquired', 'B:1').t).toBeGreaterThan(3000);
    // the flag was cleared by the wait that threw: the sleep after lock() runs its 100 ms
    expect(s.results('B:1')).toEqual([]);
    expect(s.of('lock.error', 'B:1')).toEqual([]);
  });

  it('lock(): a second interrupt during the repeated wait ends lock() with IllegalStateException', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(3000), unlock] }],
        B: [{ id: 1, start: 100, program: [lock()] }],
      },
      {
        faults: [interruptB(1000, 1), interruptB(1500, 1)],
      },
    );
    expect(s.results('B:1')).toEqual([{ error: 'IllegalStateException' }]);
    expect(first(s, 'lock.error', 'B:1').t).toBe(1500);
  });

  it('4.7.0 RedissonLock.lock(): a key without expiry is waited for uninterruptibly; the kept flag then fails the next tryAcquire’s get()', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), redis('PERSIST', 'myLock'), work(3000), unlock] }],
        B: [{ id: 1, start: 100, program: [lock(), { op: 'sleep', ms: 100 }] }],
      },
      { faults: [interruptB(1000, 1)] },
    );
    expect(first(s, 'lock.wait', 'B:1').ttl).toBe(-1);
    expect(s.of('waiter.wakeup', 'B:1').map((e) => e.cause)).toEqual(['message']);
    // the flag is still set: CommandAsyncService.get() throws as soon as the acquire is sent...
    const err = first(s, 'lock.error', 'B:1');
    expect(err.t).toBeGreaterThan(3000);
    expect(err.error).toBe('RedisException: java.lang.InterruptedException; caused by InterruptedException');
    expect(s.of('lock.acquired', 'B:1')).toEqual([]);
    // ...while the EVAL still runs and takes the lock for B, with no watchdog
    const evals = s.of('cmd', 'B:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]) && e.t > 3000);
    expect(evals.map((e) => e.reply)).toContainEqual(null);
    expect(s.of('watchdog.renew', 'B:1')).toEqual([]);
  });
});

describe('Thread.interrupt outside a lock wait', () => {
  it('ends a sleep with InterruptedException; work runs on and the interrupt waits for the next wait', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(5000), unlock] }],
        B: [
          {
            id: 1,
            program: [
              { op: 'sleep', ms: 2000 },
              { op: 'work', ms: 10 },
            ],
          },
          { id: 2, program: [work(2000), { op: 'tryLock', lock: 'myLock', waitMs: 1000 }] },
        ],
      },
      {
        faults: [interruptB(500, 1), interruptB(500, 2)],
      },
    );
    expect(s.results('B:1')).toEqual([{ error: 'InterruptedException: sleep interrupted' }]);
    expect(first(s, 'work.end', 'B:1').t).toBe(500);
    // B:2's work ignored the interrupt; its tryLock then found the flag set and gave up at once
    expect(first(s, 'work.end', 'B:2').t).toBe(2000);
    // 4.7.0 CommandAsyncService.get(): the flag fails tryLock's first tryAcquire at once
    expect(s.results('B:2')).toEqual([
      { error: 'RedisException: java.lang.InterruptedException; caused by InterruptedException' },
    ]);
    expect(first(s, 'lock.error', 'B:2').t).toBeLessThan(2010);
  });
});

describe('RLock: the node goes away', () => {
  it('turns a lost acquire into RedisResponseTimeoutException after the response timeout', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(5000), unlock] }],
        B: [{ id: 1, start: 1500, program: [lock(), work(100), unlock] }],
      },
      {
        faults: [
          { at: 1000, kind: 'crash', node: 'master' },
          { at: 2000, kind: 'restart', node: 'master' },
        ],
      },
    );
    const err = first(s, 'lock.error', 'B:1');
    expect(err.t).toBe(4500); // sent at 1500 to a dead node, given up after timeoutMs = 3000
    expect(err.error).toMatch(/^RedisResponseTimeoutException: Redis server response timeout \(3000 ms\)/);
    // the restarted node lost the lock (no persistence): A's late unlock is refused
    expect(s.results('A:1')).toEqual([{ error: expect.stringMatching(/^IllegalMonitorStateException/) }]);
  });

  it('subscribes again after the node comes back, so later unlock messages still wake the waiter', () => {
    const s = run(
      {
        A: [{ id: 1, program: [lock(), work(10_000), unlock] }],
        B: [{ id: 1, start: 100, program: [lock(), unlock] }],
        C: [{ id: 1, start: 5000, program: [lock(), work(100), unlock] }],
      },
      {
        faults: [
          { at: 1000, kind: 'crash', node: 'master' },
          { at: 2000, kind: 'restart', node: 'master' },
        ],
      },
    );
    const resub = s.of('pubsub.subscribe').filter((e) => e.resubscribe === true);
    expect(resub.map((e) => e.actor)).toEqual(['B/pubsub']);
    expect(resub[0].t).toBeGreaterThan(2000); // only once the node is back
    expect(resub[0].t).toBeLessThan(5000);
    // C took the lock the restart emptied; its unlock message reaches B at once
    const wake = first(s, 'waiter.wakeup', 'B:1');
    expect(wake.cause).toBe('message');
    expect(wake.t).toBe(first(s, 'pubsub.publish').t + 1);
  });
});

describe('RLock: unlock, forceUnlock and renewal are retried (ServiceManager.execute)', () => {
  /** A locks at 0 (reply at 2), works 1 s and sends its unlock at 1002; it reaches the node at 1003. */
  const lostReply = (version: string) =>
    run(
      {
        A: [
          {
            id: 1,
            // the try is Java's: a thrown unlock would otherwise end the thread before the EXISTS
            program: [
              lock(),
              work(1000),
              { op: 'try', body: [unlock], catch: [] },
              redis('EXISTS', 'myLock'),
            ],
          },
        ],
      },
      {
        redisson: { version, retryDelayMs: 500 },
        // from 1003 on A's connection is reset: the unlock runs on the node, its reply is lost
        // (a plain partition would hold it and deliver it at TCP's retransmission after the heal)
        faults: [{ at: 1003, kind: 'partition', groups: [['A'], ['master']], healAt: 2000, reset: true }],
      },
    );
  const unlockEvals = (s: Simulation) =>
    s.of('cmd', 'A:1').filter((e) => /^EVAL/.test((e.argv as string[])[0]) && e.t > 1000);

  it('3.27.2 RedisExecutor re-sends an unlock whose reply was lost: same requestId, the latch answers', () => {
    const s = lostReply('3.27');
    const evals = unlockEvals(s);
    expect(evals.map((e) => [e.t, e.reply])).toEqual([
      [1003, 1], // released and published; the reply never came back
      [1002 + 3000 + 500 + 1, 1], // after the response timeout and retryDelay(1): GET latch -> 1
    ]);
    expect(evals[1].argv).toEqual(evals[0].argv); // same latch key, same latch TTL
    const latch = (evals[0].argv as string[])[5];
    expect(latch).toMatch(/^redisson_unlock_latch:\{myLock\}:[0-9a-f]{32}$/);
    expect(s.of('lock.error', 'A:1')).toEqual([]);
    expect(s.of('pubsub.publish')).toHaveLength(1);
    // the attempt that answered deletes the latch, without waiting
    const del = s.of('cmd', 'A/unlock').map((e) => [e.argv, e.reply, e.t > evals[1].t]);
    expect(del).toEqual([[['DEL', latch], 1, true]]);
    expect(s.results('A:1')).toEqual([0]);
  });

  it('3.37.0+ single server: unlock is sent with noRetry, so a lost reply throws RedisResponseTimeoutException', () => {
    for (const version of ['3.37.0', '3.45.0']) {
      const s = lostReply(version);
      expect(unlockEvals(s)).toHaveLength(1);
      expect(first(s, 'lock.error', 'A:1').error).toMatch(/^RedisResponseTimeoutException/);
      expect(s.results('A:1')[1]).toBe(0); // the node did release it
    }
  });

  it('3.36.0 still re-sends the lost unlock (the boundary of 85be4d67a)', () => {
    expect(unlockEvals(lostReply('3.36.0'))).toHaveLength(2);
  });

  it('before the latch (3.11) the same retry finds no hold and throws IllegalMonitorStateException', () => {
    const s = lostReply('3.11');
    expect(unlockEvals(s).map((e) => e.reply)).toEqual([1, null]);
    expect(first(s, 'lock.error', 'A:1').error).toMatch(
      /^IllegalMonitorStateException: attempt to unlock lock/,
    );
  });

  /** One replica, cut off from the master at 500: every WAIT after that answers 0. */
  const noSync = (program: Op[], version = 'latest', extra: Record<string, unknown> = {}) =>
    run(
      { A: [{ id: 1, program }] },
      {
        until: 60_000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
        redisson: { version, retryAttempts: 3, retryDelayMs: 500, ...extra },
        faults: [{ at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']] }],
      },
    );
  /** the release's EVALs and WAITs (the acquire's come before 1000), without NOSCRIPT answers */
  const synced = (s: Simulation, actor: string, script: RegExp) =>
    s.of('cmd', actor).filter((e) => {
      const argv = e.argv as string[];
      if (e.t <= 1000 || JSON.stringify(e.reply).includes('NOSCRIPT')) return false;
      if (argv[0] === 'WAIT') return true;
      if (!/^EVAL/.test(argv[0])) return false;
      const text = scriptOf(s, argv);
      return script.test(redissonScriptOf(text)?.method ?? text);
    });
  /** the Lua text of an EVAL or EVALSHA */
  const scriptOf = (s: Simulation, argv: string[]) =>
    argv[0] === 'EVAL'
      ? argv[1]
      : ((
          s.of('cmd').find((e) => (e.argv as string[])[0] === 'SCRIPT' && e.reply === argv[1])
            ?.argv as string[]
        )?.[2] ?? '');

  it('4.7.0 RedissonBaseLock.unlock(): a failed replica check is retried with the same requestId (3.52.0+), then thrown wrapped', () => {
    const s = noSync([
      lock(),
      work(1000),
      { op: 'try', body: [unlock], catch: [] },
      redis('EXISTS', 'myLock'),
    ]);
    const steps = synced(s, 'A:1', /unlockInnerAsync/).map((e) => [
      (e.argv as string[])[0].replace('SHA', ''),
      e.reply,
    ]);
    // 1 + retryAttempts attempts, each script followed by WAIT 1 1000 -> 0
    expect(steps).toEqual(
      Array.from({ length: 4 }, () => [
        ['EVAL', 1],
        ['WAIT', 0],
      ]).flat(),
    );
    const evals = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'EVALSHA' && e.t > 1000);
    expect(new Set(evals.map((e) => (e.argv as string[])[5])).size).toBe(1); // one latch key
    expect(s.of('pubsub.publish')).toHaveLength(1); // only the first attempt released
    const err = first(s, 'lock.error', 'A:1');
    expect(err.error).toBe(
      'RedisException: Unexpected exception while processing command; caused by NoSyncedSlavesException: None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.',
    );
    // EqualJitterDelay(500, 2 s) from attempt 1: 500..1000 ms between a WAIT's answer and the next script
    const waits = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'WAIT' && e.t > 1000);
    const gap = waits[1].t - waits[0].t - (1 + 2 + 1 + 1000);
    expect(gap).toBeGreaterThanOrEqual(500);
    expect(gap).toBeLessThanOrEqual(1000);
    expect(s.results('A:1')).toEqual([{ error: err.error }, 0]); // the master did release it
  });

  it('3.47.0 RedissonBaseLock.unlock(): each retry draws a new requestId, so it finds no hold and no latch (#6651)', () => {
    const s = noSync([lock(), work(1000), unlock], '3.47.0');
    const evals = synced(s, 'A:1', /unlockInnerAsync/).filter((e) => (e.argv as string[])[0] !== 'WAIT');
    expect(evals.map((e) => e.reply)).toEqual([1, null, null, null]);
    expect(new Set(evals.map((e) => (e.argv as string[])[5])).size).toBe(4);
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/caused by NoSyncedSlavesException/);
  });

  it('3.27.2 RedissonBaseLock.unlock(): the broken message check (3.25–3.46) throws once, no retry', () => {
    const s = noSync([lock(), work(1000), unlock], '3.27');
    const steps = synced(s, 'A:1', /unlockInnerAsync/).map((e) => [(e.argv as string[])[0], e.reply]);
    expect(steps).toEqual([
      ['EVAL', 1],
      ['WAIT', 0],
    ]);
    expect(first(s, 'lock.error', 'A:1').error).toBe(
      'RedisException: Unexpected exception while processing command; caused by IllegalStateException: None of slaves were synced. Try to increase slavesSyncTimeout setting or set checkLockSyncedSlaves = false.',
    );
  });

  it('4.7.0 RedissonBaseLock.forceUnlock(): syncedEvalWithRetry retries (nothing left to delete), then throws', () => {
    const s = noSync([lock(), work(1000), { op: 'forceUnlock', lock: 'myLock' }]);
    const steps = synced(s, 'A:1', /force/i).map((e) => [
      (e.argv as string[])[0].replace('SHA', ''),
      e.reply,
    ]);
    expect(steps).toEqual([
      ['EVAL', 1],
      ['WAIT', 0],
      ...Array.from({ length: 3 }, () => [
        ['EVAL', 0],
        ['WAIT', 0],
      ]).flat(),
    ]);
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/caused by NoSyncedSlavesException/);
  });

  it('4.7.0 LockTask: a renewal no replica acknowledged is not retried; logged, the next round goes on', () => {
    const s = run(
      { A: [{ id: 1, program: [lock(), work(50_000), unlock] }] },
      {
        until: 60_000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
        redisson: { version: 'latest', retryAttempts: 2 },
        faults: [{ at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']] }],
      },
    );
    const renews = s.of('watchdog.renew');
    expect(renews.length).toBeGreaterThanOrEqual(4);
    expect(renews.every((e) => e.result === 'error')).toBe(true);
    const evals = s.of('cmd', 'A/watchdog').filter((e) => (e.argv as string[])[0] === 'EVALSHA');
    // one renewal per round; 4.7.0 CommandBatchService.loadScripts: the first round's batch sends
    // SCRIPT LOAD before the EVALSHA (a script this client has not loaded there), so no NOSCRIPT
    expect(evals.filter((e) => e.t < renews[0].t).map((e) => JSON.stringify(e.reply))).toEqual(['[1]']);
    const loads = s.of('cmd', 'A/watchdog').filter((e) => (e.argv as string[])[0] === 'SCRIPT');
    expect(loads).toHaveLength(1);
    expect(loads[0].t).toBeLessThan(evals[0].t);
    expect(evals.filter((e) => e.t < renews[1].t)).toHaveLength(2);
    // renewal never stopped: the lock lived through the 50 s of work and the unlock released it
    expect(s.of('lock.error', 'A:1')[0]?.error).toMatch(/caused by NoSyncedSlavesException/);
    expect(s.of('pubsub.publish')).toHaveLength(1);
    // only the unlock latch expires: the failed attempt never got to its DEL
    expect(s.of('key.expired').map((e) => String(e.key).split(':')[0])).toEqual(['redisson_unlock_latch']);
  });

  it('3.27.2 renewExpiration(): the first renewal without a synced replica stops the watchdog', () => {
    const s = run(
      { A: [{ id: 1, program: [lock(), work(50_000), unlock] }] },
      {
        until: 60_000,
        redis: { topology: 'sentinel', replicas: [{ lagMs: 5 }] },
        redisson: { version: '3.27' },
        faults: [{ at: 500, kind: 'partition', groups: [['A', 'master'], ['replica-1']] }],
      },
    );
    expect(s.of('watchdog.renew').map((e) => e.result)).toEqual(['error']);
    expect(s.of('watchdog.cancel').map((e) => e.reason)).toEqual(['error']);
    expect(s.of('key.expired').map((e) => e.key)).toContain('myLock');
  });
});
