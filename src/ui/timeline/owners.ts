/**
 * Owner ids as people read them. Redisson writes "<instance uuid>:<thread id>" into the lock; the
 * trace's lock.request / lock.acquired events pair each owner id with the thread actor ("A:1")
 * that wrote it, so the screen can say A:1 and keep the UUID for hover. Nothing is guessed: an id
 * the trace never pairs with a thread stays as it is.
 */
import type { TraceEvent } from '../../engine/trace/types';
import { clientOf, isThreadActor } from '../../engine/trace/actors';

export interface OwnerNames {
  /** a whole owner value → its thread (a naive lock's random value too, when only one thread used it) */
  values: Record<string, string>;
  /** a Redisson instance uuid → its client */
  clients: Record<string, string>;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID_RE = new RegExp(`^${UUID}$`);
const UUID_THREAD_G = new RegExp(`(${UUID})(?::(\\d+))?`, 'g');

export const NO_OWNERS: OwnerNames = { values: {}, clients: {} };

/**
 * The owner names the events pair, one event at a time, for the lanes' walk of the events
 * (model.ts): `names` holds what the events added so far.
 */
export function ownerCollector(): { add: (e: TraceEvent) => void; names: OwnerNames } {
  const values: Record<string, string> = {};
  const clients: Record<string, string> = {};
  const shared = new Set<string>();
  const add = (owner: unknown, actor: string) => {
    if (typeof owner !== 'string' || owner === '') return;
    const uuid = owner.split(':')[0];
    if (UUID_RE.test(uuid)) clients[uuid] = clientOf(actor);
    // The same value written by two threads names neither; a short one ("1") is no identity at all.
    if (shared.has(owner) || owner.length < 8) return;
    if (values[owner] !== undefined && values[owner] !== actor) {
      shared.add(owner);
      delete values[owner];
    } else values[owner] = actor;
  };
  return {
    add: (e) => {
      if ((e.kind !== 'lock.request' && e.kind !== 'lock.acquired') || !isThreadActor(e.actor)) return;
      add(e.owner, e.actor);
      for (const o of e.owners ?? []) add(o, e.actor);
    },
    names: { values, clients },
  };
}

/**
 * `text` with every owner id it contains named: "<uuid>:1" → "A:1", "<uuid>" → "A". With
 * `keepId`, the short uuid follows in brackets ("A:1 (8b0f…)"), for tooltips.
 */
export function nameOwners(text: string, owners: OwnerNames, keepId = false): string {
  const whole = owners.values[text];
  if (whole !== undefined && !UUID_RE.test(text.split(':')[0])) return keepId ? `${whole} (${text})` : whole;
  return text.replace(UUID_THREAD_G, (m, uuid: string, thread: string | undefined) => {
    const client = owners.clients[uuid];
    if (client === undefined) return m;
    const name =
      thread === undefined ? client : (owners.values[`${uuid}:${thread}`] ?? `${client}:${thread}`);
    return keepId ? `${name} (${uuid.slice(0, 8)}…)` : name;
  });
}
