/**
 * The safety invariants, checked while the simulation runs (VOPR style) from the same events and
 * key deltas the trace records. The simulator is omniscient, so each is ground truth
 * (docs/trace-format.md, "Violations"):
 *
 *   V1 belief overlap: two threads each believe they hold the same lock, from `lock.acquired`
 *      until `lock.released` (holdCount 0), a failed unlock (`lock.error` op unlock), the end of
 *      the thread (`thread.done`, e.g. by an uncaught exception) or their client's crash. Read
 *      locks share: only an overlap involving a non-read hold counts.
 *   V2 lease overlap: two owners have live server-side leases of the same lock on nodes some client
 *      treats as master. Owners are read from the keyspace after every change: the fields of a
 *      Redisson lock hash (all readers of a read-mode hash count as one shared owner), the value
 *      of a naive string lock.
 *      Holders are threads: an owner id is mapped to the thread that named it in `lock.request` /
 *      `lock.acquired` (a Redisson owner "<uuid>:<tid>[:write]" also by its client's uuid), and a
 *      violation opened before the mapping was known is rewritten (de-duplicated) once it is.
 *   V3 effect violation (§0: the resource accepts an operation from a stale holder after a newer
 *      holder has acted): judged at every accepted `resource.use` (resource/ProtectedResource.ts
 *      says which writes it erased and which uses are between read and write), with `cause`:
 *        stale     the writer believes it holds `lock` exclusively, but a thread that acquired
 *                  `lock` after the writer's acquisition has already used the resource (read it,
 *                  or read and wrote): the write a fencing token ordered by acquisition would
 *                  refuse. Leases are not consulted, so an expired lease nobody took over is not
 *                  V3, and a split-brain writer whose lease lives on on its old master is.
 *        unlocked  the writer holds no lock (`lock` NO_LOCK) or only a shared read lock, and its
 *                  write erased another write made since its read (a lost update) or lands
 *                  while another use is between its read and its write (that use will erase it).
 *        lost-update  any other accepted write that erased an update not already reported (e.g.
 *                  two threads guarding the resource with different locks).
 *      holders: the writer first, then the threads it wronged (sorted).
 *
 * Beside safety, one liveness property here (L2–L7 live in liveness.ts, which reads the facts
 * gathered here):
 *   L1 stuck lock: a thread waits for `lock` (from `lock.wait` until it acquires, gives up, fails,
 *      ends or crashes) while the lock's key on a node some client treats as master has no TTL and
 *      every owner the key names is gone (its thread ended or its client crashed). Nothing can
 *      free such a key: no unlock will come and it never expires, so the waiters wait forever.
 *      A naive string lock's owner is the thread whose SETNX / SET NX created the key: its value
 *      (often the constant "1") cannot tell threads apart, and a thread between its own SETNX and
 *      EXPIRE must count as the live owner it is.
 *      holders: the gone owners first, then the waiting threads (each group sorted); `waiting`
 *      lists the waiters alone.
 *      It closes when the key is freed, gets a TTL or a live owner, or nobody waits any more.
 *
 * A violation opens with `violation.start` and closes with `violation.end` (fields: violation =
 * the kind V1/V2/V3/L1, lock, holders; V3 also cause); V3 is instantaneous (both events at the same t).
 */
import {
  type Actor,
  type EventFields,
  type KeyView,
  type TraceEvent,
  type TraceEventOf,
  type Violation,
  type ViolationKind,
} from '../trace/types';
import { clientOf, isThreadActor, threadActor } from '../trace/actors';
import { LivenessChecker, type LivenessProbe } from './liveness';
import { PairIds } from './pair_ids';
import { ResourceUseCheck } from './resource_use_check';
import {
  extra,
  leaseOwners,
  REDISSON_OWNER,
  RW_MODE_FIELD,
  type Hold,
  type ViolationExtra,
} from './monitor_parts';

export { leaseOwners, type ViolationExtra } from './monitor_parts';

/** an empty list shared by the uses without pending or erased writes (never written to) */
/** someOwner's test for hasOwner, made once (a closure per call before: it runs after every change) */
const anyOwner = (): boolean => true;

export interface MonitorHost {
  emit<K extends 'violation.start' | 'violation.end'>(kind: K, fields: EventFields<K>): void;
  now(): number;
  liveKey(node: string, key: string): KeyView | undefined;
  /** nodes some client currently treats as master */
  masters(): readonly string[];
  /** what the kernel and the runner know of the future (L2, L5); without it those kinds stay silent */
  probe?: LivenessProbe;
}

export class SafetyMonitor {
  readonly violations: Violation[] = [];
  /** kind -> lock -> its open violation (a map per kind: no key string built on every check) */
  private readonly open = new Map<ViolationKind, Map<string, Violation>>();
  /** lock -> actor -> hold */
  private readonly beliefs = new Map<string, Map<Actor, Hold>>();
  /** Redis key -> lock name, for keys that hold a lock */
  private readonly lockKeys = new Map<string, string>();
  /** lock -> Redis key */
  private readonly keyOfLock = new Map<string, string>();
  /** server-side owner id -> actor */
  private readonly ownerActor = new Map<string, Actor>();
  /** actor \0 lock -> lock type of the last request */
  private readonly lockType = new Map<string, string>();
  /** Redisson client uuid -> client id, learnt from the owners threads name */
  private readonly clientOfUuid = new Map<string, string>();
  /** lock -> the threads waiting for it (L1) */
  private readonly waiters = new Map<string, Set<Actor>>();
  /** threads that ended and clients that crashed: owners that will never unlock (L1) */
  private readonly doneThreads = new Set<Actor>();
  private readonly crashedClients = new Set<string>();
  /** naive string lock key -> the thread whose SETNX / SET NX created it (its owner, L1) */
  private readonly keyWriter = new Map<string, Actor>();
  private readonly liveness: LivenessChecker;
  /** V3: the resource's reads and writes against the grants (resource_use_check.ts) */
  private readonly uses: ResourceUseCheck;
  /** one "<actor>\0<lock>" string per pair (the keys of the per-thread, per-lock maps here and in liveness) */
  readonly pairs = new PairIds();

  constructor(private readonly host: MonitorHost) {
    this.liveness = new LivenessChecker(host, this);
    this.uses = new ResourceUseCheck(
      host,
      this.violations,
      (actor, lock) => this.lockType.get(this.pairs.id(actor, lock)) === 'ReadLock',
    );
  }

  onEvent(ev: TraceEvent): void {
    this.onEventSafety(ev);
    this.onEventLiveness(ev);
    this.liveness.onEvent(ev);
  }

  /** After every kernel task, when the world is consistent: the kinds judged on what is still to come. */
  settle(): void {
    this.liveness.settle();
  }

  /** The threads waiting for `lock` (from lock.wait until they acquire, give up, fail, end or crash). */
  waitersOf(lock: string): ReadonlySet<Actor> | undefined {
    return this.waiters.get(lock);
  }

  /** Every lock some thread waits for. */
  waitedLocks(): IterableIterator<string> {
    return this.waiters.keys();
  }

  /** The Redis key of a lock (its name unless a request said otherwise). */
  keyOf(lock: string): string {
    return this.keyOfLock.get(lock) ?? lock;
  }

  /** The lock a Redis key holds, if a request named it. */
  lockOfKey(key: string): string | undefined {
    return this.lockKeys.get(key);
  }

  /** Whether `actor` believes it holds `lock` right now. */
  believes(actor: Actor, lock: string): boolean {
    return this.beliefs.get(lock)?.has(actor) === true;
  }

  /** Whether anyone believes it holds `lock` right now. */
  anyBelieves(lock: string): boolean {
    const b = this.beliefs.get(lock);
    return b !== undefined && b.size > 0;
  }

  /**
   * The threads the key's current value names as owners, one per field (read holders apart, not
   * collapsed as V2 counts them); a naive string lock's owner is the thread that created it.
   */
  ownersOfKey(view: KeyView | undefined): Actor[] {
    if (view === undefined) return [];
    if (view.type === 'string') {
      const w = this.keyWriter.get(view.key);
      return [w ?? this.actorOf(view.value as string)];
    }
    if (view.type !== 'hash') return [];
    const out: Actor[] = [];
    for (const [f] of view.value as [string, string][]) if (f !== RW_MODE_FIELD) out.push(this.actorOf(f));
    return out;
  }

  /** ownersOfKey(view).length > 0, without the list (asked after every change of a waited-for key). */
  hasOwner(view: KeyView | undefined): boolean {
    return view !== undefined && this.someOwner(view, anyOwner);
  }

  /** Whether an owner ownersOfKey(view) would list passes `test` (without the list). */
  someOwner(view: KeyView, test: (owner: Actor) => boolean): boolean {
    if (view.type === 'string')
      return test(this.keyWriter.get(view.key) ?? this.actorOf(view.value as string));
    if (view.type !== 'hash') return false;
    const fields = view.value as [string, string][];
    for (let i = 0; i < fields.length; i++)
      if (fields[i][0] !== RW_MODE_FIELD && test(this.actorOf(fields[i][0]))) return true;
    return false;
  }

  /** Whether a violation of `kind` on `lock` is open. */
  isOpen(kind: ViolationKind, lock: string): boolean {
    return this.openOf(kind).has(lock);
  }

  /** Whether some lock has an open violation of `kind` (asked after every task: no iterator). */
  hasOpen(kind: ViolationKind): boolean {
    return (this.open.get(kind)?.size ?? 0) > 0;
  }

  /** Whether any thread waits for a lock. */
  hasWaiters(): boolean {
    return this.waiters.size > 0;
  }

  /** The locks with an open violation of `kind`. */
  openLocks(kind: ViolationKind): IterableIterator<string> {
    return this.openOf(kind).keys();
  }

  private onEventSafety(ev: TraceEvent): void {
    switch (ev.kind) {
      case 'lock.request':
      case 'lock.acquired':
        this.learn(ev);
        if (ev.kind === 'lock.acquired') {
          this.grant(ev);
          this.believe(ev.actor, ev.lock, true);
        }
        return;
      case 'unlock.request':
      case 'lock.released':
        // The critical section ends when the thread calls unlock, not when the reply comes back.
        if (ev.holdCount <= 0) this.believe(ev.actor, ev.lock, false);
        this.setReleasing(ev.actor, ev.lock, ev.kind === 'unlock.request' && ev.holdCount <= 0);
        return;
      case 'lock.error':
        if (ev.op === 'unlock') {
          this.believe(ev.actor, ev.lock, false);
          this.setReleasing(ev.actor, ev.lock, false);
        }
        return;
      case 'client.crash': {
        this.forget((a) => clientOf(a) === ev.client);
        this.stopReleasing((a) => clientOf(a) === ev.client);
        return;
      }
      case 'thread.done':
        // A thread that ended (normally or by an uncaught exception) runs no critical section any
        // more, whatever it still holds: its leases, if they live on, are V2's business.
        if (ev.actor !== undefined) {
          const actor = ev.actor;
          this.forget((a) => a === actor);
          this.stopReleasing((a) => a === actor);
        }
        return;
      case 'resource.use':
        this.uses.onUse(ev, ev.actor);
        return;
      case 'cmd':
        this.learnWriter(ev);
        return;
    }
  }

  /** A thread's SETNX / SET … NX that created a key: that thread owns the string lock it is. */
  private learnWriter(ev: TraceEventOf<'cmd'>): void {
    const { argv, reply, actor } = ev;
    if (!isThreadActor(actor) || argv.length < 3) return;
    const cmd = argv[0].toUpperCase();
    const created =
      (cmd === 'SETNX' && reply === 1) ||
      (cmd === 'SET' &&
        argv.slice(3).some((a) => a.toUpperCase() === 'NX') &&
        typeof reply === 'object' &&
        reply !== null &&
        !Array.isArray(reply) &&
        'status' in reply);
    if (!created || this.keyWriter.get(argv[1]) === actor) return;
    this.keyWriter.set(argv[1], actor);
    // (the owner of a string lock is its writer: the wait-for graph may name another owner now)
    this.liveness.markGraphStale();
  }

  /** A key on `node` changed (command, expiry, crash). */
  onKey(node: string, key: string | null): void {
    if (key === null) {
      for (const lock of this.keyOfLock.keys()) this.checkV2(lock);
      this.checkStuck();
      this.liveness.onKey(null);
      return;
    }
    this.liveness.keyChanged(node, key);
    const lock = this.lockKeys.get(key);
    if (lock !== undefined && this.host.masters().includes(node)) {
      this.checkV2(lock);
      if (this.waiters.has(lock)) this.checkL1(lock);
      this.liveness.onKey(lock);
    } else if (this.waiters.has(key)) this.liveness.onKey(key);
  }

  /** Re-derives V2 and L1 for every known lock (after the set of masters changed). */
  recheckLeases(): void {
    for (const lock of this.keyOfLock.keys()) this.checkV2(lock);
    this.checkStuck();
    this.liveness.onKey(null);
  }

  /** Who waits for what, and which owners are gone for good (L1). */
  private onEventLiveness(ev: TraceEvent): void {
    const { actor, lock } = ev;
    switch (ev.kind) {
      case 'lock.wait':
        if (actor === undefined || typeof lock !== 'string') return;
        if (!this.waiters.has(lock)) this.waiters.set(lock, new Set());
        if (this.waiters.get(lock)!.has(actor)) {
          // a retry's wait for the lock it was waiting for: the wait-for graph is unchanged
          this.checkL1(lock);
          return;
        }
        this.waiters.get(lock)!.add(actor);
        this.liveness.markGraphStale();
        this.checkL1(lock);
        return;
      case 'lock.acquired':
      case 'lock.failed':
      case 'lock.error':
        // A MultiLock waits on a sub-lock but acquires under its own name: stop waiting on all.
        if (actor !== undefined) this.stopWaiting(actor);
        return;
      case 'thread.done':
        if (actor === undefined) return;
        this.doneThreads.add(actor);
        this.stopWaiting(actor);
        // an owner gone for good can make a lock stuck that nobody stopped waiting for
        this.checkStuck();
        return;
      case 'client.crash': {
        const client = typeof ev.client === 'string' ? ev.client : actor;
        if (client === undefined) return;
        this.crashedClients.add(client);
        this.stopWaiting((a) => clientOf(a) === client);
        this.checkStuck();
        return;
      }
    }
  }

  /**
   * Only the locks whose waiters changed can change their L1 (this runs on every acquire).
   * `gone`: one thread (the common case, no copy of the waiters), or a test on each waiter.
   */
  private stopWaiting(gone: Actor | ((actor: Actor) => boolean)): void {
    for (const [lock, set] of this.waiters) {
      let changed = false;
      if (typeof gone === 'string') changed = set.delete(gone);
      else for (const a of [...set]) if (gone(a)) changed = set.delete(a) || changed;
      if (!changed) continue;
      if (set.size === 0) this.waiters.delete(lock);
      this.checkL1(lock);
    }
  }

  /** Re-derives L1 for every lock that has or had waiters. */
  private checkStuck(): void {
    const locks = new Set(this.waiters.keys());
    for (const lock of this.openOf('L1').keys()) locks.add(lock);
    for (const lock of locks) this.checkL1(lock);
  }

  private checkL1(lock: string): void {
    const waiters = this.waiters.get(lock);
    const key = this.keyOfLock.get(lock) ?? lock;
    let owners: Actor[] | null = waiters !== undefined && waiters.size > 0 ? [] : null;
    for (const node of this.host.masters()) {
      if (owners === null) break;
      const view = this.host.liveKey(node, key);
      if (view === undefined) continue;
      const gone = view.expireAt === null ? this.gateOwners(view) : [];
      if (gone.length === 0 || !gone.every((a) => this.isGone(a))) owners = null;
      else owners.push(...gone);
    }
    if (owners === null || owners.length === 0) {
      // This runs on every change of a waited-for key: the sorted waiters are only built when stuck.
      this.setOpen('L1', lock, null);
      return;
    }
    const waiting = [...waiters!].sort();
    this.setOpen('L1', lock, [...[...new Set(owners)].sort(), ...waiting], { waiting });
  }

  /** L1's owners of a key: as V2 counts them, but a naive key's owner is the thread that created it. */
  private gateOwners(view: KeyView): Actor[] {
    if (view.type === 'string') return this.ownersOfKey(view);
    return leaseOwners(view).map((o) => this.actorOf(o));
  }

  /** An owner that will never unlock: its thread ended or its client crashed. */
  isGone(actor: Actor): boolean {
    if (!isThreadActor(actor)) return false;
    return this.doneThreads.has(actor) || this.crashedClients.has(clientOf(actor));
  }

  /** Closes nothing: open violations stay open (to = null) when the run ends. */
  finish(): Violation[] {
    return this.violations;
  }

  private learn(ev: TraceEventOf<'lock.request' | 'lock.acquired'>): void {
    const lock = ev.lock;
    const key = ev.key ?? lock;
    if (!this.keyOfLock.has(lock)) {
      this.keyOfLock.set(lock, key);
      this.lockKeys.set(key, lock);
    }
    const id = this.pairs.id(ev.actor, lock);
    if (ev.kind === 'lock.request') this.lockType.set(id, ev.type);
    // A RedLock over several Redisson instances names one owner per instance (`owners`).
    for (const owner of [ev.owner, ...(ev.owners ?? [])]) {
      if (owner === undefined) continue;
      const known = this.ownerActor.get(owner);
      this.ownerActor.set(owner, ev.actor);
      const m = REDISSON_OWNER.exec(owner);
      if (m !== null && threadActor(clientOf(ev.actor), m[2]) === ev.actor)
        this.clientOfUuid.set(m[1], clientOf(ev.actor));
      if (known !== ev.actor) this.renameHolders();
    }
  }

  /** The thread a server-side owner id stands for (the id itself when no thread named it). */
  actorOf(owner: string): string {
    const a = this.ownerActor.get(owner);
    if (a !== undefined) return a;
    const m = REDISSON_OWNER.exec(owner);
    const client = m === null ? undefined : this.clientOfUuid.get(m[1]);
    return client === undefined ? owner : threadActor(client, m![2]);
  }

  /** An owner id just got its thread: V2 holders that still show raw ids are rewritten. */
  private renameHolders(): void {
    for (const v of this.violations) {
      if (v.kind !== 'V2') continue;
      const renamed = [...new Set(v.holders.map((h) => this.actorOf(h)))].sort();
      if (renamed.length !== v.holders.length || renamed.some((h, i) => h !== v.holders[i])) {
        v.holders.length = 0;
        v.holders.push(...renamed);
      }
    }
  }

  private grant(ev: TraceEventOf<'lock.acquired'>): void {
    const { actor, lock } = ev;
    // A reentrant hold (holdCount > 1) is not a new grant.
    if (ev.holdCount > 1) return;
    this.uses.granted(lock, actor);
  }

  /** Drops the beliefs of every thread `gone` says is gone. */
  private forget(gone: (actor: Actor) => boolean): void {
    for (const [lock, holders] of this.beliefs) {
      let changed = false;
      for (const a of [...holders.keys()]) if (gone(a)) changed = holders.delete(a) || changed;
      if (changed) this.checkV1(lock);
    }
  }

  private believe(actor: Actor, lock: string, holds: boolean): void {
    let holders = this.beliefs.get(lock);
    if (holders === undefined) {
      if (!holds) return;
      holders = new Map();
      this.beliefs.set(lock, holders);
    }
    if (holds) holders.set(actor, { readOnly: this.lockType.get(this.pairs.id(actor, lock)) === 'ReadLock' });
    else if (!holders.delete(actor)) return;
    this.checkV1(lock);
  }

  private checkV1(lock: string): void {
    const holders = this.beliefs.get(lock)!;
    let exclusive = false;
    for (const h of holders.values()) if (!h.readOnly) exclusive = true;
    this.setOpen('V1', lock, holders.size >= 2 && exclusive ? [...holders.keys()] : null);
  }

  /**
   * The threads giving `lock` back: from their unlock call to its outcome. Their leases still live
   * while the unlock goes from node to node (a RedLock's masters one after another from 3.15.1),
   * but they no longer claim the lock: V2 does not count them, as V1 does not.
   */
  private readonly releasing = new Map<string, Set<Actor>>();

  private setReleasing(actor: Actor, lock: string, on: boolean): void {
    const set = this.releasing.get(lock);
    if (on === (set?.has(actor) ?? false)) return;
    if (!on) set!.delete(actor);
    else if (set !== undefined) set.add(actor);
    else this.releasing.set(lock, new Set([actor]));
    if (this.keyOfLock.has(lock)) this.checkV2(lock);
  }

  /** Ends the releasing of every thread `gone` says is gone (its leases count again, if they live). */
  private stopReleasing(gone: (actor: Actor) => boolean): void {
    for (const [lock, set] of this.releasing)
      for (const a of [...set]) if (gone(a)) this.setReleasing(a, lock, false);
  }

  private checkV2(lock: string): void {
    const key = this.keyOfLock.get(lock)!;
    const releasing = this.releasing.get(lock);
    // Distinct holders, not distinct fields: one thread may own several fields (write + read).
    // (The set is built only once a second holder shows up: this runs on every key change.)
    let first: string | undefined;
    let holders: Set<string> | null = null;
    for (const node of this.host.masters())
      for (const o of leaseOwners(this.host.liveKey(node, key))) {
        const a = this.actorOf(o);
        if (releasing !== undefined && releasing.has(a)) continue;
        if (first === undefined) first = a;
        else if (a !== first) (holders ??= new Set([first])).add(a);
      }
    this.setOpen('V2', lock, holders === null ? null : [...holders]);
  }

  private openOf(kind: ViolationKind): Map<string, Violation> {
    let m = this.open.get(kind);
    if (m === undefined) this.open.set(kind, (m = new Map()));
    return m;
  }

  /**
   * Opens, extends or closes the violation of `kind` on `lock`; `holders` null means none now.
   * `more.waiting` (L1): the waiters among the holders, which then keep their order (owners first);
   * `ordered`: keep the holders in the order given (L7: the starved waiter first). Other extra
   * fields are set when it opens (`cause`) or kept up to date (L4's counts).
   */
  setOpen(
    kind: ViolationKind,
    lock: string,
    holders: Actor[] | null,
    more: ViolationExtra = {},
    ordered = false,
  ): void {
    const open = this.openOf(kind);
    const cur = open.get(lock);
    if (holders === null) {
      if (cur === undefined) return;
      cur.to = this.host.now();
      open.delete(lock);
      this.host.emit('violation.end', { violation: kind, lock, holders: cur.holders.slice(), ...extra(cur) });
      return;
    }
    const keepOrder = ordered || more.waiting !== undefined;
    if (!keepOrder) holders.sort();
    if (cur === undefined) {
      const v: Violation = { kind, lock, from: this.host.now(), to: null, holders };
      if (more.cause !== undefined) v.cause = more.cause;
      if (more.waiting !== undefined) v.waiting = more.waiting.slice();
      if (more.serverHolds !== undefined) v.serverHolds = more.serverHolds;
      if (more.clientHolds !== undefined) v.clientHolds = more.clientHolds;
      open.set(lock, v);
      this.violations.push(v);
      this.host.emit('violation.start', { violation: kind, lock, holders: holders.slice(), ...extra(v) });
      return;
    }
    for (const h of holders) if (!cur.holders.includes(h)) cur.holders.push(h);
    if (!keepOrder) cur.holders.sort();
    if (more.waiting !== undefined)
      for (const w of more.waiting) if (!cur.waiting!.includes(w)) cur.waiting!.push(w);
    if (more.serverHolds !== undefined) cur.serverHolds = more.serverHolds;
    if (more.clientHolds !== undefined) cur.clientHolds = more.clientHolds;
  }
}
