/** Small builders for the lock-family tests: scenarios as JSON, read back through simulate(). */
import { simulate, type Simulation } from './simulate';
import type { TraceEvent } from '../../trace/types';

export type Op = Record<string, unknown>;
export interface T {
  id: number;
  start?: number;
  program: Op[];
}

export function run(clients: Record<string, T[]>, extra: Record<string, unknown> = {}): Simulation {
  return simulate({
    format: 'lockscope/1',
    clients: Object.entries(clients).map(([id, threads]) => ({ id, threads })),
    ...extra,
  });
}

/** A:1 alone, running `program`. */
export function runA(program: Op[], extra: Record<string, unknown> = {}): Simulation {
  return run({ A: [{ id: 1, program }] }, extra);
}

export { lockOps } from '../../scenario/build';

export const work = (ms: number): Op => ({ op: 'work', ms });
export const redis = (...argv: string[]): Op => ({ op: 'redis', argv });

export function first(s: Simulation, kind: string, actor?: string): TraceEvent {
  const e = s.of(kind, actor)[0];
  if (!e) throw new Error(`no ${kind} event${actor ? ` of ${actor}` : ''}`);
  return e;
}

/** argv of every command a thread (or anyone) sent */
export const cmds = (s: Simulation, actor?: string) => s.of('cmd', actor).map((e) => e.argv as string[]);

/** [actor, t] of every lock.acquired, in order */
export const acquisitions = (s: Simulation) => s.of('lock.acquired').map((e) => [e.actor, e.t] as const);
