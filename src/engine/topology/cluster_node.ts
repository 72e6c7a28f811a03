/**
 * One Redis Cluster node's own picture of the cluster (7.0's clusterState as that node holds it):
 * what it believes of every node, its epochs, the failure reports filed with it, its election.
 * `Cluster` (cluster.ts) moves these pictures along the bus; this file only holds them.
 */
import { clusterNodeId, type SlotRange } from '../redis/cluster_slots';

/** What one node believes of one node (a line of its CLUSTER NODES). */
export interface Belief {
  role: 'master' | 'replica';
  master: string | null;
  slots: SlotRange[];
  configEpoch: number;
  flag: 'ok' | 'pfail' | 'fail';
  /** when this node marked it FAIL */
  failSince: number;
}

export interface Election {
  /** failover_auth_time */
  at: number;
  /** 0 until the votes were asked for */
  epoch: number;
  votes: Set<string>;
  master: string;
  /** failover_auth_rank */
  rank: number;
}

export class ClusterNode {
  readonly id: string;
  readonly beliefs = new Map<string, Belief>();
  readonly lastPong = new Map<string, number>();
  /** peer -> when this node last pinged it (the failure-report gossip's cadence) */
  readonly lastPing = new Map<string, number>();
  /** failing node -> master that reported it -> when (clusterNodeAddFailureReport) */
  readonly reports = new Map<string, Map<string, number>>();
  currentEpoch = 0;
  lastVoteEpoch = 0;
  /** failed master -> when this master last voted for one of its replicas */
  readonly votedFor = new Map<string, number>();
  election: Election | null = null;
  state: 'ok' | 'fail' = 'ok';
  /** down at its last cron: a node back from a crash starts its pong clocks over */
  down = false;
  /** clusterUpdateState's first_call_time: the process's start (the scenario's nodes run from long before) */
  firstCall = -Infinity;
  /** clusterUpdateState's among_minority_time: when it last saw itself in a minority */
  amongMinority = -Infinity;
  /**
   * The masters' slot ranges in belief order, rebuilt when the beliefs change: a later master
   * claiming a slot wins. A handful of ranges, where a slot -> owner table of 16384 entries per
   * node per change was most of a small cluster scenario's run.
   */
  private owners: { start: number; end: number; node: string }[] | null = null;

  constructor(
    readonly name: string,
    readonly index: number,
  ) {
    this.id = clusterNodeId(name);
  }

  self(): Belief {
    return this.beliefs.get(this.name)!;
  }

  owner(slot: number): string | null {
    if (this.owners === null) {
      const o: { start: number; end: number; node: string }[] = [];
      for (const [node, b] of this.beliefs)
        if (b.role === 'master') for (const r of b.slots) o.push({ start: r.start, end: r.end, node });
      this.owners = o;
    }
    const o = this.owners;
    for (let i = o.length - 1; i >= 0; i--) if (slot >= o[i].start && slot <= o[i].end) return o[i].node;
    return null;
  }

  changed(): void {
    this.owners = null;
  }

  /** Masters serving slots, as this node sees them (the cluster size for quorums). */
  slotMasters(): string[] {
    const out: string[] = [];
    for (const [n, b] of this.beliefs) if (b.role === 'master' && b.slots.length > 0) out.push(n);
    return out;
  }
}
