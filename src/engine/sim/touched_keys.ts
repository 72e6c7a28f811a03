/**
 * Which keys a command may have changed, read from its argv, so the recorder can log the new
 * state of exactly those keys after each command instead of snapshotting the whole keyspace.
 * `null` means "could be any key" (FLUSHALL, EXEC of a transaction, a command this table does
 * not know): the caller then resynchronises the whole node.
 *
 * Scripts are taken at their word: EVAL/EVALSHA touch their declared KEYS (Redis 7.0 does not
 * enforce it outside cluster mode; a script that writes undeclared keys is resynchronised on the
 * next command that names them).
 */

const NO_KEYS = new Set([
  'ping',
  'echo',
  'publish',
  'spublish',
  'subscribe',
  'unsubscribe',
  'psubscribe',
  'punsubscribe',
  'ssubscribe',
  'sunsubscribe',
  'pubsub',
  'info',
  'time',
  'wait',
  'client',
  'config',
  'script',
  'debug',
  'dbsize',
  'keys',
  'scan',
  'select',
  'multi',
  'discard',
  'hello',
  'command',
  'quit',
  'reset',
  'randomkey',
  'role',
  'lastsave',
  'save',
  'bgsave',
  'auth',
  'readonly',
  'readwrite',
  'memory',
  'object',
  'slowlog',
  'latency',
  'monitor',
  'unwatch',
  'failover',
  'replicaof',
  'slaveof',
]);

const ALL_ARGS = new Set(['del', 'unlink', 'exists', 'touch', 'mget', 'watch']);
const TWO_KEYS = new Set([
  'rename',
  'renamenx',
  'copy',
  'smove',
  'lmove',
  'rpoplpush',
  'blmove',
  'brpoplpush',
]);
const SCRIPT = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);
const PAIRS = new Set(['mset', 'msetnx']);

export function touchedKeys(argv: readonly string[]): readonly string[] | null {
  const name = argv[0].toLowerCase();
  if (NO_KEYS.has(name)) return EMPTY;
  if (SCRIPT.has(name)) {
    const n = Number(argv[2]);
    if (!Number.isInteger(n) || n < 0 || 3 + n > argv.length) return EMPTY;
    return argv.slice(3, 3 + n);
  }
  if (argv.length < 2) return EMPTY;
  if (ALL_ARGS.has(name)) return argv.slice(1);
  if (TWO_KEYS.has(name)) return argv.slice(1, 3);
  if (PAIRS.has(name)) return argv.filter((_, i) => i % 2 === 1);
  if (
    name === 'exec' ||
    name.startsWith('flush') ||
    name === 'swapdb' ||
    name === 'move' ||
    name === 'restore'
  )
    return null;
  if (name.endsWith('store') || name.startsWith('bl') || name.startsWith('br') || name.startsWith('bz'))
    return null;
  return argv.slice(1, 2);
}

const EMPTY: readonly string[] = Object.freeze([]);
