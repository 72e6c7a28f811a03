import { describe, expect, it } from 'vitest';
import { buildContentionFixture } from '../fixtures/contention';
import { builtin, builtins } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { watchdogCostScenario } from '../../engine/scenario/scale/watchdog_cost';
import { computeLayout } from './layout';
import { legendItems } from './legend-items';
import { deriveLaneModel, deriveRunModel, roleAt, slotsAt, type LaneModel } from './model';
import { MAX_KEY_ROWS } from './key-rows';

describe('deriveLaneModel (hand-written fixture)', () => {
  const run = buildContentionFixture();
  const model = deriveLaneModel(run.trace, (i) => run.stateAt(i));

  it('has a lane per thread and per node', () => {
    expect(model.threads.map((t) => t.id)).toEqual(['A:1', 'B:1']);
    expect(model.nodes.map((n) => n.id)).toEqual(['master']);
  });

  it('turns frames into state bands and hold spans with counts', () => {
    const a = model.threads[0];
    expect(a.holds.some((h) => h.count === 2)).toBe(true);
    const b = model.threads[1];
    expect(b.bands.find((x) => x.kind === 'paused')).toMatchObject({ from: 18000, to: 58000 });
    expect(b.bands.some((x) => x.kind === 'waiting')).toBe(true);
  });

  it('marks renewals, wake-ups by cause, and pub/sub arrows', () => {
    const kinds = model.threads.flatMap((t) => t.marks.map((m) => m.kind));
    expect(kinds).toContain('renew');
    expect(kinds).toContain('wake-message');
    expect(kinds).toContain('wake-timeout');
    expect(model.arrows).toEqual([
      expect.objectContaining({ kind: 'pubsub', fromLane: 'master', toLane: 'B:1', t0: 5003, t1: 5004 }),
    ]);
  });

  it('follows the lock key: its TTL after each change and its end at expiry', () => {
    const keys = model.nodes[0].keys;
    expect(keys.length).toBeGreaterThan(3);
    const renewed = keys.find((k) => k.from === 15007);
    expect(renewed).toMatchObject({ ttlAtFrom: 30000, to: 45007 });
  });

  it('keeps violations as bands', () => {
    expect(model.violations).toEqual([
      { kind: 'V1', lock: 'myLock', from: 45010, to: 50012, open: false, holders: ['B:1', 'A:1'] },
    ]);
  });
});

describe('deriveLaneModel on built-ins: the marks agree with the engine', () => {
  const modelOf = (id: string) => {
    const b = builtin(id)!;
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(id);
    const r = runScenario(v.scenario);
    return { trace: r.trace, model: deriveRunModel(v.scenario, r) };
  };
  const lane = (m: LaneModel, id: string) => m.threads.find((l) => l.id === id)!;

  it('D16 split-brain: one tick per renew script the watchdog sends, the failed ones red', () => {
    const { trace, model } = modelOf('split-brain-partition');
    const renews = trace.events.filter(
      (e) =>
        e.kind === 'cmd' &&
        e.actor === 'A/watchdog' &&
        /^evalsha$/i.test((e.argv as string[])[0]) &&
        !JSON.stringify(e.reply).includes('NOSCRIPT'),
    );
    const ticks = lane(model, 'A:1').marks.filter((m) => m.kind === 'renew' || m.kind === 'renew-fail');
    expect(ticks.length).toBe(renews.length);
    // the watchdog keeps renewing on the old master after the partition (4.7.0's LockTask logs a
    // failed replica check and waits for its next round, without retrying it), at 10, 21, 32 and
    // 43 s, until A's first unlock attempt fails its replica check at 46 s and cancels it (3.20.1+
    // unlockAsync0; the real 4.7.0 client renewed four times too)
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    // every attempt after the partition gets WAIT 0 of 2: red
    const first = ticks.find((m) => m.t > 11_000)!;
    expect(first.kind).toBe('renew-fail');
    const failedRenew = trace.events.find((e) => e.kind === 'watchdog.renew' && e.result === 'error')!;
    expect(ticks.filter((m) => m.t <= failedRenew.t).at(-1)!.kind).toBe('renew-fail');
  });

  it('D16 failover-lost-lock and watchdog-renewal: failed renewals stay red, successful ones green', () => {
    const lost = lane(modelOf('failover-lost-lock').model, 'A:1').marks.map((m) => m.kind);
    expect(lost).toContain('renew-fail');
    const ok = lane(modelOf('watchdog-renewal').model, 'A:1').marks.filter((m) => m.kind.startsWith('renew'));
    expect(ok.length).toBeGreaterThan(2);
    expect(ok.every((m) => m.kind === 'renew')).toBe(true);
  });

  it('D33 trylock-timeout: B’s given-up tryLock has its ✕ next to the timeout ring', () => {
    const { model } = modelOf('trylock-timeout');
    const kinds = lane(model, 'B:1').marks.map((m) => m.kind);
    expect(kinds).toContain('error');
    expect(kinds).toContain('wake-timeout');
  });

  it('D5 fencing-saves-gc-pause: the refused write has its own mark and both writes show their token', () => {
    const { model } = modelOf('fencing-saves-gc-pause');
    const writes = model.threads.flatMap((l) =>
      l.marks.filter((m) => m.kind === 'resource' || m.kind === 'refused'),
    );
    expect(writes.map((m) => m.kind).sort()).toEqual(['refused', 'resource']);
    expect(writes.every((m) => /^#\d+$/.test(m.label ?? ''))).toBe(true);
  });

  it('D3 multilock: A’s partial hold (l1 + l2) is drawn while it waits for l3', () => {
    const { model } = modelOf('multilock-all-or-nothing');
    const p = lane(model, 'A:1').partial;
    expect(p.some((s) => s.keys === 'l1 + l2' && s.to - s.from > 2000)).toBe(true);
  });

  it('shades latency spikes apart from partitions: overlapping spikes make one span', () => {
    const b = builtin('basic-lock')!;
    const faults = [
      { kind: 'latency', at: 100, ms: 50, endAt: 400, endpoints: ['A'] },
      { kind: 'latency', at: 200, ms: 50, endAt: 600 },
      { kind: 'latency', at: 900, ms: 50, endAt: 1000 },
    ];
    const v = validateScenario({ ...b.scenario, until: 2000, faults });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const r = runScenario(v.scenario);
    const model = deriveLaneModel(r.trace, (i) => r.stateAt(i));
    expect(model.latency).toEqual([
      { from: 100, to: 600 },
      { from: 900, to: 1000 },
    ]);
    expect(model.partitions).toEqual([]);
    expect(legendItems(model).map((i) => i.key)).toContain('legend.latency');
  });

  it('D10 split-brain: V2 is marked on the node lanes that hold the two leases', () => {
    const { model } = modelOf('split-brain-partition');
    const v2 = model.violations.find((v) => v.kind === 'V2')!;
    expect(v2.lanes?.length).toBe(2);
    expect(v2.lanes!.every((id) => model.nodes.some((n) => n.id === id))).toBe(true);
  });

  it('D23 naive-get-del-race: A’s hold after its unlock call is drawn as releasing, over its pause', () => {
    const { trace, model } = modelOf('naive-get-del-race');
    const req = trace.events.find((e) => e.kind === 'unlock.request' && e.actor === 'A:1')!;
    const holds = lane(model, 'A:1').holds;
    expect(holds.find((h) => !h.releasing)!.to).toBe(req.t);
    const rel = holds.find((h) => h.releasing)!;
    expect(rel.from).toBe(req.t);
    expect(rel.to - rel.from).toBeGreaterThanOrEqual(500);
  });

  it('L1 naive-setnx-deadlock: the stuck lock is a band over its gone owner and its waiter', () => {
    const { model } = modelOf('naive-setnx-deadlock');
    expect(model.violations).toMatchObject([{ kind: 'L1', holders: ['A:1', 'B:1'], open: true }]);
  });

  it('D21 spin-lock and naive SETNX: one poll tick per try while the waiter polls', () => {
    for (const [id, th, cmd] of [
      ['spin-lock-polling', 'B:1', /^evalsha$/i],
      ['naive-setnx-deadlock', 'B:1', /^setnx$/i],
    ] as const) {
      const { trace, model } = modelOf(id);
      const waitAt = trace.events.find((e) => e.kind === 'lock.wait' && e.actor === th)!.t;
      const tries = trace.events.filter(
        (e) => e.kind === 'cmd' && e.actor === th && e.t >= waitAt && cmd.test((e.argv as string[])[0]),
      );
      const polls = lane(model, th).marks.filter((m) => m.kind === 'poll');
      expect(polls.length, id).toBeGreaterThan(5);
      expect(
        polls.map((m) => m.t),
        id,
      ).toEqual(tries.map((e) => e.t).slice(0, polls.length));
    }
    // a lock woken by messages does not poll
    expect(
      modelOf('contention-wakeup').model.threads.some((l) => l.marks.some((m) => m.kind === 'poll')),
    ).toBe(false);
  });

  it('D20 multilock and rw-lock: each key on a node lane has its own named sub-row', () => {
    expect(modelOf('multilock-all-or-nothing').model.nodes[0].keyNames).toEqual(['l1', 'l2', 'l3']);
    const rw = modelOf('rw-lock-readers-then-writer').model.nodes[0].keyNames;
    expect(rw[0]).toBe('rw');
    // the readers' timeout keys, named after their owners (D2, D19)
    expect(rw.slice(1)).toEqual(
      expect.arrayContaining(['{rw}:A:1:rwlock_timeout:1', '{rw}:B:1:rwlock_timeout:1']),
    );
    expect(rw.slice(1).every((k) => /^\{rw\}:[A-Z]:\d+:rwlock_timeout:\d+$/.test(k))).toBe(true);
  });

  it('D19 owners: key labels name the thread, not the uuid', () => {
    const { model } = modelOf('basic-lock');
    expect(model.owners.clients).toMatchObject({ '8b0f8b81-2984-4fb8-ad08-c33276a1e0a8': 'A' });
    expect(model.nodes[0].keys.some((k) => k.label === 'A:1=1')).toBe(true);
    expect(model.nodes[0].keys.every((k) => !/[0-9a-f]{8}-/.test(k.label))).toBe(true);
  });

  it('D17 failover-lost-lock: the Sentinels’ lane has +sdown, +odown, the leader and the promotion', () => {
    const { model } = modelOf('failover-lost-lock');
    const s = model.sentinels!;
    expect(s.ids).toEqual(['sentinel-1', 'sentinel-2', 'sentinel-3']);
    expect(new Set(s.marks.map((m) => m.kind))).toEqual(
      new Set(['sdown', 'odown', 'leader', 'promote', 'reconfig']),
    );
    expect(s.failovers).toEqual([{ from: 5037, to: 6044, promoted: 'replica-1' }]);
    expect(modelOf('basic-lock').model.sentinels).toBeNull();
  });

  it('cluster-failover-lost-lock: the cluster bus row has PFAIL, FAIL, the election and the promotion', () => {
    const { trace, model } = modelOf('cluster-failover-lost-lock');
    const s = model.sentinels!;
    expect(s.kind).toBe('cluster');
    const first = (kind: string) => trace.events.find((e) => e.kind === kind)!;
    const at = (kind: string) => s.marks.find((m) => m.kind === kind)!.t;
    // in the order the cluster takes them, each at its event's time
    expect(at('sdown')).toBe(first('cluster.pfail').t);
    expect(at('odown')).toBe(first('cluster.fail').t);
    expect(at('leader')).toBe(first('cluster.election').t);
    expect(at('promote')).toBe(first('cluster.promoted').t);
    expect(at('sdown') < at('odown') && at('odown') < at('leader') && at('leader') < at('promote')).toBe(
      true,
    );
    expect(s.failovers).toEqual([
      { from: first('cluster.pfail').t, to: first('cluster.promoted').t, promoted: 'replica-3' },
    ]);
    const keys = legendItems(model).map((it) => it.key);
    expect(keys).toEqual(
      expect.arrayContaining(['legend.pfail', 'legend.election', 'legend.clusterPromote']),
    );
    expect(keys).not.toContain('legend.sdown');
    expect(modelOf('cluster-which-node').model.sentinels).toBeNull();
  });

  it('cluster-failover-lost-lock: lanes grouped by shard, the slots move to the promoted replica', () => {
    const { trace, model } = modelOf('cluster-failover-lost-lock');
    expect(model.shards).toEqual([
      ['master-1', 'replica-1'],
      ['master-2', 'replica-2'],
      ['master-3', 'replica-3'],
    ]);
    expect(model.nodes.map((n) => n.id)).toEqual(model.shards!.flat());
    const promoted = trace.events.find((e) => e.kind === 'cluster.promoted')!;
    const node = (id: string) => model.nodes.find((n) => n.id === id)!;
    expect(node('master-3').slots).toEqual([
      { from: 0, to: promoted.t, slots: '10923-16383' },
      { from: promoted.t, to: model.tEnd, slots: '' },
    ]);
    expect(slotsAt(node('replica-3'), promoted.t - 1)).toBe('');
    expect(slotsAt(node('replica-3'), promoted.t)).toBe('10923-16383');
    expect(slotsAt(node('master-1'), model.tEnd)).toBe('0-5460');
    expect(slotsAt(node('master-2'), 0)).toBe('5461-10922');
    // each group: its label row, then its master, then its replicas
    const rows = computeLayout(model).rows.filter((r) => r.kind === 'header-shard' || r.kind === 'node');
    expect(rows.map((r) => (r.kind === 'header-shard' ? `#${r.shard}` : r.id))).toEqual([
      '#1',
      'master-1',
      'replica-1',
      '#2',
      'master-2',
      'replica-2',
      '#3',
      'master-3',
      'replica-3',
    ]);
  });

  // Issue 14 (D17 remainder): the label says the role at the cursor, not the last one from t=0.
  it.each([
    ['failover-lost-lock', 'failover.promote', 'replica-1'],
    ['cluster-failover-lost-lock', 'cluster.promoted', 'replica-3'],
  ])('%s: %s; %s is a replica until it becomes master, a master after', (id, kind, replica) => {
    const { trace, model } = modelOf(id);
    const promoted = trace.events.find((e) => e.kind === kind)!;
    const lane = model.nodes.find((n) => n.id === replica)!;
    // the switch itself (SLAVEOF NO ONE, the cluster's promotion) is at or before the announcement
    const from = lane.roles.find((r) => r.role === 'master')!.from;
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(promoted.t);
    expect(roleAt(lane, 0)).toBe('replica');
    expect(roleAt(lane, from - 1)).toBe('replica');
    expect(roleAt(lane, from)).toBe('master');
    expect(roleAt(lane, model.tEnd)).toBe('master');
  });

  it('single-node runs have no shards and no slots', () => {
    const { model } = modelOf('basic-lock');
    expect(model.shards).toBeUndefined();
    expect(model.nodes[0].slots).toBeUndefined();
    expect(slotsAt(model.nodes[0], 0)).toBeNull();
    expect(computeLayout(model).rows.some((r) => r.kind === 'header-shard')).toBe(false);
  });
});

describe('deriveRunModel: one sweep over the run draws what a stateAt per frame draws', () => {
  // contention-100 is left to the page's performance spec: replaying it per frame takes seconds.
  const ids = builtins.map((b) => b.id).filter((id) => id !== 'contention-100');
  it.each(ids)('%s', (id) => {
    const v = validateScenario(builtin(id)!.scenario);
    if (!v.ok) throw new Error(id);
    const r = runScenario(v.scenario);
    expect(r.sweep).toBeDefined();
    const perFrame = deriveRunModel(v.scenario, { trace: r.trace, stateAt: (i) => r.stateAt(i) });
    expect(deriveRunModel(v.scenario, r)).toEqual(perFrame);
  });

  // Many keys changing in one moment (every renewal touches a client's locks at once): the sweep
  // hands the lanes only the keys a moment touched (FrameReader.changedKeys).
  it('the watchdog-cost scale scenario, scaled down', () => {
    const v = validateScenario(
      watchdogCostScenario({ clients: 2, threadsPerClient: 4, locksPerThread: 3, until: 25_000 }),
    );
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const r = runScenario(v.scenario);
    const perFrame = deriveRunModel(v.scenario, { trace: r.trace, stateAt: (i) => r.stateAt(i) });
    const swept = deriveRunModel(v.scenario, r);
    expect(swept.nodes[0].keyNames).toHaveLength(24);
    expect(swept.nodes[0].moreKeys).toBeUndefined();
    expect(swept).toEqual(perFrame);
  });
});

describe('deriveRunModel: a node with more keys than MAX_KEY_ROWS', () => {
  it('draws the first ones one by one and counts the rest in one row, as many as exist', () => {
    const v = validateScenario(
      watchdogCostScenario({ clients: 2, threadsPerClient: 5, locksPerThread: 4, until: 25_000 }),
    );
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const r = runScenario(v.scenario);
    const model = deriveRunModel(v.scenario, r);
    const lane = model.nodes[0];
    expect(lane.keyNames).toHaveLength(MAX_KEY_ROWS);
    expect(lane.keys.every((k) => lane.keyNames.includes(k.name))).toBe(true);
    expect(lane.moreKeys?.names).toBe(40 - MAX_KEY_ROWS);
    // at every moment the row's count is how many of the other keys the master holds
    const shown = new Set(lane.keyNames);
    // (the lanes end with the run's last event, at tEnd)
    for (const t of [1, 50, 5_000, 12_345, model.tEnd - 1]) {
      let i = -1;
      while (i + 1 < r.trace.events.length && r.trace.events[i + 1].t <= t) i++;
      const present = Object.keys(r.stateAt(i).nodes.master.keys).filter((k) => !shown.has(k)).length;
      const span = lane.moreKeys!.live.find((l) => l.from <= t && t < l.to);
      expect(span?.count ?? 0, `at ${t} ms`).toBe(present);
    }
  });
});

describe('deriveRunModel: a MultiLock on independent masters', () => {
  it('draws each sub-lock on its master, also the last one, which no event names', () => {
    // master-2 comes back empty, so A:1's unlock fails at l2 and l3 is never named by an event
    // (no wait, no partial hold, no watchdog cancel); its key on master-3 is still there.
    const multi = { lock: 'multi', type: 'MultiLock', locks: ['l1', 'l2', 'l3'] };
    const v = validateScenario({
      format: 'lockscope/1',
      redis: { topology: 'independent', masters: 3 },
      clients: [
        {
          id: 'A',
          threads: [
            {
              id: 1,
              program: [
                { op: 'lock', ...multi },
                { op: 'work', ms: 3000 },
                { op: 'unlock', lock: 'multi' },
              ],
            },
          ],
        },
      ],
      faults: [
        { at: 1000, kind: 'crash', node: 'master-2' },
        { at: 1500, kind: 'restart', node: 'master-2' },
      ],
    });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const r = runScenario(v.scenario, { verbose: true });
    expect(r.trace.events.some((e) => e.lock === 'l3')).toBe(false);
    const model = deriveRunModel(v.scenario, r);
    expect(model.nodes.map((n) => [n.id, n.keyNames])).toEqual([
      ['master-1', ['l1']],
      ['master-2', ['l2']],
      ['master-3', ['l3']],
    ]);
  });
});
