/**
 * Small readers deriveLaneModel (model.ts) uses on the trace: which watchdog sent a command, whether
 * a renew script failed, which threads and node lanes a renewal or a lease belongs to.
 */
import type { NodeLane, ThreadLane } from './lane-types';

/** The client whose watchdog sent a command (`A/watchdog`), or null. */
export function watchdogClient(actor: string | undefined): string | null {
  const m = actor === undefined ? null : /^([^:/\s]+)\/watchdog$/.exec(actor);
  return m === null ? null : m[1];
}

export function isNoScript(reply: unknown): boolean {
  return (
    reply !== null &&
    typeof reply === 'object' &&
    'error' in reply &&
    String((reply as { error: unknown }).error).startsWith('NOSCRIPT')
  );
}

/** A renew script's reply that says the lease was not extended (0, nil, an error, all zeros). */
export function renewFailed(reply: unknown): boolean {
  if (reply === null || reply === 0 || reply === false) return true;
  if (typeof reply === 'object' && !Array.isArray(reply) && 'error' in reply) return true;
  if (Array.isArray(reply)) return reply.length > 0 && reply.every((r) => r === 0 || r === null);
  return false;
}

/** Redisson's owner id in a script's arguments: "<uuid>:<thread id>", maybe ":write". */
const OWNER_ARG = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:(\d+)(?::write)?$/;

/** The thread lanes a watchdog's renew script is for: the owners it names, else the client's holders. */
export function renewedThreads(
  client: string,
  argv: readonly string[],
  lanes: ReadonlyMap<string, ThreadLane>,
  holds: ReadonlyMap<string, Readonly<Record<string, number>>>,
): string[] {
  const named = new Set<string>();
  for (const a of argv) {
    const m = OWNER_ARG.exec(a);
    if (m !== null && lanes.has(`${client}:${m[1]}`)) named.add(`${client}:${m[1]}`);
  }
  if (named.size > 0) return [...named];
  return [...lanes.keys()].filter(
    (id) => id.startsWith(`${client}:`) && Object.keys(holds.get(id) ?? {}).length > 0,
  );
}

/** Node lanes that show the lock's key during [from, to]. */
export function leaseLanes(
  nodes: ReadonlyMap<string, NodeLane>,
  lock: string,
  key: string,
  from: number,
  to: number,
): string[] {
  const out: string[] = [];
  const during = (s: { from: number; to: number }) => s.from <= to && s.to >= from;
  for (const [id, lane] of nodes) {
    // A replica's copy is no lease anyone was granted: only masters' keys count, as in V2.
    if (!lane.roles.some((r) => r.role === 'master' && during(r))) continue;
    if (lane.keys.some((k) => (k.key === key || k.key === lock) && k.label !== '' && during(k))) out.push(id);
  }
  return out;
}

/** Adds [from, to] to spans, merged with the last one when they overlap. */
export function addSpan(spans: { from: number; to: number }[], from: number, to: number): void {
  const last = spans[spans.length - 1];
  if (last !== undefined && from <= last.to) last.to = Math.max(last.to, to);
  else spans.push({ from, to });
}
