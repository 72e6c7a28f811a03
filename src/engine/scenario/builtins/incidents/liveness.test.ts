/**
 * The incidents where nobody gets the lock: each is Stuck for the liveness kind the real incident
 * is about (docs/trace-format.md L2–L6), and its fixed release or remedy is Safe.
 */
import { describe, expect, it } from 'vitest';
import { at, near, sim } from '../../testing/builtins';
import { errorOf, kinds } from '../../testing/incidents';

describe('incidents where nobody gets the lock', () => {
  it('FairLock dead waiter (3.13.6): C waits on a free lock from A’s unlock until its 300 s tryLock gives up (L2)', () => {
    const s = sim('incident-fairlock-dead-waiter');
    expect(kinds(s)).toEqual(['L2 C:1']);
    near(s.violations[0].from, at(s.of('lock.released', 'A:1')[0]) - 1, 2);
    expect(s.results('C:1')).toEqual([false]);
    near(at(s.of('lock.failed', 'C:1')[0]), 300_200, 10);
    const r = sim('incident-fairlock-dead-waiter-remedy');
    expect(r.trace.verdict).toBe('safe');
    expect(r.results('C:1')).toEqual([true]);
    near(at(r.of('lock.acquired', 'C:1')[0]), at(r.of('lock.released', 'A:1')[0]), 4);
  });

  it('FairLock negative ttl (3.12.0): B and C wait with ttl −2 and no timer; A’s unlock publishes to nobody (L2)', () => {
    const s = sim('incident-fairlock-negative-ttl');
    expect(
      s
        .of('lock.wait')
        .filter((e) => Number(e.ttl) < 0)
        .map((e) => e.actor),
    ).toEqual(['B:1', 'C:1']);
    expect(s.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1']);
    expect(kinds(s)).toEqual(['L2 B:1+C:1']);
    expect(s.violations[0].to).toBeNull();
    const f = sim('incident-fairlock-negative-ttl-fixed');
    expect(f.trace.verdict).toBe('safe');
    expect(f.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1', 'B:1', 'C:1']);
  });

  it('read-to-write upgrade: A waits for the write lock behind its own read hold, for ever (L5)', () => {
    const s = sim('incident-read-to-write-upgrade');
    expect(kinds(s)).toEqual(['L5 A:1']);
    expect(s.of('lock.acquired', 'A:1')).toHaveLength(1);
    expect(s.of('watchdog.renew', 'A:1').length).toBeGreaterThan(5);
  });

  it('opposite-order locking: A and B each hold one lock and wait for the other’s (L5); one order fixes it', () => {
    const s = sim('incident-opposite-order-deadlock');
    expect(kinds(s)).toEqual(['L5 A:1+B:1']);
    expect(s.of('lock.acquired').map((e) => [e.actor, e.lock])).toEqual([
      ['A:1', 'lock:readingRecord:7'],
      ['B:1', 'lock:myBook:7'],
    ]);
    const r = sim('incident-opposite-order-deadlock-remedy');
    expect(r.trace.verdict).toBe('safe');
    expect(r.of('lock.released').length).toBe(4);
  });

  it('MultiLocks in opposite order: both keep retrying and nobody acquires (L6)', () => {
    const s = sim('incident-multilock-opposite-order');
    expect(kinds(s)).toEqual(['L6 A:1+B:1']);
    expect(s.of('lock.acquired').filter((e) => e.lock === 'lockA' || e.lock === 'lockB')).toEqual([]);
  });

  it('a thread ends holding the lock: the watchdog renews it for nobody (L3), B’s 60 s tryLock fails', () => {
    const s = sim('incident-thread-ends-holding');
    expect(kinds(s)).toEqual(['L3 A:1']);
    expect(s.violations[0].from).toBe(at(s.of('thread.done', 'A:1')[0]));
    expect(s.results('B:1')).toEqual([false]);
  });

  it('interrupted tryLock (3.11.2): the abandoned lock is renewed for ever (L3); 3.16.3 lets it expire', () => {
    const s = sim('incident-interrupted-acquire-renewed');
    expect(errorOf(s, 'A:1')[0]).toMatch(/InterruptedException/);
    expect(kinds(s)).toEqual(['L3 A:1']);
    expect(s.results('B:1')).toEqual([false]);
    const f = sim('incident-interrupted-acquire-renewed-fixed');
    expect(f.of('watchdog.renew', 'A:1')).toEqual([]);
    expect(f.results('B:1')).toEqual([true]);
    near(at(f.of('lock.acquired', 'B:1')[0]), 30_300, 5);
  });

  it('unlock from another thread: A:2’s unlock throws IMSE, the lock is renewed for the ended A:1 (L3)', () => {
    const s = sim('incident-unlock-from-another-thread');
    expect(errorOf(s, 'A:2')[0]).toMatch(/^IllegalMonitorStateException: .* thread-id: 2$/);
    expect(kinds(s)).toEqual(['L3 A:1']);
    expect(s.of('lock.acquired', 'B:1')).toEqual([]);
  });

  it('only 1 of 2 slaves synced (3.17.4): the failed acquire’s hold stays on the master, but its thread ended with the exception in the same step: no L4', () => {
    const s = sim('incident-only-some-slaves-synced');
    expect(kinds(s)).toEqual([]);
    expect(Object.keys(s.trace.final.nodes.master.keys)).toContain('cache');
    expect(sim('incident-only-some-slaves-synced-fixed').trace.verdict).toBe('safe');
  });
});
