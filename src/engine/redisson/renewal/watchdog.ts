/**
 * How the watchdogs appear in the trace, shared by every renewal design (kept apart from
 * RenewalService.ts, which picks the design and so imports them all).
 */
import type { ServiceManager } from '../executor';

export type CancelReason = 'unlock' | 'forceUnlock' | 'lost' | 'error';

/** Trace actor (process name) of a client's watchdog timers. */
export function watchdogActor(client: ServiceManager): string {
  return `${client.name}/watchdog`;
}

/**
 * watchdog.renew / watchdog.cancel are told on the lane of the thread whose lock they concern
 * (`actor`), with the timer that did it as `timer`; the renewal's own command carries the timer.
 */
export function emitWatchdog(
  client: ServiceManager,
  kind: 'watchdog.renew' | 'watchdog.cancel',
  lock: string,
  threadId: number | null,
  fields: Record<string, unknown>,
): void {
  const actor = threadId === null ? watchdogActor(client) : `${client.name}:${threadId}`;
  client.ctx.emit(kind, { actor, lock, timer: watchdogActor(client), ...fields });
}
