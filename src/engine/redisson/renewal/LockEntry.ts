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
  private readonly counters = new Map<number, number>();
  private readonly lockNames = new Map<number, string>();

  constructor(private readonly queuePerAcquire = false) {}

  addThreadId(threadId: number, lockName: string): void {
    const c = this.counters.get(threadId) ?? 0;
    if (c === 0 || this.queuePerAcquire) this.queue.push(threadId);
    if (!this.lockNames.has(threadId)) this.lockNames.set(threadId, lockName);
    this.counters.set(threadId, c + 1);
  }

  removeThreadId(threadId: number): void {
    const c = this.counters.get(threadId);
    if (c === undefined) return;
    if (c > 1) {
      this.counters.set(threadId, c - 1);
      return;
    }
    this.counters.delete(threadId);
    this.lockNames.delete(threadId);
    this.queue.splice(this.queue.indexOf(threadId), 1);
  }

  hasNoThreads(): boolean {
    return this.queue.length === 0;
  }

  getFirstThreadId(): number | null {
    return this.queue.length ? this.queue[0] : null;
  }

  getLockName(threadId: number): string | undefined {
    return this.lockNames.get(threadId);
  }
}
