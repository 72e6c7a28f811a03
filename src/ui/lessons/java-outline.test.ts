import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../engine/trace/types';
import { OUTLINES, threadAt, whereIs } from './java-outline';

let seq = 0;
const ev = (t: number, kind: string, actor: string, rest: Record<string, unknown> = {}): TraceEvent =>
  ({ t, seq: seq++, kind, actor, ...rest }) as TraceEvent;
const evalsha = (t: number, actor: string) => ev(t, 'cmd', actor, { argv: ['EVALSHA', 'x', '1', 'myLock'] });

// B waits behind A, is woken by A's unlock and takes the lock: the shape of contention-wakeup.
const events: TraceEvent[] = [
  ev(0, 'lock.request', 'A:1', { lock: 'myLock', type: 'RLock', op: 'lock' }),
  evalsha(1, 'A:1'),
  ev(2, 'lock.acquired', 'A:1', { lock: 'myLock' }),
  ev(2, 'work.start', 'A:1', { critical: true }),
  ev(3, 'lock.request', 'B:1', { lock: 'myLock', type: 'RLock', op: 'lock' }), // 4
  evalsha(4, 'B:1'),
  ev(5, 'pubsub.subscribe', 'B:1'),
  evalsha(6, 'B:1'),
  ev(7, 'lock.wait', 'B:1', { ttl: 29000 }), // 8
  ev(10, 'watchdog.renew', 'A:1', { result: 1 }),
  ev(20, 'unlock.request', 'A:1', { lock: 'myLock', type: 'RLock', holdCount: 0 }), // 10
  evalsha(21, 'A:1'),
  ev(22, 'watchdog.cancel', 'A:1'),
  ev(22, 'waiter.wakeup', 'B:1', { cause: 'message' }),
  evalsha(23, 'B:1'), // 14
  ev(24, 'lock.acquired', 'B:1', { lock: 'myLock' }),
  ev(25, 'thread.done', 'A:1'),
];

const at = (cursor: number, actor: string) => {
  const w = whereIs(events, cursor, actor);
  return w && `${w.outline}:${w.line}`;
};

/** Where `actor` is at each cursor: `cursor: 'outline:line'`, null for nowhere. */
const expectPath = (actor: string, want: Record<number, string | null>) => {
  for (const [cursor, where] of Object.entries(want))
    expect(at(Number(cursor), actor), `${actor} at ${cursor}`).toBe(where);
};

describe('whereIs', () => {
  it('follows lock() through tryAcquire, subscribe, the second try and the latch', () => {
    expectPath('A:1', { 0: 'lock:2', 2: 'lock:3' });
    expectPath('B:1', {
      4: 'lock:2',
      5: 'lock:2',
      6: 'lock:4',
      7: 'lock:7',
      8: 'lock:9',
      13: 'lock:9',
      14: 'lock:7',
      15: 'lock:8',
    });
  });

  it('puts a thread in its critical section, in unlock() and in the renewal task', () => {
    expectPath('A:1', {
      3: 'caller:3',
      8: 'caller:3',
      9: 'renewal:3',
      10: 'unlock:1',
      12: 'unlock:2',
      16: null,
    });
  });

  it('shows a FencedLock holder the fenced caller: getFencedLock and lockAndGetToken (LA16)', () => {
    const t = [
      ev(0, 'lock.request', 'F:1', { type: 'FencedLock', op: 'lock' }),
      evalsha(1, 'F:1'),
      ev(2, 'lock.acquired', 'F:1'),
      ev(3, 'work.start', 'F:1', { critical: true }),
    ];
    expect(whereIs(t, 3, 'F:1')?.outline).toBe('callerFenced');
    expect(OUTLINES.callerFenced.lines[0].code).toContain('getFencedLock');
  });

  it('knows tryLock() and gives up on naive locks and threads that have not started', () => {
    const t = [
      ev(0, 'lock.request', 'C:1', { type: 'RLock', op: 'tryLock' }),
      evalsha(1, 'C:1'),
      ev(2, 'lock.failed', 'C:1'),
      ev(3, 'lock.request', 'D:1', { type: 'setnx', op: 'lock' }),
      ev(4, 'lock.request', 'E:1', { type: 'set-nx-px', op: 'lock' }),
      ev(5, 'unlock.request', 'E:1', { type: 'set-nx-px-lua', holdCount: 0 }),
    ];
    // every naive type, not only the ones whose names say "setnx"
    expect(whereIs(t, 4, 'E:1')).toBeNull();
    expect(whereIs(t, 5, 'E:1')).toBeNull();
    expect(whereIs(t, 1, 'C:1')).toMatchObject({ outline: 'tryLock', line: 2 });
    expect(whereIs(t, 2, 'C:1')).toMatchObject({ outline: 'tryLock', line: 10 });
    expect(whereIs(t, 3, 'D:1')).toBeNull();
    const naiveRenewal = [ev(0, 'watchdog.renew', 'D:1', { timer: 'D/renewal', result: 1 })];
    expect(whereIs(naiveRenewal, 0, 'D:1')).toBeNull();
    expect(whereIs(t, 3, 'F:1')).toBeNull();
  });

  it('marks lines that exist, with comments in both languages', () => {
    for (const o of Object.values(OUTLINES))
      for (const l of o.lines)
        if (l.comment) expect(l.comment.zh.length * l.comment.en.length).toBeGreaterThan(0);
    expect(OUTLINES.lock.lines[9].code).toContain('latch.tryAcquire');
    expect(OUTLINES.unlock.lines[4].code).toContain('IllegalMonitorStateException');
  });
});

describe('threadAt', () => {
  it('takes the cursor event’s thread, else the latest before it', () => {
    expect(threadAt(events, 8)).toBe('B:1');
    expect(threadAt([ev(0, 'node.crash', 'master'), ...events], 0)).toBeNull();
  });
});
