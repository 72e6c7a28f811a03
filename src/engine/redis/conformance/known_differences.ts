/**
 * The allow-list: corpus entries marked `# known: <id>` may differ from real Redis, and only for
 * the reason given here. Each id is a difference the Lua bridge cannot hide, explained in
 * docs/lua-differences.md. Keep this list tiny: an entry that starts matching again fails the
 * suite, so a fixed difference is taken off the list.
 */
export interface KnownDifference {
  /** why the simulator cannot match real Redis here */
  readonly reason: string;
  /** where the difference is explained for users */
  readonly doc: string;
}

export const KNOWN_DIFFERENCES: Readonly<Record<string, KnownDifference>> = {
  'lua51-vararg-arg': {
    reason:
      "Lua 5.1's LUA_COMPAT_VARARG gives a vararg function that never uses `...` a local `arg` table; fengari (5.3) has no such table",
    doc: 'docs/lua-differences.md#what-is-left',
  },
  'lua-float-mod-negative-zero': {
    reason:
      "Lua 5.1 computes a % b as a - floor(a/b)*b (never -0); fengari uses JS % and keeps the dividend's sign on a zero result",
    doc: 'docs/lua-differences.md#what-is-left',
  },
};
