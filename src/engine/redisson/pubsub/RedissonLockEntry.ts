/**
 * RedissonLockEntry: what the waiting threads of one client share for one lock. The latch is a
 * java.util.concurrent.Semaphore(0) living in the kernel: every unlock message adds one permit,
 * and permits that arrive while nobody waits stay there for the next wait.
 */
import type { Semaphore } from '../../sim/effects';

export class RedissonLockEntry {
  /** threads currently subscribed through this entry (PublishSubscribe reference count) */
  counter = 0;

  constructor(
    readonly entryName: string,
    readonly channelName: string,
    readonly latch: Semaphore,
  ) {}
}
