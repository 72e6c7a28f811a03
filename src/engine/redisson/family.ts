/**
 * The lock family by scenario `type`: which Redisson class a program step gets, and what its
 * acquisition tells the trace beyond the owner (the fencing token, the RedLock validity).
 *
 * MultiLock / RedLock are built from RLocks named by `locks`: in the `independent` topology the
 * i-th lives on master-i (through a Redisson instance pinned to that master), otherwise all of
 * them live on the client's master.
 */
import type { RedissonClient } from './RedissonClient';
import { RedissonLock } from './RedissonLock';
import { RedissonFairLock } from './RedissonFairLock';
import { RedissonFencedLock } from './RedissonFencedLock';
import { RedissonReadLock, RedissonWriteLock } from './RedissonReadWriteLock';
import { RedissonSpinLock } from './RedissonSpinLock';
import { RedissonMultiLock } from './RedissonMultiLock';
import { RedissonRedLock } from './RedissonRedLock';

export type FamilyLock = RedissonLock | RedissonMultiLock;

import { FAMILY_TYPES, type FamilyType } from '../lock_types';
import type { EventFields } from '../trace/types';
export { FAMILY_TYPES, type FamilyType };

export function isFamilyType(type: string): type is FamilyType {
  return (FAMILY_TYPES as readonly string[]).includes(type);
}

export interface FamilyOptions {
  /** sub-lock names of a MultiLock / RedLock */
  locks?: readonly string[];
  topology?: string;
}

/** The lock object a thread gets for `type` and `name` (redisson.getFairLock(name), ...). */
export function familyLock(
  client: RedissonClient,
  type: FamilyType,
  name: string,
  o: FamilyOptions = {},
): FamilyLock {
  switch (type) {
    case 'RLock':
      return client.getLock(name);
    case 'FairLock':
      return new RedissonFairLock(client, name);
    case 'FencedLock':
      return new RedissonFencedLock(client, name);
    case 'SpinLock':
      return new RedissonSpinLock(client, name);
    case 'ReadLock':
      return new RedissonReadLock(client, name);
    case 'WriteLock':
      return new RedissonWriteLock(client, name);
    case 'MultiLock':
    case 'RedLock': {
      const names = o.locks && o.locks.length ? o.locks : [name];
      const subs = names.map((n, i) =>
        (o.topology === 'independent' ? client.onNode(`master-${i + 1}`) : client).getLock(n),
      );
      return type === 'RedLock'
        ? new RedissonRedLock(name, subs, client)
        : new RedissonMultiLock(name, subs, client);
    }
  }
}

/**
 * What `lock.request` can already say: the owner (and key) the acquire will write, so that a
 * lease overlap (V2) checked before the acquire's reply is back names the thread. (A writer that
 * also takes the read lock adds a second field of its own; a RedLock's keys arrive one by one.)
 */
export function requestFields(
  lock: FamilyLock,
  threadId: number,
): Pick<EventFields<'lock.request'>, 'owner' | 'key' | 'owners'> {
  const f: Pick<EventFields<'lock.request'>, 'owner' | 'key' | 'owners'> = {
    owner: lock.getLockName(threadId),
  };
  if (lock instanceof RedissonMultiLock) {
    if (lock.locks[0].name !== lock.name) f.key = lock.locks[0].name;
    const others = otherOwners(lock, threadId);
    if (others.length) f.owners = others;
  }
  return f;
}

/** The lock names a MultiLock's thread writes besides the first (one per other Redisson instance). */
function otherOwners(lock: RedissonMultiLock, threadId: number): string[] {
  const first = lock.getLockName(threadId);
  return [...new Set(lock.locks.map((l) => l.getLockName(threadId)))].filter((o) => o !== first);
}

export type AcquiredFields = Pick<EventFields<'lock.acquired'>, 'owner' | 'key' | 'owners' | 'token' | 'validityMs'>;

/**
 * What `lock.acquired` says about this acquisition: `owner` (the hash field the lock stores),
 * `key` when the Redis key is not the lock's name (a MultiLock's first sub-lock), `token` for a
 * FencedLock, `validityMs` for a RedLock taken with a lease.
 */
export function acquiredFields(lock: FamilyLock, threadId: number): AcquiredFields {
  const f: AcquiredFields = { owner: lock.getLockName(threadId) };
  if (lock instanceof RedissonMultiLock) {
    if (lock.locks[0].name !== lock.name) f.key = lock.locks[0].name;
    const others = otherOwners(lock, threadId);
    if (others.length) f.owners = others;
    if (lock instanceof RedissonRedLock) {
      const v = lock.lastValidity(threadId);
      if (v !== undefined) f.validityMs = v;
    }
  }
  if (lock instanceof RedissonFencedLock) f.token = lock.acquiredToken(threadId);
  return f;
}

/** The fencing token a thread holding `lock` passes to the resource, if it has one. */
export function fencingToken(lock: FamilyLock, threadId: number): number | undefined {
  return lock instanceof RedissonFencedLock ? lock.acquiredToken(threadId) : undefined;
}
