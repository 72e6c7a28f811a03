import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { deriveRunModel } from './timeline/model';
import { fromWire, stringifyByField, toWire, type Response } from './worker-protocol';

describe('a run crosses from the worker as JSON text, its events parsed when read (toWire / fromWire)', () => {
  it(
    'gives the page every built-in trace and lane model as the worker had them, but for absent fields',
    { timeout: 60_000 },
    () => {
      for (const b of builtins) {
        const v = validateScenario(b.scenario);
        if (!v.ok) throw new Error(b.id);
        const result = runScenario(v.scenario, { verbose: true });
        const { trace } = result;
        const model = deriveRunModel(v.scenario, result);
        const res: Response = {
          type: 'run',
          id: 1,
          result: {
            ok: true,
            runId: 1,
            scenario: v.scenario,
            nodeIds: [],
            trace,
            model,
            verbose: true,
            timing: { run: 1, lanes: 2, posted: 3 },
          },
        };
        const wire = toWire(res);
        expect(wire, b.id).not.toBe(res);
        if (wire.type !== 'run' || !wire.result.ok || !('traceText' in wire.result)) throw new Error(b.id);
        expect(JSON.parse(wire.result.traceText), b.id).toEqual({
          ...JSON.parse(JSON.stringify(trace)),
          events: 0,
        });
        expect(wire.result.eventsText, b.id).toBe(JSON.stringify(trace.events));
        expect(wire.result.eventCount, b.id).toBe(trace.events.length);
        expect(wire.result.modelText, b.id).toBe(JSON.stringify(model));
        // postMessage's structured clone, then the page's side
        const back = fromWire(structuredClone(wire));
        if (back.type !== 'run' || !back.result.ok) throw new Error(b.id);
        // the events are parsed when first read
        expect(Object.getOwnPropertyDescriptor(back.result.trace, 'events')?.get, b.id).toBeTypeOf(
          'function',
        );
        // the same text as the worker's trace, field order included (exports, shared links)
        expect(JSON.stringify(back.result.trace), b.id).toBe(JSON.stringify(trace));
        expect(Object.getOwnPropertyDescriptor(back.result.trace, 'events')?.value, b.id).toBeInstanceOf(
          Array,
        );
        // toEqual skips undefined properties but tells NaN from null and -0 from 0
        expect(back.result.trace, b.id).toEqual(trace);
        expect(back.result.model, b.id).toEqual(model);
        expect(back.result.timing).toEqual({ run: 1, lanes: 2, posted: 3 });
        const mark = performance.getEntriesByName('lockscope:wire').at(-1) as PerformanceMark;
        expect(mark.detail).toMatchObject({ events: trace.events.length, write: expect.any(Number) });
      }
    },
  );

  it('writes an object field by field as JSON.stringify writes it whole', () => {
    const o = { b: 1, a: [1, { x: undefined, y: null }], u: undefined, f: () => 1, 2: 'two', s: 'q"\u2028' };
    expect(stringifyByField(o)).toBe(JSON.stringify(o));
    expect(stringifyByField({})).toBe('{}');
  });

  it('leaves other answers as they are', () => {
    const res: Response = { type: 'error', id: 2, message: 'no' };
    expect(toWire(res)).toBe(res);
    expect(fromWire(res)).toBe(res);
  });
});
