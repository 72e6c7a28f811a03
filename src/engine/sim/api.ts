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
  /** Semaphore.getQueueLength(): how many processes are blocked in an acquire of `sem` right now. */
  queueLength(sem: Semaphore): number;
  /** Thread.interrupt(): ends an interruptible acquire of that process with 'interrupted'. */
  interrupt(handle: ProcHandle): void;
  /**
   * Open a connection from a client to a node. Pushed frames reach `onPush` one network latency
   * after the node sent them; never while the client is crashed, and deferred while it is
   * paused. Frames are pub/sub messages and also the extra confirmations of a multi-channel
   * (UN)SUBSCRIBE (the first confirmation is the call's reply; the others follow it as pushes).
   * `onDrop` runs (one latency later, gated like a push) when the node side of the connection
   * is lost (the node crashed): its subscriptions are gone; the next call reconnects.
   */
  connect(
    client: string,
    node: string,
    label: string,
    onPush?: (msg: Reply) => void,
    onDrop?: () => void,
  ): ConnectionRef;
  disconnect(conn: ConnectionRef): void;
  /** The node a client currently treats as master (changes after a failover). */
  masterFor(client: string, hint?: string): string;
  /** connected_slaves of a node, as INFO replication reports it (Redisson's WAIT count). */
  replicasOf?(node: string): number;
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

// ---------------------------------------------------------------------------------------------
// The client side of a run (scenario/program.ts, owned by the client-model engineer).
//
// The runner (scenario/run.ts) builds the nodes and the kernel, then calls
//   import { startClients } from './program';
//   const clients = startClients(ctx, scenario);
// `startClients` spawns one process per scenario thread (owner = client id, name = "A:1") at its
// `start` time, each running the thread's program, and returns a ClientsHandle.
// Faults are the runner's: `crash` and `pause` of a client are done by the kernel for every
// process and connection of that owner; `interrupt` goes through `threadProc`.
//
// The state inspectors and the checkers read only the trace, so the client side must emit these
// events with these fields (any event of a thread may also carry `step`, the index of the program
// step in the flattened program):
//   thread.start      actor
//   thread.done       actor
//   thread.result     actor, step, result          one per step that returns something (JSON value)
//   work.start        actor, ms, op: 'work' | 'sleep' | 'use'
//   work.end          actor
//   lock.request      actor, lock, type, owner?, key?   (owner/key as in lock.acquired; giving
//                     them here lets V2 name threads before the acquire's reply is back)
//   lock.wait         actor, lock, ttl
//   waiter.wakeup     actor, lock, cause
//   lock.acquired     actor, lock, holdCount, owner, key?, node?
//                     `owner` is the server-side identity the lock stores (the hash field
//                     "<uuid>:<threadId>" of a Redisson lock, the random value of a naive lock);
//                     `key` the Redis key holding it when it is not the lock name; `node` the node
//                     it was taken on when it is not masterFor(client).
//   lock.failed       actor, lock                  tryLock gave up
//   unlock.request    actor, lock, type, holdCount   unlock called (the critical section ends);
//                     holdCount = holds left once it succeeds
//   lock.released     actor, lock, holdCount       after the unlock's reply; holdCount = holds left
//                                                  (0: fully released)
//   lock.error        actor, lock, op, error       op 'unlock' ends the hold (IllegalMonitorState)
//   resource.use      actor, lock, accepted, token, value   value = resource value after it
// ---------------------------------------------------------------------------------------------

export interface ClientsHandle {
  /** The process running a thread's program (for `interrupt` faults); undefined once it ended. */
  threadProc(client: string, thread: number): ProcHandle | undefined;
  /**
   * Called by the runner right after the kernel crashed a client (its processes are killed and
   * its connections dropped), so the client model can forget local state (e.g. renewal maps).
   */
  onCrash?(client: string): void;
}

/** Signature of `startClients` in scenario/program.ts. */
export type StartClients = (
  ctx: SimContext,
  scenario: import('../scenario/schema').Scenario,
) => ClientsHandle;

export interface RunOptions {
  /** emit script.line / script.call events (slow; for the script view) */
  verbose?: boolean;
}
