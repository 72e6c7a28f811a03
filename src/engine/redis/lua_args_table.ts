/**
 * The KEYS and ARGV tables a script runs with (luaCreateArray in Redis's script_lua.c: a new table
 * of the arguments' strings before every run). Building one costs a fengari table, its `Map`, and
 * per value an entry and two values; the scale scenario's renewal script takes 100 keys and 101
 * arguments on every renewal. A script almost never changes these tables, so each Lua state keeps
 * the one it built last and fills it again for the next run, but only when the run left it exactly
 * as built: the same integer keys 1..n in insertion order, each holding the string object put
 * there, no metatable, no deleted key remembered. Anything else (a script that wrote to KEYS, set
 * a metatable, used it as an error object) and a fresh table is built, as before.
 *
 * What a script could see of the reuse is the table's address (`tostring(KEYS)`): fengari prints
 * a per-state counter that each new table takes, so a reused table takes the next number exactly
 * when a new one would have. Nothing else outlives a run: the globals, the libraries and the
 * string metatable are read-only, and scripts have no registry.
 */
import fengari from 'fengari-web';
import type { LuaState, LuaStringObject } from 'fengari-web';
import { pushStringObject } from './lua_strings';
import type { LuaConverter } from './lua_convert';

const { lua, lauxlib } = fengari;

/** The fields of fengari's Table (ltable.js, as the patch leaves it) that tell a table is as built. */
interface TableEntry {
  readonly key: { readonly value: unknown };
  readonly value: { readonly value: unknown };
  readonly n: TableEntry | undefined;
}
interface FengariTable {
  id: number;
  flags: number;
  readonly strong: Map<unknown, TableEntry>;
  readonly dead_strong: unknown;
  readonly dead_weak: unknown;
  readonly f: TableEntry | undefined;
  readonly metatable: unknown;
  readonly readonly: boolean;
}

/** What a new table's `flags` is (no metamethod cached as absent or present yet: ltable.js). */
const NEW_TABLE_FLAGS = ~0;

export class ArgsTable {
  private table: FengariTable | null = null;
  /** registry slot holding the table, so it can be pushed again */
  private ref = 0;
  /** the string object at each index, as this bridge set it */
  private readonly items: LuaStringObject[] = [];
  /** the engine string each of those was looked up for: an unchanged value skips the look-up */
  private readonly strings: string[] = [];

  /** Pushes a table holding `values[from .. to)` at 1..n, as lua_createtable and lua_rawseti would build it. */
  push(L: LuaState, conv: LuaConverter, values: readonly string[], from: number, to: number): void {
    const n = to - from;
    const t = this.table;
    if (t !== null && this.asBuilt(t, n)) {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.ref);
      // the number a new table would have taken here (tostring prints it)
      t.id = (L as unknown as { l_G: { id_counter: number } }).l_G.id_counter++;
      t.flags = NEW_TABLE_FLAGS;
      for (let i = 0; i < n; i++) {
        const s = values[from + i];
        if (s === this.strings[i]) continue;
        const ts = conv.stringFor(L, s);
        if (ts !== this.items[i]) {
          pushStringObject(L, ts);
          lua.lua_rawseti(L, -2, i + 1);
          this.items[i] = ts;
        }
        this.strings[i] = s;
      }
      return;
    }
    this.table = null; // until the new one is complete
    lua.lua_createtable(L, n, 0);
    this.items.length = n;
    this.strings.length = n;
    for (let i = 0; i < n; i++) {
      const s = values[from + i];
      const ts = conv.stringFor(L, s);
      pushStringObject(L, ts);
      lua.lua_rawseti(L, -2, i + 1);
      this.items[i] = ts;
      this.strings[i] = s;
    }
    this.table = lua.lua_topointer(L, -1) as unknown as FengariTable;
    lua.lua_pushvalue(L, -1);
    if (this.ref === 0) this.ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    else lua.lua_rawseti(L, lua.LUA_REGISTRYINDEX, this.ref);
  }

  /** The table holds exactly what push put there, in that order, and `n` values are wanted again. */
  private asBuilt(t: FengariTable, n: number): boolean {
    const items = this.items;
    if (items.length !== n || t.strong.size !== n) return false;
    if (t.metatable !== null || t.readonly || t.dead_strong !== undefined || t.dead_weak !== undefined)
      return false;
    let e = t.f;
    for (let i = 0; i < n; i++) {
      if (e === undefined || e.key.value !== i + 1 || e.value.value !== items[i]) return false;
      e = e.n;
    }
    return e === undefined;
  }
}

/** Lengths up to this have a table kept each (ArgsTables); longer ones share the last slot. */
const KEPT_LENGTHS = 8;

/**
 * One kept table per length: the scripts of a run take turns (Redisson's acquire has one key and
 * two arguments, its unlock three and five), and one kept table was rebuilt at every change of
 * length, each of its values looked up again. A table of another length is reused exactly as the
 * single one was (ArgsTable.push), so a script still sees a new table each run.
 */
export class ArgsTables {
  private readonly byLength: ArgsTable[] = [];

  push(L: LuaState, conv: LuaConverter, values: readonly string[], from: number, to: number): void {
    const slot = Math.min(to - from, KEPT_LENGTHS);
    (this.byLength[slot] ??= new ArgsTable()).push(L, conv, values, from, to);
  }
}
