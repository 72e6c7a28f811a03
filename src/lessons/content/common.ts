/**
 * What several lessons say the same way: the selectors and patches they share. Data only, like
 * the lessons themselves (no engine imports), so a lesson still reads as its own JSON.
 */
import type { EventSelector, PatchOp } from '../types';

/** The moment `actor` got the lock (its first acquire unless `nth` says otherwise). */
export const acquired = (actor: string): EventSelector => ({ kind: 'lock.acquired', actor });

/**
 * Sets `field` on the lock op that starts each given client's program: the lessons switch every
 * contender to another lock type at once, or none of them would be protected.
 */
export const onFirstOps = (
  op: 'add' | 'replace',
  field: string,
  value: unknown,
  clients: number[] = [0, 1],
): PatchOp[] => clients.map((c) => ({ op, path: `/clients/${c}/threads/0/program/0/${field}`, value }));
