/**
 * The wait-for graph L5 and L6 are judged on (liveness.ts, checkCycles): an edge from each waiter
 * to each owner of the key it waits for, and the strongly connected parts that hold a cycle.
 *
 * The graph is a function of who waits for which lock, who believes it holds what, who is
 * acquiring (all changed by events), which nodes are masters, and, of each waited-for key on
 * each master, its thread owners and whether it has a TTL. A watchdog renewal's PEXPIRE changes
 * none of these (whether a renewal runs is read when a cycle is judged, not built into it). The
 * graph is kept (`KeptWaitGraph`): after an event that can change the first four the checker
 * judges it again in place (`rejudge`: same waited-for locks and nodes) or builds it again, and a key change it cannot tell from the view the graph holds (`sameGraphShape`) is
 * patched in (`KeptWaitGraph.patch`): the key's view and its locks' holds are replaced, the other
 * keys are not read again, and the cycles are those of the holds kept (remembered by the holds
 * since the last build or rejudgement: until the next, equal holds give equal cycles). A retry loop gives its part
 * back and takes it again every few seconds: two such key changes per lock, round a few graphs.
 */
import type { Actor, KeyView } from '../trace/types';
import { isThreadActor } from '../trace/actors';
import type { SafetyMonitor } from './monitor';
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
  /** Redis key of each waited-for lock -> its view on each of `masters` (built or patched in) */
  readonly views: ReadonlyMap<string, readonly (KeyView | undefined)[]>;
}

/** What the graph is built from besides the monitor: the liveness checker's own facts. */
export interface GraphFacts {
  readonly m: SafetyMonitor;
  readonly masters: readonly string[];
  liveKey(node: string, key: string): KeyView | undefined;
  readonly acquiring: ReadonlyMap<Actor, Acquire>;
}

/** The graph as it is now, built from the facts (a test compares a kept graph with this). */
export function buildWaitGraph(f: GraphFacts): WaitGraph {
  return new KeptWaitGraph(f);
}

/**
 * A wait-for graph kept between changes: built whole from the facts, then patched key by key
 * (`patch`), and judged again in place (`rejudge`) when an event changes who waits, holds or
 * acquires over the same waited-for locks.
 */
export class KeptWaitGraph implements WaitGraph {
  ownerWaits = false;
  cycles: readonly GraphCycle[] = NO_CYCLES;
  readonly masters: readonly string[];
  readonly views = new Map<string, (KeyView | undefined)[]>();
  /** Redis key -> the waited-for locks it is the key of (two lock names may share one key) */
  private readonly locksOfKey = new Map<string, string[]>();
  /** waited-for lock -> its holds (its key on each master that names a thread), in master order; null: not read yet */
  private holds: Map<string, GraphHold[]> | null = null;

  /** how many waited-for locks it was built on (the lists of locksOfKey together) */
  private readonly lockCount: number = 0;

  constructor(private readonly f: GraphFacts) {
    const { m, masters } = f;
    this.masters = masters.slice();
    for (const lock of m.waitedLocks()) {
      this.lockCount++;
      const key = m.keyOf(lock);
      const locks = this.locksOfKey.get(key);
      if (locks === undefined) this.locksOfKey.set(key, [lock]);
      else locks.push(lock);
      if (!this.views.has(key))
        this.views.set(
          key,
          masters.map((node) => f.liveKey(node, key)),
        );
    }
    this.judge();
  }

  /**
   * Key `key` of a waited-for lock changed on `masters[i]` to `view`, in its thread owners or its
   * having a TTL, and nothing else the graph is built from did: the graph is now the one a build
   * would give.
   */
  patch(i: number, key: string, view: KeyView | undefined): void {
    const byNode = this.views.get(key)!;
    byNode[i] = view;
    const holds = this.holds;
    if (holds !== null)
      for (const lock of this.locksOfKey.get(key)!) holds.set(lock, holdsOn(this.f.m, lock, byNode));
    this.judge();
  }

  /** Whether the locks waited for now are the ones it was built on, each under the same key. */
  sameLocks(): boolean {
    const { m } = this.f;
    let n = 0;
    for (const lock of m.waitedLocks()) {
      if (this.locksOfKey.get(m.keyOf(lock))?.includes(lock) !== true) return false;
      n++;
    }
    return n === this.lockCount;
  }

  /**
   * Who waits, holds or acquires changed, over the same waited-for locks (`sameLocks`) and with
   * every view still as a build would read it (the checker builds instead when a waited-for key
   * changed meanwhile): the graph a build would give now. The cycles remembered for each set of
   * holds were found under the old waiters and beliefs, so they are forgotten.
   */
  rejudge(): void {
    this.holds = null;
    if (this.cyclesOf.size > 0) this.cyclesOf.clear();
    this.judge();
  }

  /** ownerWaits from the views; the cycles from the holds (read for every lock when none are kept). */
  private judge(): void {
    const { m } = this.f;
    this.ownerWaits = anOwnerWaits(this.f, this.views);
    if (!this.ownerWaits) {
      // (a graph without a cycle, as most are, reads no holds: they are read when one can be)
      this.holds = null;
      this.cycles = NO_CYCLES;
      return;
    }
    let holds = this.holds;
    if (holds === null) {
      this.holds = holds = new Map();
      for (const lock of m.waitedLocks()) holds.set(lock, holdsOn(m, lock, this.views.get(m.keyOf(lock))!));
    }
    const seen = holdsText(m, holds);
    let cycles = this.cyclesOf.get(seen);
    if (cycles === undefined) {
      if (this.cyclesOf.size >= CYCLES_KEPT) this.cyclesOf.clear();
      this.cyclesOf.set(seen, (cycles = findCycles(m, holds)));
    }
    this.cycles = cycles;
  }

  /**
   * The cycles found for each set of holds since the build (by `holdsText`): who waits and who
   * believes it holds what are fixed until the next build or rejudgement (which forgets them), so the same holds give the same cycles,
   * and a retry loop goes round a few sets of them (its parts taken, one given back, all given back).
   */
  private readonly cyclesOf = new Map<string, readonly GraphCycle[]>();
}

const NO_CYCLES: readonly GraphCycle[] = [];
/** the sets of holds whose cycles a kept graph remembers (a retry loop goes round three or four) */
const CYCLES_KEPT = 16;

/**
 * What findCycles reads of the holds, in its order, as text: equal text, equal cycles. The waited
 * locks are the same list for the graph's life, so each lock's part is its holds' count, and each
 * hold its kind, its owners' count and each owner length-prefixed: exact whatever the names hold.
 */
function holdsText(m: SafetyMonitor, holdsOf: ReadonlyMap<string, readonly GraphHold[]>): string {
  let text = '';
  for (const lock of m.waitedLocks()) {
    const holds = holdsOf.get(lock)!;
    text += `${holds.length}|`;
    for (const h of holds) {
      text += `${h.persistent ? 'p' : 't'}${h.owners.length}|`;
      for (const o of h.owners) text += `${o.length}:${o}`;
    }
  }
  return text;
}

/** A lock's holds: its key's view on each master that names a thread owner. */
function holdsOn(m: SafetyMonitor, lock: string, byNode: readonly (KeyView | undefined)[]): GraphHold[] {
  const out: GraphHold[] = [];
  for (const view of byNode) {
    const owners: Actor[] = [];
    if (threadOwners(m, view, owners) > 0) out.push({ lock, persistent: view!.expireAt === null, owners });
  }
  return out;
}

/**
 * The graph's cycles: an edge from each waiter of a lock to each owner of its holds (except a
 * waiter named by the hold that does not believe it holds the lock: its acquire just got it, the
 * reply is on its way), and the strongly connected parts with a cycle, each with the holds its
 * edges point to.
 */
function findCycles(m: SafetyMonitor, holdsOf: ReadonlyMap<string, readonly GraphHold[]>): GraphCycle[] {
  const edges = new Map<Actor, Set<Actor>>();
  const waitsFor = new Map<Actor, string>();
  /** waiter -> owner -> the holds that make the edge */
  const edgeHolds = new Map<Actor, Map<Actor, GraphHold[]>>();
  for (const lock of m.waitedLocks()) {
    const waiters = m.waitersOf(lock);
    if (waiters === undefined) continue;
    for (const h of holdsOf.get(lock)!) {
      const owners = h.owners;
      for (const w of waiters) {
        // Its own field without a hold it knows of: its acquire just got the lock (the reply is
        // on its way), so it no longer waits. A hold it knows of blocks it (read-to-write upgrade).
        if (owners.includes(w) && !m.believes(w, lock)) continue;
        waitsFor.set(w, lock);
        let e = edges.get(w);
        let eh = edgeHolds.get(w);
        if (e === undefined) edges.set(w, (e = new Set()));
        if (eh === undefined) edgeHolds.set(w, (eh = new Map()));
        for (const o of owners) {
          e.add(o);
          const list = eh.get(o);
          if (list === undefined) eh.set(o, [h]);
          else if (!list.includes(h)) list.push(h);
        }
      }
    }
  }
  const found: GraphCycle[] = [];
  for (const scc of stronglyConnected(edges)) {
    const members = [...scc].sort();
    const holds = new Set<GraphHold>();
    for (const w of members) {
      const eh = edgeHolds.get(w)!;
      for (const o of edges.get(w)!) if (scc.has(o)) for (const h of eh.get(o)!) holds.add(h);
    }
    found.push({ members, lock: waitsFor.get(members[0])!, holds: [...holds] });
  }
  return found;
}

/**
 * Whether the key of a waited-for lock names an owner that is itself acquiring: another lock,
 * or this one while it believes it holds it (an upgrade). Without one there is no cycle. (An
 * owner waiting for this very lock without a hold it knows of was just granted it.)
 */
function anOwnerWaits(f: GraphFacts, views: ReadonlyMap<string, readonly (KeyView | undefined)[]>): boolean {
  const { m } = f;
  asked = f;
  try {
    for (const lock of m.waitedLocks()) {
      askedLock = lock;
      for (const view of views.get(m.keyOf(lock))!)
        if (view !== undefined && m.someOwner(view, ownerAcquires)) return true;
    }
    return false;
  } finally {
    // (never left set: a later call from anywhere reads only what it set itself)
    asked = null;
  }
}

// (the test someOwner runs for anOwnerWaits, made once: a closure per view was made on every build)
let asked: GraphFacts | null = null;
let askedLock = '';

function ownerAcquires(o: Actor): boolean {
  const f = asked!;
  const a = isThreadActor(o) ? f.acquiring.get(o) : undefined;
  return a !== undefined && (a.lock !== askedLock || f.m.believes(o, askedLock));
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
