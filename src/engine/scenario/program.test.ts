/**
 * Programs as Java method bodies: what an exception, a refused tryLock and a `try` do to the ops
 * that follow, and the read-only calls' results.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '../redisson/testing/simulate';
import {
  IllegalMonitorStateException,
  InterruptedException,
  RedisResponseTimeoutException,
} from '../redisson/errors';
import { javaClassChain, matchingUnlock } from './program_java';
import type { Op } from './schema';
import { client, hold, scenario } from './build';

/** A holds `L` from 0 to 3 s; the thread under test is B:1, starting at 100 ms. */
function withHolder(program: unknown[], extra: object = {}): Simulation {
  return simulate(
    scenario([client('A', hold('L', 3000, { body: 'use' })), client('B', program, { start: 100 })], extra),
  );
}

const interruptB = { faults: [{ at: 1000, kind: 'interrupt', client: 'B', thread: 1 }] };

/** B:1's events of the kinds a reader follows, as "kind detail" strings */
function story(s: Simulation, actor = 'B:1'): string[] {
  const out: string[] = [];
  for (const e of s.events) {
    if (e.actor !== actor) continue;
    switch (e.kind) {
      case 'lock.request':
      case 'lock.acquired':
      case 'lock.failed':
      case 'lock.released':
        out.push(`${e.kind} ${String(e.lock)}`);
        break;
      case 'lock.error':
        out.push(`lock.error ${String(e.op)}`);
        break;
      case 'work.start':
        out.push(`${String(e.op)} ${String(e.ms)}${e.critical ? ' critical' : ''}`);
        break;
      case 'resource.use':
        out.push('resource.use');
        break;
      case 'exception.caught':
        out.push(`caught ${String(e.exception)}`);
        break;
      case 'thread.result':
        out.push(`result ${JSON.stringify(e.result)}`);
        break;
      case 'thread.done':
        out.push(e.outcome === 'normal' ? 'done' : `done ${String(e.exception)}`);
        break;
    }
  }
  return out;
}

const done = (s: Simulation, actor = 'B:1') => s.of('thread.done', actor)[0];

describe('an exception ends the thread', () => {
  it('lockInterruptibly interrupted: no use, no unlock, the thread ends with InterruptedException', () => {
    const s = withHolder(
      [
        { op: 'lockInterruptibly', lock: 'L' },
        { op: 'use', ms: 10 },
        { op: 'unlock', lock: 'L' },
      ],
      interruptB,
    );
    expect(story(s)).toEqual([
      'lock.request L',
      'lock.error lockInterruptibly',
      'result {"error":"InterruptedException"}',
      'done java.lang.InterruptedException',
    ]);
    expect(done(s)).toMatchObject({ outcome: 'exception', exception: 'java.lang.InterruptedException' });
    expect(s.trace.verdict).toBe('safe');
    expect(s.resource.accepted).toBe(1);
  });

  it('unlock of a lock the thread does not hold ends the thread (IllegalMonitorStateException)', () => {
    const s = withHolder([
      { op: 'unlock', lock: 'L' },
      { op: 'work', ms: 5 },
    ]);
    expect(story(s)).toEqual([
      'lock.error unlock',
      expect.stringMatching(/^result \{"error":"IllegalMonitorStateException: attempt to unlock lock/),
      'done java.lang.IllegalMonitorStateException',
    ]);
    expect(String(done(s).message)).toMatch(/^attempt to unlock lock, not locked by current thread/);
  });

  it('a thread that runs to its end says so', () => {
    const s = withHolder([{ op: 'work', ms: 5 }]);
    expect(done(s)).toMatchObject({ outcome: 'normal' });
    expect(done(s).exception).toBeUndefined();
  });

  it('an exception inside repeat ends the repeat', () => {
    const s = withHolder([{ op: 'repeat', times: 3, body: [{ op: 'unlock', lock: 'L' }] }]);
    expect(s.of('lock.error', 'B:1')).toHaveLength(1);
    expect(done(s).exception).toBe('java.lang.IllegalMonitorStateException');
  });

  it('an interrupted sleep throws InterruptedException', () => {
    const s = withHolder(
      [
        { op: 'sleep', ms: 5000 },
        { op: 'work', ms: 5 },
      ],
      interruptB,
    );
    expect(story(s)).toEqual([
      'sleep 5000',
      'result {"error":"InterruptedException: sleep interrupted"}',
      'done java.lang.InterruptedException',
    ]);
    expect(done(s).t).toBe(1000);
  });
});

describe('tryLock that returns false skips its guarded section', () => {
  it('skips up to and including the matching unlock, then goes on', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'L', waitMs: 500 },
      { op: 'use', ms: 10 },
      { op: 'work', ms: 10 },
      { op: 'unlock', lock: 'L' },
      { op: 'work', ms: 7 },
    ]);
    expect(story(s)).toEqual(['lock.request L', 'result false', 'lock.failed L', 'work 7', 'done']);
    // step is the op's index in the program: the skipped ones leave a gap
    expect(s.of('work.start', 'B:1')[0].step).toBe(4);
    expect(s.trace.verdict).toBe('safe');
  });

  it('nested acquires of the same lock inside the section are skipped with it', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'L' },
      { op: 'lock', lock: 'L' },
      { op: 'work', ms: 10 },
      { op: 'unlock', lock: 'L' },
      { op: 'use', ms: 10 },
      { op: 'unlock', lock: 'L' },
      { op: 'work', ms: 7 },
    ]);
    expect(story(s)).toEqual(['lock.request L', 'result false', 'lock.failed L', 'work 7', 'done']);
  });

  it('the section may hold other locks and blocks; they are skipped as a whole', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'L' },
      { op: 'lock', lock: 'M' },
      { op: 'repeat', times: 2, body: [{ op: 'unlock', lock: 'L' }] },
      { op: 'unlock', lock: 'M' },
      { op: 'unlock', lock: 'L' },
      { op: 'work', ms: 7 },
    ]);
    expect(story(s)).toEqual(['lock.request L', 'result false', 'lock.failed L', 'work 7', 'done']);
    expect(s.of('work.start', 'B:1')[0].step).toBe(6);
  });

  it('a tryLock with no matching unlock is a plain call: nothing is skipped', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'L' },
      { op: 'lock', lock: 'L', leaseMs: 100 },
      { op: 'unlock', lock: 'L' },
    ]);
    expect(story(s).slice(0, 4)).toEqual([
      'lock.request L',
      'result false',
      'lock.failed L',
      'lock.request L',
    ]);
    expect(s.of('lock.acquired', 'B:1')).toHaveLength(1);
  });

  it('a tryLock that succeeds runs its section', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'L', waitMs: 5000 },
      { op: 'work', ms: 10 },
      { op: 'unlock', lock: 'L' },
    ]);
    expect(story(s)).toEqual([
      'lock.request L',
      'result true',
      'lock.acquired L',
      'work 10 critical',
      'lock.released L',
      'done',
    ]);
  });

  it('matchingUnlock follows the rule on its own', () => {
    const ops = (...names: string[]) =>
      names.map((n) => {
        const [op, lock] = n.split(' ');
        return { op, lock, type: 'RLock' } as Op;
      });
    expect(matchingUnlock(ops('tryLock a', 'unlock b', 'unlock a'), 0)).toBe(2);
    expect(matchingUnlock(ops('tryLock a', 'lockInterruptibly a', 'unlock a', 'unlock a'), 0)).toBe(3);
    expect(matchingUnlock(ops('tryLock a', 'tryLock a', 'unlock a'), 0)).toBe(-1);
    expect(matchingUnlock(ops('tryLock a', 'lock b'), 0)).toBe(-1);
  });
});

describe('try / catch / finally', () => {
  const mark = (k: string) => ({ op: 'redis', argv: ['SET', k, '1'] });

  it('catch runs after the exception, finally after the catch, then the program goes on', () => {
    const s = withHolder(
      [
        {
          op: 'try',
          body: [{ op: 'lockInterruptibly', lock: 'L' }, { op: 'use' }, { op: 'unlock', lock: 'L' }],
          catch: [mark('caught')],
          finally: [mark('finally')],
        },
        { op: 'work', ms: 7 },
      ],
      interruptB,
    );
    expect(story(s)).toEqual([
      'lock.request L',
      'lock.error lockInterruptibly',
      'result {"error":"InterruptedException"}',
      'caught java.lang.InterruptedException',
      'result {"status":"OK"}',
      'result {"status":"OK"}',
      'work 7',
      'done',
    ]);
    const sets = s.of('cmd', 'B:1').filter((e) => (e.argv as string[])[0] === 'SET');
    expect(sets.map((e) => (e.argv as string[])[1])).toEqual(['caught', 'finally']);
    // steps: body 0-2, catch 3, finally 4, then 5
    expect(s.of('thread.result', 'B:1').map((e) => e.step)).toEqual([0, 3, 4]);
    expect(s.of('work.start', 'B:1')[0].step).toBe(5);
    expect(s.trace.verdict).toBe('safe');
  });

  it('finally runs after normal completion; catch does not', () => {
    const s = withHolder([
      { op: 'try', body: [{ op: 'work', ms: 5 }], catch: [mark('c')], finally: [mark('f')] },
    ]);
    expect(story(s)).toEqual(['work 5', 'result {"status":"OK"}', 'done']);
    expect(s.of('cmd', 'B:1').map((e) => (e.argv as string[])[1])).toEqual(['f']);
  });

  it('try/finally without catch: finally runs, then the exception ends the thread', () => {
    const s = withHolder([
      { op: 'try', body: [{ op: 'unlock', lock: 'L' }, mark('not')], finally: [mark('f')] },
      mark('after'),
    ]);
    const sets = s.of('cmd', 'B:1').filter((e) => (e.argv as string[])[0] === 'SET');
    expect(sets.map((e) => (e.argv as string[])[1])).toEqual(['f']);
    expect(s.of('exception.caught', 'B:1')).toHaveLength(0);
    expect(done(s).exception).toBe('java.lang.IllegalMonitorStateException');
  });

  it('an exception from catch replaces the caught one, and finally still runs', () => {
    const s = withHolder(
      [
        {
          op: 'try',
          body: [{ op: 'sleep', ms: 5000 }],
          catch: [{ op: 'unlock', lock: 'L' }],
          finally: [mark('f')],
        },
      ],
      interruptB,
    );
    expect(story(s).slice(-3)).toEqual([
      expect.stringMatching(/^result \{"error":"IllegalMonitorStateException/),
      'result {"status":"OK"}',
      'done java.lang.IllegalMonitorStateException',
    ]);
  });

  it('a caught exception inside repeat lets the repeat go on', () => {
    const s = withHolder([
      { op: 'repeat', times: 3, body: [{ op: 'try', body: [{ op: 'unlock', lock: 'L' }], catch: [] }] },
    ]);
    expect(s.of('lock.error', 'B:1')).toHaveLength(3);
    expect(s.of('exception.caught', 'B:1')).toHaveLength(3);
    expect(s.of('thread.result', 'B:1').map((e) => e.step)).toEqual([0, 1, 2]);
    expect(done(s).outcome).toBe('normal');
  });

  it('catchClass catches that class and its subclasses only', () => {
    const tryUnlock = (catchClass: string) =>
      withHolder([{ op: 'try', body: [{ op: 'unlock', lock: 'L' }], catchClass }]);
    for (const c of [
      'IllegalMonitorStateException',
      'java.lang.IllegalMonitorStateException',
      'RuntimeException',
      'Exception',
      'Throwable',
    ])
      expect(done(tryUnlock(c)).outcome, c).toBe('normal');
    for (const c of ['RedisException', 'InterruptedException', 'java.lang.IllegalStateException'])
      expect(done(tryUnlock(c)).exception, c).toBe('java.lang.IllegalMonitorStateException');
  });

  it('knows the Java class hierarchy of the modelled exceptions', () => {
    expect(javaClassChain(new RedisResponseTimeoutException('x'))).toEqual([
      'org.redisson.client.RedisResponseTimeoutException',
      'org.redisson.client.RedisTimeoutException',
      'org.redisson.client.RedisException',
      'java.lang.RuntimeException',
      'java.lang.Exception',
      'java.lang.Throwable',
    ]);
    expect(javaClassChain(new InterruptedException(''))).toEqual([
      'java.lang.InterruptedException',
      'java.lang.Exception',
      'java.lang.Throwable',
    ]);
    expect(javaClassChain(new IllegalMonitorStateException(''))[1]).toBe('java.lang.RuntimeException');
  });
});

describe('critical sections and call arguments on the trace', () => {
  it('work.start is critical only while the thread believes it holds a lock', () => {
    const s = withHolder([
      { op: 'work', ms: 1 },
      { op: 'lock', lock: 'M' },
      { op: 'work', ms: 2 },
      { op: 'use', ms: 3 },
      { op: 'unlock', lock: 'M' },
      { op: 'use', ms: 4 },
    ]);
    expect(s.of('work.start', 'B:1').map((e) => [e.ms, e.critical])).toEqual([
      [1, false],
      [2, true],
      [3, true],
      [4, false],
    ]);
  });

  it('lock.request carries waitMs and leaseMs when the op gives them', () => {
    const s = withHolder([
      { op: 'tryLock', lock: 'M', waitMs: 50, leaseMs: 800 },
      { op: 'unlock', lock: 'M' },
      { op: 'lock', lock: 'M' },
      { op: 'unlock', lock: 'M' },
    ]);
    const req = s.of('lock.request', 'B:1');
    expect(req[0]).toMatchObject({ op: 'tryLock', waitMs: 50, leaseMs: 800 });
    expect(req[1].op).toBe('lock');
    expect('waitMs' in req[1] || 'leaseMs' in req[1]).toBe(false);
  });
});

describe('read-only calls record their results', () => {
  it('isLocked, isHeldByThread, getHoldCount, remainTimeToLive on an RLock', () => {
    const s = withHolder([
      { op: 'isLocked', lock: 'L' },
      { op: 'isHeldByThread', lock: 'L' },
      { op: 'getHoldCount', lock: 'L' },
      { op: 'remainTimeToLive', lock: 'L' },
      { op: 'lock', lock: 'M', leaseMs: 5000 },
      { op: 'lock', lock: 'M', leaseMs: 5000 },
      { op: 'isHeldByThread', lock: 'M' },
      { op: 'getHoldCount', lock: 'M' },
      { op: 'remainTimeToLive', lock: 'M' },
      { op: 'isHeldByThread', lock: 'M', thread: 2 },
      { op: 'unlock', lock: 'M' },
      { op: 'unlock', lock: 'M' },
      { op: 'isLocked', lock: 'M' },
      { op: 'remainTimeToLive', lock: 'M' },
    ]);
    const r = s.results('B:1');
    expect(r.slice(0, 3)).toEqual([true, false, 0]);
    expect(r[3]).toBeGreaterThan(25_000);
    expect(r[3]).toBeLessThanOrEqual(30_000);
    expect(r.slice(4, 6)).toEqual([true, 2]);
    expect(r[6]).toBeGreaterThan(4_990);
    expect(r.slice(7)).toEqual([false, false, -2]);
    // each is one command, recorded as the step's result
    expect(
      s
        .of('cmd', 'B:1')
        .map((e) => (e.argv as string[])[0])
        .slice(0, 4),
    ).toEqual(['EXISTS', 'HEXISTS', 'HGET', 'PTTL']);
  });

  it('getToken on a FencedLock; MultiLock answers isHeldByThread and throws on the rest', () => {
    const s = withHolder([
      { op: 'getToken', lock: 'F' },
      { op: 'lock', lock: 'F', type: 'FencedLock' },
      { op: 'getToken', lock: 'F' },
      { op: 'lock', lock: 'm', type: 'MultiLock', locks: ['x', 'y'] },
      { op: 'isHeldByThread', lock: 'm' },
      { op: 'isLocked', lock: 'm' },
      { op: 'work', ms: 1 },
    ]);
    expect(s.results('B:1')).toEqual([null, 1, true, { error: 'UnsupportedOperationException' }]);
    expect(done(s).exception).toBe('java.lang.UnsupportedOperationException');
  });

  it('the naive locks answer isLocked and remainTimeToLive from their key', () => {
    const s = withHolder([
      { op: 'lock', lock: 'n', type: 'set-nx-px', leaseMs: 4000 },
      { op: 'isLocked', lock: 'n' },
      { op: 'remainTimeToLive', lock: 'n' },
      { op: 'try', body: [{ op: 'getHoldCount', lock: 'n' }], catchClass: 'UnsupportedOperationException' },
    ]);
    const r = s.results('B:1');
    expect(r[0]).toBe(true);
    expect(r[1]).toBeGreaterThan(3_990);
    expect(String((r[2] as { error: string }).error)).toMatch(/^UnsupportedOperationException/);
    expect(done(s).outcome).toBe('normal');
  });
});
