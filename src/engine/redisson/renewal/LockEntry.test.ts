import { describe, expect, it } from 'vitest';
import { LockEntry } from './LockEntry';

describe('renewal LockEntry', () => {
  it('renews with the first registered thread and counts reentrant registrations', () => {
    const e = new LockEntry();
    e.addThreadId(3, 'u:3');
    e.addThreadId(5, 'u:5');
    e.addThreadId(3, 'u:3');
    expect(e.getFirstThreadId()).toBe(3);
    e.removeThreadId(3);
    expect(e.getFirstThreadId()).toBe(3); // one registration of thread 3 is left
    e.removeThreadId(3);
    expect(e.getFirstThreadId()).toBe(5);
    expect(e.getLockName(5)).toBe('u:5');
    expect(e.getLockName(3)).toBeUndefined();
    e.removeThreadId(9); // never registered: nothing happens
    expect(e.hasNoThreads()).toBe(false);
    e.removeThreadId(5);
    expect(e.hasNoThreads()).toBe(true);
    expect(e.getFirstThreadId()).toBeNull();
  });
});
