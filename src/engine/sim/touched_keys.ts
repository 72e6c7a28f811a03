/**
 * Which keys a command may have changed, so the recorder can log the new state of exactly those
 * keys after each command instead of snapshotting the whole keyspace. `null` means "could be any
 * key": the caller then resynchronises the node.
 *
 * Given the server that ran the command, the answer is the server's own report
 * (`RedisServer.lastModifiedKeys`, its signalModifiedKey calls): exact for scripts, including keys
 * they write without declaring them, and for EXEC. Without it, the keys are read from argv with
 * the command table's key positions (`commandKeys`, Redis's getKeysFromCommand), which takes a
 * script at its word (its declared KEYS) and resynchronises after EXEC.
 */
import { commandKeys, type RedisServer } from '../redis/server';

/** Commands whose effect their key positions do not describe: they clear or run everything. */
const WHOLE_NODE = new Set(['exec', 'flushall', 'flushdb']);

export function touchedKeys(
  argv: readonly string[],
  server?: Pick<RedisServer, 'lastModifiedKeys'>,
): readonly string[] | null {
  if (server !== undefined) return server.lastModifiedKeys();
  if (WHOLE_NODE.has(argv[0].toLowerCase())) return null;
  // A command the server does not know changed nothing, but resynchronising is the safe answer.
  return commandKeys(argv) ?? null;
}
