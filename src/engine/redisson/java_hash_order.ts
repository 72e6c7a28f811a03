/**
 * The order in which a java.util.concurrent.ConcurrentHashMap (JDK 8 and later) iterates its keys,
 * for the few places where Redisson walks one and the order reaches Redis: the watchdog's renewal
 * batches (RenewalTask's name2entry and slot2names, 3.44+). The map is kept as the JDK keeps it:
 * a table of 16 bins to start, a key in bin `spread(hashCode) & (n - 1)` at the end of its bin's
 * list, the table doubled once the count reaches three quarters of it, and iteration bin by bin.
 * A resize splits each bin as `transfer` does: the run of nodes at the end that go to the same half
 * keeps its order, the nodes before it are put in front one by one (so their order turns round).
 * Bins are never turned into trees here: that takes 8 keys in one bin of a table of 64 or more.
 */

/** String.hashCode(): s[0]*31^(n-1) + ... + s[n-1], in 32-bit ints. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** ConcurrentHashMap.spread: the high half folded into the low, the sign bit cleared. */
function spread(h: number): number {
  return (h ^ (h >>> 16)) & 0x7fffffff;
}

export class JavaHashOrder<K> {
  private bins: K[][] = JavaHashOrder.table(16);
  private count = 0;

  constructor(private readonly hashCode: (key: K) => number) {}

  private static table<K>(n: number): K[][] {
    return Array.from({ length: n }, () => []);
  }

  private binOf(key: K, n: number): number {
    return spread(this.hashCode(key)) & (n - 1);
  }

  /** put of a key not in the map. */
  add(key: K): void {
    const n = this.bins.length;
    this.bins[this.binOf(key, n)].push(key);
    // addCount: resize once the count reaches sizeCtl, three quarters of the table
    if (++this.count >= n - (n >>> 2)) this.resize();
  }

  /** remove of a key in the map. */
  delete(key: K): void {
    const bin = this.bins[this.binOf(key, this.bins.length)];
    const i = bin.indexOf(key);
    if (i < 0) return;
    bin.splice(i, 1);
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  /** The keys as the map's iterator hands them out. */
  keys(): K[] {
    const out: K[] = [];
    for (const bin of this.bins) for (const k of bin) out.push(k);
    return out;
  }

  /** ConcurrentHashMap.transfer to a table twice the size. */
  private resize(): void {
    const n = this.bins.length;
    const next = JavaHashOrder.table<K>(n * 2);
    const high = (k: K) => (spread(this.hashCode(k)) & n) !== 0;
    this.bins.forEach((bin, i) => {
      if (bin.length === 0) return;
      let runBit = high(bin[0]);
      let lastRun = 0;
      for (let j = 1; j < bin.length; j++) {
        const b = high(bin[j]);
        if (b !== runBit) {
          runBit = b;
          lastRun = j;
        }
      }
      const lo: K[] = runBit ? [] : bin.slice(lastRun);
      const hi: K[] = runBit ? bin.slice(lastRun) : [];
      for (let j = 0; j < lastRun; j++) (high(bin[j]) ? hi : lo).unshift(bin[j]);
      next[i] = lo;
      next[i + n] = hi;
    });
    this.bins = next;
  }
}
