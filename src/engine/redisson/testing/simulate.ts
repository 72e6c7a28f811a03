/**
 * Test harness for the client model: runs a scenario through the real runner (kernel, simulated
 * Redis, checkers) and offers small queries over the trace, so tests can assert on moments ("who
 * got the lock when") the way a reader of the timeline would.
 */
import { validateScenario, type Scenario } from '../../scenario/schema';
import { runScenario } from '../../scenario/run';
import type { ResourceView, Trace, TraceEvent, Violation } from '../../trace/types';

export interface Simulation {
  scenario: Scenario;
  trace: Trace;
  events: TraceEvent[];
  violations: Violation[];
  resource: ResourceView;
  /** events of one kind (optionally of one actor) */
  of(kind: string, actor?: string): TraceEvent[];
  /** thread.result values of a thread, in order */
  results(actor: string): unknown[];
}

export function simulate(json: unknown): Simulation {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const { trace } = runScenario(v.scenario);
  const events = trace.events;
  return {
    scenario: v.scenario,
    trace,
    events,
    violations: trace.violations,
    resource: trace.final.resource,
    of: (kind, actor) => events.filter((e) => e.kind === kind && (actor === undefined || e.actor === actor)),
    results: (actor) =>
      events.filter((e) => e.kind === 'thread.result' && e.actor === actor).map((e) => e.result),
  };
}
