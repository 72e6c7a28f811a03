/**
 * The timeline's view model: lane intervals derived once per trace (in the worker, next to the
 * run) from the trace events and the engine's own stateAt frames. Nothing here decides lock
 * semantics; it only turns "state after event i" into intervals the renderer can draw.
 */
import { clusterShards, type ClusterShard, type Deployment } from '../../engine/topology/nodes';
import type { FrameReader } from '../../engine/scenario/state';
import type { ClientSpec, Op } from '../../engine/scenario/schema';
import type { KeyView, Trace, TraceEvent, VisibleState } from '../../engine/trace/types';
import { clientOf, isThreadActor } from '../../engine/trace/actors';
import { nameOwners, ownerCollector } from './owners';
import { aggregateKeys } from './key-rows';
import { subscriptionMarker } from './subscriptions';
import {
  FAILOVER_MARKS,
  isFailoverStep,
  type Arrow,
  type BandKind,
  type KeySegment,
  type LaneModel,
  type Mark,
  type MarkKind,
  type NodeLane,
  type SentinelLane,
  type SentinelMarkKind,
  type SlotSpan,
  type ThreadLane,
  type ViolationBand,
} from './lane-types';
import {
  addSpan,
  isNoScript,
  leaseLanes,
  renewedThreads,
  renewFailed,
  watchdogClient,
} from './renewal-marks';

export * from './lane-types';

import {
  NO_HOLDS,
  NUMERIC,
  byteOrder,
  compareThreadIds,
  followedIn,
  inOrder,
  isCompanionKey,
  sameKeyView,
  memo,
  readerOf,
  sameHolds,
  shortField,
} from './lane-reading';

export { compareThreadIds } from './lane-reading';

/** Kinds that never change a thread's state, a hold or a key: they only add marks. */
const MARK_ONLY = new Set([
  'script.line',
  'script.call',
  'script.log',
  'pubsub.publish',
  'pubsub.deliver',
  'watchdog.renew',
  'pubsub.timeout',
]);

const LOCK_KINDS = new Set([
  'lock.request',
  'unlock.request',
  'lock.acquired',
  'lock.wait',
  'lock.failed',
  'lock.released',
  'lock.error',
  'violation.start',
  'violation.end',
]);

/**
 * `cluster`: the shards a cluster run starts with (`clusterShards` of its deployment): node lanes
 * are then grouped by shard and carry the slots each node serves, moved by `cluster.promoted`.
 */
export function deriveLaneModel(
  trace: Trace,
  stateAt: (i: number) => VisibleState,
  cluster?: readonly ClusterShard[],
  sweep?: () => (i: number) => FrameReader,
  subLocks: readonly string[] = [],
): LaneModel {
  const events = trace.events;
  const initial = stateAt(-1);
  const lastT = events.length ? events[events.length - 1].t : 0;
  const tEnd = Math.max(lastT, ...trace.violations.map((v) => v.to ?? 0), 1);

  const threadIds = new Set<string>([...Object.keys(initial.threads), ...Object.keys(trace.final.threads)]);
  const lockNames = new Set<string>(subLocks);
  const lockKeyOf = new Map<string, string>();
  // One pass over the events for their threads, locks and owners; an actor's name is matched once.
  const actors = new Set<string>();
  const ownersSeen = ownerCollector();
  for (const e of events) {
    ownersSeen.add(e);
    if (e.actor !== undefined && !actors.has(e.actor)) {
      actors.add(e.actor);
      if (isThreadActor(e.actor)) threadIds.add(e.actor);
    }
    if (e.lock !== undefined) {
      lockNames.add(e.lock);
      if (typeof e.key === 'string' && !lockKeyOf.has(e.lock)) lockKeyOf.set(e.lock, e.key);
    }
  }
  const threads = [...threadIds].sort(compareThreadIds);

  const allNodes = [...new Set([...Object.keys(initial.nodes), ...Object.keys(trace.final.nodes)])];
  const isSentinel = (n: string) => (trace.final.nodes[n] ?? initial.nodes[n]).role === 'sentinel';
  const shardOrder = cluster?.flatMap((s) => [s.master, ...s.replicas]) ?? [];
  const nodeIds = allNodes
    .filter((n) => !isSentinel(n))
    .sort((a, b) => shardOrder.indexOf(a) - shardOrder.indexOf(b));
  const sentinelIds = allNodes.filter(isSentinel);

  // Thread lanes: a band changes whenever the engine's view of the thread changes.
  const threadLanes = new Map<string, ThreadLane>();
  const openBand = new Map<string, { kind: BandKind | null; from: number }>();
  const openHold = new Map<string, Map<string, { count: number; from: number }>>();
  for (const id of threads) {
    threadLanes.set(id, { id, client: clientOf(id), bands: [], holds: [], partial: [], marks: [] });
    openBand.set(id, { kind: null, from: 0 });
    openHold.set(id, new Map());
  }
  const lastHolds = new Map<string, Readonly<Record<string, number>>>();
  // When each thread last called unlock on a lock: its hold up to the reply is drawn as releasing.
  const unlockAt = new Map<string, number>();
  // the spans written whole, in HoldSpan's field order (a spread per span was 3% of the lanes)
  const pushHold = (id: string, from: number, to: number, lock: string, count: number) => {
    const holds = threadLanes.get(id)!.holds;
    const u = unlockAt.get(`${id}\u0000${lock}`);
    if (u === undefined || u <= from || u >= to) holds.push({ from, to, lock, count });
    else holds.push({ from, to: u, lock, count }, { from: u, to, lock, count, releasing: true });
  };
  const openPartial = new Map<string, { keys: string; from: number }>();
  const toBand = (s: string | undefined): BandKind | null =>
    s === 'running' ||
    s === 'working' ||
    s === 'waiting' ||
    s === 'sleeping' ||
    s === 'paused' ||
    s === 'crashed'
      ? s
      : null;

  const owners = ownersSeen.names;
  // A key's name and an owner field come back on every change of the key (six per lock in a
  // watchdog run of 10,000 locks): named once each.
  const keyName = memo((key: string) => nameOwners(key, owners));
  const fieldName = memo((field: string) => shortField(field, owners));
  const nodeLanes = new Map<string, NodeLane>();
  const nodeOpen = new Map<string, { up: boolean; upFrom: number; role: string; roleFrom: number }>();
  // `view`: the KeyView last compared (the engine's are immutable: the same one is the same key);
  // `shown`: the one the open segment shows (undefined: none, the key is absent).
  // By node, then key (a key of its own per pair cost a string built at every frame).
  const keyOpen = new Map<string, Map<string, { seg: KeySegment | null; view?: KeyView; shown?: KeyView }>>();
  // The keys followed on each node: the locks, and their companions once one appears, each with
  // its place in that order (the segments of one moment are pushed in it).
  const tracked = new Map<string, Map<string, number>>();
  for (const id of nodeIds) {
    const nv = initial.nodes[id] ?? trace.final.nodes[id];
    nodeLanes.set(id, { id, role: nv.role, down: [], roles: [], keys: [], keyNames: [] });
    nodeOpen.set(id, { up: nv.up, upFrom: 0, role: nv.role, roleFrom: 0 });
    tracked.set(id, new Map([...lockNames].map((key, i) => [key, i])));
    keyOpen.set(id, new Map([...lockNames].map((key) => [key, { seg: null }])));
  }
  // Slot ownership only moves by a failover (no migration is modelled): one span per change.
  const slotSpans = new Map<string, SlotSpan[]>();
  for (const s of cluster ?? []) {
    slotSpans.set(s.master, [{ from: 0, to: 0, slots: s.slots }]);
    for (const r of s.replicas) slotSpans.set(r, [{ from: 0, to: 0, slots: '' }]);
  }
  const moveSlots = (node: string, slots: string, t: number) => {
    const spans = slotSpans.get(node);
    const last = spans?.[spans.length - 1];
    if (!spans || !last || last.slots === slots) return;
    last.to = t;
    spans.push({ from: t, to: t, slots });
  };

  // The thread view each lane last saw: an unchanged thread is the very same (frozen) view.
  const lastView = new Map<string, unknown>();
  const apply = (state: FrameReader, t: number) => {
    for (const id of state.changed()) {
      if (!openBand.has(id)) continue;
      const tv = state.lane ? state.lane(id) : state.thread(id);
      if (tv !== undefined && lastView.get(id) === tv) continue;
      lastView.set(id, tv);
      const ob = openBand.get(id)!;
      const kind = toBand(tv?.state);
      if (kind !== ob.kind) {
        if (ob.kind !== null && t > ob.from)
          threadLanes.get(id)!.bands.push({ from: ob.from, to: t, kind: ob.kind });
        ob.kind = kind;
        ob.from = t;
      }
      const keys = tv?.leases?.join(' + ') ?? '';
      const op = openPartial.get(id);
      if ((op?.keys ?? '') !== keys) {
        if (op && t > op.from) threadLanes.get(id)!.partial.push({ from: op.from, to: t, keys: op.keys });
        if (keys) openPartial.set(id, { keys, from: t });
        else openPartial.delete(id);
      }
      // Most frames leave most threads' holds alone: compare without allocating.
      const now = tv?.holds ?? NO_HOLDS;
      if (sameHolds(now, lastHolds.get(id))) continue;
      lastHolds.set(id, now);
      const holds = openHold.get(id)!;
      for (const [lock, h] of holds) {
        if ((now[lock] ?? 0) !== h.count) {
          if (t > h.from) pushHold(id, h.from, t, lock, h.count);
          holds.delete(lock);
        }
      }
      for (const lock in now) {
        const count = now[lock];
        if (count > 0 && !holds.has(lock)) holds.set(lock, { count, from: t });
      }
    }
    for (const id of nodeIds) {
      const nv = state.node(id);
      if (!nv) continue;
      const no = nodeOpen.get(id)!;
      const lane = nodeLanes.get(id)!;
      if (nv.up !== no.up) {
        if (!no.up) lane.down.push({ from: no.upFrom, to: t });
        no.up = nv.up;
        no.upFrom = t;
      }
      if (nv.role !== no.role) {
        lane.roles.push({ from: no.roleFrom, to: t, role: no.role });
        no.role = nv.role;
        no.roleFrom = t;
      }
      const keys = tracked.get(id)!;
      const nodeKeys = keyOpen.get(id)!;
      // Only the keys this moment touched, when the reader knows them (a sweep does).
      const changed = state.changedKeys?.(id) ?? null;
      let found: string[] | null = null;
      for (const key of changed ?? nv.keys.keys())
        if (!keys.has(key) && nv.keys.has(key) && isCompanionKey(key, lockNames)) (found ??= []).push(key);
      // In key order, as a state lists them: the order of the segments of one moment follows it.
      for (const key of found?.sort(byteOrder) ?? []) {
        keys.set(key, keys.size);
        nodeKeys.set(key, { seg: null });
      }
      const visit = changed === null ? keys.keys() : followedIn(changed, keys);
      for (const key of visit) {
        const ko = nodeKeys.get(key)!;
        const k = nv.keys.get(key);
        if (k !== undefined && k === ko.view) continue;
        ko.view = k;
        if (sameKeyView(k, ko.shown)) continue;
        if (ko.seg) {
          ko.seg.to = t;
          if (ko.seg.to > ko.seg.from || ko.seg.label) lane.keys.push(ko.seg);
        }
        ko.shown = k;
        if (!k) {
          ko.seg = null;
          continue;
        }
        const label =
          k.type === 'hash'
            ? (k.value as [string, string][]).map(([f, v]) => `${fieldName(f)}=${v}`).join(' ')
            : k.type === 'string'
              ? fieldName(String(k.value))
              : k.type;
        ko.seg = {
          key,
          name: keyName(key),
          from: t,
          to: t,
          expireAt: k.expireAt,
          label,
          ttlAtFrom: k.expireAt === null ? null : Math.max(0, k.expireAt - t),
        };
      }
    }
  };

  apply(readerOf(initial, threads), 0);
  const arrows: Arrow[] = [];
  const partitions: { from: number; to: number }[] = [];
  const lockEventIndices: number[] = [];
  const pendingPublish = new Map<string, { t: number; node: string; index: number }>();
  const clientDeliver = new Map<string, { node: string; t0: number; t1: number; index: number }>();
  let partitionFrom: number | null = null;
  const starveFrom = new Map<string, number>();
  const starved: { client: string; from: number; to: number }[] = [];
  const latency: { from: number; to: number }[] = [];
  let latencyFrom = 0;
  let spikes = 0;
  // Renewal attempts: every renew script a client's watchdog sends is one tick on the lanes of the
  // threads it names; its WAIT, then the client's watchdog.renew verdict, may turn it red.
  const attemptsSinceWait = new Map<string, Mark[]>();
  const unclaimed = new Map<string, Mark[]>();
  // Threads between a polling lock.wait and the end of that wait: each command they send is a try.
  const polling = new Set<string>();
  // A cluster has no Sentinels: its masters detect the failure and vote over the cluster bus. Its
  // failover gets the same row, opened by the first cluster failover event.
  let sentinels: SentinelLane | null =
    sentinelIds.length > 0 ? { kind: 'sentinels', ids: sentinelIds, marks: [], failovers: [] } : null;
  let failoverFrom: number | null = null;
  const sentinelMark = (kind: SentinelMarkKind, e: TraceEvent, index: number) =>
    sentinels?.marks.push({ t: e.t, kind, index, node: String(e.node) });

  // One frame per distinct virtual ms: the timeline cannot show anything shorter, and each costs
  // a step of the sweep (a checkpoint replay without one), so this bounds the work by the run's
  // length in ms.
  const frameAt = sweep?.() ?? ((i: number) => readerOf(stateAt(i), threads));
  let dirty = false;
  // the pub/sub pool's waits and give-ups (subscriptions.ts), in the same walk
  const subWaits = subscriptionMarker(threadLanes);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    subWaits.add(e, i);
    if (!MARK_ONLY.has(e.kind)) dirty = true;
    if (dirty && (i + 1 === events.length || events[i + 1].t !== e.t)) {
      apply(frameAt(i), e.t);
      dirty = false;
    }
    if (LOCK_KINDS.has(e.kind)) lockEventIndices.push(i);
    // every thread actor has its lane, and no other actor is named like a thread
    const lane = e.actor === undefined ? undefined : threadLanes.get(e.actor);
    if (isFailoverStep(e)) {
      const mark = FAILOVER_MARKS[e.kind];
      // a cluster has no Sentinel ids up front: its lane starts with its first failover step
      if (e.kind.startsWith('cluster.')) sentinels ??= { kind: 'cluster', ids: [], marks: [], failovers: [] };
      sentinelMark(mark, e, i);
      if (mark === 'sdown') failoverFrom ??= e.t;
      if (mark === 'promote') {
        sentinels?.failovers.push({ from: failoverFrom ?? e.t, to: e.t, promoted: e.node });
        failoverFrom = null;
      }
      if (e.kind === 'cluster.promoted') {
        moveSlots(e.from, '', e.t);
        moveSlots(e.node, e.slots, e.t);
      }
    }
    switch (e.kind) {
      case 'cmd': {
        if (lane && polling.has(lane.id)) lane.marks.push({ t: e.t, kind: 'poll', index: i });
        const wd = watchdogClient(e.actor);
        if (wd === null) break;
        const argv = e.argv as string[];
        const name = String(argv[0]).toLowerCase();
        if (name === 'wait') {
          const short = typeof e.reply === 'number' && e.reply < Number(argv[1]);
          if (short) for (const m of attemptsSinceWait.get(String(e.actor)) ?? []) m.kind = 'renew-fail';
          attemptsSinceWait.delete(String(e.actor));
          break;
        }
        if (name !== 'eval' && name !== 'evalsha') break;
        if (isNoScript(e.reply)) break;
        const kind: MarkKind = renewFailed(e.reply) ? 'renew-fail' : 'renew';
        for (const id of renewedThreads(wd, argv, threadLanes, lastHolds)) {
          const m: Mark = { t: e.t, kind, index: i };
          threadLanes.get(id)!.marks.push(m);
          const since = attemptsSinceWait.get(String(e.actor)) ?? [];
          since.push(m);
          attemptsSinceWait.set(String(e.actor), since);
          const u = unclaimed.get(id) ?? [];
          u.push(m);
          unclaimed.set(id, u);
        }
        break;
      }
      case 'watchdog.renew': {
        if (!lane) break;
        const failed = e.result === 0 || e.result === 'error';
        const attempts = unclaimed.get(lane.id);
        if (attempts && attempts.length > 0) {
          // The client's verdict on the attempts it just made: an error (no replica synced) is red.
          if (failed) attempts[attempts.length - 1].kind = 'renew-fail';
          unclaimed.delete(lane.id);
        } else lane.marks.push({ t: e.t, kind: failed ? 'renew-fail' : 'renew', index: i });
        break;
      }
      case 'waiter.wakeup': {
        lane?.marks.push({ t: e.t, kind: e.cause === 'timeout' ? 'wake-timeout' : 'wake-message', index: i });
        // A message reaches the client's pub/sub connection; the arrow ends at the thread it woke.
        const d = lane && e.cause !== 'timeout' ? clientDeliver.get(lane.client) : undefined;
        if (lane && d) {
          arrows.push({
            kind: 'pubsub',
            fromLane: d.node,
            toLane: lane.id,
            t0: d.t0,
            t1: d.t1,
            index: d.index,
          });
          clientDeliver.delete(lane.client);
        }
        break;
      }
      case 'unlock.request':
        if (lane && typeof e.lock === 'string') unlockAt.set(`${lane.id}\u0000${e.lock}`, e.t);
        break;
      case 'lock.wait':
        if (lane && e.polling) polling.add(lane.id);
        break;
      case 'lock.acquired':
      case 'thread.done':
        if (lane) polling.delete(lane.id);
        break;
      case 'lock.error':
      case 'lock.failed':
        if (lane) polling.delete(lane.id);
        lane?.marks.push({ t: e.t, kind: 'error', index: i });
        break;
      case 'node.role':
        if (sentinelIds.includes(e.by)) sentinelMark('reconfig', e, i);
        break;
      case 'resource.use':
        lane?.marks.push({
          t: e.t,
          kind: e.accepted === false ? 'refused' : 'resource',
          index: i,
          label: typeof e.token === 'number' ? `#${e.token}` : undefined,
        });
        break;
      case 'pubsub.publish':
        pendingPublish.set(e.channel, { t: e.t, node: e.node, index: i });
        break;
      case 'pubsub.deliver': {
        const p = pendingPublish.get(e.channel ?? '');
        if (p && isThreadActor(e.actor)) {
          arrows.push({ kind: 'pubsub', fromLane: p.node, toLane: e.actor, t0: p.t, t1: e.t, index: i });
        } else if (p && e.actor) {
          const client = e.actor.split('/')[0];
          clientDeliver.set(client, { node: p.node, t0: p.t, t1: e.t, index: i });
        }
        break;
      }
      case 'repl.apply':
      case 'repl.sync': {
        const from = e.master;
        const to = e.replica;
        const sent = typeof e.sentAt === 'number' ? e.sentAt : e.t;
        if (from && to && from !== to)
          arrows.push({ kind: 'repl', fromLane: from, toLane: to, t0: sent, t1: e.t, index: i });
        break;
      }
      case 'net.partition':
        partitionFrom ??= e.t;
        break;
      case 'net.heal':
        if (partitionFrom !== null) partitions.push({ from: partitionFrom, to: e.t });
        partitionFrom = null;
        break;
      case 'net.latency':
        if (spikes++ === 0) latencyFrom = e.t;
        break;
      case 'call.timeout':
        lane?.marks.push({ t: e.t, kind: 'timeout', index: i });
        break;
      case 'reply.late':
        lane?.marks.push({ t: e.t, kind: 'late', index: i });
        break;
      case 'node.stall': {
        const n = nodeLanes.get(e.node);
        if (n) addSpan((n.busy ??= []), e.t, e.until);
        break;
      }
      case 'client.starve':
        starveFrom.set(e.client, starveFrom.get(e.client) ?? e.t);
        break;
      case 'client.starve.end': {
        const from = starveFrom.get(e.client);
        starveFrom.delete(e.client);
        if (from !== undefined) starved.push({ client: e.client, from, to: e.t });
        break;
      }
      case 'net.latency.end':
        if (spikes > 0 && --spikes === 0) latency.push({ from: latencyFrom, to: e.t });
        break;
    }
  }
  for (const [client, from] of starveFrom) starved.push({ client, from, to: tEnd });
  for (const sp of starved)
    for (const l of threadLanes.values())
      if (l.client === sp.client) addSpan((l.starved ??= []), sp.from, sp.to);
  if (partitionFrom !== null) partitions.push({ from: partitionFrom, to: tEnd });
  if (spikes > 0) latency.push({ from: latencyFrom, to: tEnd });
  if (failoverFrom !== null) sentinels?.failovers.push({ from: failoverFrom, to: tEnd, promoted: null });

  subWaits.end(tEnd);
  // The marks come mostly in order already: only a lane with one out of order is sorted.
  const byTime = (a: Mark, b: Mark) => a.t - b.t || a.index - b.index;
  for (const l of threadLanes.values()) if (!inOrder(l.marks)) l.marks.sort(byTime);

  // Close everything still open at the end of the run.
  apply(readerOf({ ...trace.final, nodes: {}, threads: {} }, threads), tEnd);
  for (const id of nodeIds) {
    const no = nodeOpen.get(id)!;
    const lane = nodeLanes.get(id)!;
    if (!no.up) lane.down.push({ from: no.upFrom, to: tEnd });
    lane.roles.push({ from: no.roleFrom, to: tEnd, role: no.role });
    for (const key of tracked.get(id)!.keys()) {
      const ko = keyOpen.get(id)!.get(key)!;
      if (ko.seg) {
        ko.seg.to = tEnd;
        lane.keys.push(ko.seg);
      }
    }
    lane.keys.sort((a, b) => a.from - b.from);
    const spans = slotSpans.get(id);
    if (spans) {
      spans[spans.length - 1].to = tEnd;
      lane.slots = spans.filter((sp) => sp.to > sp.from || spans.length === 1);
    }
    // Sub-rows: the locks first, then their companion keys, each by name.
    const names = [...new Set(lane.keys.filter((k) => k.label).map((k) => k.name))].sort((x, y) =>
      NUMERIC.compare(x, y),
    );
    const isLock = (n: string) => lockNames.has(n);
    lane.keyNames = [...names.filter(isLock), ...names.filter((n) => !isLock(n))];
    aggregateKeys(lane);
  }

  return {
    tEnd,
    threads: threads.map((id) => threadLanes.get(id)!),
    nodes: nodeIds.map((id) => nodeLanes.get(id)!),
    arrows,
    sentinels,
    ...(cluster
      ? { shards: cluster.map((s) => [s.master, ...s.replicas].filter((n) => nodeLanes.has(n))) }
      : {}),
    owners,
    violations: trace.violations.map((v) => {
      const band: ViolationBand = {
        kind: v.kind,
        lock: v.lock,
        from: v.from,
        to: v.to ?? tEnd,
        open: v.to === null,
        holders: v.holders,
      };
      if (v.cause !== undefined) band.cause = v.cause;
      if (v.waiting !== undefined) band.waiting = v.waiting;
      if (v.serverHolds !== undefined) band.serverHolds = v.serverHolds;
      if (v.clientHolds !== undefined) band.clientHolds = v.clientHolds;
      // Two leases live on nodes, not in threads: V2 is marked where they are.
      if (v.kind === 'V2') {
        const lanes = leaseLanes(nodeLanes, v.lock, lockKeyOf.get(v.lock) ?? v.lock, band.from, band.to);
        if (lanes.length > 0) band.lanes = lanes;
      }
      return band;
    }),
    partitions,
    latency,
    lockEventIndices,
  };
}

/** The lane model of a scenario's run: a cluster's lanes grouped by shard, with their slots. */
/**
 * The locks a MultiLock or RedLock names (`locks`), wherever they sit in a program. The last one it
 * takes may be named by no event of its own (no wait, no partial hold), and its key still belongs
 * on its node's lane (multilock-redlock step 3 drew l1 and l2, and master-3 empty).
 */
export function subLocksOf(clients: readonly ClientSpec[]): string[] {
  const out = new Set<string>();
  const walk = (ops: readonly Op[]): void => {
    for (const op of ops) {
      if ('locks' in op && Array.isArray(op.locks)) for (const l of op.locks) out.add(l);
      if ('body' in op) walk(op.body);
      if ('catch' in op && op.catch) walk(op.catch);
      if ('finally' in op && op.finally) walk(op.finally);
    }
  };
  for (const c of clients) for (const t of c.threads) walk(t.program);
  return [...out];
}

export function deriveRunModel(
  scenario: { redis: Deployment; clients?: readonly ClientSpec[] },
  run: { trace: Trace; stateAt: (i: number) => VisibleState; sweep?: () => (i: number) => FrameReader },
): LaneModel {
  const { redis } = scenario;
  return deriveLaneModel(
    run.trace,
    (i) => run.stateAt(i),
    redis.topology === 'cluster' ? clusterShards(redis) : undefined,
    run.sweep && (() => run.sweep!()),
    subLocksOf(scenario.clients ?? []),
  );
}
