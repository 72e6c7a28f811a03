/**
 * The kernel tests' world (sim/kernel.test.ts, sim/kernel_faults.test.ts): one master, a thread
 * spawned from a generator, a semaphore or A's connection, and a run to the end.
 */
import type { TraceEvent } from '../../trace/types';
import type { Process } from '../../sim/effects';
import { masterWorld } from './world';

export function world(opts: { latencyMs?: number; threads?: string[] } = {}) {
  return masterWorld({ seed: 7, threads: opts.threads ?? ['A:1', 'B:1'], latencyMs: opts.latencyMs });
}

export type Kernel = ReturnType<typeof world>['kernel'];

/** Spawns `body` as thread `actor` ("A:1") of its client. */
export function thread(k: Kernel, actor: string, body: () => Process<void>) {
  return k.spawn(actor.split(':')[0], actor, body());
}

/** A:1 runs `body` over its own connection to the master. */
export function onA(k: Kernel, body: (conn: ReturnType<Kernel['connect']>) => Process<void>) {
  const conn = k.connect('A', 'master', 'A/cmd');
  return thread(k, 'A:1', () => body(conn));
}

/** A world, its kernel, one semaphore and a log for the threads that wait on it. */
export function semaphoreWorld() {
  const w = world();
  return { w, k: w.kernel, sem: w.kernel.semaphore(), log: [] as string[] };
}

/** A world, its kernel, A's connection to the master, and a log for A:1. */
export function connWorld(opts: Parameters<typeof world>[0] = {}) {
  const w = world(opts);
  return { w, k: w.kernel, conn: w.kernel.connect('A', 'master', 'A/cmd'), log: [] as string[] };
}

export const runAll = (w: ReturnType<typeof world>, until = 1e9) => w.kernel.run(until, () => false, 1e6);
export const kinds = (events: TraceEvent[], kind: string) => events.filter((e) => e.kind === kind);
