import { describe, expect, it } from 'vitest';
import { buildContentionFixture, fixtureLockScript } from '../fixtures/contention';
import { builtins } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { findScriptContext } from './script-context';

describe('findScriptContext', () => {
  const { trace } = buildContentionFixture(true);
  const events = trace.events;

  it('finds the running line and the calls of the script at the cursor', () => {
    const i = events.findIndex((e) => e.kind === 'script.call');
    const ctx = findScriptContext(events, i)!;
    expect(ctx.text).toBe(fixtureLockScript);
    expect(ctx.line).toBe(1);
    expect(ctx.calls[0]).toMatchObject({ argv: ['exists', 'myLock'], current: true });
  });

  it('shows the reply once the EVAL has returned', () => {
    const i = events.findIndex((e) => e.kind === 'cmd');
    expect(findScriptContext(events, i)?.reply).toEqual({ t: 'bulk', v: null });
  });

  it('is empty before any script ran', () => {
    expect(findScriptContext(events, -1)).toBeNull();
    expect(findScriptContext(events, 0)).toBeNull();
  });
});

describe('findScriptContext on an engine trace with script.begin / script.end', () => {
  it('takes the text and sha from script.begin', () => {
    const b = builtins.find((x) => x.id === 'contention-wakeup')!;
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error('invalid built-in');
    const events = runScenario(v.scenario, { verbose: true }).trace.events;
    const begin = events.find((e) => e.kind === 'script.begin' && typeof e.script === 'string')!;
    if (begin.kind !== 'script.begin') throw new Error('no script.begin');
    const i = events.findIndex((e) => e.kind === 'script.line' && e.seq > begin.seq);
    // Cut after the cursor, as while the script still runs: no EVAL/EVALSHA command to read from.
    const ctx = findScriptContext(events.slice(0, i + 1), i)!;
    expect(ctx.sha).toBe(begin.sha);
    expect(ctx.text).toBe(begin.script);
    expect(ctx.line).not.toBeNull();
  });
});

describe('findScriptContext on an edited Redisson script (redisson.scripts)', () => {
  it('shows the text the scenario gave, which is what ran', () => {
    const lock = "-- mine\nredis.call('hset', KEYS[1], ARGV[2], 1);\nreturn nil;";
    const v = validateScenario({
      format: 'lockscope/1',
      redisson: { scripts: { lock } },
      clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lock', lock: 'myLock' }] }] }],
    });
    if (!v.ok) throw new Error('invalid scenario');
    const events = runScenario(v.scenario, { verbose: true }).trace.events;
    const i = events.findIndex((e) => e.kind === 'script.line' && e.line === 2);
    expect(i).toBeGreaterThan(0);
    const ctx = findScriptContext(events, i)!;
    expect(ctx.text).toBe(lock);
    expect(ctx.calls.map((c) => c.argv[0])).toEqual(['hset']);
  });
});
