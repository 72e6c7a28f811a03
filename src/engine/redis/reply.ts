/**
 * Redis reply types (RESP2, as redis-cli 7.0 sees them).
 *
 * Every string inside the engine is a *byte string*: a JS string whose char codes are 0..255, one
 * char per byte (see bytes.ts). That keeps the simulator binary-safe and makes Lua <-> Redis
 * conversions and redis-cli's \xNN escaping byte-exact.
 *
 * Integers are `number` when they are safe integers and `bigint` only beyond 2^53, so the common
 * path compares with plain numbers while INCRBY near 2^63 still prints exactly. Read them with
 * Number(r.v) or String(r.v).
 */
export type Reply =
  | { readonly t: 'status'; readonly v: string }
  | { readonly t: 'error'; readonly v: string }
  | { readonly t: 'int'; readonly v: number | bigint }
  | { readonly t: 'bulk'; readonly v: string | null }
  | { readonly t: 'array'; readonly v: readonly Reply[] | null };

export type ErrorReply = Extract<Reply, { t: 'error' }>;

export const OK: Reply = Object.freeze({ t: 'status', v: 'OK' });
export const NIL: Reply = Object.freeze({ t: 'bulk', v: null });
export const NIL_ARRAY: Reply = Object.freeze({ t: 'array', v: null });
export const EMPTY_ARRAY: Reply = Object.freeze({ t: 'array', v: Object.freeze([]) });

const SMALL_INTS: Reply[] = [];
for (let i = -1; i <= 16; i++) SMALL_INTS.push(Object.freeze({ t: 'int', v: i }));

export function status(v: string): Reply {
  return { t: 'status', v };
}

/** An error reply; `v` is the full text as Redis sends it, code prefix included ("ERR ...", "WRONGTYPE ..."). */
export function error(v: string): ErrorReply {
  return { t: 'error', v };
}

export function int(n: number | bigint): Reply {
  if (typeof n === 'bigint') {
    if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) n = Number(n);
    else return { t: 'int', v: n };
  }
  if (n >= -1 && n <= 16 && Number.isInteger(n)) return SMALL_INTS[n + 1];
  return { t: 'int', v: n };
}

export function bulk(v: string | null): Reply {
  return v === null ? NIL : { t: 'bulk', v };
}

export function array(v: readonly Reply[] | null): Reply {
  return v === null ? NIL_ARRAY : { t: 'array', v };
}

export function bulkArray(items: readonly (string | null)[]): Reply {
  return { t: 'array', v: items.map(bulk) };
}

export function isError(r: Reply): r is ErrorReply {
  return r.t === 'error';
}
