/**
 * A key's name as the keyspace column shows it. Redisson's unlock latch
 * (`redisson_unlock_latch:{myLock}:<32 hex digits of the request id>`) wrapped onto five lines of
 * the narrow key column; its id only tells one unlock from another, so its middle gives way to an
 * ellipsis (the whole name is in the row's title), and a long name takes the row's full width.
 */

/** a run of hex digits this long is an id (a request id, a UUID's part), not a word */
const HEX_ID = /[0-9a-f]{16,}/gi;
/** a name longer than this gets a row of its own above its type and TTL */
export const LONG_KEY = 20;

/** `name` with every long hex id cut to its first and last four digits. */
export function shortKeyName(name: string): string {
  return name.replace(HEX_ID, (id) => `${id.slice(0, 4)}…${id.slice(-4)}`);
}

/** The pieces of a shown name, each ending after a `:`: the places a line may break. */
export function keyNameParts(name: string): string[] {
  return name.match(/[^:]*:|[^:]+$/g) ?? [name];
}
