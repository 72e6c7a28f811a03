import { describe, expect, it } from 'vitest';
import { validateScenario } from '../scenario/schema';
import {
  applyChanges,
  changesViolation,
  explore,
  planSearch,
  searchRange,
  simplifications,
  variantAt,
  type ExploreOptions,
  type ExploreReport,
} from './index';
import {
  basicLock30s,
  fencedNoFault,
  naiveGetDelNoFault,
  sentinelLagNoFault,
  shortLeaseNoFault,
  validated,
} from './testing/scenarios';
import { runScenario } from '../scenario/run';
import { builtin } from '../scenario/builtins/index';
import type { Scenario } from '../scenario/schema';

// Budgets stay small: every schedule is a full run, and the machine is shared.
const finds: [string, () => Scenario, ExploreOptions, (r: ExploreReport) => void][] = [
  [
    'lease expiry under a pause (V1) from basic-lock with a 30 s lease',
    basicLock30s,
    { faults: ['pause'], budget: 200 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'V1', lock: 'myLock', holders: ['A:1', 'B:1'] });
      expect(r.added).toHaveLength(1);
      expect(r.added[0]).toMatchObject({ kind: 'pause', client: 'A' });
      // the pause must outlast what is left of A's 30 s lease, and no more than that is needed
      const p = r.added[0] as { at: number; ms: number };
      expect(p.at + p.ms).toBeGreaterThan(30_000);
      expect(p.ms).toBeLessThan(30_100);
    },
  ],
  [
    'failover loss from a Sentinel deployment with replication lag',
    sentinelLagNoFault,
    { faults: ['node-crash'], budget: 200 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'V1', lock: 'myLock' });
      expect(r.added).toEqual([{ kind: 'crash', at: expect.any(Number), node: 'master' }]);
      // inside the 40 ms replication lag after A's acquire
      expect(r.added[0].at).toBeLessThan(50);
    },
  ],
  [
    'a naive lock race (GET, compare, DEL)',
    naiveGetDelNoFault,
    { faults: ['pause'], budget: 200 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'V1', lock: 'lock:job' });
      expect(r.added).toHaveLength(1);
    },
  ],
  [
    'a latency spike that holds back the acquire reply past the rest of a 1 s lease',
    shortLeaseNoFault,
    // seed 8: the response timer (a reply later than timeoutMs fails the call) moved the hits
    { faults: ['latency'], budget: 100, seed: 8 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'V1', lock: 'myLock', holders: ['A:1', 'B:1'] });
      expect(r.added).toHaveLength(1);
      const f = r.added[0];
      if (f.kind !== 'latency') throw new Error(`expected a latency spike, got ${f.kind}`);
      // A's 500 ms of work plus the delay must outlast the 1000 ms lease: about 500 ms is needed
      expect(f.ms).toBeGreaterThan(490);
      expect(f.ms).toBeLessThan(600);
      // shrunk to a window around the one reply that matters
      expect(f.endAt - f.at).toBeLessThan(10);
      expect(runScenario(shortLeaseNoFault()).trace.verdict).toBe('safe');
    },
  ],
  [
    'a crashed FairLock waiter that the queue waits out while the lock is free (L2)',
    () => validated(builtin('fair-lock-fifo')!.scenario),
    { faults: ['client-crash'], violations: ['L2'], budget: 50 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'L2', lock: 'fair', cause: 'dead-ahead' });
      expect(r.added).toEqual([{ kind: 'crash', at: expect.any(Number), client: expect.any(String) }]);
    },
  ],
  [
    'a tryLock that ends its thread holding a watchdog lock once a latency spike reorders the acquires (L3)',
    () => validated(builtin('reentrant')!.scenario),
    { faults: ['latency'], violations: ['L3'], budget: 150 },
    (r) => {
      expect(r.violation).toMatchObject({ kind: 'L3', lock: 'myLock', holders: ['B:1'], cause: 'ended' });
      expect(r.added).toHaveLength(1);
    },
  ],
];

describe('explore', { timeout: 120_000 }, () => {
  it.each(finds)('finds and shrinks %s', (_name, base, opts, check) => {
    const r = explore(base(), opts);
    expect(r.found).not.toBeNull();
    expect(r.foundAt).not.toBeNull();
    check(r);
    // the minimal scenario is a valid scenario that breaks the same way when run on its own
    expect(validateScenario(JSON.parse(JSON.stringify(r.found))).ok).toBe(true);
    expect(r.found!.faults.slice(base().faults.length)).toEqual(r.added);
  });

  it('is deterministic: the same seed gives the same report, byte for byte', () => {
    const opts: ExploreOptions = { seed: 7, budget: 15, faults: ['pause', 'client-crash'] };
    const a = JSON.stringify(explore(basicLock30s(), opts));
    expect(JSON.stringify(explore(basicLock30s(), opts))).toBe(a);
    const plan = planSearch(basicLock30s(), { seed: 7 });
    expect(JSON.stringify(variantAt(plan, 5))).toBe(JSON.stringify(variantAt(plan, 5)));
    expect(JSON.stringify(variantAt(plan, 5))).not.toBe(JSON.stringify(variantAt(plan, 6)));
    // the plan survives the trip to a worker
    expect(JSON.stringify(variantAt(structuredClone(plan), 5))).toBe(JSON.stringify(variantAt(plan, 5)));
  });

  it('split across 3 shards finds the same lowest index as a sequential search', () => {
    const plan = planSearch(basicLock30s(), { faults: ['pause', 'client-crash', 'clock'], seed: 3 });
    const seq = searchRange(plan, { to: 200 });
    expect(seq.hits).toHaveLength(1);
    const shards = [0, 1, 2].map((k) => searchRange(plan, { from: k, stride: 3, to: 200 }));
    const lowest = Math.min(...shards.flatMap((s) => s.hits.map((h) => h.index)));
    expect(lowest).toBe(seq.hits[0].index);
    expect(shards.reduce((n, s) => n + s.tried, 0)).toBeGreaterThanOrEqual(seq.tried);
  });

  it('reports nothing for a fenced resource under pauses only (no V3), and does not call it safe', () => {
    const r = explore(fencedNoFault(), { faults: ['pause'], violations: ['V3'], budget: 30 });
    expect(r.found).toBeNull();
    expect(r.violation).toBeNull();
    expect(r.tried).toBe(30);
    expect(r.explored).toMatchObject({ schedules: 30, faultKinds: ['pause'], violationKinds: ['V3'] });
    expect(r.explored.summary).toMatch(/No V3 violation in 30 schedule/);
    expect(r.explored.summary).not.toMatch(/\bsafe\b/i);
  });

  it('shrinks to a 1-minimal schedule: no single simplification keeps the violation', () => {
    const base = naiveGetDelNoFault();
    const plan = planSearch(base, { faults: ['pause', 'clock'], maxChanges: 3 });
    const r = explore(base, { faults: ['pause', 'clock'], budget: 200 });
    expect(r.violation).not.toBeNull();
    const same = (v: { kind: string; lock: string }) =>
      v.kind === r.violation!.kind && v.lock === r.violation!.lock;
    const changes = r.added.map((fault) => ({ kind: 'add' as const, tag: 'pause' as const, fault }));
    expect(changesViolation(plan, changes, same)).not.toBeNull();
    const simpler = simplifications(plan, changes);
    expect(simpler.length).toBeGreaterThan(0);
    for (const s of simpler) expect(changesViolation(plan, s.changes, same), s.what).toBeNull();
    expect(applyChanges(base, changes).faults).toEqual(r.found!.faults);
  });
});
