/**
 * The keyspace (Redis db.c): key → value, key → absolute expiry deadline in virtual ms, lazy
 * expiry on lookup and active expiry driven by the simulation.
 *
 * Values are stored in the cheapest shape for their type, like Redis's encodings:
 * string → byte string, hash → Map (insertion order = Redis's listpack order), list → array,
 * zset → ZSet.
 *
 * Expiry rule (db.c `keyIsExpired`): a key is expired when now > deadline, strictly. Deadlines
 * are whole milliseconds (Redis's mstime()), so the first instant a key with deadline d is gone
 * is d + 1: that is what `nextExpiryAt()` returns, and `activeExpireCycle()` called at that
 * time deletes it.
 */
import { WRONGTYPE } from './errors';
import { ExpiryHeap } from './expiry_heap';
import type { Reply } from './reply';
import { ZSet } from './zset_value';

export type StoredValue = string | Map<string, string> | string[] | ZSet;
export type ValueType = 'string' | 'hash' | 'list' | 'zset';

export function typeOfValue(v: StoredValue): ValueType {
  if (typeof v === 'string') return 'string';
  if (v instanceof Map) return 'hash';
  if (Array.isArray(v)) return 'list';
  return 'zset';
}

/**
 * What an expired key looks like to the command running now (db.c expireIfNeeded):
 * 'delete' on a master; 'hide' on a replica, which reports it missing but keeps it until the
 * master's DEL arrives; 'ignore' for commands coming from the master, which never see expiry.
 */
export type ExpireMode = 'delete' | 'hide' | 'ignore';

export interface DbHooks {
  /** Time used to decide whether a key is expired (frozen at script start inside scripts). */
  now(): number;
  keyExpired?(key: string, how: 'lazy' | 'active'): void;
  /** Defaults to 'delete'. Active expiry only runs in 'delete' mode (masters only). */
  expireMode?(): ExpireMode;
}

/** One key in a snapshot. Strings are byte strings; see bytes.ts to display them. */
export type SnapshotEntry =
  | { type: 'string'; value: string; expireAt: number | null }
  | { type: 'hash'; value: [field: string, value: string][]; expireAt: number | null }
  | { type: 'list'; value: string[]; expireAt: number | null }
  | { type: 'zset'; value: [member: string, score: number][]; expireAt: number | null };

/** An opaque saved state of a Db; restore it with `Db.restore`. */
export interface DbCheckpoint {
  readonly dict: ReadonlyMap<string, StoredValue>;
  readonly expires: ReadonlyMap<string, number>;
}

function cloneValue(v: StoredValue): StoredValue {
  if (typeof v === 'string') return v;
  if (v instanceof Map) return new Map(v);
  if (Array.isArray(v)) return v.slice();
  return v.clone();
}

/**
 * A key's value and its deadline (undefined: no TTL). Redis keeps two dicts, keyspace and expires,
 * and a lookup probes both; keeping the deadline next to the value makes every lookup, TTL read and
 * TTL change one Map probe. Entries are private to the Db and updated in place.
 */
interface Entry {
  v: StoredValue;
  exp: number | undefined;
}

export class Db {
  private dict = new Map<string, Entry>();
  /** how many entries have a deadline (the size of Redis's expires dict) */
  private volatileKeys = 0;
  private readonly heap = new ExpiryHeap();

  constructor(private readonly hooks: DbHooks) {}

  /** db.c lookupKey: the value, or undefined when missing or (lazily deleted because) expired. */
  lookup(key: string): StoredValue | undefined {
    const e = this.dict.get(key);
    if (e === undefined) return undefined;
    if (e.exp !== undefined && this.hooks.now() > e.exp) {
      const mode = this.hooks.expireMode?.() ?? 'delete';
      if (mode === 'ignore') return e.v;
      if (mode === 'delete') this.expireKey(key, 'lazy');
      return undefined;
    }
    return e.v;
  }

  /** True when the key is present but past its deadline (keys/dbsize-style checks that do not delete). */
  isExpired(key: string): boolean {
    const when = this.dict.get(key)?.exp;
    return when !== undefined && this.hooks.now() > when && this.hooks.expireMode?.() !== 'ignore';
  }

  /** Stores a value, keeping any TTL (db.c dbAdd / dbOverwrite). */
  put(key: string, v: StoredValue): void {
    const e = this.dict.get(key);
    if (e === undefined) this.dict.set(key, { v, exp: undefined });
    else e.v = v;
  }

  /** db.c setKey: stores a value and drops the TTL unless keepTtl. */
  setKey(key: string, v: StoredValue, keepTtl: boolean): void {
    const e = this.dict.get(key);
    if (e === undefined) {
      this.dict.set(key, { v, exp: undefined });
      return;
    }
    e.v = v;
    if (!keepTtl && e.exp !== undefined) {
      e.exp = undefined;
      this.volatileKeys--;
    }
  }

  delete(key: string): boolean {
    const e = this.dict.get(key);
    if (e === undefined) return false;
    this.dict.delete(key);
    if (e.exp !== undefined) this.volatileKeys--;
    return true;
  }

  /** The deadline in ms, or undefined when the key has no TTL (or does not exist). */
  getExpire(key: string): number | undefined {
    return this.dict.get(key)?.exp;
  }

  /** db.c setExpire. The key must exist (Redis asserts it); on a missing key this does nothing. */
  setExpire(key: string, when: number): void {
    const e = this.dict.get(key);
    if (e === undefined) return;
    if (e.exp === undefined) this.volatileKeys++;
    e.exp = when;
    this.heap.push(when, key);
    // Stale heap entries (renewed TTLs) are dropped in bulk once they dominate.
    if (this.heap.size > 64 && this.heap.size > 4 * this.volatileKeys) this.heap.rebuild(this.deadlines());
  }

  removeExpire(key: string): boolean {
    const e = this.dict.get(key);
    if (e === undefined || e.exp === undefined) return false;
    e.exp = undefined;
    this.volatileKeys--;
    return true;
  }

  /** Keys physically present, expired or not (DBSIZE counts those, like Redis). */
  get size(): number {
    return this.dict.size;
  }

  /** Keys in insertion order (Redis's own order is its hash table's; callers that compare should sort). */
  keys(): IterableIterator<string> {
    return this.dict.keys();
  }

  has(key: string): boolean {
    return this.dict.has(key);
  }

  /** The value without any expiry check (for inspection). */
  peek(key: string): StoredValue | undefined {
    return this.dict.get(key)?.v;
  }

  flush(): void {
    this.dict = new Map();
    this.volatileKeys = 0;
    this.heap.clear();
  }

  /** Deletes every key whose deadline has passed (expire.c activeExpireCycle, done completely). */
  activeExpireCycle(): void {
    if ((this.hooks.expireMode?.() ?? 'delete') !== 'delete') return;
    const now = this.hooks.now();
    for (;;) {
      const t = this.heap.peekTime();
      if (t === undefined || t >= now) return;
      const key = this.heap.peekKey()!;
      this.heap.pop();
      if (this.dict.get(key)?.exp === t) this.expireKey(key, 'active');
    }
  }

  /** The first virtual ms at which some key counts as expired (deadline + 1), if any key has a TTL. */
  nextExpiryAt(): number | undefined {
    if ((this.hooks.expireMode?.() ?? 'delete') !== 'delete') return undefined;
    for (;;) {
      const t = this.heap.peekTime();
      if (t === undefined) return undefined;
      if (this.dict.get(this.heap.peekKey()!)?.exp === t) return t + 1;
      this.heap.pop();
    }
  }

  /** A JSON-ready view, keys in byte order. */
  snapshot(): Record<string, SnapshotEntry> {
    const out: Record<string, SnapshotEntry> = Object.create(null) as Record<string, SnapshotEntry>;
    const keys = [...this.dict.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) {
      const { v, exp } = this.dict.get(key)!;
      const expireAt = exp ?? null;
      if (typeof v === 'string') out[key] = { type: 'string', value: v, expireAt };
      else if (v instanceof Map) out[key] = { type: 'hash', value: [...v], expireAt };
      else if (Array.isArray(v)) out[key] = { type: 'list', value: v.slice(), expireAt };
      else out[key] = { type: 'zset', value: v.members().map((m) => [m, v.score(m)!]), expireAt };
    }
    return out;
  }

  checkpoint(): DbCheckpoint {
    const dict = new Map<string, StoredValue>();
    const expires = new Map<string, number>();
    for (const [k, e] of this.dict) {
      dict.set(k, cloneValue(e.v));
      if (e.exp !== undefined) expires.set(k, e.exp);
    }
    return { dict, expires };
  }

  /** Replaces the keyspace with a checkpoint's (a deadline for a key it does not hold is ignored). */
  restore(cp: DbCheckpoint): void {
    const dict = new Map<string, Entry>();
    let volatileKeys = 0;
    for (const [k, v] of cp.dict) {
      const exp = cp.expires.get(k);
      if (exp !== undefined) volatileKeys++;
      dict.set(k, { v: cloneValue(v), exp });
    }
    this.dict = dict;
    this.volatileKeys = volatileKeys;
    this.heap.rebuild(this.deadlines());
  }

  /** (key, deadline) of every key with a TTL, in insertion order. */
  private *deadlines(): Generator<[string, number]> {
    for (const [k, e] of this.dict) if (e.exp !== undefined) yield [k, e.exp];
  }

  private expireKey(key: string, how: 'lazy' | 'active'): void {
    this.delete(key);
    this.hooks.keyExpired?.(key, how);
  }
}

/**
 * db.c lookupKeyReadOrReply / lookupKeyWriteOrReply (one lookup here) + object.c checkType, the
 * preamble of most commands on one key: the value when `key` holds the type `is` accepts, else
 * the command's whole reply: `missing` when there is no such key, WRONGTYPE for another type.
 */
export function lookupKeyOrReply<T extends StoredValue>(
  db: Db,
  key: string,
  missing: Reply,
  is: (v: StoredValue) => v is T,
): T | Reply {
  const v = db.lookup(key);
  if (v === undefined) return missing;
  return is(v) ? v : WRONGTYPE;
}
