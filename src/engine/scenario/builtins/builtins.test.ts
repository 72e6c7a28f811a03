/**
 * Every built-in scenario, run end to end: its verdict and the moments its description promises
 * (who gets the lock when). Times allow a few ms for round trips at the default 1 ms latency.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '../../redisson/testing/simulate';
import { builtin, builtins } from './index';
import { at, near, sim } from '../testing/builtins';
import { versionTraits } from '../../redisson/versions';

const verdict = (s: Simulation) => s.trace.verdict;
const kinds = (s: Simulation) => s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`);
/** [actor, t] of every lock.acquired, in order */
const acquisitions = (s: Simulation) => s.of('lock.acquired').map((e) => [e.actor, e.t] as const);

describe('built-in scenarios: verdicts and key moments', () => {
  it('basic-lock: one acquire, one release, nobody to wake', () => {
    const s = sim('basic-lock');
    expect(verdict(s)).toBe('safe');
    expect(acquisitions(s).map(([a]) => a)).toEqual(['A:1']);
    expect(s.of('pubsub.publish')[0].receivers).toBe(0);
    expect(s.of('watchdog.cancel')).toHaveLength(1);
    // the run waits for the fire-and-forget DEL of the unlock latch: nothing is left behind
    expect(s.of('cmd', 'A/unlock').map((e) => (e.argv as string[])[0])).toEqual(['DEL']);
    expect(s.trace.final.nodes.master.keys).toEqual({});
  });

  it('reentrant: hold count 1, 2, then 1, 0; B’s tryLock() is refused meanwhile', () => {
    const s = sim('reentrant');
    expect(verdict(s)).toBe('safe');
    expect(s.of('lock.acquired', 'A:1').map((e) => e.holdCount)).toEqual([1, 2]);
    expect(s.of('lock.released', 'A:1').map((e) => e.holdCount)).toEqual([1, 0]);
    expect(s.results('B:1')).toEqual([false]);
  });

  it('contention-wakeup: one unlock wakes one thread per client; they take turns', () => {
    const s = sim('contention-wakeup');
    expect(verdict(s)).toBe('safe');
    const firstRelease = at(s.of('pubsub.publish')[0]);
    const woken = s.of('waiter.wakeup').filter((e) => e.t === firstRelease + 1);
    expect(woken.map((e) => e.actor).sort()).toEqual(['A:2', 'B:1', 'C:1']);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['A:1', 'A:2', 'B:1', 'C:1']);
    expect(s.of('cmd').filter((e) => (e.argv as string[])[0] === 'SUBSCRIBE')).toHaveLength(3);
  });

  it('trylock-timeout: B:1 gives up after 1 s, B:2 gets the lock when A unlocks', () => {
    const s = sim('trylock-timeout');
    expect(verdict(s)).toBe('safe');
    expect(s.results('B:1')).toEqual([false]);
    near(at(s.of('lock.failed', 'B:1')[0]), 1100);
    expect(s.results('B:2')).toEqual([true]);
    near(at(s.of('lock.acquired', 'B:2')[0]), at(s.of('pubsub.publish')[0]), 4);
  });

  it('lease-expiry-no-watchdog: B takes over at 3 s, A overwrites B and fails to unlock', () => {
    const s = sim('lease-expiry-no-watchdog');
    expect(verdict(s)).toBe('unsafe');
    // V3: A (stale) writes after B, the newer holder, used the resource
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    expect(s.violations[1].cause).toBe('stale');
    const acquiredA = at(s.of('lock.acquired', 'A:1')[0]);
    near(at(s.of('lock.acquired', 'B:1')[0]), acquiredA + 3000);
    expect(s.resource).toEqual({ value: 1, accepted: 2, rejected: 0, lost: 1 });
    expect(String((s.results('A:1')[0] as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
  });

  it('watchdog-renewal: renewed every 10 s for 70 s; B waits until the unlock', () => {
    const s = sim('watchdog-renewal');
    expect(verdict(s)).toBe('safe');
    const renewals = s.of('watchdog.renew');
    expect(renewals.map((e) => e.result)).toEqual([1, 1, 1, 1, 1, 1]);
    near(renewals[0].t, 10_000, 15);
    near(at(s.of('lock.acquired', 'B:1')[0]), at(s.of('lock.released', 'A:1')[0]), 10);
    expect(s.of('key.expired')).toHaveLength(0);
  });

  it('client-crash-watchdog-expiry: the lock outlives the crash by the lease set at the last renewal', () => {
    const s = sim('client-crash-watchdog-expiry');
    expect(verdict(s)).toBe('safe');
    const renewals = s.of('watchdog.renew');
    expect(renewals).toHaveLength(1);
    near(at(s.of('lock.acquired', 'B:1')[0]), renewals[0].t - 1 + 30_000, 5);
  });

  it('gc-pause-lease-expiry: B holds from 30 s; paused A writes its stale value at 41 s', () => {
    const s = sim('gc-pause-lease-expiry');
    expect(verdict(s)).toBe('unsafe');
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V3 A:1+B:1']);
    const acquiredA = at(s.of('lock.acquired', 'A:1')[0]);
    near(at(s.of('lock.acquired', 'B:1')[0]), acquiredA + 30_000);
    const v3 = s.violations.find((v) => v.kind === 'V3')!;
    expect(v3.from).toBe(41_000);
    expect(s.resource).toEqual({ value: 1, accepted: 2, rejected: 0, lost: 1 });
  });

  it('unlock-not-owner: both foreign unlocks throw, A:1 keeps the lock until its own unlock', () => {
    const s = sim('unlock-not-owner');
    expect(verdict(s)).toBe('safe');
    for (const actor of ['A:2', 'B:1']) {
      expect(String((s.results(actor)[0] as { error: string }).error)).toMatch(
        /^IllegalMonitorStateException: attempt to unlock lock, not locked by current thread by node id: [0-9a-f-]{36} thread-id: [12]$/,
      );
    }
    expect(s.of('pubsub.publish')).toHaveLength(1);
    near(at(s.of('pubsub.publish')[0]), 3007);
  });

  it('naive-setnx-deadlock: B polls every ~100 ms and never gets the key without a TTL', () => {
    const s = sim('naive-setnx-deadlock');
    // Nothing unsafe, but stuck: from A's crash the key without TTL can never be freed (L1).
    expect(verdict(s)).toBe('stuck');
    expect(s.violations).toEqual([
      { kind: 'L1', lock: 'lock:job', from: 200, to: null, holders: ['A:1', 'B:1'], waiting: ['B:1'] },
    ]);
    expect(acquisitions(s).map(([a]) => a)).toEqual(['A:1']);
    const polls = s.of('cmd', 'B:1').filter((e) => (e.argv as string[])[0] === 'SETNX');
    expect(polls.length).toBeGreaterThan(25);
    expect(polls.every((e) => e.reply === 0)).toBe(true);
    near(polls[1].t - polls[0].t, 102, 0);
  });

  it('naive-delete-others-lock: A/B overlap from the expiry, B/C from A’s DEL', () => {
    const s = sim('naive-delete-others-lock');
    expect(verdict(s)).toBe('unsafe');
    expect(kinds(s)).toEqual(['V1 A:1+B:1', 'V1 B:1+C:1']);
    const [ab, bc] = s.violations;
    near(ab.from, 10_001, 110);
    expect(ab.to).toBe(at(s.of('unlock.request', 'A:1')[0]));
    expect(bc.from).toBeGreaterThan(ab.to!);
    near(bc.from, ab.to!, 110);
  });

  it('naive-get-del-race: A’s late DEL deletes B’s key and C gets in beside B', () => {
    const s = sim('naive-get-del-race');
    expect(verdict(s)).toBe('unsafe');
    expect(kinds(s)).toEqual(['V1 B:1+C:1']);
    const del = s.of('cmd', 'A:1').find((e) => (e.argv as string[])[0] === 'DEL')!;
    expect(del.t).toBe(10_494);
    expect(del.reply).toBe(1);
    expect(s.results('B:1')).toEqual([false]); // B's own release found someone else's token
  });

  it('naive-lua-del-safe: A’s late compare-and-delete returns 0 and B keeps the lock', () => {
    const s = sim('naive-lua-del-safe');
    const evals = s.of('cmd').filter((e) => (e.argv as string[])[0] === 'EVAL');
    // A's release arrives after the key expired (10001) and B took it: the compare fails
    expect(evals.map((e) => [e.actor, e.reply])).toEqual([
      ['A:1', 0],
      ['B:1', 1],
      ['C:1', 1],
    ]);
    const [, b, c] = acquisitions(s);
    expect(b[0]).toBe('B:1');
    expect(evals[0].t).toBe(10_492);
    expect(evals[0].t).toBeGreaterThan(b[1]);
    expect(s.results('A:1')).toEqual([false]);
    expect(s.results('B:1')).toEqual([true]); // B's own release still found its token
    // C waits for B: the release makes no overlap; only A's frozen critical section outlived its lease
    expect(c[0]).toBe('C:1');
    expect(c[1]).toBeGreaterThan(at(s.of('lock.released', 'B:1')[0]));
    expect(kinds(s)).toEqual(['V1 A:1+B:1']);
    expect(s.violations[0].from).toBe(b[1]);
    expect(s.violations[0].to).toBe(at(s.of('unlock.request', 'A:1')[0]));
  });

  it('naive-watch-multi-release: the key changed after A’s WATCH, so its EXEC is nil and B keeps the lock', () => {
    const s = sim('naive-watch-multi-release');
    expect(verdict(s)).toBe('safe');
    const a = s.of('cmd', 'A:1').map((e) => [(e.argv as string[])[0], e.reply]);
    // A's GET saw its own token before the pause; B's SET after the expiry touched the watched key
    expect(a.slice(1)).toEqual([
      ['WATCH', { status: 'OK' }],
      ['GET', s.of('lock.acquired', 'A:1')[0].owner],
      ['MULTI', { status: 'OK' }],
      ['DEL', { status: 'QUEUED' }],
      ['EXEC', null],
    ]);
    const exec = s.of('cmd', 'A:1').at(-1)!;
    expect(exec.t).toBeGreaterThan(at(s.of('lock.acquired', 'B:1')[0]));
    expect(s.results('A:1')).toEqual([false]);
    expect(s.results('B:1')).toEqual([true]);
    // C waits for B's own release: the late release deleted nothing
    const [, b, c] = acquisitions(s);
    expect([b[0], c[0]]).toEqual(['B:1', 'C:1']);
    expect(c[1]).toBeGreaterThan(at(s.of('lock.released', 'B:1')[0]));
    expect(kinds(s)).toEqual([]);
  });

  it('stock-oversell-no-lock: ten accepted writes, far fewer counted', () => {
    const s = sim('stock-oversell-no-lock');
    const r = s.resource;
    expect(r.accepted).toBe(10);
    expect(r.value).toBeLessThan(10);
    const lost = s.of('resource.use').filter((e) => e.lostUpdate === true).length;
    expect(lost).toBe(10 - r.value); // every missing sale is one write that erased another
    expect(r.lost).toBe(10 - r.value);
    // no lock, yet updates were lost: V3 with lock "(none)", never "safe"
    expect(verdict(s)).toBe('unsafe');
    expect(s.violations.length).toBeGreaterThan(0);
    for (const v of s.violations) expect(v).toMatchObject({ kind: 'V3', lock: '(none)', cause: 'unlocked' });
    // every write that erased another is among them, named by its writer
    const erasing = s.of('resource.use').filter((e) => e.lostUpdate === true);
    for (const e of erasing)
      expect(s.violations.some((v) => v.from === e.t && v.holders[0] === e.actor)).toBe(true);
  });

  it('stock-with-lock: the counter ends at exactly ten', () => {
    const s = sim('stock-with-lock');
    expect(verdict(s)).toBe('safe');
    expect(s.resource).toEqual({ value: 10, accepted: 10, rejected: 0 });
  });

  it('contention-100: 2000 critical sections, none lost; a warm re-run stays under the 8 s regression guard', () => {
    const s = sim('contention-100');
    expect(verdict(s)).toBe('safe');
    expect(s.resource).toEqual({ value: 2000, accepted: 2000, rejected: 0 });
    expect(s.of('lock.acquired')).toHaveLength(2000);
    const t0 = performance.now();
    sim('contention-100');
    // a coarse guard for a loaded machine, not the target: the target (1 s warm, ~0.4 s measured
    // idle, ~3 s with a load average of 12 on 2 cores) is what `npm run bench` measures and reports;
    // this bound only catches an order-of-magnitude regression such as a retry storm
    expect(performance.now() - t0).toBeLessThan(8000);
  }, 20_000);

  it('the other built-ins: each warm re-run stays under the 250 ms regression guard', () => {
    const slowest: [string, number][] = [];
    for (const b of builtins) {
      if (b.id === 'contention-100') continue;
      simulate(b.scenario);
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        simulate(b.scenario);
        times.push(performance.now() - t0);
      }
      slowest.push([b.id, Math.min(...times)]);
    }
    // a coarse guard for a loaded machine, not the target: the 16 ms (one frame) target is what
    // `npm run bench` measures and reports (1-5 ms idle, up to ~60 ms with a load average of 12 on
    // 2 cores); this bound only catches an order-of-magnitude regression
    for (const [id, ms] of slowest) expect(ms, id).toBeLessThan(250);
  }, 30_000);

  it('violations name threads, never raw lock owners; V3 says why', () => {
    for (const b of builtins) {
      if (b.id === 'contention-100') continue;
      const s = simulate(b.scenario);
      const threads = new Set(s.scenario.clients.flatMap((c) => c.threads.map((t) => `${c.id}:${t.id}`)));
      for (const v of s.violations) {
        for (const h of v.holders) expect(threads.has(h), `${b.id}: ${v.kind} holder ${h}`).toBe(true);
        expect(new Set(v.holders).size, b.id).toBe(v.holders.length);
        if (v.kind === 'V3') expect(['stale', 'unlocked', 'lost-update'], b.id).toContain(v.cause);
      }
      for (const e of s.of('violation.start'))
        for (const h of e.holders as string[])
          expect(threads.has(h), `${b.id}: event holder ${h}`).toBe(true);
    }
    // split brain: B's lease appears on the new master before B's acquire returns
    const sb = sim('split-brain-partition');
    expect(sb.violations.find((v) => v.kind === 'V2')!.holders).toEqual(['A:1', 'B:1']);
  }, 30_000);

  it('end only when client work is done: a lost update is never "safe", no unlock latch left behind', () => {
    for (const b of builtins) {
      if (b.id === 'contention-100') continue;
      // A model difference, not the incident: before 3.24 the model's ReadLock unlock still writes
      // an unlock latch that release never had (docs/incidents.md, "What the runs do not show").
      const s = simulate(b.scenario);
      const latchDifference =
        !versionTraits(s.scenario.redisson.version).unlockLatch &&
        JSON.stringify(b.scenario).includes('"ReadLock"');
      if ((s.resource.lost ?? 0) > 0)
        expect(
          s.violations.some((v) => v.kind === 'V3'),
          b.id,
        ).toBe(true);
      // every unlock's fire-and-forget DEL of its latch ran on the master before the run ended
      for (const [id, node] of Object.entries(s.trace.final.nodes)) {
        if (node.role !== 'master') continue;
        const latches = Object.keys(node.keys).filter((k) => k.startsWith('redisson_unlock_latch'));
        if (!latchDifference) expect(latches, `${b.id} ${id}`).toEqual([]);
      }
    }
  }, 30_000);

  it('are deterministic: the same scenario gives the same trace, another seed other ids', () => {
    for (const id of ['contention-wakeup', 'naive-get-del-race', 'gc-pause-lease-expiry']) {
      const a = JSON.stringify(sim(id).trace);
      expect(JSON.stringify(sim(id).trace), id).toBe(a);
    }
    const reseeded = simulate({ ...builtin('basic-lock')!.scenario, seed: 2 });
    expect(reseeded.of('lock.acquired')[0].owner).not.toBe(sim('basic-lock').of('lock.acquired')[0].owner);
  });
});
