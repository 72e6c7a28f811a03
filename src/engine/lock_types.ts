/**
 * The lock implementations a program op may name in `type` (docs/scenario-format.md): Redisson's lock
 * family and the naive SETNX-family teaching locks. One list, read by the schema and by the code
 * that builds each kind.
 */
export const FAMILY_TYPES = [
  'RLock',
  'FairLock',
  'FencedLock',
  'SpinLock',
  'ReadLock',
  'WriteLock',
  'MultiLock',
  'RedLock',
] as const;
export type FamilyType = (typeof FAMILY_TYPES)[number];

export const NAIVE_LOCK_TYPES = [
  'setnx',
  'setnx-expire',
  'set-nx-px',
  'set-nx-px-get-del',
  'set-nx-px-lua',
  'set-nx-px-renew',
  'set-nx-px-watch',
] as const;
export type NaiveLockType = (typeof NAIVE_LOCK_TYPES)[number];

export const LOCK_TYPES = [...FAMILY_TYPES, ...NAIVE_LOCK_TYPES] as const;
export type LockType = (typeof LOCK_TYPES)[number];
