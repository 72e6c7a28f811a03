import { describe, expect, it } from 'vitest';
import { dropRules } from './netns';
import { refusals } from './refusals';
import { validated } from './model_side';
import { builtins } from '../engine/scenario/builtins/index';

describe('partitions for the oracle (network namespaces)', () => {
  it('drops every packet between two groups, both ways, on the bridge and to and from the harness aliases', () => {
    const rules = dropRules('lso1', [['10.77.20.10', '10.77.20.16'], ['10.77.20.11']]);
    expect(rules).toEqual([
      'add rule bridge lso1 forward ip saddr { 10.77.20.10, 10.77.20.16 } ip daddr { 10.77.20.11 } drop',
      'add rule bridge lso1 input ip saddr { 10.77.20.10, 10.77.20.16 } ip daddr { 10.77.20.11 } drop',
      'add rule bridge lso1 output ip saddr { 10.77.20.10, 10.77.20.16 } ip daddr { 10.77.20.11 } drop',
      'add rule bridge lso1 forward ip saddr { 10.77.20.11 } ip daddr { 10.77.20.10, 10.77.20.16 } drop',
      'add rule bridge lso1 input ip saddr { 10.77.20.11 } ip daddr { 10.77.20.10, 10.77.20.16 } drop',
      'add rule bridge lso1 output ip saddr { 10.77.20.11 } ip daddr { 10.77.20.10, 10.77.20.16 } drop',
    ]);
  });

  it('names no address of an empty group (a "sentinels" group without Sentinels)', () => {
    expect(dropRules('lso1', [['10.77.20.10'], []])).toEqual([]);
  });

  it('runs the Sentinel partition built-ins and refuses a partition only in a cluster, and the clock jump', () => {
    const why = (id: string) => refusals(validated(builtins.find((b) => b.id === id)!.scenario), '4.7.0');
    expect(why('split-brain-partition')).toEqual([]);
    expect(why('failover-wait-wrong-replica')).toEqual([]);
    expect(why('redlock-clock-jump').join()).toMatch(/clock jump/);
    const cluster = validated({
      format: 'lockscope/1',
      redis: { topology: 'cluster', masters: 3 },
      clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lock', lock: 'x' }] }] }],
      faults: [{ at: 10, kind: 'partition', groups: [['master-1'], ['A']] }],
    });
    expect(refusals(cluster, '4.7.0').join()).toMatch(/partition at 10 ms in a cluster/);
  });
});
