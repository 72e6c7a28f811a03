import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins/index';
import type { TraceEvent } from '../engine/trace/types';
import { captionOf, captionOfEvent } from './caption';
import { makeRun } from './engine-host';
import { findScriptContext } from './inspectors/script-context';
import { eventAt } from './run-outline';

// An edit keeps the cursor where it was, and the run's answer brings what the page reads there
// (run-outline.ts `opening`), so nothing on screen parses the run's events before its first draw.
// What the page shows from the opening must be what it would have shown from the events it parses
// later: the same event, script context and caption, read here from a JSON copy as the page's are.
describe('a run opened at a cursor', () => {
  const ids = ['incident-multilock-opposite-order', 'basic-lock', 'fair-lock-fifo'];

  for (const id of ids) {
    it(`${id}: the opening is what the page reads at that cursor from the parsed events`, () => {
      const scenario = builtins.find((b) => b.id === id)!.scenario;
      const whole = makeRun({ scenario, verbose: true });
      if (!whole.ok) throw new Error(id);
      const n = whole.result.trace.events.length;
      // a script's line, its EVALSHA, the first and the last event, and a few in between
      const picks = new Set([0, n - 1, Math.floor(n / 3), Math.floor(n / 2)]);
      const line = whole.result.trace.events.findIndex((e) => e.kind === 'script.line');
      if (line >= 0) picks.add(line).add(line + 1);
      for (const index of picks) {
        const made = makeRun({ scenario, verbose: true, at: { index } });
        if (!made.ok) throw new Error(id);
        const parsed = JSON.parse(JSON.stringify(made.result.trace.events)) as TraceEvent[];
        const opening = made.outline.opening!;
        expect(opening.index).toBe(index);
        expect(JSON.parse(JSON.stringify(opening.event))).toEqual(parsed[index]);
        expect(opening.script).toEqual(findScriptContext(parsed, index));
        for (const lang of ['en', 'zh'] as const)
          expect(captionOfEvent(opening.event, () => parsed, lang)).toEqual(captionOf(parsed, index, lang));
      }
    });
  }

  it('is read without touching the events; another cursor reads the events', () => {
    const scenario = builtins.find((b) => b.id === 'basic-lock')!.scenario;
    const made = makeRun({ scenario, verbose: true, at: { index: 5 } });
    if (!made.ok) throw new Error('basic-lock');
    const events = made.result.trace.events;
    let reads = 0;
    const trace = {
      get events() {
        reads++;
        return events;
      },
    };
    const run = { trace, outline: made.outline };
    expect(eventAt(run, 5)).toBe(made.outline.opening!.event);
    expect(reads).toBe(0);
    expect(eventAt(run, 6)).toBe(events[6]);
    expect(reads).toBe(1);
  });

  it('is absent without a cursor (a pick opens before the first event)', () => {
    const scenario = builtins.find((b) => b.id === 'basic-lock')!.scenario;
    const made = makeRun({ scenario });
    expect(made.ok && made.outline.opening).toBe(undefined);
  });
});
