/**
 * The runner API the UI and CLI call (validate, run, scrub), and the contract between the runner
 * (scenario/run.ts) and the client side of a run (scenario/program.ts).
 */
import type { ProcHandle, SimContext } from '../sim/api';
import type { Trace, VisibleState } from '../trace/types';
import type { Scenario } from './schema';
import type { FrameReader } from './state';

export interface SchemaIssue {
  /** JSON path for display, e.g. "clients[1].threads[0].program[2].op" ("(root)" for the whole) */
  path: string;
  /** the same path as keys and indexes, e.g. ['clients', 1, 'threads', 0, 'program', 2, 'op'] */
  segments: (string | number)[];
  message: string;
}

export type ValidationResult<S> = { ok: true; scenario: S } | { ok: false; issues: SchemaIssue[] };

export interface RunResult {
  trace: Trace;
  /** Everything visible right after event `index` (-1: the initial state), without re-running the scenario. */
  stateAt(index: number): VisibleState;
  /** A forward-only reader of the states, one pass for the whole run (StateTimeline.sweep); absent in fixtures. */
  sweep?(): (index: number) => FrameReader;
}

// ---------------------------------------------------------------------------------------------
// The client side of a run (scenario/program.ts).
//
// The runner (scenario/run.ts) builds the nodes and the kernel, then calls
//   import { startClients } from './clients';
//   const clients = startClients(ctx, scenario);
// `startClients` spawns one process per scenario thread (owner = client id, name = "A:1") at its
// `start` time, each running the thread's program, and returns a ClientsHandle.
// Faults are the runner's: `crash` and `pause` of a client are done by the kernel for every
// process and connection of that owner; `interrupt` goes through `threadProc`.
//
// The state inspectors and the checkers read only the trace, so the client side must emit the
// events TraceEventMap (trace/types.ts) lists for it, with those fields.
// ---------------------------------------------------------------------------------------------

export interface ClientsHandle {
  /** The process running a thread's program (for `interrupt` faults); undefined once it ended. */
  threadProc(client: string, thread: number): ProcHandle | undefined;
  /**
   * Called by the runner right after the kernel crashed a client (its processes are killed and
   * its connections dropped), so the client model can forget local state (e.g. renewal maps).
   */
  onCrash?(client: string): void;
  /** Future.cancel() on the acquire a thread waits for (`cancel` faults); false if it waits for none. */
  cancel?(client: string, thread: number): boolean;
}

/** Signature of `startClients` in scenario/program.ts. */
export type StartClients = (ctx: SimContext, scenario: Scenario) => ClientsHandle;

export interface RunOptions {
  /** emit script.begin / script.line / script.call / script.end events (slow; for the script view) */
  verbose?: boolean;
}
