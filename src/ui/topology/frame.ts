/**
 * The topology at one cursor position, read from a run (trace, lane model, validated scenario):
 * who is master, who is down, which client talks to which master, the partition groups, what
 * each Sentinel concluded, who holds which lock and the messages on the wire at that moment.
 * Node ids, roles and replication links all come from the trace and the lane model, never from
 * fixed names, so new topologies (cluster shards) need no change here.
 */
import { clientOf } from '../../engine/trace/actors';
import type { Trace, TraceEvent } from '../../engine/trace/types';
import type { BandKind, LaneModel } from '../timeline/model';

/** What a topology view needs of a run (a `RunPayload` has it all). */
export interface TopologyRun {
  trace: Trace;
  model: LaneModel;
  nodeIds: readonly string[];
  scenario: { clients: readonly { id: string }[]; network: { latencyMs: number } };
}

export type NodeKind = 'data' | 'sentinel';

/** Where things are, fixed for the whole run so a failover changes colours, not places. */
export interface TopologyShape {
  /** data nodes in the order the lane model lists them, then the Sentinels */
  nodes: { id: string; kind: NodeKind; initialRole: string; initialMaster: string | null }[];
  clients: { id: string; threads: string[] }[];
}

export interface NodeState {
  id: string;
  kind: NodeKind;
  role: string;
  up: boolean;
  /** a replica's master (its replication link) */
  master: string | null;
  /** a Sentinel: what it concluded about the master it watches, this failover */
  sdown?: boolean;
  odown?: boolean;
  leader?: number;
  /** lock keys on this node: key and the short owner label the timeline shows */
  keys: { key: string; label: string; ttl: boolean }[];
}

export interface ThreadState {
  id: string;
  state: BandKind | 'idle';
  /** locks it believes it holds; `releasing`: unlock sent, reply pending */
  holds: { lock: string; count: number; releasing: boolean }[];
}

export interface ClientState {
  id: string;
  crashed: boolean;
  paused: boolean;
  /** the masters its commands go to */
  masters: string[];
  threads: ThreadState[];
}

export type MessageKind = 'cmd' | 'reply' | 'repl' | 'pubsub' | 'replicaof';

export interface Message {
  /** stable across frames (the event it belongs to), for keys and animation */
  id: string;
  kind: MessageKind;
  from: string;
  to: string;
  /** 0 at the sender, 1 at the receiver */
  p: number;
  label: string;
  /** the trace event it belongs to */
  index: number;
}

export interface TopologyFrame {
  t: number;
  index: number;
  nodes: NodeState[];
  clients: ClientState[];
  /** the partition groups in force (Sentinels named one by one), or null */
  partition: string[][] | null;
  /** the latency spikes in force: `seq` of their net.latency, endpoints with "sentinels" spelled out (null: every link) */
  slow: { seq: number; ms: number; endpoints: string[] | null }[];
  /** the master the Sentinels watch (the one they fail over from) */
  watched: string | null;
  messages: Message[];
}

/** Events that change the state the frame shows (everything else is drawn from the lane model). */
const STATE_KINDS = new Set([
  'node.crash',
  'node.restart',
  'node.role',
  'net.partition',
  'net.heal',
  'net.latency',
  'net.latency.end',
  'client.crash',
  'client.pause',
  'client.resume',
  'client.master',
  'sentinel.sdown',
  'sentinel.odown',
  'sentinel.leader',
  'failover.promote',
]);

/** The run's fixed parts, computed once per run: the shape, the state events and the messages. */
export interface TopologyIndex {
  shape: TopologyShape;
  stateEvents: { index: number; e: TraceEvent }[];
  spans: Span[];
  /** the longest span, so a frame scans only spans that can still be on the wire */
  maxSpan: number;
}

interface Span {
  id: string;
  kind: MessageKind;
  from: string;
  to: string;
  t0: number;
  t1: number;
  index: number;
  label: string;
  /** 'before': on the wire until its event (a request); 'after': from its event on (a reply) */
  side: 'before' | 'after';
}

/** Each replica's master at the start: the one its stream came from before any role change. */
function replicaMasterOf(trace: Trace): Map<string, string> {
  const m = new Map<string, string>();
  const moved = new Set<string>();
  for (const e of trace.events) {
    if (e.kind === 'node.role') moved.add(e.node);
    else if (
      (e.kind === 'repl.apply' || e.kind === 'repl.sync') &&
      !moved.has(e.replica) &&
      !m.has(e.replica)
    )
      m.set(e.replica, e.master);
  }
  return m;
}

function shortReply(reply: unknown): string {
  if (reply === null) return 'nil';
  if (typeof reply === 'object' && !Array.isArray(reply)) {
    const r = reply as Record<string, unknown>;
    if ('status' in r) return String(r.status);
    if ('error' in r) return String(r.error).split(' ')[0];
    if ('int' in r) return String(r.int);
  }
  const s = JSON.stringify(reply);
  return s.length > 14 ? `${s.slice(0, 13)}…` : s;
}

/** The part of a command worth printing on a small dot: its name, a script's Redisson name. */
function commandLabel(argv: readonly string[]): string {
  const name = String(argv[0] ?? '').toUpperCase();
  if (name === 'EVAL') {
    const m = /(\w+)\.(\w+?)(?:Async)?\b/.exec(String(argv[1] ?? ''));
    if (m) return m[2];
  }
  return name;
}

export function indexTopology(run: TopologyRun): TopologyIndex {
  const { trace, model } = run;
  const latency = Math.max(0, run.scenario.network.latencyMs);
  const replicaMaster = replicaMasterOf(trace);
  const dataIds = model.nodes.map((n) => n.id);
  const firstMaster = model.nodes.find((n) => (n.roles[0]?.role ?? n.role) === 'master')?.id ?? null;
  const nodes: TopologyShape['nodes'] = model.nodes.map((n) => {
    const initialRole = n.roles[0]?.role ?? n.role;
    return {
      id: n.id,
      kind: 'data',
      initialRole,
      initialMaster: initialRole === 'replica' ? (replicaMaster.get(n.id) ?? firstMaster) : null,
    };
  });
  for (const id of run.nodeIds)
    if (!dataIds.includes(id))
      nodes.push({ id, kind: 'sentinel', initialRole: 'sentinel', initialMaster: null });
  const threadsOf = new Map<string, string[]>(run.scenario.clients.map((c) => [c.id, []]));
  for (const l of model.threads) {
    const list = threadsOf.get(l.client) ?? [];
    list.push(l.id);
    threadsOf.set(l.client, list);
  }
  const shape: TopologyShape = {
    nodes,
    clients: [...threadsOf].map(([id, threads]) => ({ id, threads })),
  };

  const stateEvents: TopologyIndex['stateEvents'] = [];
  const spans: Span[] = [];
  const publishAt = new Map<number, number>();
  trace.events.forEach((e, index) => {
    if (STATE_KINDS.has(e.kind)) stateEvents.push({ index, e });
    switch (e.kind) {
      case 'cmd': {
        const client = clientOf(e.actor.split('/')[0]);
        const label = commandLabel(e.argv);
        spans.push({
          id: `q${e.seq}`,
          kind: 'cmd',
          from: client,
          to: e.node,
          t0: e.t - latency,
          t1: e.t,
          index,
          label,
          side: 'before',
        });
        spans.push({
          id: `r${e.seq}`,
          kind: 'reply',
          from: e.node,
          to: client,
          t0: e.t,
          t1: e.t + latency,
          index,
          label: shortReply(e.reply),
          side: 'after',
        });
        break;
      }
      case 'pubsub.publish':
        publishAt.set(e.seq, e.t);
        break;
      case 'pubsub.deliver': {
        const t0 = e.causeSeq !== undefined ? (publishAt.get(e.causeSeq) ?? e.t - latency) : e.t - latency;
        spans.push({
          id: `d${e.seq}`,
          kind: 'pubsub',
          from: e.node,
          to: clientOf(e.actor.split('/')[0]),
          t0,
          t1: e.t,
          index,
          label: 'PUBLISH',
          side: 'before',
        });
        break;
      }
      case 'repl.apply':
      case 'repl.sync': {
        const sent = typeof e.sentAt === 'number' ? e.sentAt : e.t - latency;
        const label = e.kind === 'repl.sync' ? 'SYNC' : `+${e.offset}`;
        spans.push({
          id: `p${e.seq}`,
          kind: 'repl',
          from: e.master,
          to: e.replica,
          t0: sent,
          t1: e.t,
          index,
          label,
          side: 'before',
        });
        break;
      }
      case 'node.role':
        spans.push({
          id: `o${e.seq}`,
          kind: 'replicaof',
          from: e.by,
          to: e.node,
          t0: e.t - latency,
          t1: e.t,
          index,
          label: e.role === 'master' ? 'REPLICAOF NO ONE' : 'REPLICAOF',
          side: 'before',
        });
        break;
    }
  });
  spans.sort((a, b) => a.t0 - b.t0 || a.index - b.index);
  const maxSpan = spans.reduce((m, s) => Math.max(m, s.t1 - s.t0), 0);
  return { shape, stateEvents, spans, maxSpan };
}

/** Index of the first span with t0 >= t. */
function firstSpanFrom(spans: readonly Span[], t: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].t0 < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** At most this many messages are drawn: a busy run shows the newest. */
export const MAX_MESSAGES = 40;

function messagesAt(ix: TopologyIndex, index: number, t: number): Message[] {
  const out: Message[] = [];
  const end = firstSpanFrom(ix.spans, t + 1e-9);
  for (let i = firstSpanFrom(ix.spans, t - ix.maxSpan); i < end; i++) {
    const s = ix.spans[i];
    if (s.t1 < t) continue;
    // The event orders a request and its reply even when the latency is 0 ms.
    // A delivery is drawn arriving at its event; a request gives way to its reply there.
    if (s.side === 'after' ? index < s.index : index > s.index || (index === s.index && s.kind === 'cmd'))
      continue;
    const p = s.t1 > s.t0 ? (t - s.t0) / (s.t1 - s.t0) : s.side === 'before' ? 1 : 0;
    out.push({
      id: s.id,
      kind: s.kind,
      from: s.from,
      to: s.to,
      p: Math.max(0, Math.min(1, p)),
      label: s.label,
      index: s.index,
    });
  }
  return out.slice(-MAX_MESSAGES);
}

/** The partition groups with "sentinels" spelled out, so every endpoint can be looked up. */
function expandGroups(groups: readonly (readonly string[])[], sentinels: readonly string[]): string[][] {
  return groups.map((g) => {
    const named = new Set(g);
    const out = g.filter((id) => id !== 'sentinels');
    if (named.has('sentinels'))
      for (const s of sentinels) if (!groups.some((o) => o.includes(s))) out.push(s);
    return out;
  });
}

/** True when a and b can talk under `partition` (an endpoint in no group reaches everyone). */
export function reachable(partition: readonly (readonly string[])[] | null, a: string, b: string): boolean {
  if (!partition) return true;
  const ga = partition.findIndex((g) => g.includes(a));
  const gb = partition.findIndex((g) => g.includes(b));
  return ga < 0 || gb < 0 || ga === gb;
}

/** The extra one-way ms the spikes in force add to the link between a and b (0: not slowed). */
export function slowMs(slow: TopologyFrame['slow'], a: string, b: string): number {
  let ms = 0;
  for (const s of slow)
    if (s.endpoints === null || s.endpoints.includes(a) || s.endpoints.includes(b)) ms += s.ms;
  return ms;
}

export function topologyFrame(run: TopologyRun, ix: TopologyIndex, index: number): TopologyFrame {
  const ev = run.trace.events[index];
  const t = ev ? ev.t : 0;
  const nodes = new Map<string, NodeState>();
  for (const n of ix.shape.nodes)
    nodes.set(n.id, {
      id: n.id,
      kind: n.kind,
      role: n.initialRole,
      up: true,
      master: n.initialMaster,
      keys: [],
    });
  const sentinels = ix.shape.nodes.filter((n) => n.kind === 'sentinel').map((n) => n.id);
  const initialMasters = ix.shape.nodes.filter((n) => n.initialRole === 'master').map((n) => n.id);
  let watched: string | null = sentinels.length > 0 ? (initialMasters[0] ?? null) : null;
  const clients = new Map<string, { crashed: boolean; paused: boolean; masters: string[] }>();
  for (const c of ix.shape.clients)
    clients.set(c.id, { crashed: false, paused: false, masters: [...initialMasters] });
  let partition: string[][] | null = null;
  let slow: TopologyFrame['slow'] = [];

  for (const { index: i, e } of ix.stateEvents) {
    if (i > index) break;
    const node = e.node !== undefined ? nodes.get(e.node) : undefined;
    switch (e.kind) {
      case 'node.crash':
      case 'node.restart':
        if (node) node.up = e.kind === 'node.restart';
        break;
      case 'node.role':
        if (node) {
          node.role = e.role;
          node.master = e.role === 'replica' ? (e.master ?? null) : null;
        }
        break;
      case 'net.partition':
        partition = expandGroups(e.groups, sentinels);
        break;
      case 'net.heal':
        partition = null;
        break;
      case 'net.latency': {
        const named = e.endpoints === null ? null : expandGroups([e.endpoints], sentinels)[0];
        slow = [...slow, { seq: e.seq, ms: e.ms, endpoints: named }];
        break;
      }
      case 'net.latency.end':
        slow = slow.filter((s) => s.seq !== e.causeSeq);
        break;
      case 'client.crash':
      case 'client.pause':
      case 'client.resume': {
        const c = clients.get(e.client);
        if (!c) break;
        if (e.kind === 'client.crash') c.crashed = true;
        else c.paused = e.kind === 'client.pause';
        break;
      }
      case 'client.master': {
        const c = clients.get(e.client);
        if (c) c.masters = [e.node];
        break;
      }
      case 'sentinel.sdown':
      case 'sentinel.odown': {
        const s = nodes.get(e.sentinel);
        if (s) s[e.kind === 'sentinel.sdown' ? 'sdown' : 'odown'] = true;
        break;
      }
      case 'sentinel.leader': {
        const s = nodes.get(e.sentinel);
        if (s) s.leader = e.epoch;
        break;
      }
      case 'failover.promote':
        // A new master: what the Sentinels concluded about the old one is over.
        watched = e.node;
        for (const id of sentinels) {
          const s = nodes.get(id)!;
          delete s.sdown;
          delete s.odown;
          delete s.leader;
        }
        break;
    }
  }

  for (const lane of run.model.nodes) {
    const n = nodes.get(lane.id);
    if (!n) continue;
    for (const k of lane.keys)
      if (k.from <= t && t < k.to && k.label !== '')
        n.keys.push({ key: k.key, label: k.label, ttl: k.expireAt !== null });
  }

  // Before the first event nothing has run, though the lanes' bands (by time) start at 0 ms.
  const started = index >= 0;
  const threadLanes = new Map(run.model.threads.map((l) => [l.id, l]));
  const clientStates: ClientState[] = ix.shape.clients.map((c) => {
    const st = clients.get(c.id)!;
    return {
      id: c.id,
      ...st,
      threads: c.threads.map((id): ThreadState => {
        const lane = started ? threadLanes.get(id) : undefined;
        const band = lane?.bands.find((b) => b.from <= t && t < b.to);
        const holds = (lane?.holds ?? [])
          .filter((h) => h.from <= t && t < h.to)
          .map((h) => ({ lock: h.lock, count: h.count, releasing: h.releasing === true }));
        return { id, state: band?.kind ?? 'idle', holds };
      }),
    };
  });

  return {
    t,
    index,
    nodes: [...nodes.values()],
    clients: clientStates,
    partition,
    slow,
    watched: sentinels.length > 0 ? watched : null,
    messages: started ? messagesAt(ix, index, t) : [],
  };
}
