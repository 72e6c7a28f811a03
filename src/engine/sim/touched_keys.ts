/**
 * Which keys a command may have changed, so the recorder can log the new state of exactly those
 * keys after each command instead of snapshotting the whole keyspace. The keys are the ones the
 * server's command table places in argv (redis/server.ts `commandKeys`, Redis's
 * getKeysFromCommand). `null` means "could be any key": the caller then resynchronises the node.
 *
 * Scripts are taken at their word: EVAL/EVALSHA touch their declared KEYS (Redis 7.0 does not
 * enforce it outside cluster mode; a script that writes undeclared keys is resynchronised on the
 * next command that names them).
 */
import { commandKeys } from '../redis/server';

/** Commands whose effect their key positions do not describe: they clear or run everything. */
const WHOLE_NODE = new Set(['exec', 'flushall', 'flushdb']);

export function touchedKeys(argv: readonly string[]): readonly string[] | null {
  if (WHOLE_NODE.has(argv[0].toLowerCase())) return null;
  // A command the server does not know changed nothing, but resynchronising is the safe answer.
  return commandKeys(argv) ?? null;
}
