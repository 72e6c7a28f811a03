/**
 * Redis Cluster's key space: 16384 hash slots (cluster.c keyHashSlot, crc16.c) and the way
 * `redis-cli --cluster create` splits them among masters (redis-cli.c clusterManagerCommandCreate).
 *
 * Both the simulated server (routing, CLUSTER KEYSLOT) and the client models (Redisson's slot map)
 * use these, so the two can never disagree on where a key lives.
 */

import { sha1hex } from './sha1';

export const CLUSTER_SLOTS = 16384;

// CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection, as crc16.c.
const CRC16_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    t[i] = crc;
  }
  return t;
})();

/** crc16 over a byte string (char codes 0..255), from `start` to `end` (exclusive). */
export function crc16(bytes: string, start = 0, end = bytes.length): number {
  let crc = 0;
  for (let i = start; i < end; i++)
    crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ bytes.charCodeAt(i)) & 0xff];
  return crc;
}

/**
 * The hash slot of a key. Hash tags as cluster.c: if the key has a `{` and a `}` somewhere after
 * it with at least one byte between the two, only the bytes between the first `{` and the first
 * `}` after it are hashed; otherwise the whole key is ("{}a" and "a{" hash whole).
 */
export function keyHashSlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key, open + 1, close) & (CLUSTER_SLOTS - 1);
  }
  return crc16(key) & (CLUSTER_SLOTS - 1);
}

/** A contiguous run of slots, both ends included (as CLUSTER SLOTS reports them). */
export interface SlotRange {
  start: number;
  end: number;
}

/**
 * The slot ranges `redis-cli --cluster create` gives `masters` masters, in order: 0-5460,
 * 5461-10922, 10923-16383 for three. Same arithmetic as redis-cli (a float share per master,
 * its end rounded half away from zero, the last master taking the rest).
 */
export function initialSlotRanges(masters: number): SlotRange[] {
  const perNode = CLUSTER_SLOTS / masters;
  const out: SlotRange[] = [];
  let first = 0;
  let cursor = 0;
  for (let i = 0; i < masters; i++) {
    let last = Math.round(cursor + perNode - 1);
    if (last > CLUSTER_SLOTS - 1 || i === masters - 1) last = CLUSTER_SLOTS - 1;
    if (last < first) last = first;
    out.push({ start: first, end: last });
    first = last + 1;
    cursor += perNode;
  }
  return out;
}

/**
 * What a node in cluster mode knows of the cluster, as the server consults it for routing
 * (cluster.c getNodeByQuery) and for the CLUSTER command. Implemented by the cluster topology;
 * the server never changes it.
 */
export interface ClusterView {
  /** This node's 40-hex-digit node id (CLUSTER MYID). */
  myId(): string;
  /** The node serving `slot` as this node believes, or null if no master serves it (CLUSTERDOWN). */
  slotOwner(slot: number): ClusterNodeInfo | null;
  /** Every node this node knows, itself included, for CLUSTER NODES / SLOTS / SHARDS / INFO. */
  nodes(): readonly ClusterNodeInfo[];
  /** cluster_state: 'fail' when some slot is unserved (CLUSTERDOWN for every keyed command). */
  state(): 'ok' | 'fail';
  /** currentEpoch as this node knows it (CLUSTER INFO cluster_current_epoch). */
  currentEpoch(): number;
  /** A message this node received for PUBLISH travels to every other node over the bus. */
  publishToBus(channel: string, message: string): void;
  /**
   * A message this node received for SPUBLISH travels over the bus to the other nodes of its
   * shard (its master and replicas; cluster.c clusterPropagatePublish with sharded = 1): Redis
   * 7.0 does not replicate SPUBLISH in cluster mode. Deliver it with
   * `RedisServer.deliverFromBus(channel, message, true)`. Optional: without it, shard messages
   * stay on the node that received them.
   */
  publishShardToBus?(channel: string, message: string): void;
}

export interface ClusterNodeInfo {
  /** 40 hex digits */
  id: string;
  /** the simulation's node name (master-1, replica-2 ...), for traces and the UI */
  name: string;
  host: string;
  port: number;
  role: 'master' | 'replica';
  /** for a replica, the id of its master */
  masterId: string | null;
  /** slots served (masters only), in order */
  slots: readonly SlotRange[];
  configEpoch: number;
  /** failure flags as this node sees them (CLUSTER NODES: fail?, fail) */
  flags: readonly ('myself' | 'fail?' | 'fail' | 'noaddr')[];
  connected: boolean;
  /**
   * The replication offset this node last heard of (CLUSTER SHARDS replication-offset; a replica
   * at 0 is "loading" and left out of CLUSTER SLOTS). Optional: when absent, 0 is reported and a
   * replica counts as in sync. For the node itself as a master the server uses its own offset.
   */
  replOffset?: number;
}

/**
 * A simulated cluster node's id: 40 hex digits, stable for a node name (real ids are random; a
 * stable one keeps traces, links and CLUSTER NODES output reproducible).
 */
export function clusterNodeId(name: string): string {
  return sha1hex(`lockscope cluster node ${name}`);
}

/**
 * Where a simulated cluster node listens: 127.0.0.1 and ports from 30001 upwards in node order
 * (masters first, then replicas), as Redis's utils/create-cluster script lays a test cluster out.
 */
export function clusterNodeAddress(index: number): { host: string; port: number } {
  return { host: '127.0.0.1', port: 30001 + index };
}

/** "0-5460" or "0-5460 10923-16383", as CLUSTER NODES lists slots. */
export function formatSlots(slots: readonly SlotRange[]): string {
  return slots.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`)).join(' ');
}
