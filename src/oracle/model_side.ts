/**
 * The model's side of a comparison: the scenario run by the simulator at the release the real
 * client ran (`redisson.version` set to it before validation, so release-dependent defaults
 * follow), normalised like the real run. Used by `npm run oracle -- --compare` and by the
 * recordings test, so both judge the model the same way.
 */
import { runScenario } from '../engine/scenario/run';
import { validateScenario, type Scenario } from '../engine/scenario/schema';
import { normaliseModel } from './normalise';
import type { NormRun } from './shape';

/** The scenario JSON with its Redisson version set to `release`. */
export function atRelease(json: unknown, release: string): unknown {
  const j = structuredClone(json) as { redisson?: Record<string, unknown> };
  j.redisson = { ...(j.redisson ?? {}), version: release };
  return j;
}

export function validated(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(`invalid scenario:\n${v.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
  return v.scenario;
}

export function runModel(scenario: Scenario): NormRun {
  const run = runScenario(scenario, { verbose: true });
  return normaliseModel(run.trace, scenario);
}
