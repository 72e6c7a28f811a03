/**
 * The liveness kinds L2–L7 (check/liveness.ts, docs/trace-format.md "The liveness kinds in
 * detail"): each fires on a small scenario built for it and stays silent on every built-in.
 */
import { describe, expect, it } from 'vitest';
import { builtins } from '../scenario/builtins/index';
import { runScenario } from '../scenario/run';
import { validateScenario } from '../scenario/schema';
import type { KeyView, TraceEvent, Violation } from '../trace/types';
import { SafetyMonitor } from './monitor';

type Op = Record<string, unknown>;
const th = (id: number, program: Op[], start = 0) => ({ id, start, program });
const cl = (id: string, ...threads: unknown[]) => ({ id, threads });

function run(s: Record<string, unknown>) {
  const v = validateScenario({ format: 'lockscope/1', ...s });
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return runScenario(v.scenario).trace;
}

const kinds = (vs: Violation[]) =>
  vs.map((v) => `${v.kind}${v.cause ? '/' + v.cause : ''}:${v.holders.join(',')}`);

describe('L5 wait cycle', () => {
  it('a read lock holder asking for the write lock waits for itself for ever (4.7.0 RedissonWriteLock: write waits while any reader holds)', () => {
    const t = run({
      until: 5000,
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'rw', type: 'ReadLock' },
            { op: 'lock', lock: 'rw', type: 'WriteLock' },
          ]),
        ),
      ],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L5/upgrade:A:1']);
    expect(t.violations[0].to).toBeNull();
  });

  it('two threads locking A,B and B,A: a cycle, kept for ever by their watchdogs', () => {
    const t = run({
      until: 40_000,
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'a' },
            { op: 'work', ms: 100 },
            { op: 'lock', lock: 'b' },
          ]),
        ),
        cl(
          'B',
          th(1, [
            { op: 'lock', lock: 'b' },
            { op: 'work', ms: 100 },
            { op: 'lock', lock: 'a' },
          ]),
        ),
      ],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L5/cycle:A:1,B:1']);
  });

  it('the same cycle with leases is no L5: the keys expire and both go on', () => {
    const t = run({
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'a', leaseMs: 2000 },
            { op: 'work', ms: 100 },
            { op: 'lock', lock: 'b', leaseMs: 2000 },
          ]),
        ),
        cl(
          'B',
          th(1, [
            { op: 'lock', lock: 'b', leaseMs: 2000 },
            { op: 'work', ms: 100 },
            { op: 'lock', lock: 'a', leaseMs: 2000 },
          ]),
        ),
      ],
    });
    expect(t.violations.filter((v) => v.kind === 'L5')).toEqual([]);
  });

  it('a cycle whose waiter has a deadline is no L5 (tryLock gives up)', () => {
    const t = run({
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'a' },
            { op: 'work', ms: 100 },
            { op: 'tryLock', lock: 'b', waitMs: 1000 },
            { op: 'unlock', lock: 'a' },
          ]),
        ),
        cl(
          'B',
          th(1, [
            { op: 'lock', lock: 'b' },
            { op: 'work', ms: 100 },
            { op: 'lock', lock: 'a' },
            { op: 'unlock', lock: 'a' },
            { op: 'unlock', lock: 'b' },
          ]),
        ),
      ],
    });
    expect(t.verdict).toBe('safe');
  });
});

describe('L6 livelock', () => {
  it('two MultiLocks over the same locks in opposite order retry in lockstep (4.7.0 RedissonMultiLock.lock)', () => {
    const multi = (name: string, locks: string[]) => [
      { op: 'lock', lock: name, type: 'MultiLock', locks },
      { op: 'work', ms: 100 },
      { op: 'unlock', lock: name, type: 'MultiLock', locks },
    ];
    const t = run({
      until: 30_000,
      clients: [cl('A', th(1, multi('m1', ['a', 'b']))), cl('B', th(1, multi('m2', ['b', 'a'])))],
    });
    expect(t.verdict).toBe('stuck');
    const l6 = t.violations.filter((v) => v.kind === 'L6');
    expect(l6.map((v) => v.holders)).toEqual([['A:1', 'B:1']]);
    expect(l6[0].from).toBeGreaterThanOrEqual(10_000);
    expect(t.violations.filter((v) => v.kind === 'L3')).toEqual([]);
  });
});

describe('L3 orphan renewal', () => {
  it('a thread that ends holding a watchdog lock leaves it renewed for nobody', () => {
    const t = run({
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L' },
            { op: 'work', ms: 100 },
          ]),
        ),
      ],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L3/ended:A:1']);
  });

  it('with a lease there is no watchdog: the key expires, no L3', () => {
    const t = run({
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L', leaseMs: 1000 },
            { op: 'work', ms: 100 },
          ]),
        ),
      ],
    });
    expect(t.verdict).toBe('safe');
  });

  it('the renewals go on while the client lives, and the L3 stays open', () => {
    const t = run({
      until: 40_000,
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L' },
            { op: 'work', ms: 100 },
          ]),
          th(2, [{ op: 'sleep', ms: 35_000 }]),
        ),
      ],
    });
    expect(kinds(t.violations)).toEqual(['L3/ended:A:1']);
    expect(t.events.filter((e) => e.kind === 'watchdog.renew' && e.result === 1).length).toBeGreaterThan(2);
  });
});

describe('L2 lost waiter', () => {
  it('a waiter without a timer (the key had no TTL) whose unlock message a partition that resets connections lost: blocked for ever on a free lock (4.7.0 RedissonLock.lock: ttl -1 waits on the latch without a timeout)', () => {
    const t = run({
      until: 20_000,
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L' },
            { op: 'redis', argv: ['PERSIST', 'L'] },
            { op: 'work', ms: 1000 },
            { op: 'unlock', lock: 'L' },
          ]),
        ),
        cl(
          'B',
          th(
            1,
            [
              { op: 'lock', lock: 'L' },
              { op: 'unlock', lock: 'L' },
            ],
            100,
          ),
        ),
      ],
      faults: [{ at: 900, kind: 'partition', groups: [['B'], ['master', 'A']], healAt: 1500, reset: true }],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L2/free:B:1']);
    expect(t.violations[0].to).toBeNull();
    // without the partition the message wakes B: no finding
    const ok = run({
      until: 20_000,
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L' },
            { op: 'redis', argv: ['PERSIST', 'L'] },
            { op: 'work', ms: 1000 },
            { op: 'unlock', lock: 'L' },
          ]),
        ),
        cl(
          'B',
          th(
            1,
            [
              { op: 'lock', lock: 'L' },
              { op: 'unlock', lock: 'L' },
            ],
            100,
          ),
        ),
      ],
    });
    expect(ok.verdict).toBe('safe');
  });

  it('a FairLock with a crashed waiter: the next waiter waits while the lock is free (4.7.0 RedissonFairLock: the dead slot is waited out)', () => {
    const fair = (extra: Op[] = []) => [
      { op: 'lock', lock: 'f', type: 'FairLock' },
      ...extra,
      { op: 'unlock', lock: 'f', type: 'FairLock' },
    ];
    const t = run({
      until: 20_000,
      clients: [
        cl('A', th(1, fair([{ op: 'work', ms: 1000 }]))),
        cl('B', th(1, fair(), 100)),
        cl('C', th(1, fair(), 200)),
      ],
      faults: [{ at: 500, kind: 'crash', client: 'B' }],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L2/dead-ahead:C:1']);
    expect(t.violations[0].from).toBeGreaterThan(1000);
  });
});

describe('L2 hung acquire', () => {
  const down = (version: string, extra: unknown[] = []) =>
    run({
      redisson: { version },
      until: 60_000,
      clients: [cl('A', th(1, [{ op: 'tryLock', lock: 'L', waitMs: 1000, leaseMs: 1000 }], 100))],
      faults: [{ at: 10, kind: 'crash', node: 'master' }, ...extra],
    });

  it('3.12.5 RedissonLock.evalWriteAsync (CommandBatchService): a failed batch leaves the EVAL future open for ever: L2 hung once the last attempt times out', () => {
    const t = down('3.12.5');
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L2/hung:A:1']);
    // 1 + retryAttempts (3) response timeouts of 3000 ms, each re-sent at once (before 3.15.2
    // RedisExecutor.scheduleResponseTimeout calls execute() from the timeout task)
    expect(t.violations[0].from).toBe(12_100);
  });

  it('3.13.0 fails the EVAL too: the thread ends with the timeout, nothing is flagged', () => {
    const t = down('3.13.0');
    expect(t.violations).toEqual([]);
    expect(t.verdict).toBe('safe');
  });

  it('an interrupt still to come can end the hang: not flagged before it fires, and it does end it', () => {
    const t = down('3.12.5', [{ at: 40_000, kind: 'interrupt', client: 'A', thread: 1 }]);
    expect(t.violations).toEqual([]);
    const done = t.events.find((e) => e.kind === 'thread.done' && e.actor === 'A:1');
    expect(done?.t).toBe(40_000);
  });

  it('an acquire waiting for its reply (a timer of its own runs) is not hung', () => {
    const t = run({
      network: { latencyMs: 2000 },
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'lock', lock: 'L', leaseMs: 10_000 },
            { op: 'unlock', lock: 'L' },
          ]),
        ),
      ],
    });
    expect(t.violations).toEqual([]);
  });
});

describe('L4 hold mismatch', () => {
  it('an acquire interrupted while its script runs: the server counts a hold its thread never learned of (4.7.0 CommandAsyncService.get interrupted: the command goes on)', () => {
    const t = run({
      network: { latencyMs: 5 },
      clients: [
        cl(
          'A',
          th(1, [
            { op: 'try', body: [{ op: 'lockInterruptibly', lock: 'L' }], catch: [{ op: 'work', ms: 1000 }] },
          ]),
        ),
      ],
      // EVALSHA (NOSCRIPT) 5–10, SCRIPT LOAD 15–20, EVALSHA runs at 25, its reply would come at 30
      faults: [{ at: 27, kind: 'interrupt', client: 'A', thread: 1 }],
    });
    expect(t.verdict).toBe('stuck');
    expect(
      t.violations.map((v) => [v.kind, v.cause, v.serverHolds, v.clientHolds, v.holders, v.from, v.to]),
    ).toEqual([['L4', 'server-more', 1, 0, ['A:1'], 27, 1027]]);
  });
});

/** A monitor fed by hand, with a probe the test controls. */
function harness() {
  let t = 0;
  let seq = 0;
  const keys = new Map<string, KeyView>();
  const out: TraceEvent[] = [];
  const blocked = new Set<string>();
  const m = new SafetyMonitor({
    emit: (kind, fields) => out.push({ t, seq: seq++, kind, ...fields } as TraceEvent),
    now: () => t,
    liveKey: (node, key) => keys.get(`${node}/${key}`),
    masters: () => ['master'],
    probe: { canWake: (a) => !blocked.has(a), faultsPending: () => false },
  });
  return {
    m,
    blocked,
    at(ms: number) {
      t = ms;
    },
    ev(kind: string, fields: Record<string, unknown>) {
      m.onEvent({ t, seq: seq++, kind, ...fields } as unknown as TraceEvent);
      m.settle();
    },
    hash(key: string, fields: [string, string][] | null) {
      if (fields === null) keys.delete(`master/${key}`);
      else keys.set(`master/${key}`, { key, type: 'hash', value: fields, expireAt: 30_000 });
      m.onKey('master', key);
      m.settle();
    },
  };
}

describe('L2, L4, L7 on hand-fed events', () => {
  it('L2: a waiter blocked with nothing scheduled while the lock is free; closes when it is woken', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'B:1', lock: 'L', type: 'RLock', op: 'lock' });
    h.hash('L', [['u:1', '1']]);
    h.ev('lock.wait', { actor: 'B:1', lock: 'L', ttl: -1, waitMs: null });
    h.blocked.add('B:1');
    h.at(100);
    h.hash('L', null);
    expect(kinds(h.m.violations)).toEqual(['L2/free:B:1']);
    h.at(150);
    h.blocked.delete('B:1');
    h.m.settle();
    expect(h.m.violations[0].to).toBe(150);
  });

  it('L2 stays silent while a message is on its way (canWake)', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'B:1', lock: 'L', type: 'RLock', op: 'lock' });
    h.ev('lock.wait', { actor: 'B:1', lock: 'L', ttl: -1, waitMs: null });
    h.hash('L', null);
    expect(h.m.violations).toEqual([]);
  });

  it('L4: a re-sent acquire that re-entered: the server counts 2, the thread 1; closes when they agree', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', type: 'RLock', op: 'lock', owner: 'u:1' });
    h.hash('L', [['u:1', '2']]);
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1, owner: 'u:1' });
    expect(h.m.violations.map((v) => [v.kind, v.cause, v.serverHolds, v.clientHolds])).toEqual([
      ['L4', 'server-more', 2, 1],
    ]);
    h.at(50);
    h.ev('unlock.request', { actor: 'A:1', lock: 'L', type: 'RLock', holdCount: 0 });
    h.hash('L', [['u:1', '1']]);
    h.ev('lock.released', { actor: 'A:1', lock: 'L', holdCount: 0 });
    // the server still counts one hold the thread does not know of
    expect(h.m.violations.at(-1)!.to).toBeNull();
    h.at(60);
    h.hash('L', null);
    expect(h.m.violations.at(-1)!.to).toBe(60);
  });

  it('L4 is silent during the round trip of an acquire (the script ran, the reply is on its way)', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', type: 'RLock', op: 'lock', owner: 'u:1' });
    h.hash('L', [['u:1', '1']]);
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1, owner: 'u:1' });
    expect(h.m.violations).toEqual([]);
  });

  it('L3 renewed: a renewal for a thread that holds nothing (a cancel that lost the race, R37); the cancel closes it', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', type: 'RLock', op: 'lock', owner: 'u:1' });
    h.hash('L', [['u:1', '1']]);
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1, owner: 'u:1' });
    h.ev('unlock.request', { actor: 'A:1', lock: 'L', type: 'RLock', holdCount: 0 });
    // a renewal while the unlock is in flight is no orphan
    h.ev('watchdog.renew', { actor: 'A:1', lock: 'L', timer: 'A/watchdog', result: 1 });
    expect(h.m.violations).toEqual([]);
    h.hash('L', null);
    h.ev('lock.released', { actor: 'A:1', lock: 'L', holdCount: 0 });
    h.at(10_000);
    h.ev('watchdog.renew', { actor: 'A:1', lock: 'L', timer: 'A/watchdog', result: 1 });
    expect(kinds(h.m.violations)).toEqual(['L3/renewed:A:1']);
    h.at(10_005);
    h.ev('watchdog.cancel', { actor: 'A:1', lock: 'L', timer: 'A/watchdog', reason: 'unlock' });
    expect(h.m.violations[0].to).toBe(10_005);
  });

  it('L7: a FairLock waiter overtaken three times by later requests', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'W:1', lock: 'f', type: 'FairLock', op: 'lock' });
    for (const x of ['X:1', 'Y:1', 'Z:1']) {
      h.ev('lock.request', { actor: x, lock: 'f', type: 'FairLock', op: 'lock' });
      h.ev('lock.acquired', { actor: x, lock: 'f', holdCount: 1 });
      h.ev('lock.released', { actor: x, lock: 'f', holdCount: 0 });
    }
    expect(h.m.violations.map((v) => [v.kind, v.holders, v.waiting])).toEqual([
      ['L7', ['W:1', 'X:1', 'Y:1', 'Z:1'], ['W:1']],
    ]);
    h.ev('lock.acquired', { actor: 'W:1', lock: 'f', holdCount: 1 });
    expect(h.m.violations[0].to).not.toBeNull();
  });

  it('L7 needs an order promise: an RLock waiter overtaken is no starvation', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'W:1', lock: 'r', type: 'RLock', op: 'lock' });
    for (const x of ['X:1', 'Y:1', 'Z:1']) {
      h.ev('lock.request', { actor: x, lock: 'r', type: 'RLock', op: 'lock' });
      h.ev('lock.acquired', { actor: x, lock: 'r', holdCount: 1 });
    }
    expect(h.m.violations.filter((v) => v.kind === 'L7')).toEqual([]);
  });
});

describe('L1 owner of a naive key', () => {
  const setnx = (work: number) => [
    { op: 'lock', lock: 'k', type: 'setnx-expire', leaseMs: 1000 },
    { op: 'work', ms: work },
    { op: 'unlock', lock: 'k', type: 'setnx-expire' },
  ];
  it('a thread between its own SETNX and EXPIRE is not a gone owner (no L1 although an ended thread wrote the same value before)', () => {
    const t = run({
      until: 3000,
      network: { latencyMs: 5 },
      clients: [cl('A', th(1, setnx(50))), cl('B', th(1, setnx(500), 20)), cl('C', th(1, setnx(0), 30))],
    });
    expect(t.verdict).toBe('safe');
  });

  it('a crash between SETNX and EXPIRE leaves an L1 for the waiter (the expiry lesson)', () => {
    const t = run({
      until: 3000,
      clients: [cl('A', th(1, setnx(500))), cl('B', th(1, setnx(100), 100))],
      faults: [{ at: 2, kind: 'crash', client: 'A' }],
    });
    expect(t.verdict).toBe('stuck');
    expect(kinds(t.violations)).toEqual(['L1:A:1,B:1']);
  });
});

describe('every built-in', () => {
  it('gets no liveness finding but naive-setnx-deadlock’s L1 (everyone else progresses)', () => {
    const found: string[] = [];
    // the real incidents claim their own verdicts, L kinds included (builtins/incidents/*.test.ts)
    for (const b of builtins.filter((x) => x.incident === undefined)) {
      const v = validateScenario(b.scenario);
      if (!v.ok) throw new Error(b.id);
      for (const x of runScenario(v.scenario).trace.violations)
        if (x.kind.startsWith('L')) found.push(`${b.id} ${x.kind}`);
    }
    expect(found).toEqual(['naive-setnx-deadlock L1']);
  }, 60_000);
});
