/**
 * Actor ids, the lane names of the trace: `"<client>:<thread>"` for a scenario thread, the client
 * id for the client itself, `"<client>/<role>"` for its background processes (the watchdog timer,
 * the pub/sub bookkeeping), node ids (`master`, `replica-1`, `sentinel-1`) for nodes. Client ids
 * and thread ids never contain ':' or '/' (the scenario schema refuses them).
 */
import type { Actor } from './types';

/** The actor of thread `thread` of client `client`. */
export function threadActor(client: string, thread: number | string): Actor {
  return `${client}:${thread}`;
}

/** The actor of a client's watchdog timer (Redisson's renewal scheduler). */
export function watchdogActor(client: string): Actor {
  return `${client}/watchdog`;
}

const THREAD_RE = /^[^:/\s]+:[^:/\s]+$/;

/** True for a thread's actor id ("A:1"), false for clients, their processes and nodes. */
export function isThreadActor(actor: string | undefined): actor is Actor {
  return actor !== undefined && THREAD_RE.test(actor);
}

/** The client of a thread's actor id; any other actor is returned as it is. */
export function clientOf(actor: Actor): string {
  const i = actor.indexOf(':');
  return i < 0 ? actor : actor.slice(0, i);
}
