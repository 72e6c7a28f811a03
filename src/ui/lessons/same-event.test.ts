import { describe, expect, it } from 'vitest';
import { builtin } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { sameEvent } from './same-event';

function events(version: string) {
  const b = builtin('contention-wakeup')!;
  const v = validateScenario({ ...b.scenario, redisson: { version } });
  if (!v.ok) throw new Error('invalid');
  return runScenario(v.scenario, { verbose: true }).trace.events;
}

describe('the same event in another release’s run', () => {
  it('finds A:1’s unlock script, though 3.12.3 runs other scripts than 4.7.0 around it', () => {
    const latest = events('latest');
    const old = events('3.12.3');
    const request = latest.findIndex((e) => e.kind === 'unlock.request' && e.actor === 'A:1');
    // the unlock script that ran (4.7.0 first sends it by SHA, gets NOSCRIPT, loads it; 3.12.3 EVALs)
    const unlock = latest.findIndex(
      (e, i) => i > request && e.kind === 'cmd' && e.actor === 'A:1' && e.reply === 1,
    );
    const there = sameEvent(latest, unlock, old);
    expect(there).not.toBeNull();
    const e = old[there!] as { kind: string; actor: string; argv: string[]; reply: unknown };
    expect([e.kind, e.actor, e.argv[0], e.reply]).toEqual(['cmd', 'A:1', 'EVAL', 1]);
    // the unlock of the older release: no latch key among its keys
    expect(e.argv.some((a) => a.startsWith('redisson_unlock_latch'))).toBe(false);
    expect(
      (latest[unlock] as { argv: string[] }).argv.some((a) => a.startsWith('redisson_unlock_latch')),
    ).toBe(true);
  });

  it('says so when the other run has no such event', () => {
    const latest = events('latest');
    expect(sameEvent(latest, latest.length - 1, latest.slice(0, 3))).toBeNull();
    expect(sameEvent(latest, latest.length + 5, latest)).toBeNull();
  });
});
