import { describe, expect, it } from 'vitest';
import type { EventFields, EventKind, KeyView, TraceEvent } from '../trace/types';
import { leaseOwners, SafetyMonitor } from './monitor';

/** A monitor over a fake world: events are fed by hand, keys live in a map. */
function harness() {
  let t = 0;
  const keys = new Map<string, KeyView>();
  const out: TraceEvent[] = [];
  let seq = 0;
  const m = new SafetyMonitor({
    emit: (kind, fields) => out.push({ t, seq: seq++, kind, ...fields } as TraceEvent),
    now: () => t,
    liveKey: (node, key) => keys.get(`${node}/${key}`),
    masters: () => ['master'],
  });
  return {
    m,
    out,
    at(ms: number) {
      t = ms;
    },
    // Hand-made events carry only the fields the monitor reads.
    ev<K extends EventKind>(kind: K, fields: Partial<EventFields<K>>) {
      m.onEvent({ t, seq: seq++, kind, ...fields } as unknown as TraceEvent);
    },
    /** At `ms`, the resource use `fields` (see `use`). */
    useAt(ms: number, fields: Partial<EventFields<'resource.use'>>) {
      t = ms;
      this.ev('resource.use', fields);
    },
    /** lock.acquired, the event most cases start from (owner only when given). */
    acquired(actor: string, lock: string, holdCount = 1, owner?: string) {
      this.ev('lock.acquired', { actor, lock, holdCount, ...(owner === undefined ? {} : { owner }) });
    },
    /** The lock hash `key` with these fields, as a Redisson lock leaves it. */
    hash(key: string, ...fields: [string, string][]) {
      this.key(key, { type: 'hash', value: fields });
    },
    key(key: string, view: Omit<KeyView, 'key' | 'expireAt'> | null) {
      if (view === null) keys.delete(`master/${key}`);
      else keys.set(`master/${key}`, { key, expireAt: null, ...view });
      m.onKey('master', key);
    },
  };
}

describe('SafetyMonitor V1 (belief overlap)', () => {
  it('opens when a second thread believes it holds the lock and closes at unlock', () => {
    const h = harness();
    h.acquired('A:1', 'L');
    h.at(10);
    h.acquired('B:1', 'L');
    h.at(15);
    h.ev('lock.released', { actor: 'B:1', lock: 'L', holdCount: 0 });
    expect(h.m.violations).toEqual([{ kind: 'V1', lock: 'L', from: 10, to: 15, holders: ['A:1', 'B:1'] }]);
    expect(h.out.map((e) => [e.kind, e.t, e.violation])).toEqual([
      ['violation.start', 10, 'V1'],
      ['violation.end', 15, 'V1'],
    ]);
  });

  it('a thread that ended believes nothing: no overlap with a later holder, and an open one closes', () => {
    const h = harness();
    h.acquired('A:1', 'L');
    h.at(5);
    h.ev('thread.done', { actor: 'A:1', outcome: 'exception', exception: 'java.lang.IllegalStateException' });
    h.at(10);
    h.acquired('B:1', 'L');
    expect(h.m.violations).toEqual([]);
    h.acquired('C:1', 'L');
    h.at(20);
    h.ev('thread.done', { actor: 'C:1', outcome: 'normal' });
    expect(h.m.violations).toEqual([{ kind: 'V1', lock: 'L', from: 10, to: 20, holders: ['B:1', 'C:1'] }]);
  });

  it('ignores reentrant holds, read-lock sharing and other locks; a crash or failed unlock ends a belief', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'R', type: 'ReadLock' });
    h.acquired('A:1', 'R');
    h.ev('lock.request', { actor: 'B:1', lock: 'R', type: 'ReadLock' });
    h.acquired('B:1', 'R');
    h.acquired('A:1', 'L');
    h.acquired('A:1', 'L', 2);
    h.ev('lock.released', { actor: 'A:1', lock: 'L', holdCount: 1 });
    h.acquired('B:1', 'M');
    expect(h.m.violations).toEqual([]);
    h.at(5);
    h.acquired('C:1', 'L');
    h.at(6);
    h.ev('client.crash', { actor: 'A', client: 'A' });
    h.at(7);
    h.acquired('B:2', 'M');
    h.at(9);
    h.ev('lock.error', { actor: 'B:1', lock: 'M', op: 'unlock', error: 'IllegalMonitorStateException' });
    expect(h.m.violations).toEqual([
      { kind: 'V1', lock: 'L', from: 5, to: 6, holders: ['A:1', 'C:1'] },
      { kind: 'V1', lock: 'M', from: 7, to: 9, holders: ['B:1', 'B:2'] },
    ]);
  });
});

describe('SafetyMonitor V2 (lease overlap)', () => {
  it('derives owners from the lock hash fields and maps them to threads', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', owner: 'uuid-a:1' });
    h.ev('lock.request', { actor: 'B:1', lock: 'L', owner: 'uuid-b:1' });
    h.hash('L', ['uuid-a:1', '1']);
    expect(h.m.violations).toEqual([]);
    h.at(3);
    h.hash('L', ['uuid-a:1', '1'], ['uuid-b:1', '1']);
    h.at(8);
    h.key('L', null);
    expect(h.m.violations).toEqual([{ kind: 'V2', lock: 'L', from: 3, to: 8, holders: ['A:1', 'B:1'] }]);
  });

  it('counts all readers of a read-mode hash as one shared owner', () => {
    expect(
      leaseOwners({
        key: 'rw',
        type: 'hash',
        expireAt: null,
        value: [
          ['mode', 'read'],
          ['u:1', '1'],
          ['u:2', '1'],
        ],
      }),
    ).toEqual(['(readers)']);
    expect(leaseOwners({ key: 's', type: 'string', expireAt: 5, value: 'token-1' })).toEqual(['token-1']);
    expect(leaseOwners(undefined)).toEqual([]);
  });
});

describe('SafetyMonitor V2 and a thread giving the lock back', () => {
  // 3.15.1+ RedissonMultiLock.unlockInner (RedLock's unlock): the masters are released one after
  // another, so a waiter can take the first while the unlocking thread's keys on the others live.
  it('does not count the leases of a thread inside its unlock, and counts them again if it fails', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', owner: 'uuid-a:1' });
    h.ev('lock.request', { actor: 'B:1', lock: 'L', owner: 'uuid-b:1' });
    h.acquired('A:1', 'L', 1, 'uuid-a:1');
    h.hash('L', ['uuid-a:1', '1']);
    h.at(5);
    h.ev('unlock.request', { actor: 'A:1', lock: 'L', holdCount: 0 });
    // B's lease appears (on another master, in a RedLock) while A's still lives: no V2
    h.hash('L', ['uuid-a:1', '1'], ['uuid-b:1', '1']);
    expect(h.m.violations).toEqual([]);
    // A's unlock fails: its lease lives on, and it is a second owner's again
    h.at(7);
    h.ev('lock.error', { actor: 'A:1', lock: 'L', op: 'unlock' });
    expect(h.m.violations).toEqual([{ kind: 'V2', lock: 'L', from: 7, to: null, holders: ['A:1', 'B:1'] }]);
  });
});

describe('SafetyMonitor V2 holders are threads', () => {
  it('rewrites an owner id seen before its thread named it, and de-duplicates', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', owner: 'uuid-a:1' });
    h.hash('L', ['uuid-a:1', '1']);
    h.at(5);
    // B's lease appears (split brain) before anything told the monitor whose it is
    h.hash('L', ['uuid-a:1', '1'], ['uuid-b:1', '1']);
    expect(h.m.violations[0].holders).toEqual(['A:1', 'uuid-b:1']);
    h.at(6);
    h.acquired('B:1', 'L', 1, 'uuid-b:1');
    h.hash('L', ['uuid-a:1', '1'], ['uuid-b:1', '2']);
    h.at(9);
    h.key('L', null);
    expect(h.m.violations).toEqual([{ kind: 'V2', lock: 'L', from: 5, to: 9, holders: ['A:1', 'B:1'] }]);
    expect(h.out.at(-1)).toMatchObject({ kind: 'violation.end', holders: ['A:1', 'B:1'] });
  });

  it("maps another field of a known Redisson client (a writer's read hold) by its uuid", () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'L', owner: 'uuid-a:1:write', type: 'WriteLock' });
    h.ev('lock.request', { actor: 'B:2', lock: 'L', owner: 'uuid-b:2' });
    h.hash('L', ['mode', 'write'], ['uuid-a:1:write', '1'], ['uuid-a:1', '1'], ['uuid-b:2', '1']);
    expect(h.m.violations.map((v) => v.holders)).toEqual([['A:1', 'B:2']]);
  });
});

const v3 = (h: ReturnType<typeof harness>) => h.m.violations.filter((v) => v.kind === 'V3');

/** A resource.use event as ProtectedResource emits it. */
function use(
  actor: string,
  lock: string | undefined,
  write: number,
  readAt: number,
  more: Partial<EventFields<'resource.use'>> = {},
) {
  return { actor, lock, accepted: true, token: null, readAt, write, lostUpdate: 'erased' in more, ...more };
}

describe('SafetyMonitor V3 (a stale holder wrote after a newer holder acted)', () => {
  it('flags the write of a holder superseded by a newer one that used the resource, not before', () => {
    const h = harness();
    h.acquired('A:1', 'L', 1, 'a');
    h.useAt(2, use('A:1', 'L', 1, 1));
    h.at(30);
    h.acquired('B:1', 'L', 1, 'b');
    h.at(31);
    // B holds the lock but has not touched the resource: A's write wrongs nobody yet
    h.ev('resource.use', use('A:1', 'L', 2, 30));
    // a refused write is never V3
    h.ev('resource.use', { ...use('A:1', 'L', 0, 31), accepted: false, write: undefined, token: 1 });
    expect(v3(h)).toEqual([]);
    h.useAt(40, use('B:1', 'L', 3, 39));
    h.useAt(50, use('A:1', 'L', 4, 45));
    expect(v3(h)).toEqual([
      { kind: 'V3', lock: 'L', from: 50, to: 50, holders: ['A:1', 'B:1'], cause: 'stale' },
    ]);
    expect(h.out.filter((e) => e.violation === 'V3').map((e) => [e.kind, e.violation, e.cause])).toEqual([
      ['violation.start', 'V3', 'stale'],
      ['violation.end', 'V3', 'stale'],
    ]);
  });

  it('counts a newer holder whose use is still between its read and its write', () => {
    const h = harness();
    h.acquired('A:1', 'L');
    h.at(10);
    h.acquired('B:1', 'L');
    h.useAt(20, use('A:1', 'L', 1, 5, { pending: [{ actor: 'B:1', lock: 'L', readAt: 12 }] }));
    expect(v3(h).map((v) => [v.kind, v.holders, v.cause])).toEqual([['V3', ['A:1', 'B:1'], 'stale']]);
  });

  it('an expired lease nobody took over is not V3 (the fenced store accepts the token, rightly)', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'F', type: 'FencedLock', owner: 'a' });
    h.ev('lock.acquired', { actor: 'A:1', lock: 'F', holdCount: 1, owner: 'a', token: 1 });
    h.hash('F', ['a', '1']);
    h.at(100);
    h.key('F', null); // the lease expired
    h.at(300);
    h.ev('resource.use', { ...use('A:1', 'F', 1, 299), token: 1 });
    expect(v3(h)).toEqual([]);
  });

  it('split brain: the old master still has the writer’s lease, yet the newer holder acted', () => {
    const h = harness();
    h.acquired('A:1', 'L', 1, 'a');
    h.hash('L', ['a', '1']); // A's lease lives on (on A's master)
    h.at(30_000);
    h.acquired('B:1', 'L', 1, 'b');
    h.useAt(30_001, use('B:1', 'L', 1, 30_000));
    h.useAt(50_000, use('A:1', 'L', 2, 29_990, { erased: [1] }));
    expect(v3(h)).toEqual([
      { kind: 'V3', lock: 'L', from: 50_000, to: 50_000, holders: ['A:1', 'B:1'], cause: 'stale' },
    ]);
  });

  it('a reentrant acquire is not a newer grant; a fresh one after the other’s is', () => {
    const h = harness();
    h.acquired('A:1', 'L');
    h.at(10);
    h.acquired('B:1', 'L');
    h.ev('resource.use', use('B:1', 'L', 1, 10));
    h.at(20);
    h.acquired('A:1', 'L', 2);
    h.ev('resource.use', use('A:1', 'L', 2, 20));
    h.at(30);
    h.acquired('A:2', 'L');
    h.ev('resource.use', use('A:2', 'L', 3, 30));
    expect(v3(h).map((v) => [v.from, v.holders])).toEqual([[20, ['A:1', 'B:1']]]);
  });
});

describe('SafetyMonitor V3 without a (exclusive) lock', () => {
  it('a write with no lock that loses an update, or lands inside another use, is V3 on "(none)"', () => {
    const h = harness();
    h.useAt(10, use('A:1', undefined, 1, 0, { pending: [{ actor: 'B:1', lock: null, readAt: 5 }] }));
    h.useAt(20, use('B:1', undefined, 2, 5, { erased: [1] }));
    h.at(30);
    h.ev('resource.use', use('C:1', undefined, 3, 25)); // alone: nothing lost
    expect(v3(h)).toEqual([
      { kind: 'V3', lock: '(none)', from: 10, to: 10, holders: ['A:1', 'B:1'], cause: 'unlocked' },
      { kind: 'V3', lock: '(none)', from: 20, to: 20, holders: ['B:1', 'A:1'], cause: 'unlocked' },
    ]);
  });

  it('read-lock holders that both write lose an update (V3 on the read lock)', () => {
    const h = harness();
    for (const a of ['A:1', 'B:1']) {
      h.ev('lock.request', { actor: a, lock: 'R', type: 'ReadLock' });
      h.acquired(a, 'R');
    }
    h.useAt(10, use('A:1', 'R', 1, 1, { pending: [{ actor: 'B:1', lock: 'R', readAt: 2 }] }));
    expect(v3(h).map((v) => [v.kind, v.lock, v.holders, v.cause])).toEqual([
      ['V3', 'R', ['A:1', 'B:1'], 'unlocked'],
    ]);
  });

  it('a lost update nobody was reported for (two locks for one resource) is still V3', () => {
    const h = harness();
    h.acquired('A:1', 'L1');
    h.acquired('B:1', 'L2');
    h.useAt(10, use('A:1', 'L1', 1, 5));
    h.useAt(20, use('B:1', 'L2', 2, 4, { erased: [1] }));
    expect(v3(h)).toEqual([
      { kind: 'V3', lock: 'L2', from: 20, to: 20, holders: ['B:1', 'A:1'], cause: 'lost-update' },
    ]);
  });
});

describe('SafetyMonitor L1 (stuck lock, liveness)', () => {
  const setnx = (h: ReturnType<typeof harness>) => {
    h.acquired('A:1', 'L', 1, 'tokA');
    h.key('L', { type: 'string', value: 'tokA' });
    h.at(10);
    h.ev('lock.wait', { actor: 'B:1', lock: 'L', ttl: null, polling: true });
  };

  it('opens when the owner of a key without TTL crashes while another thread waits, owners first', () => {
    const h = harness();
    setnx(h);
    expect(h.m.violations).toEqual([]);
    h.at(20);
    h.ev('client.crash', { actor: 'A', client: 'A' });
    expect(h.m.violations).toEqual([
      { kind: 'L1', lock: 'L', from: 20, to: null, holders: ['A:1', 'B:1'], waiting: ['B:1'] },
    ]);
    expect(h.out.map((e) => [e.kind, e.violation, e.waiting])).toEqual([['violation.start', 'L1', ['B:1']]]);
  });

  it('closes when the waiter gives up or the key is freed; a key with a TTL is never stuck', () => {
    const h = harness();
    setnx(h);
    h.at(20);
    h.ev('thread.done', { actor: 'A:1', outcome: 'normal' });
    h.at(30);
    h.ev('lock.failed', { actor: 'B:1', lock: 'L' });
    expect(h.m.violations).toMatchObject([{ kind: 'L1', from: 20, to: 30 }]);

    const g = harness();
    setnx(g);
    g.ev('client.crash', { actor: 'A', client: 'A' });
    g.at(40);
    g.key('L', null);
    expect(g.m.violations).toMatchObject([{ kind: 'L1', from: 10, to: 40 }]);

    const k = harness();
    k.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1, owner: 'tokA' });
    // the harness's key views have no TTL unless given one
    k.key('L', { type: 'string', value: 'tokA', expireAt: 30_000 } as Omit<KeyView, 'key' | 'expireAt'>);
    k.ev('lock.wait', { actor: 'B:1', lock: 'L', ttl: 500 });
    k.ev('client.crash', { actor: 'A', client: 'A' });
    expect(k.m.violations).toEqual([]);
  });

  it('a live owner is not stuck, however long the wait', () => {
    const h = harness();
    setnx(h);
    h.at(100_000);
    h.ev('lock.wait', { actor: 'B:1', lock: 'L', ttl: null, polling: true });
    expect(h.m.violations).toEqual([]);
  });
});
