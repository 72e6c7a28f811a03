/**
 * The wait-for graph L5 and L6 are judged on (liveness.ts, checkCycles): an edge from each waiter
 * to each owner of the key it waits for, and the strongly connected parts that hold a cycle.
 *
 * The graph is a function of who waits for which lock, who believes it holds what, who is
 * acquiring (all changed by events), which nodes are masters, and, of each waited-for key on
 * each master, its thread owners and whether it has a TTL. A watchdog renewal's PEXPIRE changes
 * none of these (whether a renewal runs is read when a cycle is judged, not built into it), so the graph is kept (`WaitGraph`) and built again only when one
 * of them can have changed: the checker marks it stale on those events, and a key change is
 * compared with the view the graph was built from (`sameGraphShape`).
 */
import type { Actor, KeyView } from '../trace/types';
import { isThreadActor } from '../trace/actors';
import type { SafetyMonitor } from './monitor';
import { PAIR_SEP } from './pair_ids';
import type { Acquire } from './liveness_facts';

/** A strongly connected part of the graph that contains a cycle. */
export interface GraphCycle {
  /** its threads, sorted (copy before handing out: a violation keeps the array it is given) */
  readonly members: readonly Actor[];
  /** the lock its first member waits for */
  readonly lock: string;
  /**
   * The holds its edges point to: the cycle lasts only while each stays (no TTL, or every owner's
   * renewal running and its thread not gone), which the judgement reads as it is then.
   */
  readonly holds: readonly GraphHold[];
}

/** A waited-for lock's key on one master, with owners. */
export interface GraphHold {
  readonly lock: string;
  /** the key has no TTL */
  readonly persistent: boolean;
  /** its thread owners */
  readonly owners: readonly Actor[];
}

export interface WaitGraph {
  /** some owner of a waited-for key is itself acquiring (without one there is no cycle) */
  readonly ownerWaits: boolean;
  readonly cycles: readonly GraphCycle[];
  /** the masters it was built on, in order */
  readonly masters: readonly string[];
  /** Redis key of each waited-for lock -> its view on each of `masters` when built */
  readonly views: ReadonlyMap<string, readonly (KeyView | undefined)[]>;
}

/** What the graph is built from besides the monitor: the liveness checker's own facts. */
export interface GraphFacts {
  readonly m: SafetyMonitor;
  readonly masters: readonly string[];
  liveKey(node: string, key: string): KeyView | undefined;
  readonly acquiring: ReadonlyMap<Actor, Acquire>;
}

const sep = PAIR_SEP;

export function buildWaitGraph(f: GraphFacts): WaitGraph {
  const { m, masters } = f;
  const views = new Map<string, (KeyView | undefined)[]>();
  for (const lock of m.waitedLocks()) {
    const key = m.keyOf(lock);
    if (!views.has(key))
      views.set(
        key,
        masters.map((node) => f.liveKey(node, key)),
      );
  }
  const ownerWaits = anOwnerWaits(f, views);
  if (!ownerWaits) return { ownerWaits, cycles: [], masters: masters.slice(), views };
  const held: GraphHold[] = [];
  for (const lock of m.waitedLocks()) {
    const byNode = views.get(m.keyOf(lock))!;
    for (const view of byNode) {
      const owners = m.ownersOfKey(view).filter((o) => isThreadActor(o));
      if (owners.length > 0) held.push({ lock, persistent: view!.expireAt === null, owners });
    }
  }
  const edges = new Map<Actor, Set<Actor>>();
  const waitsFor = new Map<Actor, string>();
  /** waiter \0 owner -> the holds that make the edge */
  const edgeHolds = new Map<string, GraphHold[]>();
  for (const h of held) {
    const { lock, owners } = h;
    for (const w of m.waitersOf(lock) ?? []) {
      // Its own field without a hold it knows of: its acquire just got the lock (the reply is
      // on its way), so it no longer waits. A hold it knows of blocks it (read-to-write upgrade).
      if (owners.includes(w) && !m.believes(w, lock)) continue;
      waitsFor.set(w, lock);
      let e = edges.get(w);
      if (e === undefined) edges.set(w, (e = new Set()));
      for (const o of owners) {
        e.add(o);
        const list = edgeHolds.get(w + sep + o);
        if (list === undefined) edgeHolds.set(w + sep + o, [h]);
        else if (!list.includes(h)) list.push(h);
      }
    }
  }
  const found: GraphCycle[] = [];
  for (const scc of stronglyConnected(edges)) {
    const members = [...scc].sort();
    const holds = new Set<GraphHold>();
    for (const w of members)
      for (const o of edges.get(w)!)
        if (scc.has(o)) for (const h of edgeHolds.get(w + sep + o)!) holds.add(h);
    found.push({ members, lock: waitsFor.get(members[0])!, holds: [...holds] });
  }
  return { ownerWaits, cycles: found, masters: masters.slice(), views };
}

/**
 * Whether the key of a waited-for lock names an owner that is itself acquiring: another lock,
 * or this one while it believes it holds it (an upgrade). Without one there is no cycle. (An
 * owner waiting for this very lock without a hold it knows of was just granted it.)
 */
function anOwnerWaits(f: GraphFacts, views: ReadonlyMap<string, readonly (KeyView | undefined)[]>): boolean {
  const { m } = f;
  for (const lock of m.waitedLocks()) {
    for (const view of views.get(m.keyOf(lock))!) {
      if (view === undefined) continue;
      const waits = m.someOwner(view, (o) => {
        const a = isThreadActor(o) ? f.acquiring.get(o) : undefined;
        return a !== undefined && (a.lock !== lock || m.believes(o, lock));
      });
      if (waits) return true;
    }
  }
  return false;
}

/**
 * Whether a key's new view gives the graph what its old one gave: the same thread owners in the
 * same order, and (when it has any) a TTL or none alike. A renewal's new expiry time passes.
 */
export function sameGraphShape(m: SafetyMonitor, a: KeyView | undefined, b: KeyView | undefined): boolean {
  if (a === b) return true;
  // (asked on every change of a key the graph was built from, a renewal's PEXPIRE included: the
  // owners are read into two lists kept between calls rather than two filtered copies each time)
  const na = threadOwners(m, a, ownersA);
  const nb = threadOwners(m, b, ownersB);
  if (na !== nb) return false;
  for (let i = 0; i < na; i++) if (ownersA[i] !== ownersB[i]) return false;
  return na === 0 || (a!.expireAt === null) === (b!.expireAt === null);
}

const ownersA: Actor[] = [];
const ownersB: Actor[] = [];
let into: Actor[] = ownersA;
let count = 0;

/** A test for `someOwner` that never passes: it lists each thread owner into `into`. */
function listThreadOwner(o: Actor): boolean {
  if (isThreadActor(o)) into[count++] = o;
  return false;
}

/** m.ownersOfKey(view) that are threads, written to out[0..n); returns n. */
function threadOwners(m: SafetyMonitor, view: KeyView | undefined, out: Actor[]): number {
  if (view === undefined) return 0;
  into = out;
  count = 0;
  m.someOwner(view, listThreadOwner);
  return count;
}

/** The strongly connected parts of a directed graph that contain a cycle (a self-loop counts). */
function stronglyConnected(edges: Map<Actor, Set<Actor>>): Set<Actor>[] {
  const t: Tarjan = { edges, index: 0, idx: new Map(), low: new Map(), stack: [], on: new Set(), out: [] };
  for (const v of [...edges.keys()].sort()) if (!t.idx.has(v)) visit(t, v);
  return t.out;
}

/** Tarjan's walk, as a function of its own: a closure per search was made on every build. */
interface Tarjan {
  edges: Map<Actor, Set<Actor>>;
  index: number;
  idx: Map<Actor, number>;
  low: Map<Actor, number>;
  stack: Actor[];
  on: Set<Actor>;
  out: Set<Actor>[];
}

function visit(t: Tarjan, v: Actor): void {
  const { edges, idx, low, stack, on } = t;
  idx.set(v, t.index);
  low.set(v, t.index++);
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(t, w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
  }
  if (low.get(v) !== idx.get(v)) return;
  const scc = new Set<Actor>();
  let w: Actor;
  do {
    w = stack.pop()!;
    on.delete(w);
    scc.add(w);
  } while (w !== v);
  if (scc.size > 1 || edges.get(v)?.has(v) === true) t.out.push(scc);
}
