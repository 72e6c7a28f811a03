/**
 * How an incident of the gallery is written: the built-in of the reported release and, where a
 * release fixed it (or a documented remedy avoids it), its pair: the same story run on the fixed
 * release or with the remedy, a second built-in the page offers beside it.
 */
import { defineBuiltin, type BuiltinScenario, type IncidentInfo } from '../types';

type Text = Pick<BuiltinScenario, 'title' | 'titleZh' | 'description' | 'descriptionZh'>;
type ScenarioJson = { title?: string } & Record<string, unknown>;

export interface IncidentSpec extends Text {
  incident: Omit<IncidentInfo, 'pair' | 'pairOf'>;
  scenario: ScenarioJson;
}

export interface PairSpec extends Text {
  /** the verdict of the paired run */
  verdict: IncidentInfo['verdict'];
  scenario: ScenarioJson;
}

/** The paired run's id: `-fixed` when a release fixed it, `-remedy` when the user's code changes. */
export const pairId = (id: string, fixed: boolean) => `${id}-${fixed ? 'fixed' : 'remedy'}`;

/** An incident's built-in, and its pair when there is one (the pair second). */
export function defineIncident(id: string, spec: IncidentSpec, pair?: PairSpec): BuiltinScenario[] {
  const { incident, scenario, ...text } = spec;
  const other = pair ? pairId(id, incident.fixedIn !== undefined) : undefined;
  const main = defineBuiltin(id, {
    ...text,
    group: 'incidents',
    incident: { ...incident, ...(other ? { pair: other } : {}) },
    scenario,
  });
  if (!pair || !other) return [main];
  const { verdict, scenario: pairScenario, ...pairText } = pair;
  const answer = defineBuiltin(other, {
    ...pairText,
    group: 'incidents',
    incident: { ...incident, verdict, pairOf: id },
    scenario: pairScenario,
  });
  return [main, answer];
}

/** The same scenario on another Redisson release (the fixed one). */
export function onRelease(scenario: ScenarioJson, version: string): ScenarioJson {
  const redisson = (scenario.redisson ?? {}) as Record<string, unknown>;
  return { ...scenario, redisson: { ...redisson, version } };
}
