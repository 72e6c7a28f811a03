/**
 * English strings only the topology view (src/ui/topology/TopologyView.tsx) uses: its chunk
 * registers them (`addEnglish`) when it loads, so the first screen does without them. One home per
 * string: a key is here or in en.ts, never both; zh.ts has every key (typed against `MessageKey`,
 * the union of the tables).
 */
export const enTopology = {
  'topo.svgLabel': 'Clients, Redis nodes and Sentinels at {t} ms',
  'topo.replicaOf': 'replica of {id}',
  'topo.leader': 'leader, epoch {e}',
  'topo.client': 'client {id}',
  'topo.holds': 'holds {lock}',
  'topo.releasing': 'releasing {lock}',
  'topo.more': '+{n} more',
  'topo.partition': 'Partition: {groups}',
  'topo.cut': 'link cut by the partition',
  'topo.msg.cmd': 'command',
  'topo.msg.reply': 'reply',
  'topo.msg.repl': 'replication',
  'topo.msg.pubsub': 'unlock message (pub/sub)',
  'topo.msg.replicaof': 'REPLICAOF from a Sentinel',
  'topology.slowLink': 'slow link: +{ms} ms',
} as const;
