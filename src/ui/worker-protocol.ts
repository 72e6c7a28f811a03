/** Messages between the page and the engine worker (worker.ts). Plain data only. */
import type { SchemaIssue } from '../engine/scenario/api';
import type { Trace, VisibleState } from '../engine/trace/types';
import type { BuiltinInfo, ConsoleAnswer } from './engine-adapter';
import type { LaneModel } from './timeline/model';

export type Request =
  | { type: 'init'; id: number }
  | { type: 'validate'; id: number; json: unknown }
  | { type: 'run'; id: number; scenario: unknown; verbose: boolean }
  | { type: 'stateAt'; id: number; runId: number; index: number }
  | { type: 'console'; id: number; runId: number; index: number; node: string; line: string };

export interface InitResult {
  builtins: BuiltinInfo[];
  defaultId: string;
  engineReady: boolean;
}

export interface RunPayload {
  runId: number;
  trace: Trace;
  model: LaneModel;
  verbose: boolean;
  ms: number;
}

export type ValidatePayload = { ok: true } | { ok: false; issues: SchemaIssue[] };

export type Response =
  | { type: 'init'; id: number; result: InitResult }
  | { type: 'validate'; id: number; result: ValidatePayload }
  | { type: 'run'; id: number; result: RunPayload }
  | { type: 'stateAt'; id: number; result: VisibleState }
  | { type: 'console'; id: number; result: ConsoleAnswer }
  | { type: 'error'; id: number; message: string };
