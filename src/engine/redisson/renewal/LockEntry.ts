/**
 * The threads of one client registered for renewal of one lock, in arrival order, each with a
 * counter (a reentrant watchdog-mode acquire registers again). Only the first thread's lock name
 * is renewed, as in Redisson's LockEntry / ExpirationEntry.
 */
export class LockEntry {
  private readonly queue: number[] = [];
  private readonly counters = new Map<number, number>();
  private readonly lockNames = new Map<number, string>();

  addThreadId(threadId: number, lockName: string): void {
    const c = this.counters.get(threadId) ?? 0;
    if (c === 0) {
      this.queue.push(threadId);
      this.lockNames.set(threadId, lockName);
    }
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
