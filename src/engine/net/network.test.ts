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
});
