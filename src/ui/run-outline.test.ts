import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins';
import '../engine/topology/deployments';
import { keyMoments } from '../engine/trace/key_moments';
import type { Trace, TraceEvent } from '../engine/trace/types';
import { createEngineHost } from './engine-host';
import { eventAt, eventCountOf, lastEventT, momentsOf, outlineOf } from './run-outline';
import type { RunPayload } from './worker-protocol';

describe('a run outline: what the page reads of the events before parsing them', () => {
  it('is what the events say, for every built-in the worker runs', { timeout: 60_000 }, () => {
    const host = createEngineHost();
    for (const b of builtins)
      for (const verbose of [false, true]) {
        const res = host({ type: 'run', id: 1, scenario: b.scenario, verbose });
        if (res.type !== 'run' || !res.result.ok) throw new Error(b.id);
        const { trace, outline } = res.result as RunPayload;
        const events = trace.events;
        expect(outline, b.id).toEqual({
          events: events.length,
          lastT: events.at(-1)?.t ?? 0,
          pace: events.filter((e) => e.kind !== 'script.line' && e.kind !== 'script.call').length,
          moments: keyMoments(trace),
        });
      }
  });

  it('answers before the first event without reading the events', () => {
    const trace = {} as Trace;
    Object.defineProperty(trace, 'events', {
      get() {
        throw new Error('read');
      },
    });
    const run = { trace, outline: { events: 3, lastT: 7, pace: 3, moments: [] } };
    expect(eventCountOf(run)).toBe(3);
    expect(eventAt(run, -1)).toBeUndefined();
    expect(lastEventT(run)).toBe(7);
    expect(momentsOf(run)).toEqual([]);
    expect(() => eventAt(run, 0)).toThrow('read');
  });

  it('reads a run without an outline from its trace', () => {
    const ev = (t: number) => ({ t, seq: t, kind: 'lock.wait', actor: 'A:1' }) as TraceEvent;
    const run = { trace: { events: [ev(1), ev(5)] } };
    expect(eventCountOf(run)).toBe(2);
    expect(eventAt(run, 1)?.t).toBe(5);
    expect(eventAt(run, 2)).toBeUndefined();
    expect(lastEventT(run)).toBe(5);
    expect(outlineOf(run.trace)).toMatchObject({ events: 2, lastT: 5, pace: 2 });
    expect(lastEventT({ trace: { events: [] } })).toBe(0);
  });
});
