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

/**
 * The kernel's task queue: a TimedHeap of the tasks due by a horizon, and an unsorted list of the
 * later ones, moved into the heap when the horizon passes them. It hands out the same tasks in the
 * same (at, seq) order as one heap of them all would, and `size` and `compact` see every task;
 * only the heap's depth changes. In `contention-100` the later tasks are most of the queue
 * (response timers 3 s out, watchdog rounds 10 s out, latch-wait timeouts up to the lease, most
 * of them cancelled before they are due) and every push and pop of a reply or a message walked
 * past them.
 */
export class HorizonQueue<T extends Timed> {
  private readonly near = new TimedHeap<T>();
  private far: T[] = [];
  /** every task in `far` is due after this */
  private horizon: number;

  /**
   * `windowMs`: how far past the earliest task the horizon is set when it moves. A cancelled task
   * stays listed until `compact` (it is handed out when due, as one heap would: the kernel's clock
   * reaches it, so a run's end time counts it).
   */
  constructor(private readonly windowMs: number) {
    this.horizon = windowMs;
  }

  get size(): number {
    return this.near.size + this.far.length;
  }

  push(item: T): void {
    if (item.at > this.horizon) this.far.push(item);
    else this.near.push(item);
  }

  peek(): T | undefined {
    const top = this.near.peek();
    if ((top !== undefined && top.at <= this.horizon) || this.far.length === 0) return top;
    this.advance(top === undefined ? Infinity : top.at);
    return this.near.peek();
  }

  pop(): T | undefined {
    const top = this.peek();
    if (top !== undefined) this.near.pop();
    return top;
  }

  compact(dead: (item: T) => boolean): void {
    this.near.compact(dead);
    this.far = this.far.filter((x) => !dead(x));
  }

  /**
   * Moves the horizon past the earliest task (`first`: the heap's) and the tasks it passes into
   * the heap. In place: in `contention-100` the list holds about 2,000 tasks at each move (nearly
   * all cancelled response timers) and only a few move; a new list per move was most of this.
   */
  private advance(first: number): void {
    const far = this.far;
    let next = first;
    for (let i = 0; i < far.length; i++) if (far[i].at < next) next = far[i].at;
    this.horizon = next + this.windowMs;
    let kept = 0;
    for (let i = 0; i < far.length; i++) {
      const x = far[i];
      if (x.at <= this.horizon) this.near.push(x);
      else far[kept++] = x;
    }
    far.length = kept;
  }
}
