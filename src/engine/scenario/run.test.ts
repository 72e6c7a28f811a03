import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { builtins } from './builtins/index';
import { runScenario, UnsupportedScenarioError, unsupportedReason } from './run';
import { validateScenario, type Scenario } from './schema';
import { client, hold, scenario } from './build';

function valid(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.scenario;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('runScenario determinism', () => {
  for (const b of builtins) {
    // contention-100 runs twice here: give it room on a loaded machine
    it(`${b.id}: two runs give byte-identical traces`, { timeout: 60_000 }, () => {
      const s = valid(b.scenario);
      const a = JSON.stringify(runScenario(s).trace);
      const c = JSON.stringify(runScenario(valid(b.scenario)).trace);
      expect(sha(a)).toBe(sha(c));
      // the trace survives JSON unchanged (no bigint, undefined or NaN hiding in events)
      expect(JSON.stringify(JSON.parse(a))).toBe(a);
    });
  }
});

const twoThreads = (extra: object = {}, program?: unknown[]) =>
  scenario(
    [
      client(
        'A',
        program ?? [
          { op: 'lock', lock: 'L', leaseMs: 100 },
          { op: 'work', ms: 300 },
          { op: 'use' },
          { op: 'unlock', lock: 'L' },
        ],
      ),
      client(
        'B',
        [{ op: 'lock', lock: 'L' }, { op: 'use' }, { op: 'work', ms: 500 }, { op: 'unlock', lock: 'L' }],
        {
          start: 10,
        },
      ),
    ],
    extra,
  );

describe('runScenario', () => {
  it('finds the lease-expiry overlap (V1) and the stale write (V3) with exact times', () => {
    const run = runScenario(valid(twoThreads()));
    const { trace } = run;
    expect(trace.verdict).toBe('unsafe');
    const acquiredB = trace.events.find((e) => e.kind === 'lock.acquired' && e.actor === 'B:1')!;
    const useA = trace.events.find((e) => e.kind === 'resource.use' && e.actor === 'A:1')!;
    const v1 = trace.violations.find((v) => v.kind === 'V1')!;
    expect(v1.from).toBe(acquiredB.t);
    expect(v1.holders).toEqual(['A:1', 'B:1']);
    const v3 = trace.violations.find((v) => v.kind === 'V3')!;
    expect(v3).toMatchObject({ from: useA.t, to: useA.t, holders: ['A:1', 'B:1'] });
    // violation events mirror the list
    const starts = trace.events.filter((e) => e.kind === 'violation.start').map((e) => [e.violation, e.t]);
    expect(starts).toEqual(trace.violations.map((v) => [v.kind, v.from]));
  });

  it('sees two live server-side owners of one lock (V2) from the keyspace', () => {
    const run = runScenario(
      valid(
        scenario([
          client('A', hold('L', 100)),
          client(
            'B',
            [
              { op: 'redis', argv: ['HSET', 'L', 'intruder:1', '1'] },
              { op: 'sleep', ms: 30 },
              { op: 'redis', argv: ['HDEL', 'L', 'intruder:1'] },
            ],
            { start: 20 },
          ),
        ]),
      ),
    );
    const hset = run.trace.events.find((e) => e.kind === 'cmd' && (e.argv as string[])[0] === 'HSET')!;
    const hdel = run.trace.events.find((e) => e.kind === 'cmd' && (e.argv as string[])[0] === 'HDEL')!;
    expect(run.trace.violations).toEqual([
      { kind: 'V2', lock: 'L', from: hset.t, to: hdel.t, holders: ['A:1', 'intruder:1'] },
    ]);
    // the violation events sit right after the commands that opened and closed it
    const i = run.trace.events.indexOf(hset);
    expect(run.trace.events[i + 1]).toMatchObject({ kind: 'violation.start', violation: 'V2', lock: 'L' });
  });

  it('is safe when the holder keeps its lease (watchdog)', () => {
    const run = runScenario(
      valid(
        twoThreads({}, [
          { op: 'lock', lock: 'L' },
          { op: 'work', ms: 300 },
          { op: 'use' },
          { op: 'unlock', lock: 'L' },
        ]),
      ),
    );
    expect(run.trace.verdict).toBe('safe');
    expect(run.trace.final.resource).toMatchObject({ value: 2, accepted: 2 });
    expect(run.trace.final.threads['A:1'].state).toBe('done');
  });

  it('applies client faults: a crash ends the crashed thread belief and its thread state', () => {
    const run = runScenario(
      valid(
        twoThreads(
          { faults: [{ at: 50, kind: 'crash', client: 'A' }], redisson: { lockWatchdogTimeout: 300 } },
          [
            { op: 'lock', lock: 'L' },
            { op: 'work', ms: 5000 },
          ],
        ),
      ),
    );
    const crash = run.trace.events.find((e) => e.kind === 'client.crash')!;
    expect(crash).toMatchObject({ t: 50, actor: 'A' });
    expect(run.trace.final.threads['A:1'].state).toBe('crashed');
    expect(run.trace.verdict).toBe('safe');
    // B gets the lock once A's last lease (watchdog 300 ms) runs out
    const acquiredB = run.trace.events.find((e) => e.kind === 'lock.acquired' && e.actor === 'B:1')!;
    expect(acquiredB.t).toBeGreaterThan(300);
    expect(acquiredB.t).toBeLessThan(700);
  });

  it('a latency spike delays a reply by exactly its ms, and only until endAt', () => {
    const program = hold('L', 0);
    const run = (faults: unknown[]) =>
      runScenario(valid(scenario([client('A', program)], { network: { latencyMs: 5 }, faults }))).trace;
    // the first request (EVALSHA) reaches the master at 5; its reply leaves inside the spike (3…50)
    const slow = run([{ kind: 'latency', at: 3, ms: 300, endAt: 50, endpoints: ['A'] }]);
    const fast = run([]);
    const acquired = (t: typeof slow) => t.events.find((e) => e.kind === 'lock.acquired')!.t;
    expect(acquired(slow) - acquired(fast)).toBe(300);
    // the unlock is sent after the spike: one plain latency to the master
    const unlockAt = (t: typeof slow) => t.events.find((e) => e.kind === 'cmd' && e.t > acquired(t))!.t;
    expect(unlockAt(slow) - acquired(slow)).toBe(5);
    expect(unlockAt(fast) - acquired(fast)).toBe(5);
    expect(slow.events.filter((e) => e.kind.startsWith('net.')).map((e) => [e.t, e.kind])).toEqual([
      [3, 'net.latency'],
      [50, 'net.latency.end'],
    ]);
  });

  it('runs until `until` when given, and stops when every program ended otherwise', () => {
    const s = scenario([
      client('A', [
        { op: 'lock', lock: 'L' },
        { op: 'work', ms: 5 },
      ]),
    ]);
    const early = runScenario(valid(s));
    expect(early.endedAt).toBeLessThan(100);
    const late = runScenario(valid({ ...s, until: 50_000 }));
    expect(late.endedAt).toBe(50_000);
    // the lock was never unlocked: the watchdog keeps renewing it while the run goes on
    const renewals = late.trace.events.filter((e) => e.kind === 'watchdog.renew').map((e) => e.t);
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    expect(renewals[renewals.length - 1]).toBeGreaterThan(40_000);
  });

  it('a stuck run whose watchdogs go on renewing ends at the cap, cut by time', () => {
    // Without `until`, a deadlocked run goes on until its queue is dry or the cap. These two keep
    // their watchdogs renewing: their last task before the cap was a cancelled response timer
    // (593,128 and 593,126 ms, which endedAt and the explore search's horizon counted until the
    // ninth pass), and there is work scheduled after it, so the run is stopped there before its
    // end: cut by time, at the cap, and still stuck.
    for (const id of ['incident-opposite-order-deadlock', 'incident-read-to-write-upgrade']) {
      const b = builtins.find((x) => x.id === id)!;
      const run = runScenario(valid({ ...b.scenario, until: null }));
      expect(run.endedAt, id).toBe(600_000);
      expect(run.trace.truncatedBy, id).toBe('time');
      expect(run.trace.verdict, id).toBe('stuck');
    }
  });

  it('does not stop while client work is in flight (the unlock latch DEL), nor wait for watchdog timers', () => {
    const locked = (program: unknown[]) => scenario([client('A', program)]);
    const run = runScenario(valid(locked(hold('L', 5))));
    const done = run.trace.events.find((e) => e.kind === 'thread.done')!;
    const del = run.trace.events.find((e) => e.kind === 'cmd' && (e.argv as string[])[0] === 'DEL')!;
    expect(del.t).toBeGreaterThan(done.t);
    expect(run.trace.final.nodes.master.keys).toEqual({});
    // the DEL's reply is back too: the run ends one latency after the DEL ran
    expect(run.endedAt).toBe(del.t + 1);
    // a lock never unlocked: its watchdog sleeps until 10 s, the run does not wait for it
    const held = runScenario(valid(locked([{ op: 'lock', lock: 'L' }])));
    expect(held.endedAt).toBeLessThan(100);
    expect(held.trace.events.some((e) => e.kind === 'watchdog.renew')).toBe(false);
  });

  it('V3: a FencedLock lease that expired with nobody else taking the lock is no violation', () => {
    const run = runScenario(
      valid(
        scenario(
          [
            client('A', [
              // tryLockAndGetToken keeps its lease (lockAndGetToken(lease) drops it, 3.19.0–4.7.0)
              { op: 'tryLock', lock: 'F', type: 'FencedLock', waitMs: 0, leaseMs: 100 },
              { op: 'work', ms: 300 },
              { op: 'use' },
            ]),
          ],
          { resource: { kind: 'fenced', initial: 0 } },
        ),
      ),
    );
    expect(run.trace.events.some((e) => e.kind === 'key.expired')).toBe(true);
    expect(run.trace.events.find((e) => e.kind === 'resource.use')).toMatchObject({
      accepted: true,
      token: 1,
    });
    expect(run.trace.verdict).toBe('safe');
  });

  it('V3: split brain, the writer still owns its lease on the old master but B acted first', () => {
    const b = builtins.find((x) => x.id === 'split-brain-partition')!;
    const s = structuredClone(b.scenario) as unknown as { clients: { threads: { program: unknown[] }[] }[] };
    s.clients[0].threads[0].program = [
      { op: 'lock', lock: 'myLock' },
      { op: 'work', ms: 29_990 },
      { op: 'use', ms: 20_000 },
      { op: 'unlock', lock: 'myLock' },
    ];
    s.clients[1].threads[0].program = [
      { op: 'lock', lock: 'myLock' },
      { op: 'use' },
      { op: 'work', ms: 20_000 },
      { op: 'unlock', lock: 'myLock' },
    ];
    const { trace } = runScenario(valid(s));
    const useA = trace.events.find((e) => e.kind === 'resource.use' && e.actor === 'A:1')!;
    expect(useA.lostUpdate).toBe(true);
    // A's lease still lives on the partitioned old master A talks to
    const live = trace.events.filter((e) => e.kind === 'violation.start' && e.violation === 'V2');
    expect(live.length).toBe(1);
    expect(trace.violations.find((v) => v.kind === 'V3')).toEqual({
      kind: 'V3',
      lock: 'myLock',
      from: useA.t,
      to: useA.t,
      holders: ['A:1', 'B:1'],
      cause: 'stale',
    });
    expect(trace.violations.find((v) => v.kind === 'V2')!.holders).toEqual(['A:1', 'B:1']);
  });

  it('V3: a lost update with no lock at all is unsafe, on lock "(none)"', () => {
    const run = runScenario(
      valid({
        format: 'lockscope/1',
        clients: [client('A', [{ op: 'use', ms: 50 }]), client('B', [{ op: 'use', ms: 10 }], { start: 10 })],
      }),
    );
    expect(run.trace.verdict).toBe('unsafe');
    expect(run.trace.final.resource).toEqual({ value: 1, accepted: 2, rejected: 0, lost: 1 });
    // B's write lands inside A's read-modify-write, then A's write erases it
    expect(run.trace.violations).toEqual([
      { kind: 'V3', lock: '(none)', from: 20, to: 20, holders: ['B:1', 'A:1'], cause: 'unlocked' },
      { kind: 'V3', lock: '(none)', from: 50, to: 50, holders: ['A:1', 'B:1'], cause: 'unlocked' },
    ]);
  });

  it('records script lines only in verbose runs', () => {
    const s = valid(twoThreads());
    const quiet = runScenario(s).trace.events;
    const verbose = runScenario(s, { verbose: true }).trace.events;
    expect(quiet.some((e) => e.kind === 'script.line')).toBe(false);
    expect(verbose.some((e) => e.kind === 'script.line')).toBe(true);
    const strip = (evs: typeof quiet) =>
      evs.filter((e) => !e.kind.startsWith('script.')).map((e) => [e.t, e.kind, e.actor]);
    expect(strip(verbose)).toEqual(strip(quiet));
  });

  it('rejects a scenario it cannot run with a clear reason instead of running it', () => {
    // a sentinel topology without any replica to fail over to
    const s = valid(twoThreads({ redis: { topology: 'sentinel' } }));
    expect(unsupportedReason(s)).toMatch(/sentinel/);
    expect(() => runScenario(s)).toThrow(UnsupportedScenarioError);
  });

  it('answers stateAt in well under a millisecond on contention-100', { timeout: 60_000 }, () => {
    const b = builtins.find((x) => x.id === 'contention-100')!;
    const run = runScenario(valid(b.scenario));
    const n = run.trace.events.length;
    expect(n).toBeGreaterThan(10_000);
    const t0 = performance.now();
    const probes = 2000;
    for (let i = 0; i < probes; i++) run.stateAt(Math.floor((i * 7919) % n));
    const avg = (performance.now() - t0) / probes;
    expect(avg).toBeLessThan(1);
  });
});
