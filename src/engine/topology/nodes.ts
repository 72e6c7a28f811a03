import { formatSlots, initialSlotRanges } from '../redis/cluster_slots';

/** The deployment part of a scenario (its `redis` section) that decides which nodes exist. */
export interface Deployment {
  topology: 'single' | 'sentinel' | 'independent' | 'cluster';
  masters: number;
  /** priority: replica-priority (lower is promoted first, 0 never; default 100) */
  replicas: readonly { lagMs: number; priority?: number }[];
  sentinel: { count: number; quorum: number; downAfterMs: number; failoverMs: number };
  minReplicasToWrite: number;
  /** cluster: replicas of each master */
  replicasPerMaster?: number;
  /** cluster: cluster-node-timeout */
  clusterNodeTimeoutMs?: number;
}

/**
 * Node ids of a topology (docs/scenario-format.md: node ids are fixed names, not roles).
 * cluster: `master-1` … `master-M`, then `replica-1` … `replica-(M×R)`, replica k replicating
 * master ((k-1) mod M)+1 (as `redis-cli --cluster create --cluster-replicas R` spreads them).
 */
export function nodeIds(redis: Deployment): string[] {
  const ids: string[] = [];
  if (redis.topology === 'independent' || redis.topology === 'cluster') {
    for (let i = 1; i <= redis.masters; i++) ids.push(`master-${i}`);
    if (redis.topology === 'cluster')
      for (let k = 1; k <= redis.masters * (redis.replicasPerMaster ?? 0); k++) ids.push(`replica-${k}`);
  } else {
    ids.push('master');
    for (let i = 1; i <= redis.replicas.length; i++) ids.push(`replica-${i}`);
  }
  if (redis.topology === 'sentinel')
    for (let i = 1; i <= redis.sentinel.count; i++) ids.push(`sentinel-${i}`);
  return ids;
}

/** cluster: the master `replica-k` starts replicating (the shard it belongs to). */
export function clusterShardMaster(replica: number, masters: number): string {
  return `master-${((replica - 1) % masters) + 1}`;
}

export interface ClusterShard {
  master: string;
  replicas: string[];
  slots: string;
}

/**
 * cluster: the shards as `redis-cli --cluster create` lays them out, each master with its
 * replicas and the slots it starts with (as CLUSTER NODES writes them, "0-5460"), for views that
 * group nodes by shard; a failover moves slots later (`cluster.promoted`).
 */
export function clusterShards(redis: Deployment): ClusterShard[] {
  const ranges = initialSlotRanges(redis.masters);
  const replicas = redis.masters * (redis.replicasPerMaster ?? 0);
  return ranges.map((r, i) => {
    const master = `master-${i + 1}`;
    const of: string[] = [];
    for (let k = 1; k <= replicas; k++)
      if (clusterShardMaster(k, redis.masters) === master) of.push(`replica-${k}`);
    return { master, replicas: of, slots: formatSlots([r]) };
  });
}
