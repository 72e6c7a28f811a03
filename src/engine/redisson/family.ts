/**
 * The lock family by scenario `type`, as program steps reach it: which Redisson class a step gets,
 * and what its acquisition tells the trace beyond the owner. RLock is here; the fair, fenced,
 * spin, read-write, multi and red locks (with their scripts) register from family_locks.ts, which
 * scenario/run.ts imports for every Node entry and the page's engine worker loads before the first
 * run that can reach them (`needsLockFamily`), as it does Redis Cluster's and Sentinel's models.
 * Until they have registered no such lock can exist, so what is asked about a lock is RLock's answer.
 */
import type { RedissonClient } from './RedissonClient';
import type { RedissonLock } from './RedissonLock';
import type { RedissonMultiLock } from './RedissonMultiLock';
import type { RedissonFencedLock } from './RedissonFencedLock';
import { FAMILY_TYPES, type FamilyType } from '../lock_types';
import type { EventFields } from '../trace/types';
export { FAMILY_TYPES, type FamilyType };

export type FamilyLock = RedissonLock | RedissonMultiLock;

export function isFamilyType(type: string): type is FamilyType {
  return (FAMILY_TYPES as readonly string[]).includes(type);
}

export interface FamilyOptions {
  /** sub-lock names of a MultiLock / RedLock */
  locks?: readonly string[];
  topology?: string;
}

export type RequestFields = Pick<EventFields<'lock.request'>, 'owner' | 'key' | 'owners'>;
export type AcquiredFields = Pick<
  EventFields<'lock.acquired'>,
  'owner' | 'key' | 'owners' | 'token' | 'validityMs'
>;

/** What family_locks.ts registers: the family's classes behind the questions program steps ask. */
export interface LockFamily {
  familyLock(client: RedissonClient, type: FamilyType, name: string, o: FamilyOptions): FamilyLock;
  requestFields(lock: FamilyLock, threadId: number): RequestFields;
  acquiredFields(lock: FamilyLock, threadId: number): AcquiredFields;
  fencingToken(lock: FamilyLock, threadId: number): number | undefined;
  isMultiLock(lock: unknown): boolean;
  isFencedLock(lock: unknown): boolean;
}

let family: LockFamily | null = null;

export function provideLockFamily(f: LockFamily): void {
  family = f;
}

/** The lock object a thread gets for `type` and `name` (redisson.getLock(name), getFairLock(name), ...). */
export function familyLock(
  client: RedissonClient,
  type: FamilyType,
  name: string,
  o: FamilyOptions = {},
): FamilyLock {
  if (type === 'RLock') return client.getLock(name);
  if (family === null)
    throw new Error(`lock type ${type} needs the lock family's classes: import redisson/family_locks.ts`);
  return family.familyLock(client, type, name, o);
}

/**
 * What `lock.request` can already say: the owner (and key) the acquire will write, so that a
 * lease overlap (V2) checked before the acquire's reply is back names the thread.
 */
export function requestFields(lock: FamilyLock, threadId: number): RequestFields {
  return family === null ? { owner: lock.getLockName(threadId) } : family.requestFields(lock, threadId);
}

/**
 * What `lock.acquired` says about this acquisition: `owner` (the hash field the lock stores), and
 * for the family's other members `key`, `owners`, `token` or `validityMs` (family_locks.ts).
 */
export function acquiredFields(lock: FamilyLock, threadId: number): AcquiredFields {
  return family === null ? { owner: lock.getLockName(threadId) } : family.acquiredFields(lock, threadId);
}

/** The fencing token a thread holding `lock` passes to the resource, if it has one. */
export function fencingToken(lock: FamilyLock, threadId: number): number | undefined {
  return family === null ? undefined : family.fencingToken(lock, threadId);
}

/** Whether `lock` is a RedissonMultiLock (or a RedLock, which is one). */
export function isMultiLock(lock: unknown): lock is RedissonMultiLock {
  return family !== null && family.isMultiLock(lock);
}

export function isFencedLock(lock: unknown): lock is RedissonFencedLock {
  return family !== null && family.isFencedLock(lock);
}

const LAZY_TYPES: ReadonlySet<string> = new Set(FAMILY_TYPES.filter((t) => t !== 'RLock'));

/**
 * Whether a scenario (as written, before validation) can reach the family's classes or scripts:
 * it names one of the other lock types anywhere, or holds Lua text (an `eval` step, a `redis`
 * step's EVAL or SCRIPT LOAD, an edited script) that could be one of their scripts, whose
 * traced lines come from the layout registered with it. Errs on the side of loading them.
 */
export function needsLockFamily(scenario: unknown): boolean {
  const seen = (v: unknown): boolean => {
    if (typeof v === 'string') return LAZY_TYPES.has(v) || v.includes('redis.');
    if (Array.isArray(v)) return v.some(seen);
    if (v !== null && typeof v === 'object') return Object.values(v).some(seen);
    return false;
  };
  return seen(scenario);
}
