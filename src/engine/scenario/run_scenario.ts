/**
 * Runs a scenario. Same scenario (seed included) → byte-identical trace. Import run.ts, which
 * also registers the Redis Cluster and Sentinel models (topology/deployments.ts); the page's
 * engine worker imports this module and registers them only for a scenario that has one.
 */
import type { RunOptions, RunResult, SchemaIssue } from './api';
import { createWorld, type World } from './world';
import { SAFETY_KINDS, type Actor, type Trace, type Violation, type VisibleState } from '../trace/types';
import { DEFAULT_RUN_CAP_MS, MAX_EVENTS } from './defaults';
import { startClients } from './clients';
import type { Fault, Scenario } from './schema';
import { Topology } from '../topology/topology';
import { resolveRelease } from '../redisson/versions';
import { threadActor } from '../trace/actors';

/** Why this runner cannot run the scenario yet, or null when it can. */
export function unsupportedReason(s: Scenario): string | null {
  return unsupportedIssue(s)?.message ?? null;
}

/** The same, as a schema issue naming the field to change (the editor underlines it). */
export function unsupportedIssue(s: Scenario): SchemaIssue | null {
  if (s.redis.topology === 'sentinel' && s.redis.replicas.length === 0)
    return {
      path: 'redis.replicas',
      segments: ['redis', 'replicas'],
      message: 'topology "sentinel" needs at least one replica to fail over to',
    };
  return null;
}

export class UnsupportedScenarioError extends Error {}

export interface ScenarioRun extends RunResult {
  /** the virtual ms the run stopped at */
  endedAt: number;
  /** true when the run was stopped before its end (the trace's `truncatedBy` says why) */
  truncated: boolean;
}

export interface ScenarioRunOptions extends RunOptions {
  /** called after every kernel task, when the world is consistent (tests compare live state with stateAt) */
  probe?: (world: World) => void;
  /**
   * Ends the run soon after the monitor records a violation this accepts (the tasks due at that
   * ms still run). For searches that only ask whether a run breaks: the trace is cut short, so
   * it is not the scenario's trace and must not be shown as one.
   */
  stopAt?: (violation: Violation) => boolean;
}

export function runScenario(scenario: Scenario, opts: ScenarioRunOptions = {}): ScenarioRun {
  const reason = unsupportedReason(scenario);
  if (reason !== null) throw new UnsupportedScenarioError(reason);
  /** faults already applied: liveness waits for the last before it calls anything permanent */
  let applied = 0;

  const threads: Actor[] = scenario.clients.flatMap((c) => c.threads.map((t) => threadActor(c.id, t.id)));
  const topology = new Topology(
    scenario.redis,
    scenario.clients.map((c) => c.id),
  );
  const world = createWorld({
    seed: scenario.seed,
    latencyMs: scenario.network.latencyMs,
    callTimeoutMs: scenario.redisson.timeoutMs,
    scriptBudget: scenario.redis.scriptBudget,
    nodes: topology.nodes(),
    masterFor: (client, hint, key) => topology.masterFor(client, hint, key),
    redirect: (client, address) => topology.redirect(client, address),
    slotMasters: (client) => topology.slotMasters(client),
    readReplicas: (client, master) => topology.readReplicas(client, master),
    clusterView: (node) => topology.clusterView(node),
    masters: () => topology.masters(),
    propagate: topology.replicated ? (node, cmds) => topology.propagate(node, cmds) : undefined,
    threads,
    resource: { value: scenario.resource.initial, accepted: 0, rejected: 0 },
    verbose: opts.verbose,
    faultsPending: () => applied < scenario.faults.length,
  });
  const { kernel, recorder, timeline, monitor } = world;
  topology.onMastersChanged = () => monitor.recheckLeases();
  topology.install(kernel);

  const clients = startClients(kernel, scenario);
  const keepData = scenario.redis.persistence === 'aof-always';
  const apply = (f: Fault): void => {
    applied++;
    switch (f.kind) {
      case 'crash':
        if (f.client !== undefined) {
          kernel.crashClient(f.client);
          clients.onCrash?.(f.client);
        } else if (f.node !== undefined && !topology.sentinelFault(f.node, 'crash'))
          kernel.crashNode(f.node, keepData);
        return;
      case 'restart':
        if (!topology.sentinelFault(f.node, 'restart')) kernel.restartNode(f.node);
        return;
      case 'pause':
        kernel.pauseClient(f.client, f.ms);
        return;
      case 'starve':
        kernel.starveClient(f.client, f.ms);
        return;
      case 'stall':
        kernel.stallNode(f.node, f.ms);
        return;
      case 'partition':
        kernel.partition(f.groups, f.healAt, f.reset === true);
        return;
      case 'latency':
        kernel.latencySpike(f.ms, f.endpoints ?? null, f.endAt);
        return;
      case 'clock':
        kernel.jumpClock(f.node, f.jumpMs);
        return;
      case 'cancel': {
        const actor = threadActor(f.client, f.thread);
        const waiting = clients.cancel?.(f.client, f.thread) ?? false;
        recorder.emit('thread.cancel', { actor, acquiring: waiting });
        return;
      }
      case 'interrupt': {
        const actor = threadActor(f.client, f.thread);
        recorder.emit('thread.interrupt', { actor });
        const p = clients.threadProc(f.client, f.thread);
        if (p !== undefined) kernel.interrupt(p);
        return;
      }
    }
  };
  // Faults due at the same ms apply in the order the scenario lists them.
  for (const f of scenario.faults) kernel.at(f.at, () => apply(f));

  // Without `until` the run ends once every program has ended and no client work is in flight
  // (a call awaiting its reply, a fire-and-forget command such as the unlock latch's DEL); a
  // sleeping watchdog timer does not keep it going. DEFAULT_RUN_CAP_MS bounds it either way.
  const until = scenario.until ?? DEFAULT_RUN_CAP_MS;
  const endsEarly = scenario.until === null;
  const ended = (): boolean => endsEarly && clients.allDone() && !kernel.clientWorkInFlight();
  const probe = opts.probe;
  const stopAt = opts.stopAt;
  let judged = 0;
  let stoppedAtViolation = false;
  const broken = (): boolean => {
    if (stopAt === undefined) return false;
    const vs = monitor.violations;
    for (; judged < vs.length; judged++) if (stopAt(vs[judged])) return (stoppedAtViolation = true);
    return false;
  };
  // After every task the world is consistent: liveness asks then what is still scheduled.
  const stop =
    probe === undefined && stopAt === undefined
      ? () => {
          monitor.settle();
          return ended();
        }
      : () => {
          monitor.settle();
          probe?.(world);
          return broken() || ended();
        };
  kernel.run(until, stop, MAX_EVENTS);
  kernel.dispose();

  const events = recorder.events;
  const violations = monitor.violations.map((v) => ({ ...v, holders: v.holders.slice() }));
  const trace: Trace = {
    format: 'lockscope-trace/1',
    redisson: { version: scenario.redisson.version, release: resolveRelease(scenario.redisson.version) },
    verdict: violations.some((v) => SAFETY_KINDS.includes(v.kind))
      ? 'unsafe'
      : violations.length > 0
        ? 'stuck'
        : 'safe',
    violations,
    events,
    final: timeline.stateAt(events.length - 1),
  };
  // A run without `until` that has not ended by the cap was stopped before its end as surely as
  // one cut by the event cap: what would have come after was never judged, so it is not "safe".
  const outOfTime = !kernel.truncated && endsEarly && kernel.workPastUntil && !stoppedAtViolation && !ended();
  if (kernel.truncated || outOfTime) {
    trace.truncated = true;
    const by = outOfTime ? 'time' : kernel.truncatedBy;
    if (by !== null) trace.truncatedBy = by;
  }
  return {
    trace,
    stateAt: (index: number): VisibleState => timeline.stateAt(index),
    sweep: () => timeline.sweep(),
    // a run stopped early ends at its last task; one that ran to `until` (or, cut by time, to the
    // cap: virtual time passed after its last task) ends there
    endedAt: (kernel.truncated || endsEarly) && !outOfTime ? kernel.now() : until,
    truncated: kernel.truncated || outOfTime,
  };
}
