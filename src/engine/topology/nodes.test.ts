import { describe, expect, it } from 'vitest';
import { clusterShards, type Deployment } from './nodes';

const cluster = (masters: number, replicasPerMaster: number): Deployment => ({
  topology: 'cluster',
  masters,
  replicasPerMaster,
  replicas: [],
  sentinel: { count: 0, quorum: 0, downAfterMs: 0, failoverMs: 0 },
  minReplicasToWrite: 0,
});

describe('clusterShards', () => {
  it('three masters, one replica each: redis-cli --cluster create’s split, replica k under master ((k−1) mod 3)+1', () => {
    expect(clusterShards(cluster(3, 1))).toEqual([
      { master: 'master-1', replicas: ['replica-1'], slots: '0-5460' },
      { master: 'master-2', replicas: ['replica-2'], slots: '5461-10922' },
      { master: 'master-3', replicas: ['replica-3'], slots: '10923-16383' },
    ]);
  });

  it('two replicas per master are spread round the masters', () => {
    expect(clusterShards(cluster(2, 2)).map((s) => [s.master, ...s.replicas, s.slots])).toEqual([
      ['master-1', 'replica-1', 'replica-3', '0-8191'],
      ['master-2', 'replica-2', 'replica-4', '8192-16383'],
    ]);
  });
});
