/**
 * The threads of one client registered for renewal of one lock, in arrival order, each with a
 * counter (a reentrant watchdog-mode acquire registers again). Only the first thread's lock name
 * is renewed, as in Redisson's LockEntry / ExpirationEntry.
 *
 * `queuePerAcquire` is 3.44.0–3.45.x's LockEntry: addThreadId queues the thread on every acquire
 * but removeThreadId takes one occurrence out when the counter reaches 0, so after a reentrant
 * lock/unlock the thread stays first in the queue with no counter and no lock name (#6144).
 */
export class LockEntry {
  private readonly queue: number[] = [];
  /**
   * The threads with a counter, their counters and their lock names, side by side. An entry has
   * one thread, or a few: two Maps per entry, each emptied by a delete (V8 shrinks a Map's table
   * when it empties, in the runtime), cost more than a short walk; an entry is made and dropped
   * for every watchdog-mode acquire and release (contention-100: 2,000 a run).
   */
  private readonly ids: number[] = [];
  private readonly counters: number[] = [];
  private readonly lockNames: string[] = [];

  constructor(private readonly queuePerAcquire = false) {}

  addThreadId(threadId: number, lockName: string): void {
    const i = this.ids.indexOf(threadId);
    const c = i < 0 ? 0 : this.counters[i];
    if (c === 0 || this.queuePerAcquire) this.queue.push(threadId);
    if (i < 0) {
      this.ids.push(threadId);
      this.counters.push(1);
      this.lockNames.push(lockName);
    } else this.counters[i] = c + 1;
  }

  removeThreadId(threadId: number): void {
    const i = this.ids.indexOf(threadId);
    if (i < 0) return;
    const c = this.counters[i];
    if (c > 1) {
      this.counters[i] = c - 1;
      return;
    }
    removeAt(this.ids, i);
    removeAt(this.counters, i);
    removeAt(this.lockNames, i);
    // (splice(indexOf, 1): the last one when absent, as splice(-1, 1) takes it)
    const q = this.queue.indexOf(threadId);
    removeAt(this.queue, q < 0 ? this.queue.length - 1 : q);
  }

  hasNoThreads(): boolean {
    return this.queue.length === 0;
  }

  getFirstThreadId(): number | null {
    return this.queue.length ? this.queue[0] : null;
  }

  getLockName(threadId: number): string | undefined {
    const i = this.ids.indexOf(threadId);
    return i < 0 ? undefined : this.lockNames[i];
  }
}

/** a.splice(i, 1) without the array of removed items it returns (nothing when i is out of range) */
function removeAt<T>(a: T[], i: number): void {
  if (i < 0 || i >= a.length) return;
  for (let j = i + 1; j < a.length; j++) a[j - 1] = a[j];
  a.pop();
}
