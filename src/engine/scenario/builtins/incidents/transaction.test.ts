/** @Transactional: the commit lands after the unlock, so the next holder reads the stale row. */
import { describe, expect, it } from 'vitest';
import { sim } from '../../testing/builtins';

describe('transaction incidents', () => {
  it('commit after unlock: every sale under the lock, one lost; the late commits are writes outside the lock', () => {
    const s = sim('incident-transactional-commit-after-unlock');
    expect(s.of('lock.acquired').map((e) => e.actor)).toEqual(['A:1', 'B:1', 'C:1']);
    expect(s.violations.filter((v) => v.kind === 'V1')).toEqual([]);
    expect(s.violations.map((v) => `${v.kind} ${v.cause} ${v.holders[0]}`)).toEqual([
      'V3 unlocked A:1',
      'V3 unlocked B:1',
    ]);
    const commits = s.of('resource.use');
    // each write is recorded at its commit, after its own unlock, with no lock held
    for (const c of commits) {
      expect(c.lock).toBeUndefined();
      const released = s.of('lock.released', c.actor)[0];
      expect(c.t).toBeGreaterThan(released.t);
    }
    expect(s.resource).toEqual({ value: 2, accepted: 3, rejected: 0, lost: 1 });
  });

  it('the remedy, commit before unlock: each buyer reads the committed count; it ends at three', () => {
    const s = sim('incident-transactional-commit-after-unlock-remedy');
    expect(s.violations).toEqual([]);
    expect(s.of('resource.use').map((e) => [e.lock, e.read])).toEqual([
      ['stock', 0],
      ['stock', 1],
      ['stock', 2],
    ]);
    expect(s.resource).toEqual({ value: 3, accepted: 3, rejected: 0 });
  });
});
