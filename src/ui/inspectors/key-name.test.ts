import { describe, expect, it } from 'vitest';
import { keyNameParts, LONG_KEY, shortKeyName } from './key-name';

describe('key names in the keyspace column', () => {
  const latch = 'redisson_unlock_latch:{myLock}:f6a1fc5bace280a7cd239e946f0e6173';

  it("cuts the unlock latch's request id in the middle and keeps the lock's name whole", () => {
    expect(shortKeyName(latch)).toBe('redisson_unlock_latch:{myLock}:f6a1…6173');
  });

  it('leaves names without a long id as they are', () => {
    for (const k of [
      'myLock',
      'order:1:stock',
      '{order:1}:lock',
      'redisson_lock__channel:{myLock}',
      'deadbeef',
    ])
      expect(shortKeyName(k)).toBe(k);
  });

  it('breaks a name only after its colons, and loses nothing', () => {
    const parts = keyNameParts(shortKeyName(latch));
    expect(parts).toEqual(['redisson_unlock_latch:', '{myLock}:', 'f6a1…6173']);
    expect(keyNameParts('myLock')).toEqual(['myLock']);
    expect(keyNameParts('a:b:')).toEqual(['a:', 'b:']);
  });

  it('gives the latch a row of its own, not a plain lock', () => {
    expect(shortKeyName(latch).length).toBeGreaterThan(LONG_KEY);
    expect('myLock'.length).toBeLessThanOrEqual(LONG_KEY);
  });
});
