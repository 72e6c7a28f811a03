/**
 * The last step of the watchdog-cost lesson states issue 23's full-size figures (1,000 threads
 * over 10,000 locks), which the page does not run. This runs that scenario (its first rounds only:
 * every round renews every lock) on 4.7.0 and 3.27.2 and checks each figure the step states.
 */
import { describe, expect, it } from 'vitest';
import { WATCHDOG_COST_FULL, watchdogCostScenario } from '../../engine/scenario/scale/watchdog_cost';
import { runScenario, validateScenario, type TraceEvent } from '../engine';
import lesson from './21_watchdog_cost';

function run(version: string, until: number): TraceEvent[] {
  const json = {
    ...(watchdogCostScenario({ ...WATCHDOG_COST_FULL, until }) as object),
    redisson: { version },
  };
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues.slice(0, 3)));
  return runScenario(v.scenario).trace.events;
}

/** The first round: every lock renewed once; the watchdogs' commands up to its last renewal. */
function firstRound(events: TraceEvent[], locks: number) {
  const renewals = events.filter((e) => e.kind === 'watchdog.renew');
  const inside = events.slice(0, events.indexOf(renewals[locks - 1]) + 1);
  const commands = inside.filter(
    (e): e is Extract<TraceEvent, { kind: 'cmd' }> =>
      e.kind === 'cmd' && String(e.actor).endsWith('/watchdog'),
  );
  return {
    renewals: inside.filter((e) => e.kind === 'watchdog.renew' && e.result === 1).length,
    /** the renewal scripts themselves (a script load and the NOSCRIPT before it are not renewals) */
    scripts: commands.filter((e) => /^EVAL/.test(e.argv[0]) && (Array.isArray(e.reply) || e.reply === 1))
      .length,
  };
}

const text = lesson.steps[lesson.steps.length - 1].text;
const locks =
  WATCHDOG_COST_FULL.clients * WATCHDOG_COST_FULL.threadsPerClient * WATCHDOG_COST_FULL.locksPerThread;

describe('watchdog cost at full size: 1,000 threads over 10,000 locks', () => {
  it('is the scenario the step names', () => {
    expect(WATCHDOG_COST_FULL.clients * WATCHDOG_COST_FULL.threadsPerClient).toBe(1000);
    expect(locks).toBe(10_000);
    expect(text.en).toContain('**1,000 threads over 10,000 locks** (10 clients × 100 threads × 10 locks)');
  });

  it('4.7.0 (batched renewal, 3.44+): a round is 10,000 renewals in 100 scripts; 10 s apart, 1,000 renewals and 10 commands per second', () => {
    const first = firstRound(run('4.7.0', 10_500), locks);
    expect(first.renewals).toBe(10_000);
    expect(first.scripts).toBe(100);
    // a round every lockWatchdogTimeout / 3 (the small run's steps measure the 10 s)
    const period = 30_000 / 3 / 1000;
    expect(first.renewals / period).toBe(1000);
    expect(first.scripts / period).toBe(10);
    expect(text.en).toContain('**1,000 renewals per second** (10,000 / (30 s / 3))');
    expect(text.en).toContain('100 commands a round, **10 commands per second**');
  }, 180_000);

  it('3.27.2 (one timer and one EVAL per lock): 10,000 commands a round, 1,000 per second', () => {
    const events = run('3.27.2', 10_500);
    const first = firstRound(events, locks);
    expect(first.renewals).toBe(10_000);
    expect(first.scripts).toBe(10_000);
    expect(first.scripts / 10).toBe(1000);
    const c1 = events.filter((e) => e.kind === 'cmd' && e.actor === 'C1/watchdog');
    expect(c1.every((e) => e.kind === 'cmd' && e.argv[0] === 'EVAL')).toBe(true);
    expect(text.en).toContain('10,000 `EVAL`s a round, **1,000 commands per second**');
  }, 180_000);
});
