/**
 * What the built-ins' texts and the inspectors promise, checked against the run itself: the
 * screen must never contradict the engine.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../schema';
import { runScenario, type ScenarioRun } from '../run';
import { builtin } from './index';

function run(id: string): ScenarioRun {
  const b = builtin(id);
  if (!b) throw new Error(`no built-in ${id}`);
  const v = validateScenario(b.scenario);
  if (!v.ok) throw new Error(id);
  return runScenario(v.scenario);
}

describe('the screen agrees with the engine', () => {
  it('rw-lock-readers-then-writer: the keys a script creates without declaring them are in the keyspace', () => {
    const r = run('rw-lock-readers-then-writer');
    const events = r.trace.events;
    // Right after the second reader's acquire both readers' timeout keys exist.
    const i = events.findIndex((e) => e.kind === 'lock.acquired' && e.actor !== events[0].actor);
    expect(i).toBeGreaterThan(0);
    const keys = Object.keys(r.stateAt(i).nodes.master.keys);
    expect(keys.filter((k) => k.includes(':rwlock_timeout:')).length).toBe(2);
    // ... and the unlocks delete them again.
    expect(Object.keys(r.trace.final.nodes.master.keys).some((k) => k.includes('rwlock_timeout'))).toBe(
      false,
    );
  });
});

describe('unlock is two moments (D4)', () => {
  it('basic-lock: unlock.request before the unlock script, lock.released after its reply with the key gone', () => {
    const r = run('basic-lock');
    const ev = r.trace.events;
    const req = ev.findIndex((e) => e.kind === 'unlock.request');
    const rel = ev.findIndex((e) => e.kind === 'lock.released');
    const script = ev.findIndex(
      (e, i) => i > req && e.kind === 'cmd' && /^EVAL/i.test(String((e.argv as string[])[0])),
    );
    expect(req).toBeGreaterThan(0);
    expect(ev[req]).toMatchObject({ actor: 'A:1', lock: 'myLock', holdCount: 0 });
    expect(req).toBeLessThan(script);
    expect(script).toBeLessThan(rel);
    expect(r.stateAt(req).nodes.master.keys.myLock).toBeDefined();
    // The thread still believes it holds until the reply, then neither it nor Redis does.
    expect(r.stateAt(req).threads['A:1'].holds).toEqual({ myLock: 1 });
    expect(r.stateAt(rel).nodes.master.keys.myLock).toBeUndefined();
    expect(r.stateAt(rel).threads['A:1'].holds).toEqual({});
  });
});

describe('partial holds (D3)', () => {
  it('multilock-all-or-nothing: while A waits for l3 its state lists the parts it holds in Redis', () => {
    const r = run('multilock-all-or-nothing');
    const ev = r.trace.events;
    const wait = ev.findIndex((e) => e.kind === 'lock.wait' && e.actor === 'A:1');
    const a = r.stateAt(wait).threads['A:1'];
    expect(a.holds).toEqual({});
    expect(a.leases).toEqual(['l1', 'l2']);
    // Once A holds the MultiLock itself, the parts are not listed apart.
    const acq = ev.findIndex((e) => e.kind === 'lock.acquired' && e.actor === 'A:1');
    expect(r.stateAt(acq).threads['A:1'].leases).toBeUndefined();
    // B holds l3 as a lock it believes in: no partial lease.
    expect(r.stateAt(wait).threads['B:1'].leases).toBeUndefined();
  });
});

describe('the texts name what the run does', () => {
  it('fencing-after-failover names the replica the Sentinels promote, in both languages (D1)', () => {
    const b = builtin('fencing-after-failover')!;
    const promoted = run(b.id).trace.events.filter((e) => e.kind === 'failover.promote');
    expect(promoted.length).toBe(1);
    const node = String(promoted[0].node);
    expect(b.description).toContain(`promote ${node}`);
    expect(b.descriptionZh).toContain(`提升 ${node}`);
    for (const other of ['replica-1', 'replica-2'].filter((r) => r !== node)) {
      expect(b.description).not.toContain(`promote ${other}`);
      expect(b.descriptionZh).not.toContain(`提升 ${other}`);
    }
    // The setup thread's lane is explained (D25).
    expect(b.description).toContain('P:1');
    expect(b.descriptionZh).toContain('P:1');
  });

  it('no description refers to internal card numbers (D25)', async () => {
    const { builtins } = await import('./index');
    for (const b of builtins) {
      expect(b.description, b.id).not.toMatch(/\bCard \d/);
      expect(b.descriptionZh, b.id).not.toMatch(/第 ?\d+ ?号场景/);
    }
  });

  it('a description names another built-in by its title, never by its id (D25)', async () => {
    const { builtins } = await import('./index');
    for (const b of builtins) {
      for (const o of builtins)
        if (o.id !== b.id)
          for (const text of [b.description, b.descriptionZh]) expect(text, b.id).not.toContain(o.id);
    }
  });
});
