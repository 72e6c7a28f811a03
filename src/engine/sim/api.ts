/**
 * The kernel services the client models (Redisson, naive locks, the resource, the program
 * interpreter) build on. Implemented by the simulation kernel (sim/kernel.ts); the runner API the
 * UI and CLI call is in scenario/api.ts.
 */
import type { Reply } from '../redis/reply';
import type { RedisServer } from '../redis/server';
import type { AssembledEvent, EventFields, EventKind } from '../trace/types';
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

/** Receives a frame the node pushed on a connection; `delivery` is its pubsub.deliver event's seq. */
export type PushHandler = (msg: Reply, delivery: number | null) => void;

export interface ProcHandle {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  readonly done: boolean;
}

export interface SimContext {
  now(): number;
  emit<K extends EventKind>(kind: K, fields: EventFields<K>): void;
  /** `emit` of an event built whole by its writer, head first: no copy (Recorder.record) */
  record<K extends EventKind>(event: AssembledEvent<K>): void;
  /** One PRNG per purpose, derived from the scenario seed and the purpose string. */
  rng(purpose: string): Prng;
  /** Start a process owned by a client (or node); `name` is the trace actor, e.g. "A:1" or "A/watchdog". */
  /**
   * `steps`: how many ops the process's program has (a thread's expanded program); it sizes how
   * many times the process may resume at one virtual instant before the run is stopped as stuck.
   */
  spawn(owner: string, name: string, proc: Process<unknown>, steps?: number): ProcHandle;
  kill(handle: ProcHandle): void;
  semaphore(): Semaphore;
  release(sem: Semaphore, permits?: number): void;
  /** Semaphore.getQueueLength(): how many processes are blocked in an acquire of `sem` right now. */
  queueLength(sem: Semaphore): number;
  /** Thread.interrupt(): ends an interruptible acquire of that process with 'interrupted'. */
  interrupt(handle: ProcHandle): void;
  /** Future.cancel(): the process's call or wait ends by throwing `error` into it (kernel.ts). */
  throwInto(handle: ProcHandle, error: unknown): void;
  /**
   * Open a connection from a client to a node. Pushed frames reach `onPush` one network latency
   * after the node sent them; never while the client is crashed, and deferred while it is
   * paused. Frames are pub/sub messages and also the extra confirmations of a multi-channel
   * (UN)SUBSCRIBE (the first confirmation is the call's reply; the others follow it as pushes).
   * `delivery` is the seq of the pubsub.deliver event recorded for a message (null for other
   * frames). `onDrop` runs (one latency later, gated like a push) when the node side of the connection
   * is lost (the node crashed): its subscriptions are gone; the next call reconnects.
   */
  connect(
    client: string,
    node: string,
    label: string,
    onPush?: PushHandler,
    onDrop?: () => void,
  ): ConnectionRef;
  disconnect(conn: ConnectionRef): void;
  /**
   * The node a client currently treats as master (changes after a failover); in a cluster, the
   * master of `key`'s slot in the client's slot map.
   */
  masterFor(client: string, hint?: string, key?: string): string;
  /** A MOVED to `address` reached a client (cluster): the node to re-send to, null if unknown. */
  redirect?(client: string, address: string): string | null;
  /** connected_slaves of a node, as INFO replication reports it (Redisson's WAIT count). */
  replicasOf?(node: string): number;
  /**
   * The replicas a client may read from for `master` (Sentinel and cluster: the master's
   * replicas that are up; empty in single-server mode), in the order its balancer cycles them.
   */
  readReplicas?(client: string, master: string): string[];
  /** Cluster: the masters in the client's slot map, in slot order (ClusterConnectionManager's entries). */
  slotMasters?(client: string): string[];
  /** Run `fn` whenever the client's cluster slot map changes (its scan saw a new owner). */
  onSlotMapChange?(client: string, fn: () => void): void;
}

/**
 * What the deployment (topology/**: replication links, Sentinel, client discovery) needs from the
 * kernel: time, the network, and the data nodes it drives. Implemented by the kernel.
 */
export interface TopologyHost {
  now(): number;
  emit<K extends EventKind>(kind: K, fields: EventFields<K>): void;
  rng(purpose: string): Prng;
  /** Runs `fn` at virtual time `at` (not gated by any client). */
  at(at: number, fn: () => void): void;
  isUp(id: string): boolean;
  reachable(a: string, b: string): boolean;
  /** One-way delay of a message `a` sends `b` now: spikes included, and FIFO behind earlier spiked messages. */
  latency(a: string, b: string): number;
  /** The clock of a node (kernel time plus its offset), what its TTLs are measured against. */
  nodeNow(id: string): number;
  server(id: string): RedisServer | undefined;
  /** Runs `fn` on a node's server outside any client command and records the keys it changed. */
  onNode(id: string, fn: (server: RedisServer) => void): void;
  /** Replicas acknowledged more of the stream: WAITs on `id` whose count is reached return. */
  checkWaits(id: string): void;
  /** The node changed role: its blocked clients get UNBLOCKED. */
  unblockAll(id: string): void;
  /** CLIENT KILL TYPE normal + TYPE pubsub on a node. */
  killClients(id: string): void;
  /** Hear of data node crashes and restarts, right after their event is recorded. */
  onNodeLifecycle(listener: NodeLifecycle): void;
  /** A client's cluster slot map changed: its onSlotMapChange listeners run (not if it crashed). */
  slotMapChanged?(client: string): void;
}

export interface NodeLifecycle {
  /** the node went down (its data, if not persisted, is gone already or goes right after) */
  crashed(node: string): void;
  /** the node is up again, before its keyspace is re-read and its expiry re-armed */
  restarted(node: string): void;
}
