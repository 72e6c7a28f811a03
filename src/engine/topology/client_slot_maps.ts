/**
 * Redisson's slot map in cluster mode (ClusterConnectionManager): per client, the slot ranges and
 * the master each goes to, as its last CLUSTER NODES scan read them. It changes only at a scan
 * (every scanInterval), never on a MOVED reply.
 */
import type { TopologyHost } from '../sim/api';
import { clusterNodeAddress, formatSlots, keyHashSlot, type SlotRange } from '../redis/cluster_slots';
import type { ClusterNode } from './cluster_node';

/** Redisson ClusterServersConfig.scanInterval default */
export const CLUSTER_SCAN_MS = 5000;

export class ClientSlotMaps {
  /** client -> its slot map: slot ranges and the node each goes to */
  private readonly maps = new Map<string, { range: SlotRange; node: string }[]>();

  constructor(
    private readonly order: readonly string[],
    clients: readonly string[],
    ranges: readonly SlotRange[],
    private readonly nodeOf: (name: string) => ClusterNode,
    /** called when the set of nodes some client sends slots to changed */
    private readonly mastersChanged: () => void,
  ) {
    for (const c of clients)
      this.maps.set(
        c,
        ranges.map((range, i) => ({ range, node: order[i] })),
      );
  }

  start(k: TopologyHost): void {
    this.scan(k);
  }

  /** The node a client sends a command for `key` to (its slot map; the first master without a key). */
  ownerFor(client: string, key: string | undefined): string {
    const map = this.maps.get(client);
    if (map === undefined || map.length === 0) return this.order[0];
    if (key === undefined) return map[0].node;
    const slot = keyHashSlot(key);
    for (const e of map) if (slot >= e.range.start && slot <= e.range.end) return e.node;
    return map[0].node;
  }

  /** The distinct masters of the client's slot map, in slot order (the first serves slot 0). */
  slotMasters(client: string): string[] {
    return [...new Set((this.maps.get(client) ?? []).map((e) => e.node))];
  }

  /** Nodes some client sends slots to (what V2 and L1 look at). */
  clientMasters(): string[] {
    const set = new Set<string>();
    for (const m of this.maps.values()) for (const e of m) set.add(e.node);
    return [...set].sort();
  }

  /** The node at a MOVED reply's address, or null. */
  nodeAt(address: string): string | null {
    const node = this.order.find((_n, i) => {
      const a = clusterNodeAddress(i);
      return `${a.host}:${a.port}` === address;
    });
    return node ?? null;
  }

  /** checkClusterState every scanInterval: CLUSTER NODES from the first node the client reaches. */
  private scan(k: TopologyHost): void {
    k.at(k.now() + CLUSTER_SCAN_MS, () => {
      this.scan(k);
      for (const c of this.maps.keys()) {
        const from = this.order.find((n) => k.isUp(n) && k.reachable(c, n));
        if (from !== undefined) this.refresh(k, c, this.nodeOf(from));
      }
    });
  }

  private refresh(k: TopologyHost, client: string, from: ClusterNode): void {
    const old = this.maps.get(client) ?? [];
    const next: { range: SlotRange; node: string }[] = [];
    for (const [n, b] of from.beliefs)
      if (b.role === 'master') for (const range of b.slots) next.push({ range, node: n });
    next.sort((a, b) => a.range.start - b.range.start);
    if (next.length === 0) return;
    const before = new Set(old.map((e) => `${e.range.start}-${e.range.end}@${e.node}`));
    let changed = next.length !== old.length;
    for (const e of next) {
      if (before.has(`${e.range.start}-${e.range.end}@${e.node}`)) continue;
      changed = true;
      const prev = old.find((o) => o.range.start <= e.range.start && o.range.end >= e.range.start);
      k.emit('client.master', {
        actor: client,
        client,
        node: e.node,
        slots: formatSlots([e.range]),
        ...(prev !== undefined ? { from: prev.node } : {}),
      });
    }
    if (!changed) return;
    this.maps.set(client, next);
    this.mastersChanged();
    k.slotMapChanged?.(client);
  }
}
