/** Messages between the page and the engine worker (worker.ts). Plain data only. */
import type { TraitText } from '../engine/redisson/versions';
import type { Scenario } from '../engine/scenario/schema';
import type { SchemaIssue } from '../engine/scenario/api';
import type { Trace, VisibleState } from '../engine/trace/types';
import type { BuiltinInfo, ConsoleAnswer } from './engine-adapter';
import type { LessonResponse } from './lessons/lesson-protocol';
import type { RunOutline } from './run-outline';
import type { LaneModel } from './timeline/model';

export type Request =
  | { type: 'init'; id: number }
  /**
   * validates and runs; `verbose` (script lines in the trace) defaults to the worker's choice by
   * size; `at`, where the page will put the cursor, so the answer brings the state there
   */
  | { type: 'run'; id: number; scenario: unknown; verbose?: boolean; at?: CursorAt }
  | { type: 'stateAt'; id: number; runId: number; index: number }
  /** what a Redisson release does, row by row (versions.ts traitsFor), for the version picker */
  | { type: 'traits'; id: number; version: string }
  | { type: 'console'; id: number; runId: number; index: number; node: string; line: string };

/**
 * Every built-in in the library's order (the real incidents and the core ones the first screen did
 * not carry), which the worker loads on demand (engine-adapter-incidents.ts).
 */
export type IncidentsRequest = { type: 'incidents'; id: number };

export interface InitResult {
  builtins: BuiltinInfo[];
  defaultId: string;
  engineReady: boolean;
  /** the kinds of change a search may make (Explore's checkboxes), as the engine names them */
  exploreKinds: string[];
  /** the releases the version picker offers (versions.ts BEHAVIOUR_CHANGES) */
  releases: string[];
}

export interface RunPayload {
  runId: number;
  /** the scenario as validation completed it (defaults filled in) */
  scenario: Scenario;
  /** nodeIds(scenario.redis) */
  nodeIds: string[];
  trace: Trace;
  model: LaneModel;
  /** what the page reads of the events before it parses them (run-outline.ts) */
  outline?: RunOutline;
  verbose: boolean;
  /**
   * Where the worker's time went, in ms: the run, the lanes (with the state at the cursor and the
   * outline); `posted`, when the answer left it (performance.timeOrigin + now(), comparable across
   * threads): the page takes the transfer from it.
   */
  timing: {
    run: number;
    lanes: number;
    posted: number;
    /** when the worker took the request (performance.timeOrigin + now()), and its validation's ms */
    received?: number;
    validate?: number;
  };
}

/** The cursor a run will open at: an event index (clamped), the last event at a virtual time, or -1. */
export type CursorAt = { index: number } | { clock: number };

/**
 * A scenario the schema refuses is an answer, not an error: its issues go to the editor. `first`:
 * the state at the cursor the request's `at` names, so the inspectors show it with the lanes
 * rather than one more trip to the worker later.
 */
export type RunOutcome =
  | ({ ok: true; first?: { index: number; state: VisibleState } } & RunPayload)
  | { ok: false; issues: SchemaIssue[] };

/**
 * How a run's answer crosses from the worker: the lane model, the trace but its events, and the
 * trace's events, each as JSON text. A string is copied in one piece (contention-100's events, 6.7
 * MB, in about 10 ms on each side; as UTF-8 in a transferred buffer, TextEncoder alone took 30-46
 * ms in the worker), and JSON.parse of contention-100's 44,000 events took about a fifth
 * less of the page's thread than its side of a structured clone (docs/performance.md, "The page");
 * its lane model (1.5 MB cloned, tens of thousands of small objects) made the round trip in about
 * 30 ms as JSON against about 75 ms cloned. Both are plain data, JSON by design (the page exports
 * the trace so); only an absent field's `undefined` is lost, and `lock`, the one that occurs, reads
 * the same. The page parses the events only when something reads them (the controller reads the
 * shown run's in the task after its first draw, which needs the lanes, not the events:
 * docs/performance.md, "fifth pass: the trip"). (Sending the trace ahead of the lanes, for the page to parse meanwhile, was measured twice
 * and lost both times on the shared 2-core machine: docs/performance.md.)
 */
export type WireRun = {
  type: 'run';
  id: number;
  /**
   * `traceText`: the trace with `events: 0` in its place; `eventsText`: its events, `eventCount`
   * how many; `wireMs`: what writing them took the worker (the page's
   * `lockscope:wire` mark)
   */
  result: {
    ok: true;
    traceText: string;
    eventsText: string;
    eventCount: number;
    modelText: string;
    wireMs?: number;
  } & Omit<RunPayload, 'trace' | 'model'>;
};

export function toWire(res: Response): Response | WireRun {
  if (res.type !== 'run' || !res.result.ok) return res;
  const { trace, model, ...rest } = res.result;
  const started = performance.now();
  // the events' place is kept, so the page's trace lists its fields in the same order (exports)
  const traceText = stringifyByField({ ...trace, events: 0 });
  const eventsText = JSON.stringify(trace.events);
  const modelText = stringifyByField(model);
  const wireMs = performance.now() - started;
  const eventCount = trace.events.length;
  return { ...res, result: { ...rest, traceText, eventsText, eventCount, modelText, wireMs } };
}

/**
 * `JSON.stringify(o)` of a plain-data object, the same text, written one top-level field at a
 * time. In Chromium's worker contention-100's trace took 55-85 ms in one call and its events
 * alone 16-31 ms; its lane model 37 ms in one call and 7 ms field by field (docs/performance.md,
 * "fourth pass: the pick"). A field JSON leaves out (undefined, a function) is left out here too.
 */
export function stringifyByField(o: object): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(o)) {
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

export function fromWire(msg: Response | WireRun): Response {
  if (msg.type !== 'run' || !msg.result.ok || !('traceText' in msg.result)) return msg as Response;
  const { traceText, eventsText, eventCount, modelText, wireMs, ...rest } = msg.result;
  const arrived = performance.now();
  const trace = JSON.parse(traceText) as Trace;
  deferEvents(trace, eventsText);
  const model = JSON.parse(modelText) as LaneModel;
  // User Timing for the performance spec: the trip's two ends, the worker's JSON and the page's
  // parse (whatever else `timing.transfer` holds is the message's copy and its wait in the queue).
  performance.mark('lockscope:wire', {
    detail: {
      events: eventCount,
      write: wireMs,
      parse: performance.now() - arrived,
      arrived: performance.timeOrigin + arrived,
    },
  });
  return { ...msg, result: { ...rest, trace, model } };
}

/**
 * `trace.events` parsed from `text` when first read (a plain array from then on), in its place
 * among the trace's fields. The `lockscope:events` mark says when, and how long it took.
 */
function deferEvents(trace: Trace, text: string): void {
  const settle = (events: Trace['events']) =>
    Object.defineProperty(trace, 'events', {
      value: events,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  Object.defineProperty(trace, 'events', {
    enumerable: true,
    configurable: true,
    get() {
      const started = performance.now();
      const events = JSON.parse(text) as Trace['events'];
      settle(events);
      performance.mark('lockscope:events', {
        detail: { events: events.length, parse: performance.now() - started },
      });
      return events;
    },
    set: settle,
  });
}

export type Response =
  | LessonResponse
  | { type: 'init'; id: number; result: InitResult }
  | { type: 'incidents'; id: number; result: BuiltinInfo[] }
  | { type: 'run'; id: number; result: RunOutcome }
  | { type: 'stateAt'; id: number; result: VisibleState }
  | { type: 'traits'; id: number; result: TraitText[] }
  | { type: 'console'; id: number; result: ConsoleAnswer }
  | { type: 'error'; id: number; message: string };
