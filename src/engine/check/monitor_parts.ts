/**
 * The SafetyMonitor's records and its reading of a lock key (monitor.ts): who owns a Redisson
 * lock hash or a naive string lock, and the extra fields a violation carries.
 */
import type { Actor, KeyView, Violation } from '../trace/types';

/** The extra fields a violation may carry besides kind, lock, from, to and holders. */
export type ViolationExtra = Pick<Violation, 'cause' | 'waiting' | 'serverHolds' | 'clientHolds'>;

export interface Hold {
  readOnly: boolean;
}

/** A thread's latest first acquisition of a lock (holdCount 1): `seq` orders acquisitions. */
export interface Grant {
  seq: number;
  t: number;
}

/** A use of the resource between its read and its write, as resource.use's `pending` lists it. */
export interface PendingUse {
  actor: Actor;
  lock: string | null;
  readAt: number;
}

/** Redisson's owner id: "<client uuid>:<thread id>", ":write" appended by a write lock. */
export const REDISSON_OWNER = /^(.+):(\d+)(?::write)?$/;

/** The field Redisson's read/write lock hash uses for its mode, not an owner. */
export const RW_MODE_FIELD = 'mode';
export const SHARED_READERS = '(readers)';

/** A violation's extra fields (L1's `waiting`, a cause, L4's counts), copied into its events. */
export function extra(v: Violation): ViolationExtra {
  const out: ViolationExtra = {};
  if (v.kind !== 'V3' && v.cause !== undefined) out.cause = v.cause;
  if (v.waiting !== undefined) out.waiting = v.waiting.slice();
  if (v.serverHolds !== undefined) out.serverHolds = v.serverHolds;
  if (v.clientHolds !== undefined) out.clientHolds = v.clientHolds;
  return out;
}

/** The server-side owners a lock key's current value names. */
export function leaseOwners(view: KeyView | undefined): string[] {
  if (view === undefined) return [];
  if (view.type === 'string') return [view.value as string];
  if (view.type !== 'hash') return [];
  const fields = view.value as [string, string][];
  const owners: string[] = [];
  let read = false;
  for (const [f, v] of fields) {
    if (f === RW_MODE_FIELD) read = v === 'read';
    else owners.push(f);
  }
  return read && owners.length ? [SHARED_READERS] : owners;
}
