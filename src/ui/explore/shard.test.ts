import { describe, expect, it } from 'vitest';
import { explore } from '../../engine/explore';
import { basicLock30s } from '../../engine/explore/testing/scenarios';
import { faultsOf, type ScenarioDoc } from '../../engine/scenario/edit';
import { validateScenario } from '../../engine/scenario/schema';
import { runScenario } from '../../engine/scenario/run';
import { startSearch, type WorkerLike } from './coordinator';
import type { FromWorker, ToWorker } from './protocol';
import { createShard } from './shard';

/** A search worker run in-process: the real shard handler, messages cloned as postMessage does. */
function inlineWorker(): WorkerLike {
  let dead = false;
  const w: WorkerLike = {
    onmessage: null,
    onerror: null,
    terminate: () => {
      dead = true;
    },
    postMessage: (m: ToWorker) => {
      const copy = structuredClone(m);
      setTimeout(() => !dead && handle(copy), 0);
    },
  };
  const handle = createShard((m: FromWorker) => {
    const copy = structuredClone(m);
    setTimeout(() => !dead && w.onmessage?.({ data: copy } as MessageEvent<FromWorker>), 0);
  });
  return w;
}

// The user's document: what the page holds (no defaults filled in).
const DOC = JSON.parse(JSON.stringify(basicLock30s())) as ScenarioDoc;
const OPTIONS = { budget: 300, seed: 1, faults: ['pause'] };

describe('a search across workers', () => {
  it('finds the sequential search’s index with 1 or 3 workers, and a counterexample that breaks', async () => {
    const sequential = explore(basicLock30s(), { budget: OPTIONS.budget, seed: 1, faults: ['pause'] });
    expect(sequential.foundAt).not.toBeNull();
    const results = [];
    for (const shards of [1, 3]) {
      const outcome = await startSearch(DOC, OPTIONS, inlineWorker, shards, () => {}).done;
      if (outcome.kind !== 'found') throw new Error(`nothing found with ${shards} workers`);
      results.push(outcome);
    }
    expect(results.map((r) => r.hit.index)).toEqual([sequential.foundAt, sequential.foundAt]);
    expect(results[1].shrunk).toEqual(results[0].shrunk);

    const { shrunk } = results[0];
    expect(shrunk.violation.kind).toBe('V1');
    expect(shrunk.changes.some((c) => c.kind === 'add' && c.fault.kind === 'pause')).toBe(true);
    // the counterexample is the document plus the added faults, marked by index
    const doc = shrunk.scenario as ScenarioDoc;
    expect(doc.clients).toEqual(DOC.clients);
    expect(shrunk.marked).toEqual(faultsOf(doc).map((_, i) => i));
    const v = validateScenario(doc);
    if (!v.ok) throw new Error('the counterexample does not validate');
    expect(runScenario(v.scenario).trace.violations.map((x) => x.kind)).toContain('V1');
  }, 60_000);

  it('says what it drew from when nothing breaks', async () => {
    const alone = { ...DOC, clients: DOC.clients!.slice(0, 1) };
    const outcome = await startSearch(alone, { ...OPTIONS, budget: 40 }, inlineWorker, 2, () => {}).done;
    expect(outcome.kind).toBe('none');
    expect(outcome.tried).toBe(40);
    expect(outcome.scope.kinds).toEqual(['pause']);
    expect(outcome.scope.horizon).toBeGreaterThan(0);
  }, 60_000);
});
