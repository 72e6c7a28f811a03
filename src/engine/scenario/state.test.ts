import { describe, expect, it } from 'vitest';
import type { World } from './world';
import type { KeyView, TraceEvent } from '../trace/types';
import { builtin } from './builtins/index';
import { runScenario } from './run';
import { validateScenario, type Scenario } from './schema';
import { CHECKPOINT_EVERY, StateTimeline } from './state';

function scenario(id: string): Scenario {
  const v = validateScenario(builtin(id)!.scenario);
  if (!v.ok) throw new Error(`${id}: ${JSON.stringify(v.issues)}`);
  return v.scenario;
}

/** The master's real keyspace, in KeyView shape (zset scores as strings). */
function liveKeys(world: World): Record<string, Omit<KeyView, 'key'>> {
  const snap = world.kernel.server('master')!.db.snapshot();
  const out: Record<string, Omit<KeyView, 'key'>> = {};
  for (const key of Object.keys(snap)) {
    const e = snap[key];
    const value = e.type === 'zset' ? e.value.map(([m, s]): [string, string] => [m, String(s)]) : e.value;
    out[key] = { type: e.type, value, expireAt: e.expireAt };
  }
  return out;
}

function stripKey(keys: Record<string, KeyView>): Record<string, Omit<KeyView, 'key'>> {
  const out: Record<string, Omit<KeyView, 'key'>> = {};
  for (const [k, { key: _key, ...rest }] of Object.entries(keys)) out[k] = rest;
  return out;
}

describe('stateAt', () => {
  for (const id of [
    'basic-lock',
    'contention-wakeup',
    'gc-pause-lease-expiry',
    'client-crash-watchdog-expiry',
    'naive-get-del-race',
    'stock-with-lock',
  ]) {
    it(`equals the state observed live at every step of ${id}`, () => {
      const samples: { index: number; keys: Record<string, Omit<KeyView, 'key'>>; json: string }[] = [];
      const run = runScenario(scenario(id), {
        probe(world) {
          const index = world.events.length - 1;
          if (samples.length && samples[samples.length - 1].index === index) return;
          samples.push({ index, keys: liveKeys(world), json: JSON.stringify(world.timeline.stateAt(index)) });
        },
      });
      expect(samples.length).toBeGreaterThan(5);
      for (const s of samples) {
        const st = run.stateAt(s.index);
        expect(stripKey(st.nodes.master.keys), `keys after event ${s.index}`).toEqual(s.keys);
        expect(JSON.stringify(st)).toBe(s.json);
      }
      expect(run.stateAt(run.trace.events.length - 1)).toEqual(run.trace.final);
    });
  }

  it('folds thread, lock, resource and client events into the visible state', () => {
    const tl = new StateTimeline({
      nodes: [{ id: 'master', role: 'master' }],
      threads: ['A:1', 'A:2', 'B:1'],
      resource: { value: 10, accepted: 0, rejected: 0 },
    });
    const evs: Omit<TraceEvent, 'seq'>[] = [
      { t: 0, kind: 'thread.start', actor: 'A:1' },
      { t: 1, kind: 'lock.acquired', actor: 'A:1', lock: 'L', holdCount: 1, step: 0 },
      { t: 2, kind: 'lock.acquired', actor: 'A:1', lock: 'L', holdCount: 2, step: 1 },
      { t: 3, kind: 'work.start', actor: 'A:1', ms: 5, op: 'work', step: 2 },
      { t: 4, kind: 'client.pause', actor: 'A', client: 'A', ms: 10 },
      { t: 14, kind: 'client.resume', actor: 'A', client: 'A' },
      { t: 15, kind: 'resource.use', actor: 'A:1', lock: 'L', accepted: true, token: 7, value: 11 },
      { t: 16, kind: 'thread.result', actor: 'A:1', result: true },
      { t: 17, kind: 'lock.released', actor: 'A:1', lock: 'L', holdCount: 1 },
      { t: 18, kind: 'lock.wait', actor: 'B:1', lock: 'L', ttl: 100 },
      { t: 19, kind: 'client.crash', actor: 'A', client: 'A' },
    ];
    evs.forEach((e, seq) => tl.push({ ...e, seq } as TraceEvent));
    expect(tl.stateAt(3).threads['A:1']).toEqual({ state: 'working', holds: { L: 2 }, results: [], step: 2 });
    expect(tl.stateAt(4).threads['A:1'].state).toBe('paused');
    expect(tl.stateAt(4).threads['A:2'].state).toBe('paused');
    expect(tl.stateAt(5).threads['A:1'].state).toBe('working');
    expect(tl.stateAt(5).threads['A:2'].state).toBe('idle');
    expect(tl.stateAt(7).threads['A:1'].results).toEqual([true]);
    expect(tl.stateAt(6).threads['A:1'].results).toEqual([]);
    expect(tl.stateAt(8).threads['A:1'].holds).toEqual({ L: 1 });
    expect(tl.stateAt(9).threads['B:1'].state).toBe('waiting');
    expect(tl.stateAt(10).threads['A:1']).toEqual({ state: 'crashed', holds: {}, results: [true], step: 2 });
    expect(tl.stateAt(10).resource).toEqual({ value: 11, accepted: 1, rejected: 0, lastToken: 7 });
    expect(tl.stateAt(-1).resource).toEqual({ value: 10, accepted: 0, rejected: 0 });
    expect(tl.stateAt(-1).t).toBe(0);
  });

  // The keyspace shows a script's effect at its `cmd`; the thread learns it when the reply comes
  // back, a latency later. Between the two, the thread's view says what Redis already counts, so
  // the Threads table and the keyspace show the same moment (reentrancy 2 and 5 of the course).
  it('gives the hold count Redis already counts while a lock or unlock reply is on its way', () => {
    const run = runScenario(scenario('reentrant'));
    const evs = run.trace.events;
    const a1 = (i: number) => run.stateAt(i).threads['A:1'];
    const evalshas = evs.flatMap((e, i) =>
      e.kind === 'cmd' && e.actor === 'A:1' && e.argv[0] === 'EVALSHA' && !JSON.stringify(e.reply).includes('NOSCRIPT')
        ? [i]
        : [],
    );
    // lock, lock (re-entry), unlock (2 -> 1), unlock (1 -> 0)
    expect(evalshas).toHaveLength(4);
    const [first, reentry, unlock1, unlock2] = evalshas;
    const field = (i: number) =>
      run.stateAt(i).nodes.master.keys.myLock?.value as [string, string][] | undefined;
    expect(field(reentry)?.[0][1]).toBe('2');
    expect(a1(reentry).holds).toEqual({ myLock: 1 });
    expect(a1(reentry).replying).toEqual({ lock: 'myLock', holds: 2 });
    expect(a1(reentry - 1).replying).toBeUndefined();
    // the reply arrives: lock.acquired, and the two agree again
    expect(evs[reentry + 1]).toMatchObject({ kind: 'lock.acquired', actor: 'A:1', holdCount: 2 });
    expect(a1(reentry + 1)).toMatchObject({ holds: { myLock: 2 } });
    expect(a1(reentry + 1).replying).toBeUndefined();
    expect(a1(first).replying).toEqual({ lock: 'myLock', holds: 1 });
    expect(a1(unlock1).replying).toEqual({ lock: 'myLock', holds: 1 });
    expect(field(unlock2)).toBeUndefined();
    expect(a1(unlock2).holds).toEqual({ myLock: 1 });
    expect(a1(unlock2).replying).toEqual({ lock: 'myLock', holds: 0 });
    // waiting with a TTL in hand is no reply on its way: B:1's tryLock() got its answer
    for (let i = 0; i < evs.length; i++) expect(run.stateAt(i).threads['B:1'].replying).toBeUndefined();
  });

  it('shows work as a critical section only when the engine says it is one', () => {
    const tl = new StateTimeline({
      nodes: [{ id: 'master', role: 'master' }],
      threads: ['A:1'],
      resource: { value: 0, accepted: 0, rejected: 0 },
    });
    const evs: Omit<TraceEvent, 'seq'>[] = [
      { t: 0, kind: 'work.start', actor: 'A:1', ms: 5, op: 'use', critical: false },
      { t: 5, kind: 'work.start', actor: 'A:1', ms: 5, op: 'work', critical: true },
      { t: 10, kind: 'work.start', actor: 'A:1', ms: 5, op: 'sleep', critical: false },
    ];
    evs.forEach((e, seq) => tl.push({ ...e, seq } as TraceEvent));
    expect([0, 1, 2].map((i) => tl.stateAt(i).threads['A:1'].state)).toEqual([
      'running',
      'working',
      'sleeping',
    ]);
  });

  it('replays key deltas across checkpoints', () => replayAcrossCheckpoints(7));

  // Over 2 * CHECKPOINT_EVERY keys, checkpoints are taken further apart (checkpointSpacing):
  // stateAt must find the right one and replay the longer stretch after it.
  it('replays key deltas across checkpoints spaced out by a large keyspace', () =>
    replayAcrossCheckpoints(CHECKPOINT_EVERY * 3));

  function replayAcrossCheckpoints(distinctKeys: number) {
    const tl = new StateTimeline({
      nodes: [{ id: 'master', role: 'master' }],
      threads: [],
      resource: { value: 0, accepted: 0, rejected: 0 },
    });
    const n = Math.max(CHECKPOINT_EVERY * 3, distinctKeys * 4) + 5;
    for (let i = 0; i < n; i++) {
      tl.push({
        t: i,
        seq: i,
        kind: 'cmd',
        actor: 'A:1',
        node: 'master',
        conn: 'A',
        argv: ['PING'],
        reply: { status: 'PONG' },
      });
      tl.setKey('master', `k${i % distinctKeys}`, {
        key: `k${i % distinctKeys}`,
        type: 'string',
        value: String(i),
        expireAt: null,
      });
      if (i % 11 === 0) tl.setKey('master', `k${(i + 3) % distinctKeys}`, null);
      if (i === CHECKPOINT_EVERY * 2 + 1) tl.clearNode('master');
    }
    // a straightforward fold to compare with
    const ref = new Map<string, string>();
    const expected: Record<string, string>[] = [];
    for (let i = 0; i < n; i++) {
      ref.set(`k${i % distinctKeys}`, String(i));
      if (i % 11 === 0) ref.delete(`k${(i + 3) % distinctKeys}`);
      if (i === CHECKPOINT_EVERY * 2 + 1) ref.clear();
      expected.push(Object.fromEntries([...ref].sort()));
    }
    const values = (i: number) =>
      Object.fromEntries(Object.entries(tl.stateAt(i).nodes.master.keys).map(([k, v]) => [k, v.value]));
    // forward (the cursor path), backward and scattered (the checkpoint path)
    for (let i = 0; i < n; i++) expect(values(i), `forward ${i}`).toEqual(expected[i]);
    for (let i = n - 1; i >= 0; i--) expect(values(i), `backward ${i}`).toEqual(expected[i]);
    for (let j = 0; j < n; j++) {
      const i = (j * 37) % n;
      expect(values(i), `scattered ${i}`).toEqual(expected[i]);
    }
  }
});
