/**
 * Slow replies: every call has a response timer (RedisExecutor.scheduleResponseTimeout), so a
 * reply later than `timeoutMs` fails the call even though it comes; the late reply is discarded
 * and the command re-sent where the release re-sends it. A busy node (`stall`) and a starved
 * client (`starve`) are the two ways a reply gets late without any message being lost.
 */
import { describe, expect, it } from 'vitest';
import { first, redis, run, work, type Op } from './testing/family';

const lock: Op = { op: 'lock', lock: 'myLock' };
const unlock: Op = { op: 'unlock', lock: 'myLock' };

describe('a reply later than timeoutMs', () => {
  it('RedisExecutor.scheduleResponseTimeout: the call fails at sent + timeoutMs; the late reply is discarded; the next call gets its own reply', () => {
    const s = run(
      { A: [{ id: 1, start: 200, program: [redis('SET', 'x', '1'), redis('GET', 'x')] }] },
      { faults: [{ at: 100, kind: 'stall', node: 'master', ms: 5000 }] },
    );
    expect(first(s, 'node.stall')).toMatchObject({ t: 100, node: 'master', ms: 5000, until: 5100 });
    const timeout = first(s, 'call.timeout', 'A:1');
    expect(timeout).toMatchObject({ t: 3200, node: 'master', command: 'SET', timeoutMs: 3000 });
    expect(s.results('A:1')[0]).toEqual({
      error: 'TIMEOUT Redis server response timeout (3000 ms) for command: (SET) to master',
    });
    // the SET ran when the node was free, and its reply came back too late
    expect(first(s, 'reply.late', 'A:1')).toMatchObject({ t: 5101, command: 'SET', reply: { status: 'OK' } });
    // GET queued behind it: sent at 3200, it ran at 5100, within its own timeout
    expect(s.results('A:1')[1]).toBe('1');
  });

  it('a latency spike longer than the timeout also ends the call (the reply is not lost, only late)', () => {
    const s = run(
      { A: [{ id: 1, start: 100, program: [redis('PING')] }] },
      { until: 6000, faults: [{ at: 50, kind: 'latency', ms: 2000, endAt: 5000, endpoints: ['A'] }] },
    );
    // 2001 ms there, 2001 ms back
    expect(first(s, 'call.timeout', 'A:1').t).toBe(3100);
    expect(first(s, 'reply.late', 'A:1').t).toBe(4102);
  });

  it('the WAIT after a synced script gets timeout + slavesSyncTimeout (the EVAL+WAIT batch)', () => {
    const s = run(
      { A: [{ id: 1, program: [lock, unlock] }] },
      {
        // Sentinel: a useSingleServer client never WAITs (3.27.2 CommandAsyncService.syncedEval: isSingleConfig)
        redis: { topology: 'sentinel', replicas: [{ lagMs: 10 }] },
        redisson: { version: '3.27.2' },
        faults: [{ at: 0, kind: 'partition', groups: [['master', 'A'], ['replica-1']], healAt: 20_000 }],
      },
    );
    // WAIT 1 1000 blocks for its 1000 ms and answers 0 within 3000 + 1000: no timeout
    expect(s.of('call.timeout')).toEqual([]);
    expect(s.of('wait.result').map((e) => e.acked)).toContain(0);
  });
});

describe('a busy node (stall) during lock(): the re-send per release', () => {
  /** The node is busy from 50 ms to 4050 ms; A's acquire EVAL waits there and times out at 3100. */
  const busy = (version: string) =>
    run(
      {
        A: [{ id: 1, start: 100, program: [lock, work(1000), unlock] }],
        B: [{ id: 1, start: 6000, program: [redis('HGETALL', 'myLock')] }],
      },
      { redisson: { version }, until: 40_000, faults: [{ at: 50, kind: 'stall', node: 'master', ms: 4000 }] },
    );

  it('3.27.2 RedisExecutor re-sends the timed-out acquire: the first EVAL ran when the node was free, the re-send re-enters (hold count 2); unlock leaves it held', () => {
    const s = busy('3.27.2');
    expect(first(s, 'call.timeout', 'A:1').t).toBe(3100); // written at 100
    expect(first(s, 'reply.late', 'A:1').reply).toBeNull(); // the first EVAL's nil: acquired
    expect(first(s, 'lock.acquired', 'A:1').t).toBe(4602); // re-sent at 4600, retryInterval 1500 after the timeout
    const hash = s.results('B:1')[0] as string[];
    expect(hash[1]).toBe('1'); // two acquires, one unlock: still held
  });

  it('3.15.1 RedisExecutor.scheduleResponseTimeout: the timeout task calls execute() at once; 3.15.2 (#3494) waits retryInterval first', () => {
    const before = busy('3.15.1');
    expect(first(before, 'call.timeout', 'A:1').t).toBe(3100);
    // re-sent at the timeout, queued behind the first EVAL on the busy node: both run at 4050
    expect(first(before, 'lock.acquired', 'A:1').t).toBe(4051);
    const after = busy('3.15.2');
    expect(first(after, 'call.timeout', 'A:1').t).toBe(3100);
    expect(first(after, 'lock.acquired', 'A:1').t).toBe(4602); // re-sent at 4600
    // either way the first EVAL ran too: two acquires, one unlock, still held
    for (const sim of [before, after]) expect((sim.results('B:1')[0] as string[])[1]).toBe('1');
  });

  it('3.45.0 RedissonLock.lock() in single-server mode (noRetry since 3.37): RedisResponseTimeoutException, while the EVAL still took the lock', () => {
    const s = busy('3.45.0');
    const err = first(s, 'lock.error', 'A:1');
    expect(err.t).toBe(3100);
    expect(err.error).toMatch(/^RedisResponseTimeoutException/);
    expect(s.of('lock.acquired', 'A:1')).toEqual([]);
    expect(s.results('B:1')[0]).toHaveLength(2); // A's field, count 1: an orphan until its lease ends
    expect(s.of('watchdog.renew')).toEqual([]);
  });

  it('4.7.0 CommandAsyncService.evalAsync (useScriptCache): the late reply is NOSCRIPT, and nobody loads the script any more: no lock is taken', () => {
    const s = busy('4.7.0');
    expect(first(s, 'lock.error', 'A:1').error).toMatch(/^RedisResponseTimeoutException/);
    expect(first(s, 'reply.late', 'A:1').reply).toEqual({
      error: 'NOSCRIPT No matching script. Please use EVAL.',
    });
    expect(s.results('B:1')[0]).toEqual([]);
  });
});

describe('a starved client (its event loop gets no CPU)', () => {
  /** A holds the lock under the watchdog and works for 60 s; from 5 s its event loop starves for 40 s. */
  const starved = () =>
    run(
      {
        A: [{ id: 1, program: [lock, work(60_000), unlock] }],
        B: [{ id: 1, start: 1000, program: [lock, work(100), unlock] }],
      },
      { until: 70_000, faults: [{ at: 5000, kind: 'starve', client: 'A', ms: 40_000 }] },
    );

  it('4.7.0 RedisExecutor.scheduleRetryTimeout: the renewal is never written ("Command still hasn’t been written into connection!"), the lock expires and B gets it while A works', () => {
    const s = starved();
    const unwritten = s.of('call.timeout', 'A/watchdog');
    // the first round at 10 s (plus the lock's own 6 ms of NOSCRIPT round trips) is held back;
    // retryDelay 1000 × (retryAttempts 4 + 1) later it gives up
    expect(unwritten[0]).toMatchObject({ t: 15_006, notWritten: true, timeoutMs: 5000 });
    const renewals = s.of('watchdog.renew', 'A:1');
    expect(renewals[0].result).toBe('error');
    expect(String(renewals[0].error)).toMatch(/Command still hasn't been written into connection!/);
    // LockTask reschedules after an error; its next rounds fail the same way while A starves
    expect(renewals.filter((e) => e.result === 'error').length).toBeGreaterThanOrEqual(2);
    expect(first(s, 'lock.acquired', 'B:1').t).toBeGreaterThan(30_000);
    expect(s.violations.map((v) => v.kind)).toContain('V1');
    expect(first(s, 'client.starve.end', 'A').t).toBe(45_000);
  });

  it('unlike a pause, its threads run on: A’s 60 s of work ends on time', () => {
    const s = starved();
    expect(s.of('work.end', 'A:1')[0].t).toBe(60_006);
  });
});
