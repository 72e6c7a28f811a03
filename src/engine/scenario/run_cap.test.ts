import { describe, expect, it } from 'vitest';
import { shownVerdict } from '../trace/verdict';
import { client, scenario } from './build';
import { DEFAULT_RUN_CAP_MS } from './defaults';
import { runScenario } from './run';
import { validateScenario, type Scenario } from './schema';

function valid(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.scenario;
}

// A run without `until` ends once its programs and their clients' work have; DEFAULT_RUN_CAP_MS
// bounds it. One still going at the cap was stopped before its end, as one cut by the event cap
// is: what came after was never judged, so it is read as "cut", never as "safe".
describe('the time cap of a run without until', () => {
  const working = (ms: number) =>
    scenario([
      client('A', [
        { op: 'lock', lock: 'L' },
        { op: 'work', ms },
        { op: 'unlock', lock: 'L' },
      ]),
    ]);

  it('a run still going at the cap is cut by time, not safe', () => {
    const run = runScenario(valid({ ...working(900_000), until: null }));
    expect(run.endedAt).toBe(DEFAULT_RUN_CAP_MS);
    expect(run.truncated).toBe(true);
    expect(run.trace.truncated).toBe(true);
    expect(run.trace.truncatedBy).toBe('time');
    // nothing was broken up to the cap: the engine's verdict is safe, what it may be read as is cut
    expect(run.trace.verdict).toBe('safe');
    expect(shownVerdict(run.trace)).toBe('cut');
    // the holder's watchdog kept its lock to the end: it never unlocked
    expect(run.trace.events.some((e) => e.kind === 'unlock.request')).toBe(false);
  });

  it('a run that ends before the cap is not cut, nor one whose `until` is the end asked for', () => {
    const ended = runScenario(valid({ ...working(5_000), until: null }));
    expect(ended.truncated).toBe(false);
    expect(ended.trace.truncated).toBeUndefined();
    expect(ended.endedAt).toBeLessThan(6_000);
    // `until` given: the run is meant to stop there, whatever is still going
    const bounded = runScenario(valid({ ...working(900_000), until: 60_000 }));
    expect(bounded.truncated).toBe(false);
    expect(bounded.trace.truncated).toBeUndefined();
    expect(shownVerdict(bounded.trace)).toBe('safe');
  });

  it('a run stopped at a violation (the search’s stopAt) is not cut by time', () => {
    const s = valid({
      ...scenario([
        client('A', [{ op: 'lock', lock: 'L', leaseMs: 100 }, { op: 'work', ms: 900_000 }]),
        client('B', [{ op: 'lock', lock: 'L' }, { op: 'work', ms: 900_000 }], { start: 200 }),
      ]),
      until: null,
    });
    const run = runScenario(s, { stopAt: (v) => v.kind === 'V1' });
    expect(run.trace.violations.map((v) => v.kind)).toContain('V1');
    expect(run.endedAt).toBeLessThan(1_000);
    expect(run.truncated).toBe(false);
    expect(run.trace.truncatedBy).toBeUndefined();
  });
});
