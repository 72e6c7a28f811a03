/**
 * The events lessons point at (a step's cursor, a check's or an answer's event): builders for the
 * EventSelector shapes they repeat, and the selectors that lessons on the same built-in share. Data
 * only, like the lessons (types only); fields in the order the lessons wrote them by hand.
 */
import type { Actor, EventSelector, ViolationKind } from '../types';

/** The `kind` event of `actor` (`more`: the selector's other fields: nth, where, after, …). */
export const ev = (
  kind: string,
  actor: Actor,
  more: Omit<EventSelector, 'kind' | 'actor'> = {},
): EventSelector => ({
  kind,
  actor,
  ...more,
});

/** `actor`'s `name` command (`more`: key, node, after, before, nth, …). */
export const cmd = (actor: Actor, name: string, more: Omit<EventSelector, 'kind' | 'actor' | 'cmd'> = {}) =>
  ({ kind: 'cmd', actor, cmd: name, ...more }) satisfies EventSelector;

/** The moment `actor` first got the lock. */
export const acquired = (actor: Actor): EventSelector => ({ kind: 'lock.acquired', actor });

/** The start of the (`nth`) `violation` the monitor reports (on `lock`, when given). */
export const violationStart = (violation: ViolationKind, lock?: string, nth?: number): EventSelector => ({
  kind: 'violation.start',
  ...(lock === undefined ? {} : { lock }),
  where: { violation },
  ...(nth === undefined ? {} : { nth }),
});

/** B:1's first lock script on `myLock`: where a second client's `lock()` meets A:1's lock. */
export const bLockScript = cmd('B:1', 'EVALSHA', { key: 'myLock' });

/** In the `reentrant` built-in: A:1's lock script for its second `lock()` on the lock it holds. */
export const secondAcquire = cmd('A:1', 'EVALSHA', {
  key: 'myLock',
  after: ev('lock.request', 'A:1', { nth: 2 }),
});

/**
 * The 3.24+ unlock latch of `myLock` as a key check or a cited key names it: its tail is the
 * unlock's request id, the run's own (`prefix*`, src/lessons/key-pattern.ts).
 */
export const LATCH = 'redisson_unlock_latch:{myLock}:*';
