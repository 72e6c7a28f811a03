import { describe, expect, it } from 'vitest';
import { clusterWhichNode } from '../scenario/builtins/cluster';
import { failoverLostLock } from '../scenario/builtins/replication';
import { basicLock } from '../scenario/builtins/redisson_basics';
import { runScenario } from '../scenario/run_scenario';
import { validateScenario, type Scenario } from '../scenario/schema';
import { needsDeploymentModels } from './deployment_models';

// The page's engine worker runs scenarios with run_scenario.ts and loads Redis Cluster's and
// Sentinel's models (deployments.ts) only before a run that has one (src/ui/worker.ts). This file
// imports no run.ts, so the models are absent until the test loads them, as in the worker.
const valid = (json: unknown): Scenario => {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.scenario;
};

describe('Redis Cluster and Sentinel load on demand', () => {
  it('tells which scenarios need them, as written', () => {
    expect(needsDeploymentModels(clusterWhichNode.scenario)).toBe(true);
    expect(needsDeploymentModels(failoverLostLock.scenario)).toBe(true); // Sentinel
    expect(needsDeploymentModels(basicLock.scenario)).toBe(false);
    expect(needsDeploymentModels({ redis: { topology: 'sentinel' } })).toBe(true);
    expect(needsDeploymentModels(null)).toBe(false);
  });

  it('without them a single server runs and a cluster is refused by name; with them it runs as run.ts does', async () => {
    expect(runScenario(valid(basicLock.scenario)).trace.events.length).toBeGreaterThan(0);
    const cluster = valid(clusterWhichNode.scenario);
    expect(() => runScenario(cluster)).toThrow(
      /topology "cluster" needs the Redis Cluster and Sentinel models/,
    );
    await import('./deployments');
    const full = await import('../scenario/run');
    expect(JSON.stringify(runScenario(cluster).trace)).toBe(JSON.stringify(full.runScenario(cluster).trace));
  });
});
