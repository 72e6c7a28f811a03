import { describe, expect, it } from 'vitest';
import { firstKeyMatching, keyMatches } from './key-pattern';

describe('keyMatches', () => {
  it('names a key exactly, or every key with a prefix when it ends in *', () => {
    expect(keyMatches('myLock', 'myLock')).toBe(true);
    expect(keyMatches('myLock', 'myLock2')).toBe(false);
    expect(keyMatches('redisson_unlock_latch:{myLock}:*', 'redisson_unlock_latch:{myLock}:4b4f2484')).toBe(true);
    expect(keyMatches('redisson_unlock_latch:{myLock}:*', 'redisson_unlock_latch:{other}:4b4f2484')).toBe(false);
    expect(keyMatches('redisson_unlock_latch:{myLock}:*', 'myLock')).toBe(false);
  });

  it('finds the first key a pattern names', () => {
    const keys = ['myLock', 'redisson_unlock_latch:{myLock}:aa', 'redisson_unlock_latch:{myLock}:bb'];
    expect(firstKeyMatching('redisson_unlock_latch:{myLock}:*', keys)).toBe('redisson_unlock_latch:{myLock}:aa');
    expect(firstKeyMatching('myLock', keys)).toBe('myLock');
    expect(firstKeyMatching('nope*', keys)).toBeUndefined();
  });
});
