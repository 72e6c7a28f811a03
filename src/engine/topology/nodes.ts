/** The deployment part of a scenario (its `redis` section) that decides which nodes exist. */
export interface Deployment {
  topology: 'single' | 'sentinel' | 'independent';
  masters: number;
  /** priority: replica-priority (lower is promoted first, 0 never; default 100) */
  replicas: readonly { lagMs: number; priority?: number }[];
  sentinel: { count: number; quorum: number; downAfterMs: number; failoverMs: number };
  minReplicasToWrite: number;
}

/** Node ids of a topology (docs/scenario-format.md: node ids are fixed names, not roles). */
export function nodeIds(redis: Deployment): string[] {
  const ids: string[] = [];
  if (redis.topology === 'independent') {
    for (let i = 1; i <= redis.masters; i++) ids.push(`master-${i}`);
  } else {
    ids.push('master');
    for (let i = 1; i <= redis.replicas.length; i++) ids.push(`replica-${i}`);
  }
  if (redis.topology === 'sentinel')
    for (let i = 1; i <= redis.sentinel.count; i++) ids.push(`sentinel-${i}`);
  return ids;
}
