import { describe, expect, it } from 'vitest';
import { runScenario } from '../run';
import { validateScenario } from '../schema';
import { watchdogCostScenario } from './watchdog_cost';

describe('watchdogCostScenario', () => {
  it('is a valid scenario of 1,000 threads over 10,000 distinct locks, 60 s', () => {
    const v = validateScenario(watchdogCostScenario());
    if (!v.ok) throw new Error(JSON.stringify(v.issues.slice(0, 3)));
    const threads = v.scenario.clients.flatMap((c) => c.threads);
    expect(threads).toHaveLength(1000);
    const locks = new Set(threads.flatMap((t) => t.program.flatMap((op) => ('lock' in op ? [op.lock] : []))));
    expect(locks.size).toBe(10_000);
    expect(v.scenario.until).toBe(60_000);
  });

  it('keeps every lock for the whole run: the watchdog renews each one every 10 s', () => {
    const v = validateScenario(
      watchdogCostScenario({ clients: 2, threadsPerClient: 3, locksPerThread: 2, until: 35_000 }),
    );
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const events = runScenario(v.scenario).trace.events;
    expect(events.filter((e) => e.kind === 'lock.acquired')).toHaveLength(12);
    // at 10, 20 and 30 s (lockWatchdogTimeout 30 s / 3), every lock, all still held
    const renewals = events.filter((e) => e.kind === 'watchdog.renew');
    expect(renewals).toHaveLength(36);
    expect(renewals.every((e) => e.result === 1)).toBe(true);
    expect(events.some((e) => e.kind === 'lock.released')).toBe(false);
  });
});
