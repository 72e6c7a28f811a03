import { describe, expect, it } from 'vitest';
import { sha1hex } from '../redis/sha1';
import { lockScripts, withEditedScripts } from './scripts';
import { versionTraits } from './versions';
import { simulate } from './testing/simulate';
import { client, hold, scenario } from '../scenario/build';

const latest = lockScripts(versionTraits('latest'));

/** the lock script without its `hexists` half: a holder no longer re-enters its own lock */
const lockWithoutReentry = latest.lock.replace(
  "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then",
  "if (redis.call('exists', KEYS[1]) == 0) then",
);
/** the unlock script without the owner check: anybody's unlock decrements and, at 0 or below, deletes */
const unlockWithoutOwnerCheck = latest.unlock.replace(
  "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; ",
  '',
);

/** A:1 locks twice (the second time a tryLock, so a broken reentry answers instead of waiting) */
const reentrant = (scripts?: Record<string, string>) =>
  scenario(
    [
      client('A', [
        { op: 'lock', lock: 'myLock' },
        { op: 'tryLock', lock: 'myLock' },
        { op: 'getHoldCount', lock: 'myLock' },
      ]),
    ],
    { redisson: scripts === undefined ? {} : { scripts } },
  );

/** A:1 holds myLock for 2 s; B:1, which never locked it, calls unlock at 500 ms; C:1 tries at 600 ms */
const strangerUnlock = (scripts?: Record<string, string>) =>
  scenario(
    [
      client('A', hold('myLock', 2000)),
      client(
        'B',
        [
          { op: 'unlock', lock: 'myLock' },
          { op: 'isLocked', lock: 'myLock' },
        ],
        { start: 500 },
      ),
      client('C', [{ op: 'tryLock', lock: 'myLock' }], { start: 600 }),
    ],
    { redisson: scripts === undefined ? {} : { scripts } },
  );

describe('edited Redisson scripts (redisson.scripts)', () => {
  it('the edits apply to the test texts: each removes exactly the check it names', () => {
    expect(lockWithoutReentry).not.toBe(latest.lock);
    expect(lockWithoutReentry).not.toContain('hexists');
    expect(unlockWithoutOwnerCheck).not.toBe(latest.unlock);
    expect(unlockWithoutOwnerCheck).not.toContain('hexists');
  });

  it('withEditedScripts replaces only what the scenario gives', () => {
    expect(withEditedScripts(latest, undefined)).toBe(latest);
    expect(withEditedScripts(latest, { renew: 'return 1' })).toEqual({ ...latest, renew: 'return 1' });
  });

  it('the real lock script lets the holder re-enter', () => {
    const s = simulate(reentrant());
    expect(s.results('A:1')).toEqual([true, 2]);
  });

  it('without the hexists branch, reentry breaks: the holder’s second acquire gets its own TTL', () => {
    const s = simulate(reentrant({ lock: lockWithoutReentry }));
    expect(s.results('A:1')).toEqual([false, 1]);
    const evals = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'EVALSHA');
    // the edited text is sent under its own SHA-1, loaded on NOSCRIPT, and run for real
    const sha = sha1hex(lockWithoutReentry);
    expect(sha).not.toBe(sha1hex(latest.lock));
    expect(evals.every((e) => (e.argv as string[])[1] === sha)).toBe(true);
    const load = s.of('cmd', 'A:1').find((e) => (e.argv as string[])[0] === 'SCRIPT');
    expect(load?.argv).toEqual(['SCRIPT', 'LOAD', lockWithoutReentry]);
    const second = evals.at(-1)!;
    expect(typeof second.reply).toBe('number');
    expect(second.reply as number).toBeGreaterThan(29_000);
  });

  it('the real unlock script refuses a stranger: IllegalMonitorStateException, the lock stays', () => {
    const s = simulate(strangerUnlock());
    const [unlock, locked] = s.results('B:1');
    expect(String((unlock as { error: string }).error)).toMatch(/^IllegalMonitorStateException/);
    expect(locked).toBeUndefined(); // the exception ended B:1 before isLocked
    expect(s.results('C:1')).toEqual([false]);
    expect(s.violations).toEqual([]);
  });

  it('without the owner check, a stranger’s unlock releases the holder’s lock', () => {
    const s = simulate(strangerUnlock({ unlock: unlockWithoutOwnerCheck }));
    // unlock returned normally (its answer, 1, is not a result); then isLocked: false
    expect(s.results('B:1')).toEqual([false]);
    const publish = s.of('pubsub.publish')[0];
    expect(publish.t).toBeLessThan(600);
    // C:1 takes the lock while A:1 still works in its critical section
    expect(s.results('C:1')).toEqual([true]);
    expect(s.violations.map((v) => [v.kind, v.holders])).toContainEqual(['V1', ['A:1', 'C:1']]);
  });

  it('replaces the renew script the watchdog sends', () => {
    // the batched renew of the latest release answers one 0/1 per lock
    const renew = 'return {0}';
    const s = simulate(
      scenario([client('A', hold('myLock', 1500))], {
        redisson: { lockWatchdogTimeout: 3000, scripts: { renew } },
      }),
    );
    const renews = s.of('cmd', 'A/watchdog').filter((e) => (e.argv as string[])[0] === 'EVALSHA');
    expect(renews.length).toBeGreaterThanOrEqual(1);
    expect((renews[0].argv as string[])[1]).toBe(sha1hex(renew));
    expect(s.of('watchdog.renew', 'A:1').map((e) => e.result)).toEqual([0]);
  });
});
