/**
 * Reading one key of a node's keyspace as the trace's KeyView, without touching expiry (the
 * inspector must not change what it inspects).
 */
import type { Db } from '../redis/db';
import { typeOfValue } from '../redis/db';
import type { ZSet } from '../redis/zset_value';
import type { KeyView } from '../trace/types';

export function keyViewOf(db: Db, key: string): KeyView | null {
  const v = db.peek(key);
  if (v === undefined) return null;
  const expireAt = db.getExpire(key) ?? null;
  switch (typeOfValue(v)) {
    case 'string':
      return { key, type: 'string', value: v as string, expireAt };
    case 'hash':
      return { key, type: 'hash', value: hashEntries(v as Map<string, string>), expireAt };
    case 'list':
      return { key, type: 'list', value: (v as string[]).slice(), expireAt };
    case 'zset': {
      const z = v as ZSet;
      return {
        key,
        type: 'zset',
        value: z.members().map((m): [string, string] => [m, String(z.score(m))]),
        expireAt,
      };
    }
  }
}

/** Structural equality of two views (to skip recording a key a command only read). */
export function sameKeyView(a: KeyView | null | undefined, b: KeyView | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return (a ?? null) === (b ?? null);
  if (a.type !== b.type || a.expireAt !== b.expireAt) return false;
  if (typeof a.value === 'string' || typeof b.value === 'string') return a.value === b.value;
  const x = a.value;
  const y = b.value;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (typeof p === 'string' || typeof q === 'string') {
      if (p !== q) return false;
    } else if (p[0] !== q[0] || p[1] !== q[1]) return false;
  }
  return true;
}

/** [...hash] without an iterator result per field (a renewal views 100 hashes per script). */
function hashEntries(h: Map<string, string>): [string, string][] {
  const out = new Array<[string, string]>(h.size);
  let i = 0;
  h.forEach((v, f) => (out[i++] = [f, v]));
  return out;
}
