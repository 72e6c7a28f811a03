/** Connection and server commands (Redis server.c, debug.c, pubsub.c help). */
import type { Connection } from './connection';
import { arityError, NOT_INTEGER, subcommandSyntaxError } from './errors';
import { discardTransaction } from './multi';
import { parseLongLong } from './numbers';
import type { Reply } from './reply';
import { array, bulk, error, OK, status } from './reply';
import type { RedisServer } from './server';

const PONG = status('PONG');
const PONG_BULK = bulk('pong');
const EMPTY_BULK = bulk('');

/**
 * INFO [section ...]: the model keeps only what a client reads from it, the Replication section
 * (role, connected_slaves, master_repl_offset; Redisson's syncedEval reads connected_slaves).
 * Every other section of a real 7.0 INFO is left out rather than made up, so `INFO ALL` and
 * `INFO replication` answer the same text and any other section an empty one.
 */
export function infoCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const sections = argv.slice(1).map((a) => a.toLowerCase());
  const wanted = sections.length === 0 || sections.some((x) => ['replication', 'all', 'everything', 'default'].includes(x));
  if (!wanted) return bulk('');
  const role = s.role === 'master' ? 'master' : 'slave';
  const lines = ['# Replication', `role:${role}`, `connected_slaves:${s.role === 'master' ? s.repl.connectedReplicas : 0}`];
  lines.push(`master_repl_offset:${s.repl.offset}`);
  return bulk(`${lines.join('\r\n')}\r\n`);
}

/** PING [message]; in RESP2 subscribe mode the reply is ["pong", message]. */
export function pingCommand(_s: RedisServer, c: Connection, argv: string[]): Reply {
  if (argv.length > 2) return arityError('ping');
  if (c.inPubSubMode) return array([PONG_BULK, argv.length === 1 ? EMPTY_BULK : bulk(argv[1])]);
  return argv.length === 1 ? PONG : bulk(argv[1]);
}

export function echoCommand(_s: RedisServer, _c: Connection, argv: string[]): Reply {
  return bulk(argv[1]);
}

/** TIME: [unix seconds, microseconds] of the virtual clock (ms since the scenario started). */
export function timeCommand(s: RedisServer): Reply {
  const now = s.opts.clock.now();
  const sec = Math.floor(now / 1000);
  const usec = Math.floor((now - sec * 1000) * 1000);
  return array([bulk(String(sec)), bulk(String(usec))]);
}

/**
 * DEBUG SLEEP seconds (a float, strtod-style: junk parses as 0) hands the time to the owner of
 * the virtual clock. Other DEBUG subcommands are not modelled.
 */
export function debugCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const sub = argv[1].toLowerCase();
  if (sub === 'sleep' && argv.length >= 3) {
    const seconds = parseFloat(argv[2]);
    const ms = Number.isFinite(seconds) ? Math.trunc(seconds * 1_000_000) / 1000 : 0;
    if (ms > 0) s.opts.onSleep?.(ms);
    return OK;
  }
  return subcommandSyntaxError(argv);
}

const INT_RANGE = error('ERR value is out of range, value must between -2147483648 and 2147483647');
const SELECT_IN_CLUSTER = error('ERR SELECT is not allowed in cluster mode');

/**
 * The simulator has one database: SELECT 0 works, other indexes are refused (a cluster node says
 * why). The index is a C int (getIntFromObjectOrReply).
 */
export function selectCommand(s: RedisServer, _c: Connection, argv: string[]): Reply {
  const n = parseLongLong(argv[1]);
  if (n === null) return NOT_INTEGER;
  if (n < -2147483648 || n > 2147483647) return INT_RANGE;
  if (n === 0) return OK;
  return s.cluster !== undefined ? SELECT_IN_CLUSTER : error('ERR DB index is out of range');
}

export function quitCommand(): Reply {
  return OK;
}

/** RESET leaves subscribe mode (and everything else a connection can carry) and answers RESET. */
export function resetCommand(s: RedisServer, c: Connection): Reply {
  s.pubsub.dropAll(c);
  c.clusterReadonly = false;
  discardTransaction(s, c);
  return status('RESET');
}

const PUBSUB_HELP = [
  'PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CHANNELS [<pattern>]',
  "    Return the currently active channels matching a <pattern> (default: '*').",
  'NUMPAT',
  '    Return number of subscriptions to patterns.',
  'NUMSUB [<channel> ...]',
  '    Return the number of subscribers for the specified channels, excluding',
  '    pattern subscriptions(default: no channels).',
  'SHARDCHANNELS [<pattern>]',
  "    Return the currently active shard level channels matching a <pattern> (default: '*').",
  'SHARDNUMSUB [<shardchannel> ...]',
  '    Return the number of subscribers for the specified shard level channel(s)',
  'HELP',
  '    Prints this help.',
].map(status);

export function pubsubHelpCommand(): Reply {
  return array(PUBSUB_HELP);
}
