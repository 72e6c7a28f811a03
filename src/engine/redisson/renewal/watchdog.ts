/**
 * How the watchdogs appear in the trace, shared by every renewal design (kept apart from
 * RenewalService.ts, which picks the design and so imports them all).
 */
import { watchdogActor as watchdogOf } from '../../trace/actors';
import type { AssembledEvent, EventFields } from '../../trace/types';
import type { ServiceManager } from '../executor';

export type CancelReason = 'unlock' | 'forceUnlock' | 'lost' | 'error';

/** Trace actor (process name) of a client's watchdog timers. */
export function watchdogActor(client: ServiceManager): string {
  // (made once per client: every renewal and cancel event names it twice)
  let actor = actors.get(client);
  if (actor === undefined) actors.set(client, (actor = watchdogOf(client.name)));
  return actor;
}

const actors = new WeakMap<ServiceManager, string>();

/**
 * watchdog.renew / watchdog.cancel are told on the lane of the thread whose lock they concern
 * (`actor`), with the timer that did it as `timer`; the renewal's own command carries the timer.
 */
export function emitWatchdog<K extends 'watchdog.renew' | 'watchdog.cancel'>(
  client: ServiceManager,
  kind: K,
  lock: string,
  threadId: number | null,
  fields: Omit<EventFields<K>, 'actor' | 'lock' | 'timer'>,
): void {
  const timer = watchdogActor(client);
  const actor = threadId === null ? timer : client.laneOf(threadId);
  client.ctx.record({ t: 0, seq: 0, kind, actor, lock, timer, ...fields } as unknown as AssembledEvent<K>);
}
