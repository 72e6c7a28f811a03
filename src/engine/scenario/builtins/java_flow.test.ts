/**
 * No built-in shows what Java would never reach: after an acquire that failed (tryLock false) or
 * threw, the thread runs no critical section, writes nothing to the resource and sends no unlock
 * for the section it skipped. Read from the trace alone, per thread.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../redisson/testing/simulate';
import type { TraceEvent } from '../../trace/types';
import { builtins } from './index';
import { client, hold, scenario } from '../build';

const ACQUIRES = new Set(['lock', 'tryLock', 'lockInterruptibly']);

/**
 * What a thread did that Java would not reach. A window opens at `lock.failed` (until the thread's
 * next lock.request: the skipped section is over by then) or at an acquire's `lock.error` (until
 * a `try` catches it); inside it the thread may not start critical work, use the resource, unlock
 * or send commands. Outside, `critical` must agree with the holds the trace shows. (A `finally`
 * that unlocks after a throwing acquire inside the same `try` is reachable Java but flagged here:
 * the built-ins use the idiom `lock(); try { .. } finally { unlock(); }`, never that.)
 */
function unreachable(events: readonly TraceEvent[]): string[] {
  const problems: string[] = [];
  const windows = new Map<string, string>();
  const holds = new Map<string, Map<string, number>>();
  for (const e of events) {
    const a = e.actor;
    if (a === undefined || !/^[^:/]+:\d+$/.test(a)) continue;
    let held = holds.get(a);
    if (held === undefined) holds.set(a, (held = new Map()));
    const open = windows.get(a);
    const at = `${a} at ${e.t} (${e.kind}${typeof e.lock === 'string' ? ` ${e.lock}` : ''})`;
    if (open !== undefined) {
      if (e.kind === 'work.start' && e.critical === true) problems.push(`${at}: critical work after ${open}`);
      if (e.kind === 'resource.use') problems.push(`${at}: resource use after ${open}`);
      if (e.kind === 'lock.released' || (e.kind === 'lock.error' && e.op === 'unlock'))
        problems.push(`${at}: unlock after ${open}`);
      if (e.kind === 'cmd') problems.push(`${at}: command ${String((e.argv as string[])[0])} after ${open}`);
    }
    switch (e.kind) {
      case 'lock.failed':
        windows.set(a, `tryLock ${String(e.lock)} returned false at ${e.t}`);
        break;
      case 'lock.error':
        if (ACQUIRES.has(String(e.op))) windows.set(a, `${String(e.op)} ${String(e.lock)} threw at ${e.t}`);
        else if (e.op === 'unlock') held.delete(String(e.lock));
        break;
      case 'lock.request':
        if (open?.includes('returned false')) windows.delete(a);
        else if (open !== undefined) problems.push(`${at}: acquire after ${open}`);
        break;
      case 'exception.caught':
      case 'thread.done':
        windows.delete(a);
        break;
      case 'lock.acquired':
      case 'lock.released': {
        const n = Number(e.holdCount ?? 0);
        if (n > 0) held.set(String(e.lock), n);
        else held.delete(String(e.lock));
        break;
      }
      case 'work.start':
        if (e.op !== 'sleep' && e.critical !== held.size > 0)
          problems.push(
            `${at}: critical ${String(e.critical)} while holding [${[...held.keys()].join(', ')}]`,
          );
        break;
    }
  }
  return problems;
}

describe('built-ins run like Java', () => {
  it('no critical section, resource write or unlock after an acquire that failed', () => {
    const failedSomewhere: string[] = [];
    for (const b of builtins) {
      // the incident whose code ignores tryLock's false (`lock.tryLock(..);` as a statement, with the
      // unlock in `finally`) runs that section on purpose: reachable Java, and the point of it
      if (b.id === 'contention-100' || b.id === 'incident-unlock-after-failed-trylock') continue;
      const s = simulate(b.scenario);
      expect(unreachable(s.events), b.id).toEqual([]);
      if (s.of('lock.failed').length > 0 || s.of('lock.error').some((e) => ACQUIRES.has(String(e.op))))
        failedSomewhere.push(b.id);
    }
    // the check is not vacuous: these built-ins have refused acquires whose sections are skipped
    expect(failedSomewhere).toEqual(
      expect.arrayContaining(['trylock-timeout', 'fair-lock-fifo', 'multilock-all-or-nothing']),
    );
  }, 60_000);

  it('contention-100 too (critical sections agree with holds)', () => {
    const s = simulate(builtins.find((b) => b.id === 'contention-100')!.scenario);
    expect(unreachable(s.events)).toEqual([]);
  }, 60_000);

  it('the check catches a thread that runs on after its acquire failed', () => {
    const ev = (t: number, kind: string, f: Record<string, unknown> = {}) =>
      ({ t, seq: t, kind, actor: 'B:1', ...f }) as TraceEvent;
    const interpretedOnward = [
      ev(1, 'lock.request', { lock: 'L' }),
      ev(2, 'lock.error', { lock: 'L', op: 'lockInterruptibly' }),
      ev(3, 'work.start', { op: 'use', critical: true }),
      ev(4, 'resource.use', { accepted: true }),
      ev(5, 'cmd', { argv: ['EVAL'] }),
      ev(6, 'lock.error', { lock: 'L', op: 'unlock' }),
    ];
    expect(unreachable(interpretedOnward)).toHaveLength(5);
    const skippedWrongly = [
      ev(1, 'lock.request', { lock: 'L', op: 'tryLock' }),
      ev(2, 'lock.failed', { lock: 'L' }),
      ev(3, 'work.start', { op: 'work', critical: false }),
      ev(4, 'lock.released', { lock: 'L', holdCount: 0 }),
    ];
    expect(unreachable(skippedWrongly)).toEqual([
      'B:1 at 4 (lock.released L): unlock after tryLock L returned false at 2',
    ]);
  });

  it('the audit’s H1 scenario: B interrupted in lockInterruptibly never reaches its use', () => {
    const s = simulate(
      scenario(
        [
          client('A', hold('myLock', 3000, { body: 'use' })),
          client(
            'B',
            [
              { op: 'lockInterruptibly', lock: 'myLock' },
              { op: 'use', ms: 10 },
              { op: 'unlock', lock: 'myLock' },
            ],
            { start: 100 },
          ),
        ],
        { faults: [{ at: 1000, kind: 'interrupt', client: 'B', thread: 1 }] },
      ),
    );
    expect(unreachable(s.events)).toEqual([]);
    expect(s.trace.verdict).toBe('safe');
    expect(s.of('thread.done', 'B:1')[0]).toMatchObject({
      outcome: 'exception',
      exception: 'java.lang.InterruptedException',
    });
  });
});
