/**
 * The lock family beyond RLock: which Redisson class a program step gets for each `type`, and
 * what its acquisition tells the trace beyond the owner (the fencing token, the RedLock
 * validity). Registers itself with family.ts, which every caller goes through: a bundle that runs
 * only RLocks and the naive locks (the page's engine worker on its first screen) can leave these
 * classes and their scripts out and load them before the first run that can reach them
 * (`needsLockFamily`); scenario/run.ts imports this module, so every Node entry has them.
 *
 * MultiLock / RedLock are built from RLocks named by `locks`: in the `independent` topology the
 * i-th lives on master-i (through a Redisson instance pinned to that master), otherwise all of
 * them live on the client's master.
 */
import type { RedissonClient } from './RedissonClient';
import { RedissonFairLock } from './RedissonFairLock';
import { RedissonFencedLock } from './RedissonFencedLock';
import { RedissonReadLock, RedissonWriteLock } from './RedissonReadWriteLock';
import { RedissonSpinLock } from './RedissonSpinLock';
import { RedissonMultiLock } from './RedissonMultiLock';
import { RedissonRedLock } from './RedissonRedLock';
import {
  provideLockFamily,
  type AcquiredFields,
  type FamilyLock,
  type FamilyOptions,
  type RequestFields,
} from './family';
import type { FamilyType } from '../lock_types';

/** The lock object a thread gets for `type` and `name` (redisson.getFairLock(name), ...). */
function familyLock(
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
function requestFields(lock: FamilyLock, threadId: number): RequestFields {
  const f: RequestFields = {
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

/**
 * What `lock.acquired` says about this acquisition: `owner` (the hash field the lock stores),
 * `key` when the Redis key is not the lock's name (a MultiLock's first sub-lock), `token` for a
 * FencedLock, `validityMs` for a RedLock taken with a lease.
 */
function acquiredFields(lock: FamilyLock, threadId: number): AcquiredFields {
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
function fencingToken(lock: FamilyLock, threadId: number): number | undefined {
  return lock instanceof RedissonFencedLock ? lock.acquiredToken(threadId) : undefined;
}

provideLockFamily({
  familyLock,
  requestFields,
  acquiredFields,
  fencingToken,
  isMultiLock: (lock) => lock instanceof RedissonMultiLock,
  isFencedLock: (lock) => lock instanceof RedissonFencedLock,
});
