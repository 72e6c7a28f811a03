/**
 * Redis Cluster's and Sentinel's models, as the topology reaches them. They register themselves
 * (deployments.ts, imported by scenario/run.ts), so a bundle that runs only single-server and
 * independent deployments — the page's engine worker on its first screen — can leave them out
 * and load them before the first scenario that has one (about 5 KB gzip).
 */
import type { Cluster } from './cluster';
import type { Sentinels } from './sentinel';

export interface DeploymentModels {
  readonly Cluster: typeof Cluster;
  readonly Sentinels: typeof Sentinels;
}

let models: DeploymentModels | null = null;

export function provideDeploymentModels(m: DeploymentModels): void {
  models = m;
}

export function deploymentModels(topology: string): DeploymentModels {
  if (models === null)
    throw new Error(
      `topology "${topology}" needs the Redis Cluster and Sentinel models: import scenario/run.ts`,
    );
  return models;
}

/** Whether a scenario (as written, before validation) names a deployment these models run. */
export function needsDeploymentModels(scenario: unknown): boolean {
  const topology = (scenario as { redis?: { topology?: unknown } } | null)?.redis?.topology;
  return topology === 'cluster' || topology === 'sentinel';
}
