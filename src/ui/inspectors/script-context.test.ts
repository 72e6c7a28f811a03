import { describe, expect, it } from 'vitest';
import { buildContentionFixture, fixtureLockScript } from '../fixtures/contention';
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
