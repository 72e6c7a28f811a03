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
