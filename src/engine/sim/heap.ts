/**
 * The kernel's event queue: a binary min-heap ordered by (at, seq). `seq` grows with every push,
 * so items due at the same virtual ms run in the order they were scheduled: the run order never
 * depends on the heap's internal layout.
 */
export interface Timed {
  at: number;
  seq: number;
}

export class TimedHeap<T extends Timed> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(item, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = item;
  }

  /**
   * Drops the items `dead` accepts and restores the heap over the rest. The order in which the
   * remaining items come out is unchanged: it is (at, seq), a total order, whatever the layout.
   */
  compact(dead: (item: T) => boolean): void {
    const a = this.items.filter((x) => !dead(x));
    this.items = a;
    for (let i = (a.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftDown(i: number): void {
    const a = this.items;
    const n = a.length;
    const item = a[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(a[r], a[l]) ? r : l;
      if (!before(a[c], item)) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    const n = a.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(a[r], a[l]) ? r : l;
      if (!before(a[c], last)) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = last;
    return top;
  }
}

function before(x: Timed, y: Timed): boolean {
  return x.at < y.at || (x.at === y.at && x.seq < y.seq);
}
