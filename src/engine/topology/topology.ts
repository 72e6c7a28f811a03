/**
 * The deployment a scenario describes (`redis.topology`): which nodes exist, who replicates from
 * whom, the Sentinels, and which node each client treats as master.
 *
 *   single       `master` (and optional replicas: replication without failover)
 *   sentinel     `master`, `replica-N`, `sentinel-N`: failover by Sentinel
 *   independent  `master-1` … `master-N`, unrelated (RedLock / MultiLock pick by hint)
 *   cluster      `master-1` … `master-M`, `replica-1` … `replica-(M×R)`: Redis Cluster
 *                (cluster.ts), each client routing a key by its own slot map
 *
 * Clients follow Sentinel as Redisson's sentinel mode does: a +switch-master message reaches the
 * clients that can hear a Sentinel; every second each client also asks the first Sentinel it can
 * reach for the master (the scan), so a client cut off from the Sentinels keeps its old master.
 */
import type { TopologyHost } from '../sim/api';
import type { NodeView } from '../trace/types';
import type { ClusterView } from '../redis/cluster_slots';
import type { Cluster } from './cluster';
import { deploymentModels } from './deployment_models';
import { clusterShardMaster, nodeIds, type Deployment } from './nodes';
import { ReplicationLinks } from './replication_link';
import type { Sentinels } from './sentinel';

const CLIENT_SCAN_MS = 1000;

export class Topology {
  private readonly redis: Deployment;
  private readonly dataNodes: string[];
  private links: ReplicationLinks | null = null;
  private sentinels: Sentinels | null = null;
  private readonly cluster: Cluster | null = null;
  private kernel: TopologyHost | null = null;
  /** client -> the master it currently talks to */
  private readonly view = new Map<string, string>();
  private readonly clients: string[];
  private mastersCache: string[] = [];
  /** called when the set of nodes some client treats as master changed */
  onMastersChanged: () => void = () => {};

  constructor(redis: Deployment, clients: readonly string[]) {
    this.redis = redis;
    this.clients = clients.slice();
    this.dataNodes = nodeIds(redis).filter((id) => !id.startsWith('sentinel-'));
    const first = this.dataNodes[0];
    for (const c of this.clients) this.view.set(c, first);
    this.mastersCache = this.computeMasters();
    if (redis.topology === 'cluster') {
      const { Cluster } = deploymentModels(redis.topology);
      this.cluster = new Cluster(
        {
          masters: redis.masters,
          replicasPerMaster: redis.replicasPerMaster ?? 0,
          nodeTimeoutMs: redis.clusterNodeTimeoutMs ?? 15_000,
          lagOf: (n) => this.lagOf(n),
        },
        this.dataNodes,
        this.clients,
      );
      this.cluster.onMastersChanged = () => this.onMastersChanged();
    }
  }

  /** The cluster picture a node's server routes by (topology "cluster" only). */
  clusterView(node: string): ClusterView | undefined {
    return this.cluster !== null && this.dataNodes.includes(node) ? this.cluster.view(node) : undefined;
  }

  /**
   * The replicas Redisson reads from for `master` (ReadMode.SLAVE, the default): in Sentinel and
   * cluster mode the master's replicas that are up, in name order; none in single-server or
   * independent mode, which know no replicas.
   */
  readReplicas(_client: string, master: string): string[] {
    if (this.redis.topology !== 'sentinel' && this.redis.topology !== 'cluster') return [];
    const k = this.kernel;
    return (this.links?.replicasOf(master) ?? []).filter((r) => k === null || k.isUp(r)).sort();
  }

  /** Cluster: the masters of the client's slot map, in slot order (empty otherwise). */
  slotMasters(client: string): string[] {
    return this.cluster?.slotMasters(client) ?? [];
  }

  /** A MOVED reply reached a client: the node to re-send to (null: no node has that address). */
  redirect(client: string, address: string): string | null {
    return this.cluster?.redirect(client, address) ?? null;
  }

  /** Node ids and their starting roles, for the world and the state timeline. */
  nodes(): { id: string; role: NodeView['role'] }[] {
    return nodeIds(this.redis).map((id) => ({
      id,
      role: id.startsWith('sentinel-') ? 'sentinel' : id.startsWith('replica-') ? 'replica' : 'master',
    }));
  }

  /** True when masters send their effects to replicas (servers need the propagate hook). */
  get replicated(): boolean {
    if (this.redis.topology === 'cluster') return (this.redis.replicasPerMaster ?? 0) > 0;
    return this.redis.topology !== 'independent' && this.redis.replicas.length > 0;
  }

  isSentinel(id: string): boolean {
    return id.startsWith('sentinel-');
  }

  /** Wires replication, Sentinels and the client scan into the kernel (before the run starts). */
  install(kernel: TopologyHost): void {
    this.kernel = kernel;
    // A crash or restart breaks the node's links; a node rebuilt empty needs its settings again.
    kernel.onNodeLifecycle({
      crashed: (node) => this.links?.reset(node),
      restarted: (node) => {
        this.links?.reset(node);
        this.configure(node);
        this.cluster?.restarted(node);
      },
    });
    for (const n of this.dataNodes) this.configure(n);
    if (this.cluster !== null) {
      // every node may become a replica after a failover, so the links exist from the start
      const links = new ReplicationLinks(kernel, this.dataNodes);
      this.links = links;
      const m = this.redis.masters;
      for (let k = 1; k <= m * (this.redis.replicasPerMaster ?? 0); k++)
        links.addReplica(`replica-${k}`, clusterShardMaster(k, m), this.lagOf(`replica-${k}`));
      this.cluster.install(kernel, links);
    } else if (this.replicated) {
      const links = new ReplicationLinks(kernel, this.dataNodes);
      this.links = links;
      this.redis.replicas.forEach((r, i) => links.addReplica(`replica-${i + 1}`, 'master', r.lagMs));
    }
    if (this.redis.topology === 'sentinel' && this.links !== null) {
      const { Sentinels } = deploymentModels(this.redis.topology);
      this.sentinels = new Sentinels(
        kernel,
        this.links,
        this.redis.sentinel,
        {
          switchMaster: () => this.switchMaster(),
          lagOf: (n) => this.lagOf(n),
          priorityOf: (n) => this.priorityOf(n),
        },
        this.dataNodes,
      );
      this.scan();
    }
  }

  /**
   * The node a client sends commands to; `hint` picks one of the independent masters; in a
   * cluster, `key` picks the master its slot map gives the key's slot.
   */
  masterFor(client: string, hint?: string, key?: string): string {
    if (this.cluster !== null) return this.cluster.ownerFor(client, key);
    if (hint !== undefined && this.redis.topology === 'independent' && this.dataNodes.includes(hint))
      return hint;
    return this.view.get(client) ?? this.dataNodes[0];
  }

  /** Nodes some client currently treats as master (what V2 looks at). */
  masters(): readonly string[] {
    if (this.cluster !== null) return this.cluster.clientMasters();
    return this.mastersCache;
  }

  propagate(node: string, commands: string[][]): void {
    this.links?.propagate(node, commands);
  }

  /** Crash or restart of a Sentinel (data nodes are the kernel's); false if `id` is no Sentinel. */
  sentinelFault(id: string, kind: 'crash' | 'restart'): boolean {
    if (this.sentinels === null || !this.isSentinel(id)) return false;
    if (kind === 'crash') this.sentinels.crash(id);
    else this.sentinels.restart(id);
    return true;
  }

  /** Settings from the node's config file (a node rebuilt empty after a crash gets them again). */
  private configure(node: string): void {
    const s = this.kernel?.server(node);
    if (s !== undefined) s.repl.minReplicasToWrite = this.redis.minReplicasToWrite;
  }

  private lagOf(node: string): number {
    const m = /^replica-(\d+)$/.exec(node);
    return m !== null ? (this.redis.replicas[Number(m[1]) - 1]?.lagMs ?? 1) : 1;
  }

  private priorityOf(node: string): number {
    const m = /^replica-(\d+)$/.exec(node);
    return (m !== null ? this.redis.replicas[Number(m[1]) - 1]?.priority : undefined) ?? 100;
  }

  /** +switch-master reaches the clients that can hear some Sentinel, one latency later. */
  private switchMaster(): void {
    const k = this.kernel!;
    for (const c of this.clients) {
      if (this.sentinels!.masterSeenBy(c) === null) continue;
      k.at(k.now() + k.latency('sentinels', c), () => this.follow(c));
    }
  }

  /** Redisson's periodic Sentinel scan (scanInterval 1000 ms). */
  private scan(): void {
    const k = this.kernel!;
    k.at(k.now() + CLIENT_SCAN_MS, () => {
      this.scan();
      for (const c of this.clients) this.follow(c);
    });
  }

  private follow(client: string): void {
    const m = this.sentinels!.masterSeenBy(client);
    if (m === null || m === this.view.get(client)) return;
    this.view.set(client, m);
    this.kernel!.emit('client.master', { actor: client, client, node: m });
    const next = this.computeMasters();
    if (next.join() !== this.mastersCache.join()) {
      this.mastersCache = next;
      this.onMastersChanged();
    }
  }

  private computeMasters(): string[] {
    if (this.redis.topology === 'independent') return this.dataNodes.slice();
    const set = new Set(this.view.values());
    if (set.size === 0) set.add(this.dataNodes[0]);
    return [...set].sort();
  }
}
