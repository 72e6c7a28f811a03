import { describe, expect, it } from 'vitest';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { legendItems } from './legend-items';
import { deriveRunModel } from './model';

function modelOf(json: unknown) {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return deriveRunModel(v.scenario, runScenario(v.scenario));
}

describe('timeline: slow replies, busy nodes, starved clients', () => {
  it('marks a response timeout and the late reply on the thread, the stall on the node', () => {
    const m = modelOf({
      format: 'lockscope/1',
      clients: [{ id: 'A', threads: [{ id: 1, start: 200, program: [{ op: 'redis', argv: ['PING'] }] }] }],
      until: 6000,
      faults: [{ at: 100, kind: 'stall', node: 'master', ms: 5000 }],
    });
    const marks = m.threads[0].marks.map((x) => [x.kind, x.t]);
    expect(marks).toContainEqual(['timeout', 3200]);
    expect(marks).toContainEqual(['late', 5101]);
    expect(m.nodes[0].busy).toEqual([{ from: 100, to: 5100 }]);
    const keys = legendItems(m).map((l) => l.key);
    expect(keys).toEqual(
      expect.arrayContaining(['legend.callTimeout', 'legend.lateReply', 'legend.nodeBusy']),
    );
  });

  it('draws a starved client’s span on each of its threads, not on other clients', () => {
    const m = modelOf({
      format: 'lockscope/1',
      clients: [
        {
          id: 'A',
          threads: [
            { id: 1, program: [{ op: 'work', ms: 9000 }] },
            { id: 2, program: [] },
          ],
        },
        { id: 'B', threads: [{ id: 1, program: [{ op: 'work', ms: 9000 }] }] },
      ],
      faults: [{ at: 1000, kind: 'starve', client: 'A', ms: 5000 }],
    });
    expect(m.threads.map((t) => [t.id, t.starved])).toEqual([
      ['A:1', [{ from: 1000, to: 6000 }]],
      ['A:2', [{ from: 1000, to: 6000 }]],
      ['B:1', undefined],
    ]);
    expect(legendItems(m).map((l) => l.key)).toContain('legend.starved');
  });
});
