/**
 * L2's pass over the free waited-for locks is skipped after a task when nothing it reads changed
 * since a pass that found nothing (liveness.ts, `freePassDue`). At every skip, asking each free
 * waited-for lock anew must find no lost waiter, and running the pass after every task, as the
 * checker did before, must give the same trace: on every built-in and on FairLock queues whose
 * head dies while the others wait with and without a deadline.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtins } from '../scenario/builtins/index';
import type { Actor, KeyView, TraceEvent } from '../trace/types';
import { LivenessChecker, type LivenessProbe } from './liveness';
import { SafetyMonitor, type MonitorHost } from './monitor';
import { traceText } from './testing/trace_text';

/** The checker's private parts the comparison reaches into. */
interface Inside {
  freePassDue(hung: ReadonlyMap<string, Actor[]> | null, openL2: boolean): boolean;
  lostWaiters(lock: string, probe: LivenessProbe): Actor[] | null;
  /** freeWaited[0..freeN) */
  freeWaited: string[];
  freeN: number;
  host: MonitorHost;
}
const proto = LivenessChecker.prototype as unknown as Inside;

type Op = Record<string, unknown>;
const th = (id: number, program: Op[], start = 0) => ({ id, start, program });
const cl = (id: string, ...threads: unknown[]) => ({ id, threads });
const fair = (acquire: Op, work = 0) => [
  { lock: 'f', type: 'FairLock', ...acquire },
  ...(work > 0 ? [{ op: 'work', ms: work }] : []),
  { op: 'unlock', lock: 'f', type: 'FairLock' },
];
/** A holds the FairLock; B and C queue behind it; B's client crashes while it waits. */
const deadQueue = (wait: Op, until = 20_000) => ({
  format: 'lockscope/1',
  until,
  clients: [
    cl('A', th(1, fair({ op: 'lock' }, 1000))),
    cl('B', th(1, fair(wait), 100)),
    cl('C', th(1, fair(wait), 200)),
  ],
  faults: [{ at: 500, kind: 'crash', client: 'B' }],
});

const made: [string, unknown][] = [
  ['a FairLock queue headed by a crashed waiter, the others waiting for ever', deadQueue({ op: 'lock' })],
  [
    'the same, the others waiting with a deadline (no timer-less waiter: the pass may be skipped)',
    deadQueue({ op: 'tryLock', waitMs: 8000 }),
  ],
  [
    'the same with leases, the holder releasing late',
    deadQueue({ op: 'tryLock', waitMs: 15_000, leaseMs: 3000 }, 30_000),
  ],
];

const cases: [string, unknown][] = [...builtins.map((b): [string, unknown] => [b.id, b.scenario]), ...made];

describe("L2's pass over the free waited-for locks, skipped when nothing it reads changed", () => {
  afterEach(() => vi.restoreAllMocks());

  it(
    'finds nothing at any skip, and gives the trace a pass after every task gives, on every built-in and made queues',
    { timeout: 180_000 },
    () => {
      const original = proto.freePassDue;
      let at = '';
      let skipped = 0;
      const missed: string[] = [];
      vi.spyOn(proto, 'freePassDue').mockImplementation(function (this: Inside, hung, openL2) {
        const due = original.call(this, hung, openL2);
        if (due) return due;
        skipped++;
        const probe = this.host.probe!;
        for (const lock of this.freeWaited.slice(0, this.freeN))
          if (this.lostWaiters(lock, probe) !== null) missed.push(`${at}: ${lock} at ${this.host.now()} ms`);
        return due;
      });
      const kept = cases.map(([id, s]) => {
        at = id;
        return traceText(s);
      });
      expect(missed).toEqual([]);
      // (the comparison above is not empty: retry loops keep a free waited-for lock for long)
      expect(skipped).toBeGreaterThan(1000);
      vi.restoreAllMocks();
      vi.spyOn(proto, 'freePassDue').mockReturnValue(true);
      const everyTime = cases.map(([, s]) => traceText(s));
      for (let i = 0; i < cases.length; i++) expect(kept[i], cases[i][0]).toBe(everyTime[i]);
    },
  );

  it('the made queues do flag the waiters behind the dead head (the comparison covers a finding)', () => {
    for (const [id, s] of made) {
      const t = JSON.parse(traceText(s)) as { violations: { kind: string; cause?: string }[] };
      expect(
        t.violations.some((v) => v.kind === 'L2' && v.cause === 'dead-ahead'),
        id,
      ).toBe(true);
    }
  });
});

/**
 * A monitor fed by hand (as the checker is fed in a run): A holds FairLock `f`, B and then C queue
 * behind it with a deadline (so no waiter is asked whether it can wake), and A lets go.
 */
function queuedBehindA() {
  let seq = 0;
  const clock = { t: 0 };
  const keys = new Map<string, KeyView>();
  const m = new SafetyMonitor({
    emit: () => undefined,
    now: () => clock.t,
    liveKey: (_node, key) => keys.get(key),
    masters: () => ['master'],
    probe: { canWake: () => true, faultsPending: () => false },
  });
  const ev = (kind: string, fields: Record<string, unknown>) => {
    m.onEvent({ t: clock.t, seq: seq++, kind, ...fields } as unknown as TraceEvent);
    m.settle();
  };
  const key = (k: string, view: Omit<KeyView, 'key' | 'expireAt'> | null) => {
    if (view === null) keys.delete(k);
    else keys.set(k, { key: k, expireAt: 30_000, ...view } as KeyView);
    m.onKey('master', k);
    m.settle();
  };
  const queue = (...owners: string[]) => key('redisson_lock_queue:{f}', { type: 'list', value: owners });
  const ask = (actor: string, owner: string) =>
    ev('lock.request', { actor, lock: 'f', type: 'FairLock', op: 'tryLock', waitMs: 5000, owner });
  ask('A:1', 'u:0');
  key('f', { type: 'hash', value: [['u:0', '1']] });
  ev('lock.acquired', { actor: 'A:1', lock: 'f', holdCount: 1, owner: 'u:0' });
  ask('B:1', 'u:1');
  ask('C:1', 'u:2');
  queue('u:1', 'u:2');
  for (const w of ['B:1', 'C:1']) ev('lock.wait', { actor: w, lock: 'f', ttl: 1000, waitMs: 5000 });
  clock.t = 100;
  key('f', null);
  // free, B at the head and alive: nothing is lost, and the pass has read all there is to read
  expect(m.violations).toEqual([]);
  const found = () => m.violations.map((v) => [v.kind, v.cause, v.holders, v.from]);
  return { clock, ev, queue, found };
}

describe('L2 dead-ahead found after a pass that found nothing', () => {
  it('when only the queue changes (another client reorders it) and a gone thread is its head now', () => {
    const q = queuedBehindA();
    q.clock.t = 200;
    q.ev('thread.done', { actor: 'C:1' });
    expect(q.found()).toEqual([]);
    q.clock.t = 300;
    q.queue('u:2', 'u:1');
    expect(q.found()).toEqual([['L2', 'dead-ahead', ['B:1'], 300]]);
  });

  it('when the thread at the head ends and nothing else changes', () => {
    const q = queuedBehindA();
    q.clock.t = 200;
    q.ev('thread.done', { actor: 'B:1' });
    expect(q.found()).toEqual([['L2', 'dead-ahead', ['C:1'], 200]]);
  });
});
