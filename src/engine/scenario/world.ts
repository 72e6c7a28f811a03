/**
 * Wires one simulated world: the kernel, its nodes (simulated Redis servers), the trace recorder,
 * the state timeline and the safety monitor. The scenario runner builds one per run; kernel tests
 * build small ones directly.
 */
import { SafetyMonitor } from '../check/monitor';
import { Network } from '../net/network';
import { RedisServer } from '../redis/server';
import type { ClusterView } from '../redis/cluster_slots';
import { StateTimeline } from './state';
import type { Actor, NodeView, ResourceView, TraceEvent } from '../trace/types';
import { Kernel } from '../sim/kernel';
import { hash32 } from '../sim/prng';
import { Recorder } from '../sim/recorder';

export interface WorldOptions {
  seed: number;
  latencyMs: number;
  callTimeoutMs: number;
  scriptBudget: number;
  nodes: readonly { id: string; role: NodeView['role'] }[];
  threads: readonly Actor[];
  resource: ResourceView;
  verbose?: boolean;
  masterFor?: (client: string, hint?: string, key?: string) => string;
  slotMasters?: (client: string) => string[];
  readReplicas?: (client: string, master: string) => string[];
  redirect?: (client: string, address: string) => string | null;
  /** cluster: the picture each node's server routes by */
  clusterView?: (node: string) => ClusterView | undefined;
  /** nodes some client treats as master (V2); default: the nodes whose role is master */
  masters?: () => readonly string[];
  /** a node's replication stream (topology/**); without it servers propagate nothing */
  propagate?: (node: string, commands: string[][]) => void;
  /** whether a scenario fault is still to fire (liveness: "nothing scheduled can change this") */
  faultsPending?: () => boolean;
}

export interface World {
  kernel: Kernel;
  recorder: Recorder;
  timeline: StateTimeline;
  monitor: SafetyMonitor;
  events: TraceEvent[];
}

export function createWorld(o: WorldOptions): World {
  const timeline = new StateTimeline({ nodes: o.nodes, threads: o.threads, resource: o.resource });
  let kernel: Kernel | null = null;
  const recorder = new Recorder(() => kernel!.now(), timeline);
  const masterIds = o.nodes.filter((n) => n.role === 'master').map((n) => n.id);
  kernel = new Kernel({
    seed: o.seed,
    network: new Network(o.latencyMs),
    recorder,
    mirror: timeline,
    callTimeoutMs: o.callTimeoutMs,
    verbose: o.verbose,
    masterFor: o.masterFor,
    slotMasters: o.slotMasters,
    readReplicas: o.readReplicas,
    redirect: o.redirect,
  });
  const k = kernel;
  const monitor = new SafetyMonitor({
    emit: (kind, fields) => recorder.emit(kind, fields),
    now: () => k.now(),
    liveKey: (node, key) => timeline.liveKey(node, key),
    masters: o.masters ?? (() => masterIds),
    probe: {
      canWake: (actor) => k.canWake(actor),
      faultsPending: o.faultsPending ?? (() => false),
      wakeChanges: () => k.wakeChanges(),
    },
  });
  recorder.observe(monitor);
  const propagate = o.propagate;
  for (const n of o.nodes) {
    if (n.role === 'sentinel') continue;
    const seed = hash32(`${o.seed}\u0000${n.id}/lua`);
    const cluster = o.clusterView?.(n.id);
    k.addNode(
      n.id,
      (hooks) =>
        new RedisServer({
          id: n.id,
          clock: hooks.clock,
          seed,
          scriptBudget: o.scriptBudget,
          onSleep: hooks.onSleep,
          events: propagate ? { ...hooks.events, propagate: (cmds) => propagate(n.id, cmds) } : hooks.events,
          ...(cluster !== undefined ? { cluster } : {}),
        }),
    );
  }
  return { kernel: k, recorder, timeline, monitor, events: recorder.events };
}
