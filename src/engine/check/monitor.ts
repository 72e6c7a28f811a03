/**
 * The safety invariants, checked while the simulation runs (VOPR style) from the same events and
 * key deltas the trace records. The simulator is omniscient, so each is ground truth
 * (reference/failure-scenarios.md §0, §8):
 *
 *   V1 belief overlap: two threads each believe they hold the same lock, from `lock.acquired`
 *      until `lock.released` (holdCount 0), a failed unlock (`lock.error` op unlock) or their
 *      client's crash. Read locks share: only an overlap involving a non-read hold counts.
 *   V2 lease overlap: two owners have live server-side leases of the same lock on nodes some client
 *      treats as master. Owners are read from the keyspace after every change: the fields of a
 *      Redisson lock hash (all readers of a read-mode hash count as one shared owner), the value
 *      of a naive string lock.
 *   V3 effect violation: the resource accepted a write from a thread that is not, at that moment,
 *      the server-side owner of the lock it used, on the master its client talks to.
 *
 * A violation opens with `violation.start` and closes with `violation.end` (fields: violation =
 * the kind V1/V2/V3, lock, holders); V3 is instantaneous (both events at the same t).
 */
import type { Actor, KeyView, TraceEvent, Violation, ViolationKind } from '../trace';
import type { EventFields } from '../sim/api';

export interface MonitorHost {
  emit(kind: 'violation.start' | 'violation.end', fields: EventFields): void;
  now(): number;
  liveKey(node: string, key: string): KeyView | undefined;
  /** nodes some client currently treats as master */
  masters(): readonly string[];
  /** the node a thread's client treats as master */
  masterOf(actor: Actor): string;
}

interface Hold {
  readOnly: boolean;
}

/** The field Redisson's read/write lock hash uses for its mode, not an owner. */
const RW_MODE_FIELD = 'mode';
const SHARED_READERS = '(readers)';

export class SafetyMonitor {
  readonly violations: Violation[] = [];
  private readonly open = new Map<string, Violation>();
  /** lock -> actor -> hold */
  private readonly beliefs = new Map<string, Map<Actor, Hold>>();
  /** Redis key -> lock name, for keys that hold a lock */
  private readonly lockKeys = new Map<string, string>();
  /** lock -> Redis key */
  private readonly keyOfLock = new Map<string, string>();
  /** server-side owner id -> actor */
  private readonly ownerActor = new Map<string, Actor>();
  /** actor \0 lock -> server-side owner id */
  private readonly actorOwner = new Map<string, string>();
  /** actor \0 lock -> lock type of the last request */
  private readonly lockType = new Map<string, string>();

  constructor(private readonly host: MonitorHost) {}

  onEvent(ev: TraceEvent): void {
    switch (ev.kind) {
      case 'lock.request':
      case 'lock.acquired':
        this.learn(ev);
        if (ev.kind === 'lock.acquired') this.believe(ev.actor, ev.lock, true);
        return;
      case 'lock.released':
        if (Number(ev.holdCount ?? 0) <= 0) this.believe(ev.actor, ev.lock, false);
        return;
      case 'lock.error':
        if (ev.op === 'unlock') this.believe(ev.actor, ev.lock, false);
        return;
      case 'client.crash': {
        const client = typeof ev.client === 'string' ? ev.client : ev.actor;
        for (const [lock, holders] of this.beliefs) {
          let changed = false;
          for (const a of [...holders.keys()]) {
            if (a.slice(0, a.indexOf(':')) === client) changed = holders.delete(a) || changed;
          }
          if (changed) this.checkV1(lock);
        }
        return;
      }
      case 'resource.use':
        if (ev.accepted === true && typeof ev.lock === 'string' && ev.actor !== undefined)
          this.checkV3(ev.actor, ev.lock);
        return;
    }
  }

  /** A key on `node` changed (command, expiry, crash). */
  onKey(node: string, key: string | null): void {
    if (key === null) {
      for (const lock of this.keyOfLock.keys()) this.checkV2(lock);
      return;
    }
    const lock = this.lockKeys.get(key);
    if (lock !== undefined && this.host.masters().includes(node)) this.checkV2(lock);
  }

  /** Re-derives V2 for every known lock (after the set of masters changed). */
  recheckLeases(): void {
    for (const lock of this.keyOfLock.keys()) this.checkV2(lock);
  }

  /** Closes nothing: open violations stay open (to = null) when the run ends. */
  finish(): Violation[] {
    return this.violations;
  }

  private learn(ev: TraceEvent): void {
    const lock = ev.lock;
    if (typeof lock !== 'string') return;
    const key = typeof ev.key === 'string' ? ev.key : lock;
    if (!this.keyOfLock.has(lock)) {
      this.keyOfLock.set(lock, key);
      this.lockKeys.set(key, lock);
    }
    if (ev.actor === undefined) return;
    const id = `${ev.actor}\u0000${lock}`;
    if (typeof ev.type === 'string') this.lockType.set(id, ev.type);
    if (typeof ev.owner === 'string') {
      this.ownerActor.set(ev.owner, ev.actor);
      this.actorOwner.set(id, ev.owner);
    }
  }

  private believe(actor: Actor | undefined, lock: string | undefined, holds: boolean): void {
    if (actor === undefined || typeof lock !== 'string') return;
    let holders = this.beliefs.get(lock);
    if (holders === undefined) {
      if (!holds) return;
      holders = new Map();
      this.beliefs.set(lock, holders);
    }
    if (holds) holders.set(actor, { readOnly: this.lockType.get(`${actor}\u0000${lock}`) === 'ReadLock' });
    else if (!holders.delete(actor)) return;
    this.checkV1(lock);
  }

  private checkV1(lock: string): void {
    const holders = this.beliefs.get(lock)!;
    let exclusive = false;
    for (const h of holders.values()) if (!h.readOnly) exclusive = true;
    this.setOpen('V1', lock, holders.size >= 2 && exclusive ? [...holders.keys()] : null);
  }

  private checkV2(lock: string): void {
    const key = this.keyOfLock.get(lock)!;
    // Distinct holders, not distinct fields: one thread may own several fields (write + read).
    const holders = new Set<string>();
    for (const node of this.host.masters())
      for (const o of leaseOwners(this.host.liveKey(node, key))) holders.add(this.ownerActor.get(o) ?? o);
    this.setOpen('V2', lock, holders.size >= 2 ? [...holders] : null);
  }

  private checkV3(actor: Actor, lock: string): void {
    const key = this.keyOfLock.get(lock) ?? lock;
    const owner = this.actorOwner.get(`${actor}\u0000${lock}`);
    const current = leaseOwners(this.host.liveKey(this.host.masterOf(actor), key));
    // Without the owner id the client model did not say what it stored: nothing to judge by.
    if (owner === undefined || current.includes(owner)) return;
    const holders = [actor, ...current.map((o) => this.ownerActor.get(o) ?? o).filter((a) => a !== actor)];
    const t = this.host.now();
    const v: Violation = { kind: 'V3', lock, from: t, to: t, holders };
    this.violations.push(v);
    this.host.emit('violation.start', { violation: 'V3', lock, holders });
    this.host.emit('violation.end', { violation: 'V3', lock, holders });
  }

  /** Opens, extends or closes the violation of `kind` on `lock`; `holders` null means none now. */
  private setOpen(kind: ViolationKind, lock: string, holders: Actor[] | null): void {
    const id = `${kind}\u0000${lock}`;
    const cur = this.open.get(id);
    if (holders === null) {
      if (cur === undefined) return;
      cur.to = this.host.now();
      this.open.delete(id);
      this.host.emit('violation.end', { violation: kind, lock, holders: cur.holders.slice() });
      return;
    }
    holders.sort();
    if (cur === undefined) {
      const v: Violation = { kind, lock, from: this.host.now(), to: null, holders };
      this.open.set(id, v);
      this.violations.push(v);
      this.host.emit('violation.start', { violation: kind, lock, holders: holders.slice() });
      return;
    }
    for (const h of holders) if (!cur.holders.includes(h)) cur.holders.push(h);
    cur.holders.sort();
  }
}

/** The server-side owners a lock key's current value names. */
export function leaseOwners(view: KeyView | undefined): string[] {
  if (view === undefined) return [];
  if (view.type === 'string') return [view.value as string];
  if (view.type !== 'hash') return [];
  const fields = view.value as [string, string][];
  const owners: string[] = [];
  let read = false;
  for (const [f, v] of fields) {
    if (f === RW_MODE_FIELD) read = v === 'read';
    else owners.push(f);
  }
  return read && owners.length ? [SHARED_READERS] : owners;
}
