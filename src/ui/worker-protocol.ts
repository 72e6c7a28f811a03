/** Messages between the page and the engine worker (worker.ts). Plain data only. */
import type { Scenario } from '../engine/scenario/schema';
import type { SchemaIssue } from '../engine/scenario/api';
import type { Trace, VisibleState } from '../engine/trace/types';
import type { BuiltinInfo, ConsoleAnswer } from './engine-adapter';
import type { LessonResponse } from './lessons/lesson-protocol';
import type { LaneModel } from './timeline/model';

export type Request =
  | { type: 'init'; id: number }
  /** validates and runs; `verbose` (script lines in the trace) defaults to the worker's choice by size */
  | { type: 'run'; id: number; scenario: unknown; verbose?: boolean }
  | { type: 'stateAt'; id: number; runId: number; index: number }
  | { type: 'console'; id: number; runId: number; index: number; node: string; line: string };

export interface InitResult {
  builtins: BuiltinInfo[];
  defaultId: string;
  engineReady: boolean;
  /** the kinds of change a search may make (Explore's checkboxes), as the engine names them */
  exploreKinds: string[];
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
  ms: number;
}

/** A scenario the schema refuses is an answer, not an error: its issues go to the editor. */
export type RunOutcome = ({ ok: true } & RunPayload) | { ok: false; issues: SchemaIssue[] };

export type Response =
  | LessonResponse
  | { type: 'init'; id: number; result: InitResult }
  | { type: 'run'; id: number; result: RunOutcome }
  | { type: 'stateAt'; id: number; result: VisibleState }
  | { type: 'console'; id: number; result: ConsoleAnswer }
  | { type: 'error'; id: number; message: string };
