/**
 * A scenario's run as one string (events, violations, verdict), for tests that compare a checker
 * keeping state between judgements with one judging afresh every time.
 */
import { runScenario } from '../../scenario/run';
import { validateScenario } from '../../scenario/schema';

export function traceText(json: unknown): string {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  const t = runScenario(v.scenario).trace;
  return JSON.stringify({ events: t.events, violations: t.violations, verdict: t.verdict });
}
