/**
 * A server in cluster mode (Redis 7.0 cluster.c): the redirect processCommand asks for before
 * running a keyed command (getNodeByQuery / clusterRedirectClient), the same question asked for
 * each redis.call of a script (script.c scriptVerifyClusterState), and the CLUSTER, READONLY,
 * READWRITE and ASKING commands. What the node knows of the cluster comes from its ClusterView;
 * nothing here changes it.
 */
import type { ClusterNodeInfo, ClusterView, SlotRange } from './cluster_slots';
import { CLUSTER_SLOTS, keyHashSlot } from './cluster_slots';
import type { Connection } from './connection';
import { NOT_INTEGER } from './errors';
import { discardTransaction } from './multi';
import { parseLongLong } from './numbers';
import type { ErrorReply, Reply } from './reply';
import { array, bulk, error, int, OK, status } from './reply';
import type { CommandEntry, KeySpec, RedisServer } from './server';

const CROSSSLOT = error("CROSSSLOT Keys in request don't hash to the same slot");
const DOWN_STATE = error('CLUSTERDOWN The cluster is down');
const DOWN_UNBOUND = error('CLUSTERDOWN Hash slot not served');
const DISABLED = error('ERR This instance has cluster support disabled');
const SCRIPT_NON_LOCAL = error('ERR Script attempted to access a non local key in a cluster node');
const SCRIPT_DOWN = error('ERR Script attempted to execute a command while the cluster is down');

/**
 * The shard pub/sub commands route by channel: their key specs are NOT_KEY ones that the command
 * table leaves out (COMMAND GETKEYS skips them) but getNodeByQuery reads.
 */
const SHARD_CHANNELS: ReadonlyMap<string, KeySpec> = new Map<string, KeySpec>([
  ['spublish', [1, 1, 1]],
  ['ssubscribe', [1, -1, 1]],
  ['sunsubscribe', [1, -1, 1]],
]);

/** getNodeByQuery's answer: served here, or the reason it is not. */
type Route =
  | { readonly kind: 'local' }
  | { readonly kind: 'moved'; readonly slot: number; readonly node: ClusterNodeInfo }
  | { readonly kind: 'crossslot' | 'down' | 'unbound' };

const LOCAL: Route = { kind: 'local' };
const CROSS: Route = { kind: 'crossslot' };
const DOWN: Route = { kind: 'down' };
const UNBOUND: Route = { kind: 'unbound' };

/** What a command names for routing: its keys, or its channels for SPUBLISH / S(UN)SUBSCRIBE. */
function routedArgs(
  cmd: CommandEntry,
  argv: readonly string[],
  keysOf: (spec: KeySpec | null, argv: readonly string[]) => string[],
): string[] {
  const channels = cmd.keys === null ? SHARD_CHANNELS.get(cmd.name) : undefined;
  return keysOf(channels ?? cmd.keys, argv);
}

/**
 * cluster.c getNodeByQuery over one or more commands (the queue, for EXEC). The first key picks
 * the slot (no owner: "Hash slot not served" at once); any other key must be the same key or in
 * the same slot; then a failed cluster refuses keyed commands (sharded pub/sub excepted, as
 * cluster-allow-pubsubshard-when-down defaults to yes); a replica serves its master's slots to
 * READONLY clients and to sharded pub/sub, for reads only.
 */
function route(
  view: ClusterView,
  keyLists: readonly (readonly string[])[],
  pubsubShard: boolean,
  readonlyClient: boolean,
  write: boolean,
): Route {
  let first: string | null = null;
  let slot = 0;
  let owner: ClusterNodeInfo | null = null;
  for (const keys of keyLists) {
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j];
      if (first === null) {
        first = key;
        slot = keyHashSlot(key);
        owner = view.slotOwner(slot);
        if (owner === null) return UNBOUND;
      } else if (key !== first && keyHashSlot(key) !== slot) {
        return CROSS;
      }
    }
  }
  if (owner === null) return LOCAL;
  if (view.state() !== 'ok' && !pubsubShard) return DOWN;
  const me = view.myId();
  if (owner.id === me) return LOCAL;
  if ((readonlyClient || pubsubShard) && !write) {
    const myself = view.nodes().find((n) => n.id === me);
    if (myself?.role === 'replica' && myself.masterId === owner.id) return LOCAL;
  }
  return { kind: 'moved', slot, node: owner };
}

/**
 * processCommand's cluster redirect, after the arity check and before every other refusal: null
 * when this node runs the command. Keyless commands pass untouched. A refused EXEC discards the
 * transaction (the caller flags any other refused command inside MULTI).
 */
export function clusterRefusal(
  s: RedisServer,
  view: ClusterView,
  conn: Connection,
  cmd: CommandEntry,
  argv: readonly string[],
  keysOf: (spec: KeySpec | null, argv: readonly string[]) => string[],
): ErrorReply | null {
  let r: Route;
  if (cmd.name === 'exec') {
    const queue = conn.tx.queue;
    if (queue === null || queue.length === 0) return null;
    const lists: string[][] = [];
    let write = false;
    for (const q of queue) {
      const qcmd = s.commandEntry(q);
      if (qcmd === undefined) continue;
      if (qcmd.flags.has('write')) write = true;
      lists.push(routedArgs(qcmd, q, keysOf));
    }
    r = route(view, lists, false, conn.clusterReadonly, write);
    if (r.kind !== 'local') discardTransaction(s, conn);
  } else {
    const pubsubShard = cmd.keys === null && SHARD_CHANNELS.has(cmd.name);
    if (cmd.keys === null && !pubsubShard) return null;
    const keys = routedArgs(cmd, argv, keysOf);
    if (keys.length === 0) return null;
    r = route(view, [keys], pubsubShard, conn.clusterReadonly, cmd.flags.has('write'));
  }
  switch (r.kind) {
    case 'local':
      return null;
    case 'moved':
      return error(`MOVED ${r.slot} ${r.node.host}:${r.node.port}`);
    case 'crossslot':
      return CROSSSLOT;
    case 'down':
      return DOWN_STATE;
    case 'unbound':
      return DOWN_UNBOUND;
  }
}

/**
 * script.c scriptVerifyClusterState for one redis.call: a key (or shard channel) this node does
 * not serve, or keys of one command in different slots, fail the call. Scripts without a shebang
 * (the only kind the simulator runs) may touch local keys of different slots, as in 7.0.
 */
export function scriptClusterRefusal(
  view: ClusterView,
  caller: Connection | null,
  cmd: CommandEntry,
  argv: readonly string[],
  keysOf: (spec: KeySpec | null, argv: readonly string[]) => string[],
): ErrorReply | null {
  const pubsubShard = cmd.keys === null && SHARD_CHANNELS.has(cmd.name);
  if (cmd.keys === null && !pubsubShard) return null;
  const keys = routedArgs(cmd, argv, keysOf);
  if (keys.length === 0) return null;
  const r = route(view, [keys], pubsubShard, caller?.clusterReadonly ?? false, cmd.flags.has('write'));
  if (r.kind === 'local') return null;
  return r.kind === 'down' ? SCRIPT_DOWN : SCRIPT_NON_LOCAL;
}

// ---- CLUSTER and the connection commands -------------------------------------------------------

/** Every CLUSTER subcommand first answers this outside cluster mode (clusterCommand). */
function viewOf(s: RedisServer): ClusterView | ErrorReply {
  return s.cluster ?? DISABLED;
}

function connectionFlag(set: (c: Connection) => void): (s: RedisServer, c: Connection) => Reply {
  return (s, c) => {
    if (s.cluster === undefined) return DISABLED;
    set(c);
    return OK;
  };
}

export const readonlyCommand = connectionFlag((c) => (c.clusterReadonly = true));
export const readwriteCommand = connectionFlag((c) => (c.clusterReadonly = false));
/** ASKING: accepted, but no slot is ever migrating here, so it changes nothing. */
export const askingCommand = connectionFlag(() => undefined);

type ClusterProc = (s: RedisServer, view: ClusterView, argv: string[]) => Reply;

/** Wraps a CLUSTER subcommand so it answers the "disabled" error outside cluster mode. */
export function clusterSub(proc: ClusterProc): (s: RedisServer, c: Connection, argv: string[]) => Reply {
  return (s, _c, argv) => {
    const view = viewOf(s);
    return 't' in view ? view : proc(s, view, argv);
  };
}

/** CLUSTER subcommands that change the cluster (MEET, ADDSLOTS, FAILOVER ...): the topology does that. */
export const clusterNotSimulated = clusterSub((_s, _v, argv) =>
  error(`ERR LockScope does not simulate CLUSTER ${argv[1].toUpperCase()}`),
);

const CLUSTER_HELP = [
  'ADDSLOTS <slot> [<slot> ...]',
  '    Assign slots to current node.',
  'ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]',
  '    Assign slots which are between <start-slot> and <end-slot> to current node.',
  'BUMPEPOCH',
  '    Advance the cluster config epoch.',
  'COUNT-FAILURE-REPORTS <node-id>',
  '    Return number of failure reports for <node-id>.',
  'COUNTKEYSINSLOT <slot>',
  '    Return the number of keys in <slot>.',
  'DELSLOTS <slot> [<slot> ...]',
  '    Delete slots information from current node.',
  'DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]',
  '    Delete slots information which are between <start-slot> and <end-slot> from current node.',
  'FAILOVER [FORCE|TAKEOVER]',
  '    Promote current replica node to being a master.',
  'FORGET <node-id>',
  '    Remove a node from the cluster.',
  'GETKEYSINSLOT <slot> <count>',
  '    Return key names stored by current node in a slot.',
  'FLUSHSLOTS',
  '    Delete current node own slots information.',
  'INFO',
  '    Return information about the cluster.',
  'KEYSLOT <key>',
  '    Return the hash slot for <key>.',
  'MEET <ip> <port> [<bus-port>]',
  '    Connect nodes into a working cluster.',
  'MYID',
  '    Return the node id.',
  'NODES',
  '    Return cluster configuration seen by node. Output format:',
  '    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...',
  'REPLICATE <node-id>',
  '    Configure current node as replica to <node-id>.',
  'RESET [HARD|SOFT]',
  '    Reset current node (default: soft).',
  'SET-CONFIG-EPOCH <epoch>',
  '    Set config epoch of current node.',
  'SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)',
  '    Set slot state.',
  'REPLICAS <node-id>',
  '    Return <node-id> replicas.',
  'SAVECONFIG',
  '    Force saving cluster configuration on disk.',
  'SLOTS',
  '    Return information about slots range mappings. Each range is made of:',
  '    start, end, master and replicas IP addresses, ports and ids',
  'SHARDS',
  '    Return information about slot range mappings and the nodes associated with them.',
  'LINKS',
  '    Return information about all network links between this node and its peers.',
  '    Output format is an array where each array element is a map containing attributes of a link',
];

/** networking.c addReplyHelp: the command's own spelling, upper-cased, heads the list. */
export const clusterHelpCommand = clusterSub((_s, _v, argv) =>
  array(
    [
      `${argv[0].toUpperCase()} <subcommand> [<arg> [value] [opt] ...]. Subcommands are:`,
      ...CLUSTER_HELP,
      'HELP',
      '    Prints this help.',
    ].map(status),
  ),
);

export const clusterKeyslotCommand = clusterSub((_s, _v, argv) => int(keyHashSlot(argv[2])));

export const clusterMyidCommand = clusterSub((_s, view) => bulk(view.myId()));

/** getLongLongFromObjectOrReply, then the slot range check with the subcommand's own text. */
function parseSlot(arg: string): number | null | undefined {
  const n = parseLongLong(arg);
  if (n === null) return undefined;
  return n >= 0 && n < CLUSTER_SLOTS ? Number(n) : null;
}

/** Keys in `slot`, expired ones included (Redis counts its dict entries), newest first like its slot list. */
function keysInSlot(s: RedisServer, slot: number): string[] {
  const out: string[] = [];
  for (const key of s.db.keys()) if (keyHashSlot(key) === slot) out.push(key);
  return out.reverse();
}

export const clusterCountkeysinslotCommand = clusterSub((s, _v, argv) => {
  const slot = parseSlot(argv[2]);
  if (slot === undefined) return NOT_INTEGER;
  if (slot === null) return error('ERR Invalid slot');
  return int(keysInSlot(s, slot).length);
});

export const clusterGetkeysinslotCommand = clusterSub((s, _v, argv) => {
  const slot = parseSlot(argv[2]);
  if (slot === undefined) return NOT_INTEGER;
  const max = parseLongLong(argv[3]);
  if (max === null) return NOT_INTEGER;
  if (slot === null || max < 0) return error('ERR Invalid slot or number of keys');
  const keys = keysInSlot(s, slot);
  return array(keys.slice(0, max > keys.length ? keys.length : Number(max)).map(bulk));
});

/** Contiguous runs merged, in slot order (clusterGenNodesSlotsInfo reads the slot table in order). */
export function mergeSlotRanges(ranges: readonly SlotRange[]): SlotRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: SlotRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && r.start === last.end + 1)
      out[out.length - 1] = { start: last.start, end: r.end };
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

const FLAG_ORDER = ['myself', 'master', 'slave', 'fail?', 'fail', 'noaddr'] as const;

/** The view's nodes with the lookups the CLUSTER replies need. */
class Topology {
  readonly nodes: readonly ClusterNodeInfo[];
  private readonly byId = new Map<string, ClusterNodeInfo>();

  constructor(
    private readonly s: RedisServer,
    readonly view: ClusterView,
  ) {
    this.nodes = view.nodes();
    for (const n of this.nodes) this.byId.set(n.id, n);
  }

  node(id: string): ClusterNodeInfo | undefined {
    return this.byId.get(id);
  }

  replicasOf(master: ClusterNodeInfo): ClusterNodeInfo[] {
    return this.nodes.filter((n) => n.role === 'replica' && n.masterId === master.id);
  }

  isMyself(n: ClusterNodeInfo): boolean {
    return n.id === this.view.myId();
  }

  offset(n: ClusterNodeInfo): number {
    if (n.role === 'master' && this.isMyself(n)) return this.s.repl.offset;
    return n.replOffset ?? 0;
  }

  /** A replica's config epoch is its master's (clusterGenNodeDescription, CLUSTER INFO my_epoch). */
  epoch(n: ClusterNodeInfo): number {
    const master = n.role === 'replica' && n.masterId !== null ? this.node(n.masterId) : undefined;
    return (master ?? n).configEpoch;
  }

  /** cluster.c isReplicaAvailable: not failed and has replicated something (unknown offset: yes). */
  available(replica: ClusterNodeInfo): boolean {
    return (
      !replica.flags.includes('fail') && (replica.replOffset === undefined || this.offset(replica) !== 0)
    );
  }

  /** clusterGenNodeDescription; ping-sent and pong-received are always 0 (no bus timing here). */
  describe(n: ClusterNodeInfo): string {
    const has = new Set<string>(n.flags);
    has.add(n.role === 'master' ? 'master' : 'slave');
    if (this.isMyself(n)) has.add('myself');
    const flags = FLAG_ORDER.filter((f) => has.has(f)).join(',');
    const link = n.connected || this.isMyself(n) ? 'connected' : 'disconnected';
    let line = `${n.id} ${n.host}:${n.port}@${n.port + 10000} ${flags} ${n.masterId ?? '-'} 0 0 ${this.epoch(n)} ${link}`;
    if (n.role === 'master')
      for (const r of mergeSlotRanges(n.slots))
        line += r.start === r.end ? ` ${r.start}` : ` ${r.start}-${r.end}`;
    return line;
  }
}

export const clusterNodesCommand = clusterSub((s, view) => {
  const t = new Topology(s, view);
  return bulk(t.nodes.map((n) => t.describe(n) + '\n').join(''));
});

export const clusterReplicasCommand = clusterSub((s, view, argv) => {
  const t = new Topology(s, view);
  const n = t.node(argv[2]);
  if (n === undefined) return error(`ERR Unknown node ${argv[2]}`);
  if (n.role === 'replica') return error('ERR The specified node is not a master');
  return array(t.replicasOf(n).map((r) => bulk(t.describe(r))));
});

/** addNodeToNodeReply: ip, port, id and an empty map of other endpoints. */
function nodeEntry(n: ClusterNodeInfo): Reply {
  return array([bulk(n.host), int(n.port), bulk(n.id), array([])]);
}

export const clusterSlotsCommand = clusterSub((s, view) => {
  const t = new Topology(s, view);
  const runs: { range: SlotRange; node: ClusterNodeInfo }[] = [];
  for (const n of t.nodes) {
    if (n.role === 'master') for (const range of mergeSlotRanges(n.slots)) runs.push({ range, node: n });
  }
  runs.sort((a, b) => a.range.start - b.range.start);
  return array(
    runs.map(({ range, node }) =>
      array([
        int(range.start),
        int(range.end),
        nodeEntry(node),
        ...t
          .replicasOf(node)
          .filter((r) => t.available(r))
          .map(nodeEntry),
      ]),
    ),
  );
});

/** addNodeDetailsToShardReply (RESP2: the map as a flat array). */
function shardNode(t: Topology, n: ClusterNodeInfo): Reply {
  const offset = t.offset(n);
  const health = n.flags.includes('fail')
    ? 'fail'
    : n.role === 'replica' && n.replOffset !== undefined && offset === 0
      ? 'loading'
      : 'online';
  return array([
    bulk('id'),
    bulk(n.id),
    bulk('port'),
    int(n.port),
    bulk('ip'),
    bulk(n.host),
    bulk('endpoint'),
    bulk(n.host),
    bulk('role'),
    bulk(n.role),
    bulk('replication-offset'),
    int(offset),
    bulk('health'),
    bulk(health),
  ]);
}

export const clusterShardsCommand = clusterSub((s, view) => {
  const t = new Topology(s, view);
  const shards: Reply[] = [];
  for (const m of t.nodes) {
    if (m.role !== 'master') continue;
    const slots = mergeSlotRanges(m.slots).flatMap((r) => [int(r.start), int(r.end)]);
    const members = [m, ...t.replicasOf(m)].map((n) => shardNode(t, n));
    shards.push(array([bulk('slots'), array(slots), bulk('nodes'), array(members)]));
  }
  return array(shards);
});

/**
 * CLUSTER INFO. The bus-message counters are 0: the simulation does not count gossip packets, so
 * only their totals (always printed) appear.
 */
export const clusterInfoCommand = clusterSub((s, view) => {
  const t = new Topology(s, view);
  let assigned = 0;
  let ok = 0;
  let pfail = 0;
  let fail = 0;
  let size = 0;
  for (const n of t.nodes) {
    if (n.role !== 'master' || n.slots.length === 0) continue;
    size++;
    let count = 0;
    for (const r of n.slots) count += r.end - r.start + 1;
    assigned += count;
    if (n.flags.includes('fail')) fail += count;
    else if (n.flags.includes('fail?')) pfail += count;
    else ok += count;
  }
  const me = t.node(view.myId());
  const lines = [
    `cluster_state:${view.state()}`,
    `cluster_slots_assigned:${assigned}`,
    `cluster_slots_ok:${ok}`,
    `cluster_slots_pfail:${pfail}`,
    `cluster_slots_fail:${fail}`,
    `cluster_known_nodes:${t.nodes.length}`,
    `cluster_size:${size}`,
    `cluster_current_epoch:${view.currentEpoch()}`,
    `cluster_my_epoch:${me === undefined ? 0 : t.epoch(me)}`,
    'cluster_stats_messages_sent:0',
    'cluster_stats_messages_received:0',
    'total_cluster_links_buffer_limit_exceeded:0',
  ];
  return bulk(lines.map((l) => l + '\r\n').join(''));
});
