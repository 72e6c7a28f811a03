/**
 * Runs a scenario: the one pure function the UI, the CLI, lessons and tests call, with every
 * deployment the engine models (run_scenario.ts is the runner; Redis Cluster's and Sentinel's
 * models register here). Same scenario (seed included) → byte-identical trace.
 *
 *   const v = validateScenario(json);
 *   if (v.ok) { const { trace, stateAt } = runScenario(v.scenario); }
 *
 * The page's engine worker imports run_scenario.ts and loads the deployments only for a scenario
 * that has one (src/ui/worker.ts), so its first screen does without them.
 */
import '../topology/deployments';

export * from './run_scenario';
