/**
 * The kernel services the client models (Redisson, naive locks, the resource, the program
 * interpreter) build on, and the runner API the UI and CLI call. Implemented by the simulation
 * kernel (sim/kernel.ts) and the runner (scenario/run.ts).
 */
import type { Reply } from '../redis/reply';
import type { EventKind, Trace, TraceEvent, VisibleState } from '../trace';
import type { ConnectionRef, Process, Semaphore } from './effects';

/** A seeded pseudo-random generator: all randomness of a run comes from these. */
export interface Prng {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  /** n random bytes as lower-case hex */
  hex(bytes: number): string;
}

export interface ProcHandle {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  readonly done: boolean;
}

export type EventFields = Omit<TraceEvent, 't' | 'seq' | 'kind'>;

export interface SimContext {
  now(): number;
  emit(kind: EventKind, fields: EventFields): void;
  /** One PRNG per purpose, derived from the scenario seed and the purpose string. */
  rng(purpose: string): Prng;
  /** Start a process owned by a client (or node); `name` is the trace actor, e.g. "A:1" or "A/watchdog". */
  spawn(owner: string, name: string, proc: Process<unknown>): ProcHandle;
  kill(handle: ProcHandle): void;
  semaphore(): Semaphore;
  release(sem: Semaphore, permits?: number): void;
  /** Thread.interrupt(): ends an interruptible acquire of that process with 'interrupted'. */
  interrupt(handle: ProcHandle): void;
  /**
   * Open a connection from a client to a node. Pushed messages (pub/sub) reach `onPush` one
   * network latency after the node sent them; never while the client is crashed, and deferred
   * while it is paused.
   */
  connect(client: string, node: string, label: string, onPush?: (msg: Reply) => void): ConnectionRef;
  disconnect(conn: ConnectionRef): void;
  /** The node a client currently treats as master (changes after a failover). */
  masterFor(client: string, hint?: string): string;
}

export interface SchemaIssue {
  /** JSON path, e.g. "clients[1].threads[0].program[2].op" */
  path: string;
  message: string;
}

export type ValidationResult<S> = { ok: true; scenario: S } | { ok: false; issues: SchemaIssue[] };

export interface RunResult {
  trace: Trace;
  /** Everything visible right after event `index` (-1: the initial state), without re-running the scenario. */
  stateAt(index: number): VisibleState;
}
