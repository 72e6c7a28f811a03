import { describe, expect, it } from 'vitest';
import { holdsText } from './thread-holds';

describe('holdsText', () => {
  it('lists the locks a thread holds, or a dash', () => {
    expect(holdsText({ holds: { myLock: 2, other: 1 } })).toBe('myLock ×2, other ×1');
    expect(holdsText({ holds: { myLock: 0 } })).toBe('—');
  });

  it('shows the count Redis already keeps while the reply is on its way', () => {
    // a re-entry: the keyspace has 2, the thread learns it a latency later
    expect(holdsText({ holds: { myLock: 1 }, replying: { lock: 'myLock', holds: 2 } })).toBe('myLock ×1 → 2');
    // the last unlock: the key is gone in Redis, the thread still believes it holds once
    expect(holdsText({ holds: { myLock: 1 }, replying: { lock: 'myLock', holds: 0 } })).toBe('myLock ×1 → 0');
    // a first acquire
    expect(holdsText({ holds: {}, replying: { lock: 'myLock', holds: 1 } })).toBe('myLock → ×1');
  });
});
