import { describe, expect, it } from 'vitest';
import type { EventFields } from '../sim/api';
import type { EventKind, KeyView, TraceEvent } from '../trace';
import { leaseOwners, SafetyMonitor } from './monitor';

/** A monitor over a fake world: events are fed by hand, keys live in a map. */
function harness() {
  let t = 0;
  const keys = new Map<string, KeyView>();
  const out: TraceEvent[] = [];
  let seq = 0;
  const m = new SafetyMonitor({
    emit: (kind, fields) => out.push({ t, seq: seq++, kind, ...fields }),
    now: () => t,
    liveKey: (node, key) => keys.get(`${node}/${key}`),
    masters: () => ['master'],
    masterOf: () => 'master',
  });
  return {
    m,
    out,
    at(ms: number) {
      t = ms;
    },
    ev(kind: EventKind, fields: EventFields) {
      m.onEvent({ t, seq: seq++, kind, ...fields });
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
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1 });
    h.at(10);
    h.ev('lock.acquired', { actor: 'B:1', lock: 'L', holdCount: 1 });
    h.at(15);
    h.ev('lock.released', { actor: 'B:1', lock: 'L', holdCount: 0 });
    expect(h.m.violations).toEqual([{ kind: 'V1', lock: 'L', from: 10, to: 15, holders: ['A:1', 'B:1'] }]);
    expect(h.out.map((e) => [e.kind, e.t, e.violation])).toEqual([
      ['violation.start', 10, 'V1'],
      ['violation.end', 15, 'V1'],
    ]);
  });

  it('ignores reentrant holds, read-lock sharing and other locks; a crash or failed unlock ends a belief', () => {
    const h = harness();
    h.ev('lock.request', { actor: 'A:1', lock: 'R', type: 'ReadLock' });
    h.ev('lock.acquired', { actor: 'A:1', lock: 'R', holdCount: 1 });
    h.ev('lock.request', { actor: 'B:1', lock: 'R', type: 'ReadLock' });
    h.ev('lock.acquired', { actor: 'B:1', lock: 'R', holdCount: 1 });
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1 });
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 2 });
    h.ev('lock.released', { actor: 'A:1', lock: 'L', holdCount: 1 });
    h.ev('lock.acquired', { actor: 'B:1', lock: 'M', holdCount: 1 });
    expect(h.m.violations).toEqual([]);
    h.at(5);
    h.ev('lock.acquired', { actor: 'C:1', lock: 'L', holdCount: 1 });
    h.at(6);
    h.ev('client.crash', { actor: 'A', client: 'A' });
    h.at(7);
    h.ev('lock.acquired', { actor: 'B:2', lock: 'M', holdCount: 1 });
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
    h.key('L', { type: 'hash', value: [['uuid-a:1', '1']] });
    expect(h.m.violations).toEqual([]);
    h.at(3);
    h.key('L', {
      type: 'hash',
      value: [
        ['uuid-a:1', '1'],
        ['uuid-b:1', '1'],
      ],
    });
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

describe('SafetyMonitor V3 (stale write accepted)', () => {
  it('flags an accepted write whose actor no longer owns the lock on the master, not a valid one', () => {
    const h = harness();
    h.ev('lock.acquired', { actor: 'A:1', lock: 'L', holdCount: 1, owner: 'a' });
    h.key('L', { type: 'string', value: 'a' });
    h.at(2);
    h.ev('resource.use', { actor: 'A:1', lock: 'L', accepted: true, token: null, value: 1 });
    expect(h.m.violations).toEqual([]);
    h.at(30);
    h.key('L', { type: 'string', value: 'b' });
    h.ev('lock.acquired', { actor: 'B:1', lock: 'L', holdCount: 1, owner: 'b' });
    h.at(31);
    h.ev('resource.use', { actor: 'A:1', lock: 'L', accepted: false, token: 1, value: 1 });
    expect(h.m.violations.filter((v) => v.kind === 'V3')).toEqual([]);
    h.ev('resource.use', { actor: 'A:1', lock: 'L', accepted: true, token: null, value: 2 });
    expect(h.m.violations.filter((v) => v.kind === 'V3')).toEqual([
      { kind: 'V3', lock: 'L', from: 31, to: 31, holders: ['A:1', 'B:1'] },
    ]);
  });
});
