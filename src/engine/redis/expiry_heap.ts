/**
 * Min-heap of (deadline, key) for active expiry. Entries are never removed when a TTL changes;
 * the keyspace checks each popped entry against the key's current deadline and drops stale
 * ones, so PEXPIRE stays O(log n) on the lock's hot path. Ties order by key so the deletion
 * order does not depend on history.
 */
export class ExpiryHeap {
  private t: number[] = [];
  private k: string[] = [];

  get size(): number {
    return this.t.length;
  }

  push(time: number, key: string): void {
    const t = this.t;
    const k = this.k;
    let i = t.length;
    t.push(time);
    k.push(key);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (t[p] < time || (t[p] === time && k[p] <= key)) break;
      t[i] = t[p];
      k[i] = k[p];
      i = p;
    }
    t[i] = time;
    k[i] = key;
  }

  peekTime(): number | undefined {
    return this.t.length ? this.t[0] : undefined;
  }

  peekKey(): string | undefined {
    return this.k.length ? this.k[0] : undefined;
  }

  pop(): void {
    const t = this.t;
    const k = this.k;
    const lastT = t.pop()!;
    const lastK = k.pop()!;
    const n = t.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (t[r] < t[l] || (t[r] === t[l] && k[r] < k[l]))) c = r;
      if (t[c] > lastT || (t[c] === lastT && k[c] >= lastK)) break;
      t[i] = t[c];
      k[i] = k[c];
      i = c;
    }
    t[i] = lastT;
    k[i] = lastK;
  }

  clear(): void {
    this.t = [];
    this.k = [];
  }

  /** Rebuilds from the live deadlines, dropping every stale entry. */
  rebuild(live: Iterable<readonly [key: string, time: number]>): void {
    this.clear();
    for (const [key, time] of live) this.push(time, key);
  }

  clone(): ExpiryHeap {
    const h = new ExpiryHeap();
    h.t = this.t.slice();
    h.k = this.k.slice();
    return h;
  }
}
