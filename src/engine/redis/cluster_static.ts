/**
 * A fixed, healthy cluster as `redis-cli --cluster create` leaves it: `masters` masters named
 * master-1 ... master-N with initialSlotRanges' split and config epochs 1 ... N (current epoch
 * N), then `replicasPerMaster` replicas each, replica-1 ... replica-(N*R), replica-j following
 * master-((j-1) mod N + 1). Node ids and addresses are clusterNodeId / clusterNodeAddress in that
 * order. Nothing ever fails or moves: the redis-cli `--cluster` mode and the unit tests route by it.
 */
import type { ClusterNodeInfo, ClusterView } from './cluster_slots';
import { clusterNodeAddress, clusterNodeId, initialSlotRanges, keyHashSlot } from './cluster_slots';

export interface StaticClusterOptions {
  masters: number;
  replicasPerMaster?: number;
}

/** Where PUBLISH / SPUBLISH received by `from` would travel; the static view drops them by default. */
export interface StaticBus {
  publish?(from: string, channel: string, message: string): void;
  publishShard?(from: string, channel: string, message: string): void;
}

/** Every node of the layout, masters first, as each of them sees the others (no flags). */
export function staticClusterNodes(opts: StaticClusterOptions): ClusterNodeInfo[] {
  const ranges = initialSlotRanges(opts.masters);
  const nodes: ClusterNodeInfo[] = [];
  for (let i = 0; i < opts.masters; i++) {
    const name = `master-${i + 1}`;
    nodes.push({
      id: clusterNodeId(name),
      name,
      ...clusterNodeAddress(i),
      role: 'master',
      masterId: null,
      slots: [ranges[i]],
      configEpoch: i + 1,
      flags: [],
      connected: true,
    });
  }
  const replicas = opts.masters * (opts.replicasPerMaster ?? 0);
  for (let j = 0; j < replicas; j++) {
    const name = `replica-${j + 1}`;
    nodes.push({
      id: clusterNodeId(name),
      name,
      ...clusterNodeAddress(opts.masters + j),
      role: 'replica',
      masterId: nodes[j % opts.masters].id,
      slots: [],
      configEpoch: 0,
      flags: [],
      connected: true,
    });
  }
  return nodes;
}

/** The view node `self` (a name of the layout) has of the static cluster. */
export function staticClusterView(
  self: string,
  opts: StaticClusterOptions,
  bus: StaticBus = {},
): ClusterView {
  const nodes = staticClusterNodes(opts).map((n) =>
    n.name === self ? { ...n, flags: ['myself' as const] } : n,
  );
  const me = nodes.find((n) => n.name === self);
  if (me === undefined) throw new Error(`no node ${self} in a cluster of ${opts.masters} masters`);
  const masters = nodes.filter((n) => n.role === 'master');
  const ownerOf = (slot: number) =>
    masters.find((m) => m.slots.some((r) => slot >= r.start && slot <= r.end));
  return {
    myId: () => me.id,
    slotOwner: (slot) => ownerOf(slot) ?? null,
    nodes: () => nodes,
    state: () => 'ok',
    // redis-cli --cluster create numbers every node's configEpoch, replicas included
    currentEpoch: () => nodes.length,
    publishToBus: (channel, message) => bus.publish?.(self, channel, message),
    publishShardToBus: (channel, message) => bus.publishShard?.(self, channel, message),
  };
}

/** The name of the master serving `key` in the static layout (tests pick local and remote keys by it). */
export function staticOwnerOf(key: string, opts: StaticClusterOptions): string {
  const slot = keyHashSlot(key);
  return staticClusterNodes(opts).find(
    (n) => n.role === 'master' && n.slots.some((r) => slot >= r.start && slot <= r.end),
  )!.name;
}
