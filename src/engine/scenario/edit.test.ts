import { describe, expect, it } from 'vitest';
import { builtins } from './builtins';
import {
  addFault,
  addRedisAction,
  faultsOf,
  getPath,
  isolate,
  slowDown,
  moveFault,
  setPath,
  type ScenarioDoc,
} from './edit';
import { validateScenario, type Scenario } from './schema';
import { nodeIds } from '../topology/nodes';

const doc = (): ScenarioDoc => ({
  format: 'lockscope/1',
  clients: [{ id: 'A', threads: [{ id: 1, start: 0, program: [{ op: 'sleep', ms: 10 }] }] }],
  faults: [
    { at: 100, kind: 'crash', node: 'master' },
    { at: 200, kind: 'partition', groups: [['A'], ['master']], healAt: 700 },
  ],
});

function validated(d: unknown): Scenario {
  const v = validateScenario(d);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.scenario;
}

describe('scenario edits', () => {
  it('add a fault without touching the original or writing defaults', () => {
    const d = doc();
    const before = structuredClone(d);
    const e = addFault(d, { at: 5, kind: 'pause', client: 'A', ms: 50 });
    expect(d).toEqual(before);
    expect(faultsOf(e)).toHaveLength(3);
    expect(Object.keys(e).sort()).toEqual(['clients', 'faults', 'format']);
    expect(validateScenario(e).ok).toBe(true);
    expect(faultsOf(addFault({}, { at: 1, kind: 'crash', node: 'master' }))).toHaveLength(1);
  });

  it('move a fault (rounded, never before 0) and a partition keeps its length', () => {
    const d = doc();
    expect(faultsOf(moveFault(d, 0, 41.6))[0]).toEqual({ at: 42, kind: 'crash', node: 'master' });
    expect(faultsOf(moveFault(d, 1, 300))[1]).toMatchObject({ at: 300, healAt: 800 });
    expect(faultsOf(moveFault(d, 1, -50))[1]).toMatchObject({ at: 0, healAt: 500 });
    expect(moveFault(d, 9, 1)).toEqual(d);
    expect(faultsOf(d)[1]).toMatchObject({ at: 200, healAt: 700 });
  });

  it('isolate cuts one endpoint off from every node, client and the Sentinels', () => {
    for (const b of builtins) {
      const s = validated(b.scenario);
      const nodes = nodeIds(s.redis);
      const endpoint = s.clients[0].id;
      const f = isolate(s, nodes, endpoint, 1234);
      expect(f).toMatchObject({ at: 1234, kind: 'partition', healAt: 11_234 });
      const slow = slowDown(nodes[0], 1234);
      expect(slow).toEqual({ at: 1234, kind: 'latency', ms: 500, endAt: 6234, endpoints: [nodes[0]] });
      expect(validateScenario(addFault(b.scenario as ScenarioDoc, slow)).ok, b.id).toBe(true);
      if (f.kind !== 'partition') throw new Error('not a partition');
      expect(f.groups[0]).toEqual([endpoint]);
      expect(f.groups[1]).not.toContain(endpoint);
      expect(f.groups[1]).toEqual(expect.arrayContaining(nodes.filter((n) => !n.startsWith('sentinel-'))));
      expect(f.groups[1].includes('sentinels'), b.id).toBe(s.redis.topology === 'sentinel');
      // the edited scenario is one the schema accepts
      expect(validateScenario(addFault(b.scenario as ScenarioDoc, f)).ok, b.id).toBe(true);
    }
  });

  it('a console write becomes a new client with a fresh id', () => {
    let d = addRedisAction(doc(), ['SET', 'k', 'v'], 12.4);
    d = addRedisAction(d, ['DEL', 'k'], -3);
    expect(d.clients!.map((c) => c.id)).toEqual(['A', 'console', 'console-2']);
    expect(d.clients![1].threads[0]).toEqual({
      id: 1,
      start: 12,
      program: [{ op: 'redis', argv: ['SET', 'k', 'v'] }],
    });
    expect(d.clients![2].threads[0].start).toBe(0);
    expect(validateScenario(d).ok).toBe(true);
  });

  it('set and get a path; an empty value removes the field', () => {
    const d = setPath(doc(), ['redis', 'replicas'], 2);
    expect(getPath(d, ['redis', 'replicas'])).toBe(2);
    expect(getPath(setPath(d, ['redis', 'replicas'], ''), ['redis'])).toEqual({});
    expect(getPath(d, ['clients', 'nope', 'x'])).toBeUndefined();
    expect(getPath(null, ['a'])).toBeUndefined();
  });
});
