import { describe, expect, it } from 'vitest';
import { validateScenario } from '../engine/scenario/schema';
import { refusals } from './refusals';

const withPartition = (reset?: boolean) => {
  const r = validateScenario({
    format: 'lockscope/1',
    clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lock', lock: 'L' }] }] }],
    faults: [
      {
        at: 10,
        kind: 'partition',
        groups: [['A'], ['master']],
        healAt: 20,
        ...(reset === undefined ? {} : { reset }),
      },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.scenario;
};

describe('oracle refusals: partitions', () => {
  it('runs a partition that drops packets (nftables DROP, what TCP retransmits through)', () => {
    expect(refusals(withPartition(), '4.7.0')).toEqual([]);
    expect(refusals(withPartition(false), '4.7.0')).toEqual([]);
  });

  it('refuses a partition that resets connections: the harness has no counterpart for it', () => {
    expect(refusals(withPartition(true), '4.7.0')).toEqual([
      "partition at 10 ms that resets connections: the harness's partitions drop packets, they do not reset connections",
    ]);
  });
});
