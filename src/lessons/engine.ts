/**
 * Everything src/lessons takes from the engine, in one place, so that when the engine's modules
 * move only this file changes.
 */
export { runScenario, type ScenarioRun } from '../engine/scenario/run';
export { validateScenario, type Scenario } from '../engine/scenario/schema';
export { builtin } from '../engine/scenario/builtins/index';
export type { TraceEvent, Trace, Violation, VisibleState } from '../engine/trace/types';
export { shownVerdict } from '../engine/trace/verdict';
export { keyHashSlot } from '../engine/redis/cluster_slots';
export { explore, type ExploreFaultKind, type ExploreReport } from '../engine/explore/index';
export type { Fault } from '../engine/scenario/schema';
