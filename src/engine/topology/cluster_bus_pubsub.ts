/** Pub/sub over the cluster bus: what a node's PUBLISH and SPUBLISH send to the other nodes. */
import type { TopologyHost } from '../sim/api';
import type { ClusterNode } from './cluster_node';

/**
 * clusterPropagatePublish (cluster.c:3262-3281), one latency later. PUBLISH reaches every node the
 * sender can reach; a sharded one (PUBLISHSHARD) only the other nodes serving the sender's slots as
 * it sees them (clusterGetNodesServingMySlots: its master, or itself, and that master's replicas).
 */
export function publishOverBus(
  k: TopologyHost | null,
  order: readonly string[],
  from: ClusterNode,
  channel: string,
  message: string,
  sharded: boolean,
): void {
  if (k === null) return;
  const self = from.self();
  const primary = self.role === 'master' ? from.name : self.master;
  if (sharded && primary === null) return;
  for (const p of order) {
    if (p === from.name || !k.isUp(p) || !k.reachable(from.name, p)) continue;
    if (sharded && p !== primary) {
      const b = from.beliefs.get(p)!;
      if (!(b.role === 'replica' && b.master === primary)) continue;
    }
    k.at(k.now() + k.latency(from.name, p), () => {
      if (k.isUp(p)) k.server(p)?.deliverFromBus(channel, message, sharded);
    });
  }
}
