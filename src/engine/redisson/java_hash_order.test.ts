import { describe, expect, it } from 'vitest';
import { JavaHashOrder, javaStringHash } from './java_hash_order';

const orderOf = (keys: string[]) => {
  const m = new JavaHashOrder<string>(javaStringHash);
  for (const k of keys) m.add(k);
  return m.keys();
};

describe('JavaHashOrder (a ConcurrentHashMap’s iteration order; the expected orders are JDK 17’s)', () => {
  it('String.hashCode as Java computes it', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('a')).toBe(97);
    // JDK 17's "order-1".hashCode(): the sum wraps as a 32-bit int
    expect(javaStringHash('order-1')).toBe(-1207111310);
  });

  it('iterates by bin, as the real 4.7.0 watchdog sent its batches (oracle: incident-subscribe-timeout, f1-renewal-per-slot)', () => {
    expect(orderOf(['order-1', 'order-2', 'order-3', 'order-4', 'order-5'])).toEqual([
      'order-3',
      'order-4',
      'order-5',
      'order-1',
      'order-2',
    ]);
    expect(orderOf(['{order}:a', '{order}:b'])).toEqual(['{order}:b', '{order}:a']);
  });

  it('keeps a bin in insertion order, removes without reordering, and splits bins when the table doubles at 12 keys', () => {
    const m = new JavaHashOrder<number>((k) => k);
    // 1, 17 and 33 share bin 1 of 16
    for (const k of [33, 1, 17]) m.add(k);
    expect(m.keys()).toEqual([33, 1, 17]);
    m.delete(1);
    expect(m.keys()).toEqual([33, 17]);
    expect(m.size).toBe(2);
    m.add(1);
    for (const k of [2, 3, 4, 5, 6, 7, 8, 9, 10]) m.add(k);
    // 12 keys: the table is 32 now; bin 1 held 33, 17, 1: 17 (bit 16 set) goes to bin 17, 33 and 1
    // stay in bin 1 (1 is the last run, 33 before it is put in front). JDK 17's keySet() prints
    // the same for the same puts and remove.
    expect(m.keys()).toEqual([33, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17]);
  });

  it('turns round the nodes before the last run when a bin splits (transfer)', () => {
    const m = new JavaHashOrder<number>((k) => k);
    // bin 1 of 16: 17 high, 33 low, 49 high, then 1 and 65 low (the last run)
    for (const k of [17, 33, 49, 1, 65, 2, 3, 4, 5, 6, 7, 8]) m.add(k);
    expect(m.keys()).toEqual([33, 1, 65, 2, 3, 4, 5, 6, 7, 8, 49, 17]);
  });
});
