/**
 * The simulated Redis 7.0 server (Redis server.c): the command table, dispatch with Redis's own
 * checks in Redis's order (existence, arity, pub/sub context), and the ScriptHost the Lua layer
 * calls back into.
 *
 * Replies and frames: `exec` returns the command's reply. A command that writes several frames
 * to its own connection (SUBSCRIBE a b: one confirmation per channel) returns the first and
 * hands the others, in order, to the connection's push callback before `exec` returns; on the
 * wire they follow the returned reply. `execFrames` returns all of them as a list instead
 * (redis-cli and the console print each frame as a separate reply, like redis-cli does).
 *
 * Time: everything reads `opts.clock` in whole ms (mstime). Inside EVAL the key-expiry check is
 * frozen at script start while PTTL, relative TTLs and TIME keep reading the clock (7.0).
 *
 * Replication support: a master reports what it would send its replicas through
 * `events.propagate` (7.0's rewrites, MULTI/EXEC wrapping); a server put in the 'replica' role
 * refuses client writes with READONLY, hides but keeps expired keys, and applies its master's
 * stream with `applyFromMaster`.
 *
 * Known differences from 7.0.15: one database (SELECT 0 only); DEBUG answers SLEEP only and is
 * enabled (7.0 disables DEBUG by default); RESP2 only (no HELLO 3); QUIT answers OK and leaves
 * closing the connection to the caller; KEYS / PUBSUB CHANNELS list in insertion order, not
 * Redis's hash order; hashes and sorted sets always behave like their small (listpack) encoding.
 *
 * Cluster mode (ServerOptions.cluster, cluster.ts) differs from a 7.0.15 cluster node in: no slot
 * migration (never ASK / TRYAGAIN; ASKING is accepted and changes nothing); CLUSTER answers
 * KEYSLOT, COUNTKEYSINSLOT, GETKEYSINSLOT, SLOTS, SHARDS, NODES, INFO, MYID, REPLICAS / SLAVES
 * and HELP, every subcommand that changes the cluster (MEET, ADDSLOTS, FAILOVER, ...) and LINKS /
 * COUNT-FAILURE-REPORTS reply that LockScope does not simulate them (the topology changes the
 * cluster); NODES' ping-sent / pong-received are 0 and INFO has no per-type bus-message counters
 * (no gossip is counted); nodes are listed in the view's order, not Redis's hash order; a
 * replica whose view gives no replOffset counts as in sync; cluster-allow-reads-when-down is no
 * and cluster-allow-pubsubshard-when-down yes, as by default; scripts with a shebang (flags) are
 * not supported, so the cross-slot rule for flagged scripts never applies.
 */
import type { Clock } from '../clock';
import { Connection } from './connection';
import { Db } from './db';
import type { CommandSpec, ScriptHost } from './eval';
import { arityOk, ScriptEngine } from './eval';
import { arityError, unknownCommandError, unknownSubcommandError } from './errors';
import { PubSub } from './pubsub';
import { parseLongLong } from './numbers';
import type { ErrorReply, Reply } from './reply';
import { error, OK, status } from './reply';
import * as keyspace from './keyspace_commands';
import * as expire from './expire';
import * as str from './t_string';
import * as hash from './t_hash';
import * as list from './t_list';
import * as zset from './t_zset';
import * as ps from './pubsub';
import * as srv from './server_commands';
import { NOREPLICAS, ReplicationState, streamBytes, waitCommand } from './replication';
import * as multi from './multi';
import { Watches } from './multi';
import * as cl from './cluster';
import { clusterRefusal, scriptClusterRefusal } from './cluster';
import type { ClusterView, SlotRange } from './cluster_slots';
import { keyHashSlot } from './cluster_slots';

export { Connection } from './connection';

export interface ServerEvents {
  keyExpired?(key: string, how: 'lazy' | 'active'): void;
  publish?(channel: string, message: string, receivers: number): void;
  scriptLog?(level: string, message: string): void;
  /**
   * What a master sends its replicas for one unit of execution, in Redis 7.0's form: changed
   * data only; relative TTLs as PEXPIREAT / SET ... PXAT; float increments as their result;
   * expired keys as DEL; a script as the write commands it ran; PUBLISH always; several
   * commands wrapped in MULTI ... EXEC. Replicas apply them with `applyFromMaster`.
   */
  propagate?(commands: string[][]): void;
}

export interface ServerOptions {
  id?: string;
  clock: Clock;
  /** seeds the scripting layer's math.random */
  seed?: number;
  /** Lua instructions a script may run before it is stopped */
  scriptBudget?: number;
  /** DEBUG SLEEP: the owner advances the virtual clock by `ms` */
  onSleep?(ms: number): void;
  events?: ServerEvents;
  /**
   * Makes the server a Redis Cluster node that routes by this view (MOVED, CROSSSLOT,
   * CLUSTERDOWN, the script and SELECT rules, CLUSTER ...; see cluster.ts). Without it the server
   * is a standalone node and CLUSTER, READONLY, READWRITE and ASKING answer that cluster support
   * is disabled.
   */
  cluster?: ClusterView;
}

type Proc = (s: RedisServer, c: Connection, argv: string[]) => Reply;

/**
 * Where a command's keys sit in its argv, as Redis 7.0's key specs give them. A range is COMMAND
 * INFO's (first, last, step), `last` < 0 counting from the end; 'numkeys' is EVAL's: argv[2]
 * says how many keys follow it.
 */
export type KeySpec = readonly [first: number, last: number, step: number] | 'numkeys';

const K1: KeySpec = [1, 1, 1];
const K12: KeySpec = [1, 2, 1];
const KALL: KeySpec = [1, -1, 1];
const KPAIRS: KeySpec = [1, -1, 2];
const NUMKEYS: KeySpec = 'numkeys';

/** One row of the command table (server.c redisCommandTable / COMMAND INFO). */
export interface CommandEntry extends CommandSpec {
  /** "script|load" for subcommands, as Redis names them in errors */
  readonly fullname: string;
  /** null: the command takes no keys */
  readonly keys: KeySpec | null;
  readonly proc: Proc;
  readonly subcommands?: ReadonlyMap<string, CommandEntry>;
}

/**
 * [name, arity, flags, keys, proc, subcommands]: arity, flags and key positions exactly as Redis
 * 7.0.15's COMMAND INFO reports them, except that the shard-channel commands (SPUBLISH,
 * SSUBSCRIBE, SUNSUBSCRIBE) get none: Redis marks theirs NOT_KEY and COMMAND GETKEYS skips them.
 */
type Row = readonly [string, number, string, KeySpec | null, Proc, (readonly Row[])?];

const ADMIN = 'admin stale no_async_loading';
/** CLUSTER subcommands that change the cluster or report its links: the topology's business. */
const CLUSTER_NOT_SIMULATED: readonly (readonly [string, number, string])[] = [
  ['addslots', -3, ADMIN],
  ['addslotsrange', -4, ADMIN],
  ['bumpepoch', 2, ADMIN],
  ['count-failure-reports', 3, 'admin stale'],
  ['delslots', -3, ADMIN],
  ['delslotsrange', -4, ADMIN],
  ['failover', -2, ADMIN],
  ['flushslots', 2, ADMIN],
  ['forget', 3, ADMIN],
  ['links', 2, 'stale'],
  ['meet', -4, ADMIN],
  ['replicate', 3, ADMIN],
  ['reset', -2, 'admin noscript stale'],
  ['saveconfig', 2, ADMIN],
  ['set-config-epoch', 3, ADMIN],
  ['setslot', -4, ADMIN],
];

const ROWS: readonly Row[] = [
  // keyspace (db.c)
  ['del', -2, 'write', KALL, keyspace.delCommand],
  ['unlink', -2, 'write fast', KALL, keyspace.delCommand],
  ['exists', -2, 'readonly fast', KALL, keyspace.existsCommand],
  ['type', 2, 'readonly fast', K1, keyspace.typeCommand],
  ['keys', 2, 'readonly', null, keyspace.keysCommand],
  ['dbsize', 1, 'readonly fast', null, keyspace.dbsizeCommand],
  ['flushall', -1, 'write', null, keyspace.flushCommand],
  ['flushdb', -1, 'write', null, keyspace.flushCommand],
  ['rename', 3, 'write', K12, keyspace.renameCommand],
  // expire.c
  ['expire', -3, 'write fast', K1, expire.expireCommand],
  ['pexpire', -3, 'write fast', K1, expire.pexpireCommand],
  ['expireat', -3, 'write fast', K1, expire.expireatCommand],
  ['pexpireat', -3, 'write fast', K1, expire.pexpireatCommand],
  ['ttl', 2, 'readonly fast', K1, expire.ttlCommand],
  ['pttl', 2, 'readonly fast', K1, expire.pttlCommand],
  ['expiretime', 2, 'readonly fast', K1, expire.expiretimeCommand],
  ['pexpiretime', 2, 'readonly fast', K1, expire.pexpiretimeCommand],
  ['persist', 2, 'write fast', K1, expire.persistCommand],
  // t_string.c
  ['get', 2, 'readonly fast', K1, str.getCommand],
  ['set', -3, 'write denyoom', K1, str.setCommand],
  ['setnx', 3, 'write denyoom fast', K1, str.setnxCommand],
  ['setex', 4, 'write denyoom', K1, str.setexCommand],
  ['psetex', 4, 'write denyoom', K1, str.psetexCommand],
  ['getdel', 2, 'write fast', K1, str.getdelCommand],
  ['getex', -2, 'write fast', K1, str.getexCommand],
  ['getset', 3, 'write denyoom fast', K1, str.getsetCommand],
  ['mget', -2, 'readonly fast', KALL, str.mgetCommand],
  ['mset', -3, 'write denyoom', KPAIRS, str.msetCommand],
  ['strlen', 2, 'readonly fast', K1, str.strlenCommand],
  ['append', 3, 'write denyoom fast', K1, str.appendCommand],
  ['incr', 2, 'write denyoom fast', K1, str.incrCommand],
  ['decr', 2, 'write denyoom fast', K1, str.decrCommand],
  ['incrby', 3, 'write denyoom fast', K1, str.incrbyCommand],
  ['decrby', 3, 'write denyoom fast', K1, str.decrbyCommand],
  ['incrbyfloat', 3, 'write denyoom fast', K1, str.incrbyfloatCommand],
  // t_hash.c
  ['hset', -4, 'write denyoom fast', K1, hash.hsetCommand],
  ['hmset', -4, 'write denyoom fast', K1, hash.hmsetCommand],
  ['hsetnx', 4, 'write denyoom fast', K1, hash.hsetnxCommand],
  ['hget', 3, 'readonly fast', K1, hash.hgetCommand],
  ['hmget', -3, 'readonly fast', K1, hash.hmgetCommand],
  ['hgetall', 2, 'readonly', K1, hash.hgetallCommand],
  ['hkeys', 2, 'readonly', K1, hash.hkeysCommand],
  ['hvals', 2, 'readonly', K1, hash.hvalsCommand],
  ['hdel', -3, 'write fast', K1, hash.hdelCommand],
  ['hexists', 3, 'readonly fast', K1, hash.hexistsCommand],
  ['hlen', 2, 'readonly fast', K1, hash.hlenCommand],
  ['hstrlen', 3, 'readonly fast', K1, hash.hstrlenCommand],
  ['hincrby', 4, 'write denyoom fast', K1, hash.hincrbyCommand],
  ['hincrbyfloat', 4, 'write denyoom fast', K1, hash.hincrbyfloatCommand],
  // t_list.c
  ['lpush', -3, 'write denyoom fast', K1, list.lpushCommand],
  ['rpush', -3, 'write denyoom fast', K1, list.rpushCommand],
  ['lpushx', -3, 'write denyoom fast', K1, list.lpushxCommand],
  ['rpushx', -3, 'write denyoom fast', K1, list.rpushxCommand],
  ['lpop', -2, 'write fast', K1, list.lpopCommand],
  ['rpop', -2, 'write fast', K1, list.rpopCommand],
  ['llen', 2, 'readonly fast', K1, list.llenCommand],
  ['lindex', 3, 'readonly', K1, list.lindexCommand],
  ['lrange', 4, 'readonly', K1, list.lrangeCommand],
  ['lrem', 4, 'write', K1, list.lremCommand],
  ['lset', 4, 'write denyoom', K1, list.lsetCommand],
  ['ltrim', 4, 'write', K1, list.ltrimCommand],
  // t_zset.c
  ['zadd', -4, 'write denyoom fast', K1, zset.zaddCommand],
  ['zincrby', 4, 'write denyoom fast', K1, zset.zincrbyCommand],
  ['zrem', -3, 'write fast', K1, zset.zremCommand],
  ['zscore', 3, 'readonly fast', K1, zset.zscoreCommand],
  ['zmscore', -3, 'readonly fast', K1, zset.zmscoreCommand],
  ['zcard', 2, 'readonly fast', K1, zset.zcardCommand],
  ['zrank', 3, 'readonly fast', K1, zset.zrankCommand],
  ['zrevrank', 3, 'readonly fast', K1, zset.zrevrankCommand],
  ['zcount', 4, 'readonly fast', K1, zset.zcountCommand],
  ['zlexcount', 4, 'readonly fast', K1, zset.zlexcountCommand],
  ['zrangebylex', -4, 'readonly', K1, zset.zrangebylexCommand],
  ['zrevrangebylex', -4, 'readonly', K1, zset.zrevrangebylexCommand],
  ['zrange', -4, 'readonly', K1, zset.zrangeCommand],
  ['zrevrange', -4, 'readonly', K1, zset.zrevrangeCommand],
  ['zrangebyscore', -4, 'readonly', K1, zset.zrangebyscoreCommand],
  ['zrevrangebyscore', -4, 'readonly', K1, zset.zrevrangebyscoreCommand],
  ['zremrangebyscore', 4, 'write', K1, zset.zremrangebyscoreCommand],
  ['zremrangebyrank', 4, 'write', K1, zset.zremrangebyrankCommand],
  // pubsub.c
  ['subscribe', -2, 'pubsub noscript loading stale', null, ps.subscribeCommand],
  ['unsubscribe', -1, 'pubsub noscript loading stale', null, ps.unsubscribeCommand],
  ['psubscribe', -2, 'pubsub noscript loading stale', null, ps.psubscribeCommand],
  ['punsubscribe', -1, 'pubsub noscript loading stale', null, ps.punsubscribeCommand],
  ['publish', 3, 'pubsub loading stale fast', null, ps.publishCommand],
  ['ssubscribe', -2, 'pubsub noscript loading stale', null, ps.ssubscribeCommand],
  ['sunsubscribe', -1, 'pubsub noscript loading stale', null, ps.sunsubscribeCommand],
  ['spublish', 3, 'pubsub loading stale fast', null, ps.spublishCommand],
  [
    'pubsub',
    -2,
    '',
    null,
    srv.pubsubHelpCommand,
    [
      ['help', 2, 'loading stale', null, srv.pubsubHelpCommand],
      ['channels', -2, 'pubsub loading stale', null, ps.pubsubChannelsCommand],
      ['numsub', -2, 'pubsub loading stale', null, ps.pubsubNumsubCommand],
      ['numpat', 2, 'pubsub loading stale', null, ps.pubsubNumpatCommand],
      ['shardchannels', -2, 'pubsub loading stale', null, ps.pubsubShardchannelsCommand],
      ['shardnumsub', -2, 'pubsub loading stale', null, ps.pubsubShardnumsubCommand],
    ],
  ],
  // eval.c: routed to the scripting layer
  [
    'eval',
    -3,
    'noscript stale skip_monitor no_mandatory_keys movablekeys',
    NUMKEYS,
    (s, c, argv) => s.runScript(() => s.scripts.evalCommand(argv), c),
  ],
  [
    'evalsha',
    -3,
    'noscript stale skip_monitor no_mandatory_keys movablekeys',
    NUMKEYS,
    (s, c, argv) => s.runScript(() => s.scripts.evalshaCommand(argv), c),
  ],
  [
    'script',
    -2,
    '',
    null,
    (s, _c, argv) => s.scripts.scriptHelp(argv),
    [
      ['help', 2, 'loading stale', null, (s, _c, argv) => s.scripts.scriptHelp(argv)],
      ['flush', -2, 'noscript', null, (s, _c, argv) => s.scripts.scriptFlush(argv)],
      ['exists', -3, 'noscript', null, (s, _c, argv) => s.scripts.scriptExists(argv)],
      ['load', 3, 'noscript stale', null, (s, _c, argv) => s.scripts.scriptLoad(argv)],
      ['debug', 3, 'noscript', null, (s, _c, argv) => s.scripts.scriptDebug(argv)],
      ['kill', 2, 'noscript allow_busy', null, (s) => s.scripts.scriptKill()],
    ],
  ],
  // multi.c
  ['multi', 1, 'noscript loading stale fast allow_busy', null, multi.multiCommand],
  ['exec', 1, 'noscript loading stale skip_slowlog', null, multi.execCommand],
  ['discard', 1, 'noscript loading stale fast allow_busy', null, multi.discardCommand],
  ['watch', -2, 'noscript loading stale fast allow_busy', KALL, multi.watchCommand],
  ['unwatch', 1, 'noscript loading stale fast allow_busy', null, multi.unwatchCommand],
  // cluster.c
  [
    'cluster',
    -2,
    '',
    null,
    cl.clusterHelpCommand,
    [
      ...CLUSTER_NOT_SIMULATED.map(([n, a, f]): Row => [n, a, f, null, cl.clusterNotSimulated]),
      ['countkeysinslot', 3, 'stale', null, cl.clusterCountkeysinslotCommand],
      ['getkeysinslot', 4, 'stale', null, cl.clusterGetkeysinslotCommand],
      ['help', 2, 'loading stale', null, cl.clusterHelpCommand],
      ['info', 2, 'stale', null, cl.clusterInfoCommand],
      ['keyslot', 3, 'stale', null, cl.clusterKeyslotCommand],
      ['myid', 2, 'stale', null, cl.clusterMyidCommand],
      ['nodes', 2, 'stale', null, cl.clusterNodesCommand],
      ['replicas', 3, 'admin stale', null, cl.clusterReplicasCommand],
      ['shards', 2, 'stale', null, cl.clusterShardsCommand],
      ['slaves', 3, 'admin stale', null, cl.clusterReplicasCommand],
      ['slots', 2, 'stale', null, cl.clusterSlotsCommand],
    ],
  ],
  ['readonly', 1, 'loading stale fast', null, cl.readonlyCommand],
  ['readwrite', 1, 'loading stale fast', null, cl.readwriteCommand],
  ['asking', 1, 'fast', null, cl.askingCommand],
  // server.c, debug.c
  ['ping', -1, 'fast', null, srv.pingCommand],
  ['echo', 2, 'loading stale fast', null, srv.echoCommand],
  ['time', 1, 'loading stale fast', null, srv.timeCommand],
  ['info', -1, 'loading stale', null, srv.infoCommand],
  ['debug', -2, 'admin noscript loading stale', null, srv.debugCommand],
  ['select', 2, 'loading stale fast', null, srv.selectCommand],
  ['quit', -1, 'noscript loading stale fast no_auth allow_busy', null, srv.quitCommand],
  ['reset', 1, 'noscript loading stale fast no_auth allow_busy', null, srv.resetCommand],
  // replication.c
  ['wait', 3, 'noscript', null, waitCommand],
];

function buildEntry(row: Row, parent: string | null): CommandEntry {
  const [name, arity, flags, keys, proc, subs] = row;
  const fullname = parent === null ? name : `${parent}|${name}`;
  return {
    name: fullname,
    fullname,
    arity,
    flags: new Set(flags.split(' ').filter((f) => f !== '')),
    keys,
    proc,
    subcommands: subs ? new Map(subs.map((r) => [r[0], buildEntry(r, name)])) : undefined,
  };
}

/** Lower-case names plus their upper-case spelling, so the common cases skip toLowerCase(). */
const COMMAND_TABLE: ReadonlyMap<string, CommandEntry> = (() => {
  const m = new Map<string, CommandEntry>();
  for (const row of ROWS) {
    const e = buildEntry(row, null);
    m.set(row[0], e);
    m.set(row[0].toUpperCase(), e);
  }
  return m;
})();

/** Every top-level command once (subcommands hang off their container), in table order. */
export function commandTable(): CommandEntry[] {
  return [...new Set(COMMAND_TABLE.values())];
}

/**
 * server.c lookupCommand: the entry argv names, its subcommand when argv[0] is a container
 * (SCRIPT, PUBSUB) and argv[1] is there, or the error processCommand would reply.
 */
export function lookupCommand(argv: readonly string[]): CommandEntry | ErrorReply {
  const name = argv[0];
  const cmd = COMMAND_TABLE.get(name) ?? COMMAND_TABLE.get(name.toLowerCase());
  if (cmd === undefined) return unknownCommandError(argv);
  if (cmd.subcommands === undefined || argv.length < 2) return cmd;
  return cmd.subcommands.get(argv[1].toLowerCase()) ?? unknownSubcommandError(argv[1], name);
}

/**
 * db.c getKeysFromCommand, as COMMAND GETKEYS answers it but without its errors: the keys argv
 * names, in argv order; none for a keyless command or an EVAL whose numkeys is not valid;
 * undefined for a command the table does not know.
 */
export function commandKeys(argv: readonly string[]): string[] | undefined {
  const cmd = lookupCommand(argv);
  if ('t' in cmd) return undefined;
  return keysOf(cmd.keys, argv);
}

function keysOf(spec: KeySpec | null, argv: readonly string[]): string[] {
  const keys: string[] = [];
  if (spec === null) return keys;
  const end = lastKeyIndex(spec, argv);
  const step = keyStep(spec);
  for (let j = firstKeyIndex(spec); j <= end; j += step) keys.push(argv[j]);
  return keys;
}

/**
 * Where keysOf's keys are in argv: from firstKeyIndex to lastKeyIndex (inclusive; before the first
 * when there are none), keyStep apart. For a walk over them without an array (signalModifiedKeys).
 */
function firstKeyIndex(spec: KeySpec): number {
  return spec === 'numkeys' ? 3 : spec[0];
}

function keyStep(spec: KeySpec): number {
  return spec === 'numkeys' ? 1 : spec[2];
}

function lastKeyIndex(spec: KeySpec, argv: readonly string[]): number {
  if (spec === 'numkeys') {
    const n = argv.length > 2 ? parseLongLong(argv[2]) : null;
    return n === null || n < 0 || n > argv.length - 3 ? 2 : 2 + Number(n);
  }
  const last = spec[1];
  return last < 0 ? argv.length + last : Math.min(last, argv.length - 1);
}

/** Past this many modified keys in one command the report gives up and says "any key". */
const MAX_MODIFIED = 10_000;
const SCRIPT_UNKNOWN = error('ERR Unknown Redis command called from script');
const READONLY = error("READONLY You can't write against a read only replica.");
const MULTI = ['MULTI'];
const EXEC = ['EXEC'];

/** Commands MULTI runs at once instead of queueing (server.c processCommand). */
const NOT_QUEUED = new Set(['exec', 'discard', 'multi', 'watch', 'quit', 'reset']);
const QUEUED = status('QUEUED');

const ALLOWED_IN_PUBSUB = new Set([
  'subscribe',
  'unsubscribe',
  'psubscribe',
  'punsubscribe',
  'ssubscribe',
  'sunsubscribe',
  'ping',
  'quit',
  'reset',
]);

export class RedisServer {
  readonly id: string;
  readonly scripts: ScriptEngine;
  readonly db: Db;
  readonly pubsub: PubSub;
  readonly watches = new Watches();
  readonly opts: ServerOptions;
  /** set when this server is a cluster node (ServerOptions.cluster) */
  readonly cluster: ClusterView | undefined;
  private nextConnId = 1;
  /** Script depth and the time frozen at script start (db.c keyIsExpired uses it inside scripts). */
  private scriptDepth = 0;
  private scriptTime = 0;
  private readonly scriptConn: Connection;
  /** the client whose EVAL is running (its READONLY flag counts inside the script, as in 7.0) */
  private scriptCaller: Connection | null = null;
  private readonly masterConn: Connection;
  /** server.dirty: how many changes commands made to the dataset, counted as Redis counts them. */
  dirty = 0;
  /** master_repl_offset, replica ACKs, min-replicas-to-write (replication.ts) */
  readonly repl = new ReplicationState();
  private currentRole: 'master' | 'replica' = 'master';
  private fromMaster = false;
  /** server.also_propagate: commands to replicate once the current unit of execution ends. */
  private alsoPropagate: string[][] = [];
  private rewritten: string[] | null = null;
  private forced = false;
  /** signalModifiedKey since the last top-level command began; `modifiedAll`: any key may have changed. */
  private readonly modified: string[] = [];
  private modifiedAll = false;

  constructor(opts: ServerOptions) {
    this.opts = opts;
    this.cluster = opts.cluster;
    this.id = opts.id ?? 'redis';
    const events = opts.events;
    this.db = new Db({
      now: () => (this.scriptDepth !== 0 ? this.scriptTime : this.mstime()),
      keyExpired: (key, how) => {
        if (this.propagating) this.alsoPropagate.push(['DEL', key]);
        if (this.watches.active) this.watches.touch(key, false);
        events?.keyExpired?.(key, how);
      },
      expireMode: () => (this.fromMaster ? 'ignore' : this.currentRole === 'replica' ? 'hide' : 'delete'),
    });
    this.pubsub = new PubSub(events?.publish ? (ch, msg, n) => events.publish!(ch, msg, n) : undefined);
    this.scriptConn = new Connection(0, undefined);
    this.masterConn = new Connection(-1, undefined);
    const host: ScriptHost = {
      lookupCommand: (argv) => {
        const cmd = lookupCommand(argv);
        return 't' in cmd ? undefined : cmd;
      },
      execFromScript: (argv) => this.execFromScript(argv),
      now: () => this.mstime(),
      log: (level, message) => events?.scriptLog?.(level, message),
    };
    this.scripts = new ScriptEngine(host, { seed: opts.seed ?? 0, budget: opts.scriptBudget ?? 5_000_000 });
  }

  /** Redis's mstime(): the virtual clock in whole milliseconds. */
  mstime(): number {
    return Math.floor(this.opts.clock.now());
  }

  get inScript(): boolean {
    return this.scriptDepth !== 0;
  }

  /** 'replica': refuses writes from clients (READONLY), never expires keys itself, hides expired ones. */
  get role(): 'master' | 'replica' {
    return this.currentRole;
  }

  /** REPLICAOF host port / REPLICAOF NO ONE. After promotion, call activeExpireCycle() at nextExpiryAt(). */
  setRole(role: 'master' | 'replica'): void {
    this.currentRole = role;
  }

  /** Replaces what the running command propagates (Redis's rewriteClientCommandVector). */
  rewrite(argv: string[]): void {
    this.rewritten = argv;
  }

  /** Propagates the running command even if it changed nothing (forceCommandPropagation). */
  forcePropagation(): void {
    this.forced = true;
  }

  /**
   * Applies one command of the master's replication stream, as Redis's master client: no
   * READONLY check, keys never count as expired. MULTI / EXEC are accepted as no-ops: apply
   * the commands between them in one go and they are atomic, the simulation being single-threaded.
   */
  applyFromMaster(argv: string[]): Reply {
    const name = argv[0]?.toLowerCase();
    this.modified.length = 0;
    this.modifiedAll = false;
    if (name === 'multi' || name === 'exec') return OK;
    const cmd = lookupCommand(argv);
    if ('t' in cmd) return cmd;
    this.fromMaster = true;
    try {
      return this.call(cmd, this.masterConn, argv);
    } finally {
      this.fromMaster = false;
    }
  }

  private get propagating(): boolean {
    return this.currentRole === 'master' && this.opts.events?.propagate !== undefined;
  }

  connect(push?: (msg: Reply) => void): Connection {
    return new Connection(this.nextConnId++, push);
  }

  /** Closes a connection: its subscriptions go, nothing more is pushed to it. */
  disconnect(conn: Connection): void {
    this.pubsub.dropAll(conn);
    this.watches.unwatchAll(conn);
    conn.closed = true;
  }

  /** Looks a command up by name, any case; subcommands as "script|load". */
  commandSpec(name: string): CommandSpec | undefined {
    const bar = name.indexOf('|');
    const cmd = lookupCommand(bar < 0 ? [name] : [name.slice(0, bar), name.slice(bar + 1)]);
    return 't' in cmd ? undefined : cmd;
  }

  /** Runs one command for a client; argv are byte strings, argv[0] the command name. */
  exec(conn: Connection, argv: string[]): Reply {
    if (argv.length === 0) return error('ERR empty command');
    this.modified.length = 0;
    this.modifiedAll = false;
    const cmd = this.check(conn, argv);
    if ('t' in cmd) {
      // A refused command inside MULTI dooms the transaction (multi.c flagTransaction).
      if (conn.tx.queue !== null) conn.tx.queueError = true;
      return cmd;
    }
    if (conn.tx.queue !== null && !NOT_QUEUED.has(cmd.name)) {
      conn.tx.queue.push(argv.slice());
      return QUEUED;
    }
    const reply = this.call(cmd, conn, argv);
    if (this.alsoPropagate.length !== 0) {
      const before = this.repl.offset;
      this.flushPropagation();
      if (this.repl.offset !== before) conn.woff = this.repl.offset;
    }
    return reply;
  }

  /** Runs one command of an EXEC (checked when it was queued). */
  execQueued(conn: Connection, argv: string[]): Reply {
    const cmd = lookupCommand(argv);
    return 't' in cmd ? cmd : this.call(cmd, conn, argv);
  }

  /**
   * processCommand's checks, in Redis's order: existence, arity, the cluster redirect, NOREPLICAS,
   * READONLY, pub/sub context.
   */
  private check(conn: Connection, argv: string[]): CommandEntry | ErrorReply {
    const cmd = lookupCommand(argv);
    if ('t' in cmd) return cmd;
    if (!arityOk(cmd, argv.length)) return arityError(cmd.fullname);
    if (this.cluster !== undefined) {
      const refused = clusterRefusal(this, this.cluster, conn, cmd, argv, keysOf);
      if (refused !== null) return refused;
    }
    if (this.currentRole === 'replica' && cmd.flags.has('write')) return READONLY;
    if (
      cmd.flags.has('write') &&
      this.currentRole === 'master' &&
      !this.repl.enoughGoodReplicas(this.mstime())
    )
      return NOREPLICAS;
    if (conn.inPubSubMode && !ALLOWED_IN_PUBSUB.has(cmd.name)) {
      return error(
        `ERR Can't execute '${cmd.fullname}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context`,
      );
    }
    return cmd;
  }

  /** server.c call(): runs the proc and queues what it propagates. */
  private call(cmd: CommandEntry, conn: Connection, argv: string[]): Reply {
    const dirty = this.dirty;
    const outerRewrite = this.rewritten;
    const outerForced = this.forced;
    this.rewritten = null;
    this.forced = false;
    const reply = cmd.proc(this, conn, argv);
    if (this.dirty !== dirty && cmd.flags.has('write')) this.signalModifiedKeys(cmd, argv);
    if (this.propagating && (this.forced || (this.dirty !== dirty && cmd.flags.has('write')))) {
      this.alsoPropagate.push(this.rewritten ?? argv.slice());
    }
    this.rewritten = outerRewrite;
    this.forced = outerForced;
    return reply;
  }

  /**
   * db.c signalModifiedKey for each key of a write command that changed something. A keyless write
   * (FLUSHALL / FLUSHDB) may have changed any key; it touches the watched ones itself.
   */
  private signalModifiedKeys(cmd: CommandEntry, argv: string[]): void {
    if (cmd.keys === null) {
      this.modifiedAll = true;
      return;
    }
    const spec = cmd.keys;
    const end = lastKeyIndex(spec, argv);
    const step = keyStep(spec);
    for (let i = firstKeyIndex(spec); i <= end; i += step) {
      const key = argv[i];
      if (this.watches.active) this.watches.touch(key, this.db.has(key));
      if (this.modified.length < MAX_MODIFIED) this.modified.push(key);
      else this.modifiedAll = true;
    }
  }

  /**
   * The keys the last top-level command (`exec` or `applyFromMaster`) may have modified, inner
   * script calls and EXEC's queued commands included, once each in first-signalled order: every
   * key of each write command that changed the dataset, as WATCH sees them (so DEL a b lists both
   * even if only b existed). null when any key may have changed (FLUSHALL, FLUSHDB, or too many to
   * list). Keys deleted by expiry are reported by `events.keyExpired` instead.
   */
  lastModifiedKeys(): readonly string[] | null {
    if (this.modifiedAll) return null;
    return this.modified.length < 2 ? this.modified.slice() : [...new Set(this.modified)];
  }

  /** server.c propagatePendingCommands: several commands go out as one MULTI ... EXEC. */
  private flushPropagation(): void {
    const cmds = this.alsoPropagate;
    this.alsoPropagate = [];
    if (!this.propagating) return;
    this.propagate(cmds.length > 1 ? [MULTI, ...cmds, EXEC] : cmds);
  }

  private propagate(cmds: string[][]): void {
    this.repl.offset += streamBytes(cmds);
    this.opts.events!.propagate!(cmds);
  }

  /** Like exec, but returns every frame the command wrote to `conn`, in wire order. */
  execFrames(conn: Connection, argv: string[]): Reply[] {
    const frames: Reply[] = [];
    const saved = conn.capture;
    conn.capture = frames;
    try {
      const first = this.exec(conn, argv);
      frames.unshift(first);
    } finally {
      conn.capture = saved;
    }
    return frames;
  }

  /** EVAL / EVALSHA: runs the script with the key-expiry clock frozen at its start (7.0 semantics). */
  runScript(run: () => Reply, caller?: Connection): Reply {
    if (this.scriptDepth === 0) this.scriptTime = this.mstime();
    this.scriptDepth++;
    const outerCaller = this.scriptCaller;
    this.scriptCaller = caller ?? null;
    try {
      return run();
    } finally {
      this.scriptDepth--;
      this.scriptCaller = outerCaller;
    }
  }

  /** The table entry argv names (subcommand resolved), or undefined. */
  commandEntry(argv: readonly string[]): CommandEntry | undefined {
    const cmd = lookupCommand(argv);
    return 't' in cmd ? undefined : cmd;
  }

  /**
   * A PUBLISH (or, `sharded`, an SPUBLISH) another cluster node received, arriving over the bus
   * (cluster.c clusterProcessPacket): delivered to this node's subscribers only, never sent on.
   * Returns how many received it.
   */
  deliverFromBus(channel: string, message: string, sharded = false): number {
    return sharded ? this.pubsub.spublish(channel, message) : this.pubsub.publish(channel, message);
  }

  /**
   * cluster.c removeChannelsInSlot for each of `slots`: every shard channel hashing there loses
   * its subscribers, each told with a sunsubscribe frame (slot order, then channel bytes, as
   * Redis walks its slot-to-channel index). Redis does this in clusterDelSlot on every node of
   * the shard that loses a slot: the old master and the replicas still following it, when a
   * newer config hands the slot elsewhere (not the replica being promoted, which keeps the slots).
   * Returns how many channels went.
   */
  dropShardChannelsInSlots(slots: readonly SlotRange[]): number {
    const slotOf = new Map<string, number>();
    const inSlots = (ch: string): boolean => {
      const slot = keyHashSlot(ch);
      slotOf.set(ch, slot);
      return slots.some((r) => slot >= r.start && slot <= r.end);
    };
    // byte strings: code-unit order is byte order
    const order = (a: string, b: string): number =>
      slotOf.get(a)! - slotOf.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
    return this.pubsub.removeShardChannels(inSlots, order);
  }

  /** Deletes every due key; on a master each one reaches replicas as its own DEL. */
  activeExpireCycle(): void {
    this.db.activeExpireCycle();
    if (this.alsoPropagate.length === 0) return;
    const dels = this.alsoPropagate;
    this.alsoPropagate = [];
    if (this.propagating) for (const d of dels) this.propagate([d]);
  }

  /** The first virtual ms at which active expiry has something to delete (a key's deadline + 1). */
  nextExpiryAt(): number | undefined {
    return this.db.nextExpiryAt();
  }

  /** The scripting layer has done scriptCall's lookup, arity and noscript checks (eval.ts). */
  private execFromScript(argv: string[]): Reply {
    const cmd = lookupCommand(argv);
    if ('t' in cmd) return SCRIPT_UNKNOWN;
    // script.c scriptVerifyWriteCommandAllow
    if (this.currentRole === 'replica' && !this.fromMaster && cmd.flags.has('write')) return READONLY;
    if (
      cmd.flags.has('write') &&
      this.currentRole === 'master' &&
      !this.repl.enoughGoodReplicas(this.mstime())
    )
      return NOREPLICAS;
    if (this.cluster !== undefined && !this.fromMaster) {
      const refused = scriptClusterRefusal(this.cluster, this.scriptCaller, cmd, argv, keysOf);
      if (refused !== null) return refused;
    }
    return this.call(cmd, this.scriptConn, argv);
  }
}
