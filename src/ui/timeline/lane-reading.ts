/**
 * The small readers and names the lane derivation (model.ts) uses on every frame: hold and key
 * comparisons, short owner fields, thread-id order, and a materialized state read as a sweep's
 * frame. Apart from model.ts so that its one long function stays the file's subject.
 */
import type { FrameReader, NodeFrame } from '../../engine/scenario/state';
import type { KeyView, VisibleState } from '../../engine/trace/types';
import { nameOwners, type OwnerNames } from './owners';

export const NO_HOLDS: Readonly<Record<string, number>> = Object.freeze({});

export function sameHolds(
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>> | undefined,
): boolean {
  if (a === b) return true;
  if (!b) return false;
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _k in b) n--;
  return n === 0;
}

// One collator for every comparison: localeCompare with options builds one per call, which cost
// more than the rest of a small run's lanes on the worker's first (cold) run.
export const NUMERIC = new Intl.Collator('en', { numeric: true });

export function compareThreadIds(a: string, b: string): number {
  const [ca, ta] = a.split(':');
  const [cb, tb] = b.split(':');
  if (ca !== cb) return NUMERIC.compare(ca, cb);
  return NUMERIC.compare(ta, tb);
}

export function memo(f: (s: string) => string): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    let v = seen.get(s);
    if (v === undefined) seen.set(s, (v = f(s)));
    return v;
  };
}

export function shortField(field: string, owners: OwnerNames): string {
  const named = nameOwners(field, owners);
  if (named !== field) return named;
  const i = field.lastIndexOf(':');
  if (i > 8) return `${field.slice(0, 4)}…${field.slice(i)}`;
  return field;
}

/**
 * Keys drawn on the node lanes besides the locks themselves: those a lock's scripts keep under its
 * hash tag with an expiry of their own (the read/write lock's per-reader timeout keys). The
 * unlock latches, gone a moment later, would only add noise.
 */
export function isCompanionKey(key: string, locks: ReadonlySet<string>): boolean {
  if (key.startsWith('redisson_')) return false;
  const m = /^\{([^}]+)\}:/.exec(key);
  return m !== null && locks.has(m[1]);
}

/**
 * Whether two views of a key (undefined: no key) read the same: type, value and expiry, what its
 * segment on a node lane shows. Compared in place: writing each view out as JSON to compare the
 * text was most of a long run's key rows.
 */
export function sameKeyView(a: KeyView | undefined, b: KeyView | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.type !== b.type || a.expireAt !== b.expireAt) return false;
  return sameValue(a.value, b.value);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
  return true;
}

/**
 * A materialized state read the way a sweep's frame is (the initial and final states, fixtures),
 * every one of `threads` looked at.
 */
export function readerOf(state: VisibleState, threads: string[]): FrameReader {
  const nodes = new Map<string, NodeFrame>();
  for (const [id, n] of Object.entries(state.nodes))
    nodes.set(id, { role: n.role, up: n.up, keys: new Map(Object.entries(n.keys)) });
  return { thread: (id) => state.threads[id], node: (id) => nodes.get(id), changed: () => threads };
}

/** The keys of `changed` that `keys` follows, in its order (most moments touch one key). */
export function followedIn(changed: ReadonlySet<string>, keys: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const k of changed) if (keys.has(k)) out.push(k);
  if (out.length > 1) out.sort((a, b) => keys.get(a)! - keys.get(b)!);
  return out;
}

/** Whether marks are in time order already, ties by event index (a loop: 8,000 marks' test by a
 * comparator call each was 4 ms of contention-100's cold lanes). */
export function inOrder(marks: readonly { t: number; index: number }[]): boolean {
  for (let i = 1; i < marks.length; i++) {
    const a = marks[i - 1];
    const b = marks[i];
    if (a.t > b.t || (a.t === b.t && a.index > b.index)) return false;
  }
  return true;
}

export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
