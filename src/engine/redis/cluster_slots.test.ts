import { describe, expect, it } from 'vitest';
import { clusterNodeAddress, clusterNodeId, crc16, initialSlotRanges, keyHashSlot } from './cluster_slots';

describe('cluster key slots (cluster.c keyHashSlot, crc16.c)', () => {
  it('crc16 is XMODEM: the check value of "123456789" is 0x31C3', () => {
    expect(crc16('123456789')).toBe(0x31c3);
  });

  it('gives the slots a real Redis 7.0 gives (CLUSTER KEYSLOT)', () => {
    // Values from redis-server 7.0.15 `CLUSTER KEYSLOT`; the conformance suite re-checks them live.
    expect(keyHashSlot('foo')).toBe(12182);
    expect(keyHashSlot('bar')).toBe(5061);
    expect(keyHashSlot('myLock')).toBe(12769);
    expect(keyHashSlot('{user1000}.following')).toBe(3443);
    expect(keyHashSlot('foo{}{bar}')).toBe(8363);
    expect(keyHashSlot('')).toBe(0);
  });

  it('hashes only the first non-empty {tag}', () => {
    expect(keyHashSlot('{user1000}.following')).toBe(keyHashSlot('user1000'));
    expect(keyHashSlot('{user1000}.followers')).toBe(keyHashSlot('user1000'));
    expect(keyHashSlot('redisson_lock__channel:{myLock}')).toBe(keyHashSlot('myLock'));
    // the first } after the first {, not the last
    expect(keyHashSlot('foo{{bar}}zap')).toBe(keyHashSlot('{bar'));
    expect(keyHashSlot('foo{bar}{zap}')).toBe(keyHashSlot('bar'));
    // empty or unclosed tags hash the whole key
    expect(keyHashSlot('foo{}{bar}')).toBe(keyHashSlot('foo{}{bar}'));
    expect(keyHashSlot('foo{}{bar}')).not.toBe(keyHashSlot('bar'));
    expect(keyHashSlot('foo{bar')).not.toBe(keyHashSlot('bar'));
  });

  it('hashes bytes, not UTF-16 code units', () => {
    // "é" as UTF-8 bytes C3 A9
    expect(keyHashSlot('\xc3\xa9')).toBe(crc16('\xc3\xa9') & 16383);
  });
});

describe('initial slot split (redis-cli --cluster create)', () => {
  it('splits three masters as 0-5460, 5461-10922, 10923-16383', () => {
    expect(initialSlotRanges(3)).toEqual([
      { start: 0, end: 5460 },
      { start: 5461, end: 10922 },
      { start: 10923, end: 16383 },
    ]);
  });

  it('covers every slot exactly once for 1 to 10 masters', () => {
    for (let m = 1; m <= 10; m++) {
      const r = initialSlotRanges(m);
      expect(r).toHaveLength(m);
      expect(r[0].start).toBe(0);
      expect(r[m - 1].end).toBe(16383);
      for (let i = 1; i < m; i++) expect(r[i].start).toBe(r[i - 1].end + 1);
    }
  });
});

describe('simulated node ids and addresses', () => {
  it('are 40 hex digits, stable per name, distinct across names', () => {
    expect(clusterNodeId('master-1')).toMatch(/^[0-9a-f]{40}$/);
    expect(clusterNodeId('master-1')).toBe(clusterNodeId('master-1'));
    expect(clusterNodeId('master-1')).not.toBe(clusterNodeId('master-2'));
    expect(clusterNodeAddress(0)).toEqual({ host: '127.0.0.1', port: 30001 });
  });
});
