/** Messages between the page and the engine worker (worker.ts). Plain data only. */
import type { TraitText } from '../engine/redisson/versions';
import type { Scenario } from '../engine/scenario/schema';
import type { SchemaIssue } from '../engine/scenario/api';
import type { Trace, VisibleState } from '../engine/trace/types';
import type { BuiltinInfo, ConsoleAnswer } from './engine-adapter';
import type { LessonResponse } from './lessons/lesson-protocol';
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
  verbose: boolean;
  /**
   * Where the worker's time went, in ms: the run, the lanes; `posted`, when the answer left it
   * (performance.timeOrigin + now(), comparable across threads): the page takes the transfer from it.
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
 * How a run's answer crosses from the worker: the trace and the lane model as JSON text. A string
 * is copied in one piece, and JSON.parse of contention-100's 44,000 events took about a fifth less
 * of the page's thread than its side of a structured clone (docs/performance.md, "The page"); its
 * lane model (1.5 MB cloned, tens of thousands of small objects) made the round trip in about 30 ms
 * as JSON against about 75 ms cloned. Both are plain data, JSON by design (the page exports the
 * trace so); only an absent field's `undefined` is lost, and `lock`, the one that occurs, reads the
 * same. (Sending the trace ahead of the lanes, for the page to parse meanwhile, was measured twice
 * and lost both times on the shared 2-core machine: docs/performance.md.)
 */
export type WireRun = {
  type: 'run';
  id: number;
  /** `wireMs`: what writing the two texts took the worker (the page's `lockscope:wire` mark) */
  result: { ok: true; traceText: string; modelText: string; wireMs?: number } & Omit<
    RunPayload,
    'trace' | 'model'
  >;
};

export function toWire(res: Response): Response | WireRun {
  if (res.type !== 'run' || !res.result.ok) return res;
  const { trace, model, ...rest } = res.result;
  const started = performance.now();
  const traceText = stringifyByField(trace);
  const modelText = stringifyByField(model);
  return { ...res, result: { ...rest, traceText, modelText, wireMs: performance.now() - started } };
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
  const { traceText, modelText, wireMs, ...rest } = msg.result;
  const arrived = performance.now();
  const trace = JSON.parse(traceText) as Trace;
  const model = JSON.parse(modelText) as LaneModel;
  // User Timing for the performance spec: the trip's two ends, the worker's JSON and the page's
  // parse (whatever else `timing.transfer` holds is the message's copy and its wait in the queue).
  performance.mark('lockscope:wire', {
    detail: {
      events: trace.events.length,
      write: wireMs,
      parse: performance.now() - arrived,
      arrived: performance.timeOrigin + arrived,
    },
  });
  return { ...msg, result: { ...rest, trace, model } };
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
