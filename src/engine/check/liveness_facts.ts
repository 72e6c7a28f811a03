/**
 * The liveness checker's bookkeeping (liveness.ts judges L2, L5 and L6 from it after every task):
 * who is acquiring, waiting without a timer of its own, unlocking, holding and renewing what, kept
 * up to date from the trace's events and key changes; and the kinds judged there and then (L3, L4,
 * L7). The facts shared with safety and L1 are the SafetyMonitor's.
 */
import { STARVATION_OVERTAKES, type Actor, type TraceEvent } from '../trace/types';
import { clientOf, isThreadActor } from '../trace/actors';
import { FAMILY_TYPES } from '../lock_types';
import type { MonitorHost, SafetyMonitor } from './monitor';
import { PAIR_SEP, type Pair } from './pair_ids';
import { sameGraphShape, type KeptWaitGraph } from './wait_graph';

/** Hash locks whose field `"<uuid>:<threadId>"` is the thread's hold counter (L4). */
const COUNTED_TYPES = new Set(['RLock', 'FairLock', 'FencedLock', 'SpinLock']);
/** Types that start a renewal when acquired without a lease: Redisson's family (watchdog), the naive renewal thread. */
const RENEWED_TYPES = new Set<string>([...FAMILY_TYPES, 'set-nx-px-renew']);

/** A thread's current acquire call (from lock.request to its outcome). */
export interface Acquire {
  lock: string;
  type: string;
  op: string;
  waitMs?: number;
  /** when it asked: orders requests for L7 */
  order: number;
  /** when it asked (L6) */
  since: number;
  /** it has waited or retried at least once (L6) */
  retried: boolean;
  /** FairLock: the threads that acquired ahead of it although they asked later (L7) */
  overtakenBy: Actor[];
}

/**
 * Events that can change what the wait-for graph is built from (wait_graph.ts): who holds,
 * acquires or is gone, and (GRAPH_EVENTS) which nodes are masters. A `lock.wait` changes it only
 * when the thread was not waiting for that lock already (the monitor says so: markGraphStale);
 * the others (the watchdog's, commands, pub/sub, wake-ups) never.
 */
const WAIT_GRAPH_EVENTS = new Set<string>([
  'lock.request',
  'lock.acquired',
  'lock.failed',
  'lock.error',
  'unlock.request',
  'lock.released',
  'thread.done',
  'client.crash',
]);

/** Events besides the lock calls that can change who waits for whom, or whether it can end. */
const GRAPH_EVENTS = new Set<string>([
  'thread.interrupt',
  'thread.cancel',
  'thread.continue',
  'client.pause',
  'client.starve',
  'client.starve.end',
  'node.stall',
  'client.resume',
  'node.crash',
  'node.restart',
  'node.clock',
  'net.partition',
  'net.heal',
  'net.latency',
  'net.latency.end',
  'failover.promote',
  'client.master',
  'cluster.promoted',
]);

const sep = PAIR_SEP;
/** touched threads kept between two reads before the unwaited set is rebuilt instead */
const TOUCHED_MAX = 4096;

export abstract class LivenessFacts {
  protected readonly acquiring = new Map<Actor, Acquire>();
  /** threads whose latest wait has no timer of its own (lock.wait waitMs null, not polling) */
  protected readonly untimed = new Set<Actor>();
  /** actor \0 lock: an unlock call in flight */
  protected readonly unlocking = new Set<string>();
  /** actor \0 lock -> the hold count the thread believes it has (L4) */
  protected readonly clientHolds = new Map<string, number>();
  /** clientHolds by lock and by thread: a key change or a renewal asks about one, not all (1,000s held) */
  // (a lock's set stays when it empties, and a thread's count stays at 0: a lock taken and given
  // back in turn made a new Set and emptied two tables each time, and V8 shrinks an emptied table
  // in the runtime; neither is walked by key, so what stays changes no answer)
  protected readonly holdersOf = new Map<string, Set<Actor>>();
  protected readonly holdsOf = new Map<Actor, number>();
  /** actor \0 lock -> the type and lease of its last request */
  protected readonly requested = new Map<string, { type: string; lease: boolean }>();
  /** actor \0 lock: a renewal runs for it (acquired without lease, not cancelled since) */
  protected readonly renewing = new Set<string>();
  /** actor \0 lock -> the order of its latest request (L7) */
  protected readonly requestOrder = new Map<string, number>();
  protected requests = 0;
  protected dirty = false;
  /**
   * The wait-for graph must be judged again before L5 and L6 are (wait_graph.ts): who waits,
   * holds or acquires may have changed. A graph over the same waited-for locks whose key views
   * all still hold is judged again in place rather than built.
   */
  protected graphStale = true;
  /**
   * The graph must be built again from the nodes: they changed (a crash, a failover, a fault), or
   * a waited-for key changed its owners or TTL while the graph was stale.
   */
  protected graphRebuild = true;
  /** the graph L5 and L6 were last judged on, patched by key changes since; null: none yet */
  protected graph: KeptWaitGraph | null = null;

  constructor(
    protected readonly host: MonitorHost,
    protected readonly m: SafetyMonitor,
  ) {}

  onEvent(ev: TraceEvent): void {
    const actor = ev.actor;
    // Who acquires, waits or is gone changes only with an event of that thread, or a crash of its client.
    // The list is read after a task only while no fault is pending: until then a long run would
    // grow it by every event, so past TOUCHED_MAX it is dropped and the set rebuilt (as a crash does).
    if (ev.kind === 'client.crash' || this.touchedN >= TOUCHED_MAX) {
      this.unwaited = null;
      this.touchedN = 0;
    } else if (actor !== undefined) this.touched[this.touchedN++] = actor;
    if (WAIT_GRAPH_EVENTS.has(ev.kind)) this.graphStale = true;
    else if (GRAPH_EVENTS.has(ev.kind)) this.graphStale = this.graphRebuild = true;
    if (actor === undefined) return;
    switch (ev.kind) {
      case 'lock.request': {
        const id = this.m.pairs.id(actor, ev.lock);
        this.requested.set(id, { type: ev.type, lease: ev.leaseMs !== undefined });
        this.requestOrder.set(id, this.requests + 1);
        this.setAcquiring(actor, {
          lock: ev.lock,
          type: ev.type,
          op: ev.op,
          ...(ev.waitMs === undefined ? {} : { waitMs: ev.waitMs }),
          order: ++this.requests,
          since: this.host.now(),
          retried: false,
          overtakenBy: [],
        });
        break;
      }
      case 'lock.wait': {
        const a = this.acquiring.get(actor);
        if (a !== undefined) a.retried = true;
        // A wait with a bound (or a poll) has its own timer: only the others can be lost (L2).
        if (ev.waitMs === null && ev.polling !== true) this.untimed.add(actor);
        else this.untimed.delete(actor);
        break;
      }
      case 'lock.acquired':
        this.onAcquired(actor, ev.lock, ev.holdCount);
        break;
      case 'lock.failed':
        this.stopTrying(actor);
        break;
      case 'lock.error': {
        const id = this.m.pairs.id(actor, ev.lock);
        if (ev.op === 'unlock' || ev.op === 'forceUnlock') {
          this.unlocking.delete(id);
          this.dropHold(id, actor, ev.lock);
        } else this.stopTrying(actor);
        this.checkL4(actor, ev.lock);
        break;
      }
      case 'unlock.request':
        this.unlocking.add(this.m.pairs.id(actor, ev.lock));
        break;
      case 'lock.released': {
        const id = this.m.pairs.id(actor, ev.lock);
        this.unlocking.delete(id);
        if (ev.holdCount > 0) this.setHold(id, actor, ev.lock, ev.holdCount);
        else this.dropHold(id, actor, ev.lock);
        this.checkL4(actor, ev.lock);
        this.checkL3(actor, ev.lock);
        break;
      }
      case 'watchdog.renew': {
        if (!isThreadActor(actor)) break;
        const id = this.m.pairs.id(actor, ev.lock);
        if (ev.result === 1) {
          this.renewing.add(id);
          if (this.heldByNobody(actor, ev.lock)) this.m.setOpen('L3', ev.lock, [actor], { cause: 'renewed' });
        } else {
          this.renewing.delete(id);
          this.m.setOpen('L3', ev.lock, null);
        }
        break;
      }
      case 'watchdog.cancel':
        if (!isThreadActor(actor)) break;
        this.renewing.delete(this.m.pairs.id(actor, ev.lock));
        this.m.setOpen('L3', ev.lock, null);
        break;
      case 'thread.done':
        this.onGone((a) => a === actor, true);
        break;
      case 'client.crash': {
        const client = typeof ev.client === 'string' ? ev.client : actor;
        this.onGone((a) => clientOf(a) === client, false);
        break;
      }
      default:
        // a fault (the last one lets L5 decide), a wake-up, a reply: the next settle looks again
        if (GRAPH_EVENTS.has(ev.kind)) this.dirty = true;
        return;
    }
    this.dirty = true;
  }

  /**
   * A key changed on a node (any key, before `onKey`): when the key is one the wait-for graph was
   * built from and its owners or its having a TTL changed (a renewal changes neither), the change
   * is patched into the graph (a retry loop gives a lock back and takes it again every few seconds).
   */
  keyChanged(node: string, key: string): void {
    const graph = this.graph;
    if (this.graphRebuild || graph === null) return;
    const built = graph.views.get(key);
    if (built === undefined) return;
    const i = graph.masters.indexOf(node);
    if (i < 0) return;
    const view = this.host.liveKey(node, key);
    if (sameGraphShape(this.m, built[i], view)) return;
    // (a stale graph is judged again in place only while its views still hold: this one does not)
    if (this.graphStale) this.graphRebuild = true;
    else graph.patch(i, key, view);
  }

  /** Something the wait-for graph is built from changed outside the events and keys above. */
  markGraphStale(): void {
    this.graphStale = true;
  }

  /** A lock key changed on a master. */
  onKey(lock: string | null): void {
    this.dirty = true;
    if (lock === null) {
      this.graphStale = this.graphRebuild = true;
      for (const l of [...this.m.openLocks('L3')]) this.closeL3IfFreed(l);
      return;
    }
    this.closeL3IfFreed(lock);
    // an open L4's thread, the threads the key names, those that believe they hold it (l4Pending
    // keeps the first of each, in this order; this runs for every key a renewal touches)
    // (no list of the owners, no closure per call: this runs for every change of a lock key)
    const open = this.l4Thread.get(lock);
    if (open !== undefined) for (const a of open) this.checkL4(a, lock);
    const key = this.m.keyOf(lock);
    this.l4Lock = lock;
    for (const node of this.host.masters()) {
      const view = this.host.liveKey(node, key);
      if (view !== undefined) this.m.someOwner(view, this.pendL4);
    }
    this.holdersOf.get(lock)?.forEach(this.pendL4);
  }

  /** the lock onKey hands to pendL4 */
  private l4Lock = '';
  /** checkL4(a, l4Lock), as a test for someOwner that never passes (made once) */
  private readonly pendL4 = (a: Actor): boolean => {
    this.checkL4(a, this.l4Lock);
    return false;
  };

  /** lock -> the thread of its open L4 */
  protected readonly l4Thread = new Map<string, Actor[]>();

  /** `id` is `actor`'s pair id for `lock` (m.pairs.id): passed as well, not cut out of it again */
  protected setHold(id: string, actor: Actor, lock: string, holdCount: number): void {
    if (!this.clientHolds.has(id)) {
      let set = this.holdersOf.get(lock);
      if (set === undefined) this.holdersOf.set(lock, (set = new Set()));
      set.add(actor);
      this.holdsOf.set(actor, (this.holdsOf.get(actor) ?? 0) + 1);
    }
    this.clientHolds.set(id, holdCount);
  }

  protected dropHold(id: string, actor: Actor, lock: string): void {
    if (!this.clientHolds.delete(id)) return;
    this.holdersOf.get(lock)?.delete(actor);
    this.holdsOf.set(actor, (this.holdsOf.get(actor) ?? 1) - 1);
  }

  protected onAcquired(actor: Actor, lock: string, holdCount: number): void {
    const id = this.m.pairs.id(actor, lock);
    this.stopTrying(actor);
    this.setHold(id, actor, lock, holdCount);
    const req = this.requested.get(id);
    if (holdCount === 1 && req !== undefined && !req.lease && RENEWED_TYPES.has(req.type))
      this.renewing.add(id);
    this.m.setOpen('L3', lock, null);
    if (holdCount === 1) this.overtake(actor, lock);
    this.checkL4(actor, lock);
  }

  /** A thread ended (`ended`) or its client crashed: its calls stop; an ended holder leaves its renewals. */
  protected onGone(gone: (a: Actor) => boolean, ended: boolean): void {
    for (const a of [...this.acquiring.keys()]) if (gone(a)) this.stopTrying(a);
    for (const id of [...this.clientHolds.keys()]) {
      const i = id.indexOf(sep);
      const a = id.slice(0, i);
      if (!gone(a)) continue;
      const lock = id.slice(i + 1);
      this.dropHold(id, a, lock);
      this.unlocking.delete(id);
      this.m.setOpen('L4', lock, null);
      // The watchdog belongs to the client, not the thread: it renews on for as long as the client lives.
      if (ended && this.renewing.has(id) && this.keyNames(a, lock))
        this.m.setOpen('L3', lock, [a], { cause: 'ended' });
    }
    for (const [lock, [a]] of [...this.l4Thread]) {
      if (!gone(a)) continue;
      this.l4Thread.delete(lock);
      this.m.setOpen('L4', lock, null);
    }
    for (const id of [...this.renewing]) {
      const a = id.slice(0, id.indexOf(sep));
      if (gone(a) && !ended) {
        this.renewing.delete(id);
        this.m.setOpen('L3', id.slice(id.indexOf(sep) + 1), null);
      }
    }
  }

  /**
   * A renewal of `lock` for `actor` renews a hold nobody has: the thread believes it holds no lock
   * at all, and is neither acquiring nor unlocking one. (A MultiLock renews its parts under their
   * own names while its thread believes it holds the MultiLock's: any belief keeps it quiet.)
   */
  protected heldByNobody(actor: Actor, lock: string): boolean {
    if (this.acquiring.has(actor) || this.m.believes(actor, lock)) return false;
    if ((this.holdsOf.get(actor) ?? 0) > 0) return false;
    for (const id of this.unlocking) if (id.startsWith(actor + sep)) return false;
    return true;
  }

  /** Whether a master's key of `lock` names `actor` as an owner. */
  protected keyNames(actor: Actor, lock: string): boolean {
    const key = this.m.keyOf(lock);
    for (const node of this.host.masters())
      if (this.m.ownersOfKey(this.host.liveKey(node, key)).includes(actor)) return true;
    return false;
  }

  protected checkL3(actor: Actor, lock: string): void {
    if (!this.m.isOpen('L3', lock)) return;
    if (this.m.believes(actor, lock)) this.m.setOpen('L3', lock, null);
  }

  /** The renewed key is free on every master: nothing is kept alive any more. */
  protected closeL3IfFreed(lock: string): void {
    if (this.m.isOpen('L3', lock) && this.isFree(lock)) this.m.setOpen('L3', lock, null);
  }

  /**
   * L4 is judged after the task, not at the event: a thread whose acquire threw and whose
   * exception ends it in the same step never lived with the mismatch (its lease is then nobody's,
   * which L1/L3 judge).
   */
  protected checkL4(actor: Actor, lock: string): void {
    const p = this.m.pairs.pair(actor, lock);
    if (p.l4Round === this.l4Round) return;
    p.l4Round = this.l4Round;
    this.l4Pending[this.l4N++] = p;
  }

  /**
   * The pairs to judge for L4 after the task, each once, in the order first queued: l4Pending[0,
   * l4N) of round l4Round. A list kept from task to task and a round number on each pair, where
   * a Set emptied after every task that queued one got a new table each time (8,000 a run of
   * contention-100).
   */
  protected readonly l4Pending: Pair[] = [];
  protected l4N = 0;
  protected l4Round = 1;

  /** L4: the server's counter of the thread's field against the count the thread believes. */
  protected judgeL4({ id, actor, lock }: Pair): void {
    const req = this.requested.get(id);
    if (req === undefined || !COUNTED_TYPES.has(req.type)) return;
    if (this.unlocking.has(id) || this.acquiring.get(actor)?.lock === lock || this.m.isGone(actor)) return;
    const client = this.clientHolds.get(id) ?? 0;
    let server: number | null = null;
    const key = this.m.keyOf(lock);
    for (const node of this.host.masters()) {
      const view = this.host.liveKey(node, key);
      if (view?.type !== 'hash') continue;
      for (const [f, v] of view.value as [string, string][])
        if (f !== 'mode' && this.m.actorOf(f) === actor) server = Math.max(server ?? 0, Number(v));
    }
    // A field gone while the thread believes it holds is a lost lease (V1/V3), not a count mismatch.
    if (server === null || server === client) {
      if (this.l4Thread.get(lock)?.includes(actor) !== true) return;
      this.l4Thread.delete(lock);
      this.m.setOpen('L4', lock, null);
      return;
    }
    this.l4Thread.set(lock, [actor]);
    const cause = server > client ? 'server-more' : 'client-more';
    this.m.setOpen('L4', lock, [actor], { cause, serverHolds: server, clientHolds: client });
  }

  /** unwaitedCalls' answer, kept up to date from `touched` (threads with an event since); null: rebuild */
  protected unwaited: Set<Actor> | null = null;
  /** (touched[0..touchedN): emptied by its count, so the list keeps its room between tasks) */
  protected readonly touched: Actor[] = [];
  protected touchedN = 0;

  protected isFree(lock: string): boolean {
    const key = this.m.keyOf(lock);
    for (const n of this.host.masters()) if (this.m.hasOwner(this.host.liveKey(n, key))) return false;
    return true;
  }

  /** `actor` acquired `lock`: every FairLock waiter that asked before it was overtaken (L7). */
  protected overtake(actor: Actor, lock: string): void {
    const order = this.requestOrder.get(this.m.pairs.id(actor, lock));
    if (order === undefined) return;
    // Only a FairLock caller can be overtaken or starved: without one (contention-100's 100
    // callers of a plain lock) the walks below find nothing, so they run only to close an open L7.
    if (!this.fairCallers.has(lock)) {
      if (this.m.isOpen('L7', lock)) this.checkL7(lock);
      return;
    }
    // (forEach: a for-of over the callers built an iterator result per caller, at every acquire)
    this.acquiringOf.get(lock)?.forEach((w) => {
      const a = this.acquiring.get(w)!;
      if (a.type === 'FairLock' && a.order < order) a.overtakenBy.push(actor);
    });
    this.checkL7(lock);
  }

  protected setAcquiring(actor: Actor, a: Acquire): void {
    const before = this.acquiring.get(actor);
    if (before !== undefined) {
      this.acquiringOf.get(before.lock)?.delete(actor);
      this.countFair(before, -1);
    }
    this.acquiring.set(actor, a);
    this.countFair(a, 1);
    let set = this.acquiringOf.get(a.lock);
    if (set === undefined) this.acquiringOf.set(a.lock, (set = new Set()));
    set.add(actor);
  }

  /** lock -> how many of its acquire calls (`acquiring`) are a FairLock's (absent: none) */
  private readonly fairCallers = new Map<string, number>();

  private countFair(a: Acquire, by: 1 | -1): void {
    if (a.type !== 'FairLock') return;
    const n = (this.fairCallers.get(a.lock) ?? 0) + by;
    if (n > 0) this.fairCallers.set(a.lock, n);
    else this.fairCallers.delete(a.lock);
  }

  /** `acquiring` by lock: an acquire asks about its lock's callers, not every call (1,000 at scale) */
  protected readonly acquiringOf = new Map<string, Set<Actor>>();

  /** A thread stopped trying (acquired, gave up, failed, ended): its lock's L7 is judged again. */
  protected stopTrying(actor: Actor): void {
    const a = this.acquiring.get(actor);
    this.acquiring.delete(actor);
    if (a !== undefined) {
      this.countFair(a, -1);
      const set = this.acquiringOf.get(a.lock);
      set?.delete(actor);
      if (set?.size === 0) this.acquiringOf.delete(a.lock);
    }
    this.untimed.delete(actor);
    if (a !== undefined && this.m.isOpen('L7', a.lock)) this.checkL7(a.lock);
  }

  /** L7: the FairLock waiters still trying that were overtaken STARVATION_OVERTAKES times. */
  protected checkL7(lock: string): void {
    const starved: Actor[] = [];
    const by = new Set<Actor>();
    this.acquiringOf.get(lock)?.forEach((w) => {
      const a = this.acquiring.get(w)!;
      if (a.overtakenBy.length < STARVATION_OVERTAKES) return;
      starved.push(w);
      for (const o of a.overtakenBy) by.add(o);
    });
    if (starved.length === 0) {
      this.m.setOpen('L7', lock, null);
      return;
    }
    starved.sort();
    const others = [...by].filter((o) => !starved.includes(o)).sort();
    this.m.setOpen('L7', lock, [...starved, ...others], { waiting: starved });
  }
}
