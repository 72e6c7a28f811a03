import { describe, expect, it } from 'vitest';
import { Network } from './network';

describe('Network', () => {
  it('reaches everyone until partitioned, then only its own group', () => {
    const n = new Network(3);
    expect(n.latency('A', 'master')).toBe(3);
    expect(n.reachable('A', 'master')).toBe(true);
    n.partition([
      ['master', 'A'],
      ['replica-1', 'B', 'sentinels'],
    ]);
    expect(n.reachable('A', 'master')).toBe(true);
    expect(n.reachable('B', 'master')).toBe(false);
    expect(n.reachable('sentinel-2', 'replica-1')).toBe(true);
    expect(n.reachable('sentinel-2', 'master')).toBe(false);
    expect(n.reachable('C', 'master')).toBe(true);
    n.heal();
    expect(n.reachable('B', 'master')).toBe(true);
  });

  it('adds a spike to the links touching its endpoints ("sentinels" for every sentinel-N) until it ends', () => {
    const n = new Network(2);
    const endA = n.spike(100, ['A', 'sentinels']);
    const endAll = n.spike(10, null);
    expect(n.latency('A', 'master')).toBe(112);
    expect(n.latency('master', 'A')).toBe(112);
    expect(n.latency('sentinel-2', 'master')).toBe(112);
    expect(n.latency('B', 'master')).toBe(12);
    endA();
    expect(n.latency('A', 'master')).toBe(12);
    endAll();
    expect(n.latency('A', 'master')).toBe(2);
  });

  it('keeps a link FIFO after a spike: a later message never arrives before a delayed one', () => {
    const n = new Network(2);
    expect(n.arrival('A', 'master', 0)).toBe(2);
    const end = n.spike(100, ['A']);
    expect(n.arrival('A', 'master', 10)).toBe(112);
    end();
    // sent after the spike ended: 22 alone, but not before 112 on the same link
    expect(n.arrival('A', 'master', 20)).toBe(112);
    expect(n.arrival('master', 'A', 20)).toBe(22);
    expect(n.arrival('B', 'master', 20)).toBe(22);
    expect(n.arrival('A', 'master', 200)).toBe(202);
  });
});
