import { describe, expect, it } from 'vitest';
import { Namer } from './names';

describe('Namer', () => {
  it("names an unlock latch's request id, the last segment of its key, also after a hash-tagged name", () => {
    const n = new Namer();
    expect(n.name('redisson_unlock_latch:{myLock}:3f9a2c1e-77aa', 'A')).toBe(
      'redisson_unlock_latch:{myLock}:<A-latch1>',
    );
    expect(n.name('redisson_unlock_latch:{order}:lock:82aa91d0', 'A')).toBe(
      'redisson_unlock_latch:{order}:lock:<A-latch2>',
    );
    // the same id is the same name, from any client
    expect(n.name('redisson_unlock_latch:{order}:lock:82aa91d0', 'B')).toBe(
      'redisson_unlock_latch:{order}:lock:<A-latch2>',
    );
  });
});
