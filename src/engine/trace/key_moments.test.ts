import { describe, expect, it } from 'vitest';
import { keyMoments, MAX_KEY_MOMENTS, momentEnd } from './key_moments';
import { builtins } from '../scenario/builtins';
import { runScenario } from '../scenario/run';
import { validateScenario } from '../scenario/schema';
import type { TraceEvent } from './types';

function traceOf(id: string) {
  const b = builtins.find((x) => x.id === id);
  const v = b && validateScenario(b.scenario);
  if (!v || !v.ok) throw new Error(`no valid built-in ${id}`);
  return runScenario(v.scenario, { verbose: false }).trace;
}

describe('keyMoments', () => {
  it('gives every built-in, safe or not, named moments in trace order', { timeout: 60_000 }, () => {
    for (const b of builtins) {
      const trace = traceOf(b.id);
      const ms = keyMoments(trace);
      expect(ms.length, b.id).toBeGreaterThanOrEqual(2);
      expect(ms.length, b.id).toBeLessThanOrEqual(MAX_KEY_MOMENTS);
      for (const m of ms) {
        expect(trace.events[m.index].t, b.id).toBe(m.t);
        expect(m.en.length * m.zh.length, b.id).toBeGreaterThan(0);
      }
      expect(
        ms.map((m) => m.index),
        b.id,
      ).toEqual([...ms.map((m) => m.index)].sort((x, y) => x - y));
      // An unsafe run always offers its violations.
      for (const v of new Set(trace.violations.map((x) => x.kind)))
        expect(
          ms.some((m) => m.kind === 'violation' && m.en.startsWith(v)),
          `${b.id} ${v}`,
        ).toBe(true);
    }
  });

  it('names each thread whose unlock Redis refused (unlock-not-owner)', () => {
    const refused = keyMoments(traceOf('unlock-not-owner')).filter((m) => m.kind === 'unlock-refused');
    expect(refused.map((m) => [m.t, m.en])).toEqual([
      [1006, "A:2's unlock refused"],
      [1502, "B:1's unlock refused"],
    ]);
    expect(refused[0].zh).toBe('A:2 的解锁被拒绝');
  });

  it('says an unlock that got no answer fails, not that Redis refused it (incident-holder-loses-redis: held by the partition)', () => {
    const failed = keyMoments(traceOf('incident-holder-loses-redis')).filter((m) => m.kind === 'unlock-refused');
    expect(failed.map((m) => [m.t, m.en, m.zh])).toEqual([[53_006, "A:1's unlock fails", 'A:1 的解锁失败']]);
  });

  it('names a cluster promotion and a MOVED redirect', () => {
    const lost = keyMoments(traceOf('cluster-failover-lost-lock'));
    expect(lost.find((m) => m.kind === 'failover')).toMatchObject({
      en: 'replica-3 takes slots 10923-16383',
      zh: 'replica-3 接管槽 10923-16383',
    });
    const stale = traceOf('cluster-moved-stale-map');
    const moved = keyMoments(stale).find((m) => m.kind === 'moved')!;
    expect(moved.en).toBe('B:1 redirected (MOVED)');
    const e = stale.events[moved.index] as Extract<TraceEvent, { kind: 'cmd' }>;
    expect(e.reply).toEqual({ error: 'MOVED 12769 127.0.0.1:30006' });
    expect(keyMoments(traceOf('basic-lock')).some((m) => m.kind === 'moved' || m.kind === 'failover')).toBe(
      false,
    );
  });

  it('finds the gc-pause story: acquire, pause, expiry, takeover, V1', () => {
    const kinds = keyMoments(traceOf('gc-pause-lease-expiry')).map((m) => m.kind);
    for (const k of ['acquire', 'wait', 'pause', 'expire', 'takeover', 'violation'] as const)
      expect(kinds).toContain(k);
  });

  it('follows the trace when timings change', () => {
    // hand-made events: only the fields keyMoments reads
    const ev = (t: number, kind: TraceEvent['kind'], f: Record<string, unknown> = {}) =>
      ({ t, seq: t, kind, ...f }) as TraceEvent;
    const at = (pauseAt: number) =>
      keyMoments({
        events: [
          ev(0, 'lock.acquired', { actor: 'A:1', lock: 'l' }),
          ev(pauseAt, 'client.pause', { client: 'A', ms: 5 }),
        ],
      }).find((m) => m.kind === 'pause')?.t;
    expect(at(100)).toBe(100);
    expect(at(700)).toBe(700);
  });

  it('skips Redisson bookkeeping keys; failed renewals and latency spikes are their own moments', () => {
    const ms = keyMoments({
      events: [
        { t: 1, seq: 1, kind: 'key.expired', key: 'redisson_unlock_latch:{l}:ab' } as TraceEvent,
        { t: 2, seq: 2, kind: 'watchdog.renew', actor: 'A:1', result: 0 } as TraceEvent,
        { t: 3, seq: 3, kind: 'net.latency', ms: 300, endpoints: ['A'] } as TraceEvent,
        { t: 4, seq: 4, kind: 'net.latency.end', causeSeq: 3 } as TraceEvent,
      ],
    });
    expect(ms.map((m) => [m.kind, m.en])).toEqual([
      ['renew-failed', expect.any(String)],
      ['latency', 'links +300 ms'],
    ]);
  });
});

describe('a renewal’s key moment names what renewed', () => {
  it('the watchdog, or a set-nx-px-renew lock’s own renewal thread (renewal-task 4)', () => {
    const first = (timer: string) =>
      keyMoments({
        events: [{ t: 1, seq: 1, kind: 'watchdog.renew', actor: 'A:1', timer, result: 1 } as TraceEvent],
      }).map((m) => [m.en, m.zh]);
    expect(first('A/renewal')).toEqual([["A:1's renewal thread renews", 'A:1 的续期线程续期']]);
    expect(first('A/watchdog')).toEqual([["A:1's watchdog renews", 'A:1 的看门狗续期']]);
  });
});

describe('momentEnd', () => {
  it("spans a short hold whole (B's 10 ms hold in redlock-pause-after-validity), not a long one", () => {
    const trace = traceOf('redlock-pause-after-validity');
    const ms = keyMoments(trace);
    const takeover = ms.find((m) => m.kind === 'takeover');
    expect(takeover).toBeDefined();
    if (!takeover) return;
    const end = momentEnd(trace, takeover);
    const released = trace.events.find(
      (e, i) =>
        i > takeover.index && e.kind === 'lock.released' && e.actor === trace.events[takeover.index].actor,
    );
    expect(released?.t).toBe(end);
    expect(end - takeover.t).toBeGreaterThan(0);
    expect(end - takeover.t).toBeLessThan(100);
    // basic-lock's first hold is most of its run: the jump shows its start, not the whole run
    const basic = traceOf('basic-lock');
    const first = keyMoments(basic).find((m) => m.kind === 'acquire');
    expect(first).toBeDefined();
    if (first) expect(momentEnd(basic, first)).toBe(first.t);
    // moments other than an acquire keep their own time
    for (const m of ms.filter((x) => x.kind !== 'acquire' && x.kind !== 'takeover'))
      expect(momentEnd(trace, m)).toBe(m.t);
  });
});
