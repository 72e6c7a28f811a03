/**
 * The lock family beyond RLock loads on demand (family.ts, family_locks.ts): the page's engine
 * worker runs a scenario without it when `needsLockFamily` says the scenario cannot reach it. This
 * file imports the runner as the worker does (run_scenario.ts and the deployments, not run.ts), so
 * it proves, for every built-in, that a run without the family is the run with it, and that the
 * family's scenarios are all flagged.
 */
import { describe, expect, it } from 'vitest';
import '../topology/deployments';
import { runScenario } from '../scenario/run_scenario';
import { validateScenario, type Scenario } from '../scenario/schema';
import { builtins } from '../scenario/builtins/index';
import { allRedissonScripts } from './scripts/family';
import { needsLockFamily } from './family';

function run(s: Scenario, verbose: boolean): string {
  return JSON.stringify(runScenario(s, { verbose }).trace);
}

function scenarioOf(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new Error('a built-in does not validate');
  return v.scenario;
}

describe('the lock family, loaded on demand', () => {
  it('flags every scenario that names another lock type or holds Lua text, and not the default', () => {
    const fair = { clients: [{ threads: [{ program: [{ op: 'lock', lock: 'l', type: 'FairLock' }] }] }] };
    expect(needsLockFamily(fair)).toBe(true);
    expect(needsLockFamily({ program: [{ op: 'eval', script: "return redis.call('get', KEYS[1])" }] })).toBe(
      true,
    );
    expect(needsLockFamily('eval "return redis.call(\'ping\')" 0')).toBe(true);
    expect(needsLockFamily({ program: [{ op: 'lock', lock: 'l', type: 'RLock' }] })).toBe(false);
    expect(needsLockFamily('get k')).toBe(false);
    expect(needsLockFamily(null)).toBe(false);
    const byId = new Map(builtins.map((b) => [b.id, b.scenario]));
    expect(needsLockFamily(byId.get('gc-pause-lease-expiry'))).toBe(false);
    expect(needsLockFamily(byId.get('fair-lock-fifo'))).toBe(true);
  });

  it('gives every built-in it does not flag the same trace with the family as without', async () => {
    // nothing imported so far registered the family: only RLock's scripts are known
    expect(allRedissonScripts().every((s) => s.id !== 'fairLock' && !s.method.includes('Fair'))).toBe(true);
    const unflagged = builtins.filter((b) => !needsLockFamily(b.scenario) && b.id !== 'contention-100');
    expect(unflagged.length).toBeGreaterThan(40);
    const without = unflagged.map((b) => [
      run(scenarioOf(b.scenario), true),
      run(scenarioOf(b.scenario), false),
    ]);
    await import('./family_locks');
    expect(allRedissonScripts().some((s) => s.method.includes('Fair'))).toBe(true);
    unflagged.forEach((b, i) => {
      const withFamily = [run(scenarioOf(b.scenario), true), run(scenarioOf(b.scenario), false)];
      expect(withFamily[0] === without[i][0] && withFamily[1] === without[i][1], b.id).toBe(true);
    });
    // and the flagged ones run once it has loaded
    for (const b of builtins.filter((x) => needsLockFamily(x.scenario)))
      expect(() => run(scenarioOf(b.scenario), false), b.id).not.toThrow();
  }, 120_000);
});
