/**
 * The liveness kinds beside L1 (docs/trace-format.md, "The liveness kinds in detail"). The
 * simulator knows every pending timer, reply and message, so "for ever" is decided as "nothing
 * that is scheduled can change this" wherever that can be asked (L2, L5: judged in `settle`, after
 * every kernel task); the kinds a retry loop always has a next step for use a stated bound (L6:
 * LIVELOCK_MS, L7: STARVATION_OVERTAKES).
 *
 *   L2 lost waiter     a waiter of a free lock, with nothing scheduled that makes it try again, or
 *                      an acquire call that nothing scheduled can ever complete (`hung`)
 *   L3 orphan renewal  a watchdog keeps alive a lock no live thread believes it holds
 *   L4 hold mismatch   the server's hold counter of a thread differs from the thread's own count
 *   L5 wait cycle      waiters waiting, without a deadline, for each other's holds or their own
 *   L6 livelock        threads that block each other retrying (MultiLock, tryLock) for LIVELOCK_MS
 *   L7 starvation      a FairLock waiter overtaken by later requests
 *
 * The facts shared with safety and L1 (who waits, who believes it holds what, which thread an
 * owner id stands for) are the SafetyMonitor's; this class keeps what only liveness needs.
 */
import { LIVELOCK_MS, type Actor, type KeyView } from '../trace/types';
import { isThreadActor } from '../trace/actors';
import { LivenessFacts } from './liveness_facts';
import { KeptWaitGraph, type GraphHold, type WaitGraph } from './wait_graph';
import { PAIR_SEP } from './pair_ids';

/** What the kernel and the runner know of the future. */
export interface LivenessProbe {
  /**
   * Whether something scheduled can still make the thread go on: a timer or reply of its own, a
   * pub/sub message travelling to its client. False for a thread blocked for good (or gone).
   */
  canWake(actor: Actor): boolean;
  /** Whether a scenario fault is still to fire (it could crash, interrupt or cut anyone). */
  faultsPending(): boolean;
  /**
   * The threads (by name) and clients whose `canWake` may have changed since the last call; without
   * it every acquire call is asked about after every task.
   */
  wakeChanges?(): { names: ChangedNames; clients: ChangedNames };
}

/** What wakeChanges lists: a set of names read by index (the kernel's, kept without allocating). */
export interface ChangedNames {
  readonly size: number;
  has(name: string): boolean;
  /** the i-th name, i < size */
  at(i: number): string;
}

/** Types whose acquire gives back its partial holds and tries again: never a wait cycle (L6's). */
const RETRYING_TYPES = new Set(['MultiLock', 'RedLock']);

export class LivenessChecker extends LivenessFacts {
  /** After every kernel task: L2 and L5 ask what is still scheduled; L6 measures its bound. */
  settle(): void {
    if (this.l4N > 0) {
      // (a pair queued while these are judged is judged in this pass too, as a Set's walk would)
      for (let i = 0; i < this.l4N; i++) this.judgeL4(this.l4Pending[i]);
      this.l4N = 0;
      this.l4Round++;
    }
    const probe = this.host.probe;
    if (this.dirty) {
      this.dirty = false;
      this.freeStale = true;
      this.freePassStale = true;
      this.checkCycles(probe);
    }
    if (probe !== undefined) this.checkL2(probe);
  }

  /**
   * The waited-for locks that are free (L2's candidates), until the next change (`freeStale`).
   * One list, refilled after a change (freeWaited[0..freeN): `length = 0` gave it a new store
   * each time): this runs after every task.
   */
  private readonly freeWaited: string[] = [];
  private freeN = 0;
  private freeStale = true;

  /**
   * The pass over the free waited-for locks may find something new: an event or a lock key changed
   * (`dirty`), or a FairLock queue it read changed, since the last pass found nothing.
   */
  private freePassStale = true;
  /** the FairLock queue keys `deadAhead` has read (a change of one makes the pass stale) */
  private readonly queuesRead = new Set<string>();

  override keyChanged(node: string, key: string): void {
    if (this.queuesRead.has(key)) this.freePassStale = true;
    super.keyChanged(node, key);
  }

  /**
   * L2: waiters of a free lock that nothing scheduled will make try again (`free`), or that wait
   * behind a FairLock queue whose head is a thread that is gone (`dead-ahead`).
   */
  private checkL2(probe: LivenessProbe): void {
    // A lock's freeness only changes with an event or a key change (they set `dirty`); whether a
    // waiter can still wake changes with any task, so that part is asked every time.
    const free = this.freeWaited;
    if (this.freeStale) {
      this.freeStale = false;
      let n = 0;
      for (const l of this.m.waitedLocks()) if (this.isFree(l)) free[n++] = l;
      this.freeN = n;
    }
    const hung = this.hungCalls(probe);
    const openL2 = this.m.hasOpen('L2');
    if (this.freeN === 0 && hung === null && !openL2) return;
    if (!this.freePassDue(hung, openL2)) return;
    this.freePassStale = false;
    // (the free locks alone are already distinct: the set is built only to merge in the others)
    if (hung === null && !openL2) {
      for (let i = 0; i < this.freeN; i++) this.judgeL2(free[i], probe, null, false);
      return;
    }
    const merged = new Set<string>();
    for (let i = 0; i < this.freeN; i++) merged.add(free[i]);
    for (const l of this.m.openLocks('L2')) merged.add(l);
    if (hung !== null) for (const l of hung.keys()) merged.add(l);
    for (const lock of merged) this.judgeL2(lock, probe, hung, openL2);
  }

  /** L2 of one lock: its lost waiters or hung calls open it (or keep it open), none closes it. */
  private judgeL2(
    lock: string,
    probe: LivenessProbe,
    hung: ReadonlyMap<string, Actor[]> | null,
    openL2: boolean,
  ): void {
    let lost = this.lostWaiters(lock, probe);
    let cause = this.lostCause;
    if (lost === null && hung?.has(lock) === true) {
      cause = 'hung';
      lost = hung.get(lock)!;
    }
    // (a lock neither lost nor open is the common case: nothing to close, nothing allocated)
    if (lost !== null) {
      lost.sort();
      this.m.setOpen('L2', lock, lost, { cause, waiting: lost });
    } else if (openL2 && this.m.isOpen('L2', lock)) this.m.setOpen('L2', lock, null);
  }

  /**
   * Whether the pass over the free waited-for locks can find something the last one did not.
   * Without a waiter of its own timer-less wait (the only ones asked whether they can wake), it
   * reads only waiters, keys and FairLock queues: when none changed since a pass that found
   * nothing (no L2 open, none hung), it would find nothing again. A retry loop (MultiLock, tryLock
   * with a wait time) keeps a free waited-for lock between its attempts for a whole run.
   */
  private freePassDue(hung: ReadonlyMap<string, Actor[]> | null, openL2: boolean): boolean {
    return this.freePassStale || this.untimed.size > 0 || hung !== null || openL2;
  }

  /**
   * The waiters of a free `lock` that are lost, and why (`lostCause`): behind a FairLock queue
   * headed by a gone thread, or (`free`) without a timer and with nothing scheduled to wake
   * them; null when none is. It changes nothing, so it can be asked again.
   */
  private lostWaiters(lock: string, probe: LivenessProbe): Actor[] | null {
    const waiters = this.m.waitersOf(lock);
    let lost: Actor[] | null = null;
    this.lostCause = 'free';
    if (waiters !== undefined && waiters.size > 0 && this.isFree(lock)) {
      if (this.deadAhead(lock)) {
        this.lostCause = 'dead-ahead';
        lost = [...waiters];
      } else if (this.untimed.size > 0) {
        // (lost is sorted by the caller: walk the smaller of the two sets)
        const [few, all] =
          this.untimed.size < waiters.size ? [this.untimed, waiters] : [waiters, this.untimed];
        for (const w of few) if (all.has(w) && !probe.canWake(w)) (lost ??= []).push(w);
      }
    }
    return lost;
  }

  /** why lostWaiters' last answer is lost */
  private lostCause = 'free';

  /**
   * L2 `hung`: acquire calls that are not waiting for the lock (no `lock.wait` of theirs is open)
   * and that nothing scheduled can end: no reply, timer or message for the thread, and no fault
   * still to fire (an interrupt or a cancel would end them). This is a future that never
   * completes, as 3.12.5's failed EVAL+WAIT batch leaves the EVAL's (#2790). Waiters are left to
   * `free`, L1 and L5: an unlock message still to come wakes a waiter of a held lock.
   */
  private hungCalls(probe: LivenessProbe): Map<string, Actor[]> | null {
    if (this.acquiring.size === 0 || probe.faultsPending()) return null;
    // Walking every acquire (100 to 1,000) and asking whether it can wake after every task was the
    // checker's largest cost. Which calls are not waiting changes with their thread's events, and
    // whether one can wake with what the kernel did to its thread or client: the calls that cannot
    // wake are kept up to date from those changes, and the walk runs only when there is one.
    if (probe.wakeChanges === undefined) {
      if (this.unwaitedCalls(null).size === 0) return null;
    } else if (this.stuckCalls(probe, probe.wakeChanges()).size === 0) return null;
    const unwaited = this.unwaited!;
    let out: Map<string, Actor[]> | null = null;
    // (forEach: an entries() walk built a pair per call, after every task with a stuck call)
    this.acquiring.forEach((a, actor) => {
      if (!unwaited.has(actor) || probe.canWake(actor)) return;
      out ??= new Map();
      const list = out.get(a.lock);
      if (list === undefined) out.set(a.lock, [actor]);
      else list.push(actor);
    });
    return out;
  }

  /** The unwaited calls that cannot wake, updated from the threads and clients that changed. */
  private stuckCalls(
    probe: LivenessProbe,
    changes: { names: ChangedNames; clients: ChangedNames },
  ): ReadonlySet<Actor> {
    // Each call asked about is judged on the world as it is now, so asking twice gives the same
    // answer: no set of the calls to ask about is built (this runs after every task).
    const rebuilt = this.unwaited === null;
    if (rebuilt) this.stuck.clear();
    const unwaited = this.unwaitedCalls(probe);
    if (rebuilt) {
      for (const a of unwaited) this.judgeStuck(a, unwaited, probe);
      return this.stuck;
    }
    // (a call that left `unwaited` was judged by unwaitedCalls: with none left, none is stuck)
    if (unwaited.size === 0) return this.stuck;
    const { names, clients } = changes;
    // One walk over the smaller side, each call judged once: a walk over the changed clients for
    // each call made an iterator each, and a thread's own change and its client's judged it twice.
    if (clients.size > 0 || names.size > unwaited.size) {
      for (const a of unwaited)
        if (names.has(a) || (clients.size > 0 && clients.has(this.clientOf(a))))
          this.judgeStuck(a, unwaited, probe);
    } else if (names.size > 0)
      for (let i = 0; i < names.size; i++) {
        const name = names.at(i);
        if (unwaited.has(name)) this.judgeStuck(name, unwaited, probe);
      }
    return this.stuck;
  }

  /** clientOf(actor) (the part before `:`), cut once per actor: asked for every call after a delivery. */
  private clientOf(actor: Actor): string {
    let client = this.clientOfActor.get(actor);
    if (client === undefined) {
      const i = actor.indexOf(':');
      this.clientOfActor.set(actor, (client = i < 0 ? actor : actor.slice(0, i)));
    }
    return client;
  }

  private readonly clientOfActor = new Map<Actor, string>();

  private judgeStuck(a: Actor, unwaited: ReadonlySet<Actor>, probe: LivenessProbe): void {
    if (unwaited.has(a) && !probe.canWake(a)) this.stuck.add(a);
    else this.stuck.delete(a);
  }

  private readonly stuck = new Set<Actor>();

  /**
   * The acquire calls not waiting for their lock (no `lock.wait` of theirs open), of threads not
   * gone; with a probe, the threads whose events changed that are judged for `stuck` again.
   */
  private unwaitedCalls(probe: LivenessProbe | null): ReadonlySet<Actor> {
    if (this.unwaited === null) {
      this.unwaited = new Set();
      for (const actor of this.acquiring.keys()) if (this.isUnwaited(actor)) this.unwaited.add(actor);
      this.touchedN = 0;
    }
    const unwaited = this.unwaited;
    if (this.touchedN === 0) return unwaited;
    // (an actor touched twice is judged twice, with the same answer: the world has not moved)
    for (let i = 0; i < this.touchedN; i++) {
      const actor = this.touched[i];
      if (this.isUnwaited(actor)) unwaited.add(actor);
      else unwaited.delete(actor);
      if (probe !== null) this.judgeStuck(actor, unwaited, probe);
    }
    this.touchedN = 0;
    return unwaited;
  }

  private isUnwaited(actor: Actor): boolean {
    const a = this.acquiring.get(actor);
    return a !== undefined && this.m.waitersOf(a.lock)?.has(actor) !== true && !this.m.isGone(actor);
  }

  /** A FairLock's queue (`redisson_lock_queue:{name}`) starts with a thread that ended or crashed. */
  private deadAhead(lock: string): boolean {
    let key = this.queueKeys.get(lock);
    if (key === undefined) {
      this.queueKeys.set(lock, (key = `redisson_lock_queue:{${lock}}`));
      this.queuesRead.add(key);
    }
    for (const node of this.host.masters()) {
      const view = this.host.liveKey(node, key);
      if (view?.type !== 'list' || view.value.length === 0) continue;
      const head = this.m.actorOf(view.value[0] as string);
      if (isThreadActor(head) && this.m.isGone(head)) return true;
    }
    return false;
  }

  /** lock -> the key of its FairLock queue */
  private readonly queueKeys = new Map<string, string>();

  /**
   * The wait-for graph (wait_graph.ts): an edge from each waiter to each owner of the key it waits
   * for (itself too, when it believes it holds that lock already: an upgrade). It is built again
   * only when an event can have changed what it is built from (`graphStale`), and a key change is
   * patched into it (`keyChanged`); the judgement below reads the
   * clock and the pending faults, so it runs after every change as before.
   * L5: a cycle nothing can break: no waiter in it has a deadline or gives its holds back, every
   * key in it stays (no TTL, or renewed by a live watchdog), and no fault is still to fire.
   * L6: a cycle of retrying threads (MultiLock, RedLock, tryLock) each of which has been trying,
   * without success, for LIVELOCK_MS; it stays open, cycle or not at a given moment, until one of
   * them acquires or gives up.
   */
  private checkCycles(probe: LivenessProbe | undefined): void {
    if (!this.m.hasWaiters() && this.livelocked.size === 0 && !this.m.hasOpen('L5')) return;
    const graph = this.waitGraph();
    // A cycle needs an owner that waits itself: most runs (many waiters behind one holder) stop
    // here, and only the open L5s and L6s need a look without one.
    if (!graph.ownerWaits && this.livelocked.size === 0 && !this.m.hasOpen('L5')) return;
    // (nothing is allocated when nothing is found: this runs after every change of a run that
    // keeps a cycle, as incident-multilock-opposite-order does for 60 s)
    let found: Map<string, { holders: Actor[]; cause: string }> | null = null;
    const now = this.host.now();
    for (const { members, lock, holds } of graph.cycles) {
      const forever =
        probe !== undefined && !probe.faultsPending() && this.allWaitForever(members) && this.allStay(holds);
      if (forever)
        (found ??= new Map()).set(lock, {
          holders: members.slice(),
          cause: members.length === 1 ? 'upgrade' : 'cycle',
        });
      else if (members.length > 1 && this.allRetriedFor(members, now)) {
        const req = this.acquiring.get(members[0])!.lock;
        if (!this.m.isOpen('L6', req)) this.m.setOpen('L6', req, members.slice());
        this.livelocked.set(req, members);
      }
    }
    const locks =
      found === null && !this.m.hasOpen('L5')
        ? []
        : new Set([...(found?.keys() ?? []), ...this.m.openLocks('L5')]);
    for (const lock of locks) {
      const f = found?.get(lock);
      this.m.setOpen(
        'L5',
        lock,
        f === undefined ? null : f.holders,
        f === undefined ? {} : { cause: f.cause, waiting: f.holders },
      );
    }
    // An L6 lasts while every thread in it is still in the acquire it was retrying. (forEach may
    // delete the entry it visits; a function made once: no copy of the map, no closure per judgement.)
    if (this.livelocked.size > 0) this.livelocked.forEach(this.endLivelock);
  }

  private readonly endLivelock = (members: readonly Actor[], req: string): void => {
    for (const w of members)
      if (!this.acquiring.has(w)) {
        this.livelocked.delete(req);
        this.m.setOpen('L6', req, null);
        return;
      }
  };

  // (loops, not `every` with an arrow: the judgement runs after every change of a run that keeps a
  // cycle, and each arrow was an allocation)
  private allWaitForever(members: readonly Actor[]): boolean {
    for (const w of members) if (!this.waitsForever(w)) return false;
    return true;
  }

  private allStay(holds: readonly GraphHold[]): boolean {
    for (const h of holds) if (!this.stays(h)) return false;
    return true;
  }

  /** Every member is in an acquire it has waited or retried in for LIVELOCK_MS by `now`. */
  private allRetriedFor(members: readonly Actor[], now: number): boolean {
    for (const w of members) {
      const a = this.acquiring.get(w);
      if (a === undefined || !a.retried || now - a.since < LIVELOCK_MS) return false;
    }
    return true;
  }

  /** The wait-for graph as it is now: the one last built unless something it reads changed. */
  private waitGraph(): WaitGraph {
    const masters = this.host.masters();
    const graph = this.graph;
    if (graph !== null && !this.graphRebuild && sameList(graph.masters, masters)) {
      if (!this.graphStale) return graph;
      this.graphStale = false;
      // (contention-100's waiters come and go behind one lock: each acquire built a graph of its maps)
      if (graph.sameLocks()) {
        graph.rejudge();
        return graph;
      }
    }
    this.graphStale = this.graphRebuild = false;
    this.graph = new KeptWaitGraph({ m: this.m, masters, liveKey: this.liveKey, acquiring: this.acquiring });
    return this.graph;
  }

  private readonly liveKey = (node: string, key: string): KeyView | undefined => this.host.liveKey(node, key);

  private readonly livelocked = new Map<string, readonly Actor[]>();

  /** A hold in a cycle stays: its key has no TTL, or a live watchdog renews it for every owner. */
  private stays(h: GraphHold): boolean {
    if (h.persistent) return true;
    for (const o of h.owners) if (!this.renewing.has(o + PAIR_SEP + h.lock) || this.m.isGone(o)) return false;
    return true;
  }

  /** A waiter whose acquire has no deadline and keeps its partial holds while it waits. */
  private waitsForever(actor: Actor): boolean {
    const a = this.acquiring.get(actor);
    if (a === undefined || RETRYING_TYPES.has(a.type)) return false;
    return a.op === 'lock' || a.op === 'lockInterruptibly';
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
