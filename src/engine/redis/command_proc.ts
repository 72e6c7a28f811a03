import type { Connection } from './connection';
import type { StoredValue } from './db';
import { WRONGTYPE } from './errors';
import type { Reply } from './reply';
import { array, NIL } from './reply';
import type { RedisServer } from './server';

/** A command's implementation as the command table calls it (server.c's `proc`). */
export type CommandProc = (s: RedisServer, c: Connection, argv: string[]) => Reply;

/** The command that calls `generic` with its key (argv[1]) and two fixed flags: TTL/PTTL, HKEYS/HVALS, … */
export const keyCommand =
  (
    generic: (s: RedisServer, key: string, a: boolean, b: boolean) => Reply,
    a: boolean,
    b: boolean,
  ): CommandProc =>
  (s, _c, argv) =>
    generic(s, argv[1], a, b);

/**
 * HGET/HMGET, ZSCORE/ZMSCORE: the command reading one field (argv[2]) and the one reading many
 * (argv[2..]) of the value at argv[1]. `get` answers one field; nil where it has none, every
 * field nil when the key is missing, WRONGTYPE when the key holds another type.
 */
export function fieldCommands<T extends StoredValue>(
  is: (v: StoredValue) => v is T,
  get: (v: T, field: string) => Reply | undefined,
): { one: CommandProc; many: CommandProc } {
  const replies = (s: RedisServer, key: string, fields: string[]): Reply[] | Reply => {
    const v = s.db.lookup(key);
    if (v !== undefined && !is(v)) return WRONGTYPE;
    return fields.map((f) => (v === undefined ? undefined : get(v, f)) ?? NIL);
  };
  return {
    one: (s, _c, argv) => {
      const r = replies(s, argv[1], [argv[2]]);
      return Array.isArray(r) ? r[0] : r;
    },
    many: (s, _c, argv) => {
      const r = replies(s, argv[1], argv.slice(2));
      return Array.isArray(r) ? array(r) : r;
    },
  };
}
