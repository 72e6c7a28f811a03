import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import type { LaneModel } from './timeline/model';
import { fromWire, toWire, traceAhead, type Response } from './worker-protocol';

/** A run's answer as the host makes it, for the built-in `b` (verbose, so every event kind occurs). */
function answerFor(b: (typeof builtins)[number], id: number) {
  const v = validateScenario(b.scenario);
  if (!v.ok) throw new Error(b.id);
  const { trace } = runScenario(v.scenario, { verbose: true });
  const res: Response = {
    type: 'run',
    id,
    result: {
      ok: true,
      runId: 1,
      scenario: v.scenario,
      nodeIds: [],
      trace,
      model: {} as LaneModel,
      verbose: true,
      timing: { run: 1, lanes: 2, posted: 3 },
    },
  };
  return { trace, res };
}

describe('a run crosses from the worker as JSON text (toWire / fromWire)', () => {
  it(
    'gives the page every built-in trace as the worker had it, but for absent fields',
    { timeout: 60_000 },
    () => {
      for (const b of builtins.filter((x) => x.id !== 'contention-100')) {
        const { trace, res } = answerFor(b, 1);
        const wire = toWire(res);
        expect(wire, b.id).not.toBe(res);
        // postMessage's structured clone, then the page's side
        const back = fromWire(structuredClone(wire));
        if (back.type !== 'run' || !back.result.ok) throw new Error(b.id);
        // toEqual skips undefined properties but tells NaN from null and -0 from 0
        expect(back.result.trace, b.id).toEqual(trace);
        expect(back.result.timing).toEqual({ run: 1, lanes: 2, posted: 3 });
      }
    },
  );

  it('sends the trace ahead of the answer when asked, and the page joins them again', () => {
    const { trace, res } = answerFor(builtins.find((x) => x.id === 'basic-lock')!, 7);
    const ahead = structuredClone(traceAhead(7, trace));
    const wire = structuredClone(toWire(res, true));
    if (wire.type !== 'run' || !wire.result.ok) throw new Error('not a run');
    expect('trace' in wire.result || 'traceText' in wire.result).toBe(false);
    const parsed = JSON.parse(ahead.traceText) as typeof trace;
    const back = fromWire(wire, parsed);
    if (back.type !== 'run' || !back.result.ok) throw new Error('not a run');
    // the very object parsed ahead: what the page derived from it meanwhile is for this run
    expect(back.result.trace).toBe(parsed);
    expect(back.result.trace).toEqual(trace);
    // an answer whose trace never came is an error, not a run without events
    expect(fromWire(wire).type).toBe('error');
  });

  it('leaves other answers as they are', () => {
    const res: Response = { type: 'error', id: 2, message: 'no' };
    expect(toWire(res)).toBe(res);
    expect(fromWire(res)).toBe(res);
  });
});
