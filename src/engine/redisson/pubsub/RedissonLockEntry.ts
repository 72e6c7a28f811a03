/**
 * RedissonLockEntry: what the waiting threads of one client share for one lock. The latch is a
 * java.util.concurrent.Semaphore(0) living in the kernel: every unlock message adds one permit,
 * and permits that arrive while nobody waits stay there for the next wait.
 */
import type { Semaphore } from '../../sim/effects';

export class RedissonLockEntry {
  /** threads currently subscribed through this entry (PublishSubscribe reference count) */
  counter = 0;
  /**
   * For each permit on the latch, oldest first: the seq of the pubsub.deliver whose message added
   * it, so a waiter's waiter.wakeup can name the delivery that woke it (`causeSeq`).
   */
  readonly permitCauses: number[] = [];

  constructor(
    readonly entryName: string,
    readonly channelName: string,
    readonly latch: Semaphore,
  ) {}
}
