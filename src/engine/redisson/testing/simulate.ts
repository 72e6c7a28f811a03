/**
 * Test harness for the client model: runs a scenario on the real kernel and simulated Redis and
 * returns the events plus handles on the clients, so tests can assert on moments ("who got the
 * lock when") and on internals (a client's renewal state).
 *
 * Until the scenario runner (scenario/run.ts) is the one door, this wires the same pieces the
 * way it does: a world, the clients, the faults, and a run until every thread is done.
 */
import { validateScenario, type Scenario } from '../../scenario/schema';
import { startClients, type Clients } from '../../scenario/program';
import { createWorld, type World } from '../../sim/world';
import type { TraceEvent, Violation } from '../../trace';
import { DEFAULT_RUN_CAP_MS } from '../../scenario/defaults';

export interface Simulation {
  scenario: Scenario;
  world: World;
  clients: Clients;
  events: TraceEvent[];
  violations: Violation[];
  /** events of one kind (optionally of one actor) */
  of(kind: string, actor?: string): TraceEvent[];
  /** thread.result values of a thread, in order */
  results(actor: string): unknown[];
}

export function simulate(json: unknown): Simulation {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const scenario = v.scenario;
  const threads = scenario.clients.flatMap((c) => c.threads.map((t) => `${c.id}:${t.id}`));
  const world = createWorld({
    seed: scenario.seed,
    latencyMs: scenario.network.latencyMs,
    callTimeoutMs: scenario.redisson.timeoutMs,
    scriptBudget: scenario.redis.scriptBudget,
    nodes: [{ id: 'master', role: 'master' }],
    threads,
    resource: { value: scenario.resource.initial, accepted: 0, rejected: 0 },
  });
  const k = world.kernel;
  const clients = startClients(k, scenario);
  for (const f of scenario.faults) {
    k.at(f.at, () => {
      if (f.kind === 'crash' && f.client) {
        k.crashClient(f.client);
        clients.onCrash?.(f.client);
      } else if (f.kind === 'pause') k.pauseClient(f.client, f.ms);
      else if (f.kind === 'interrupt') {
        const p = clients.threadProc(f.client, f.thread);
        if (p) k.interrupt(p);
      } else throw new Error(`fault ${f.kind} not supported by the test harness`);
    });
  }
  const done = () => clients.allDone();
  k.run(scenario.until ?? DEFAULT_RUN_CAP_MS, scenario.until === null ? done : () => false, 2_000_000);
  const events = world.events;
  return {
    scenario,
    world,
    clients,
    events,
    violations: world.monitor.finish(),
    of: (kind, actor) => events.filter((e) => e.kind === kind && (actor === undefined || e.actor === actor)),
    results: (actor) =>
      events.filter((e) => e.kind === 'thread.result' && e.actor === actor).map((e) => e.result),
  };
}
