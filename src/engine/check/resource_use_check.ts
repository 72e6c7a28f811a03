/**
 * V3, the resource's side: every grant of a lock is numbered, every use of the resource remembers
 * when its thread read it, and an accepted write is judged against them (a newer holder that
 * acted, a write made without the lock, a lost update). See monitor.ts for the kinds and causes.
 */
import { NO_LOCK, type Actor, type TraceEventOf, type Violation } from '../trace/types';
import type { MonitorHost } from './monitor';
import type { Grant, PendingUse } from './monitor_parts';

const NONE: readonly never[] = [];

export class ResourceUseCheck {
  /** lock -> actor -> its latest grant */
  private readonly grants = new Map<string, Map<Actor, Grant>>();
  private grantSeq = 0;
  /** lock -> the seq of its latest grant */
  private readonly latestGrant = new Map<string, number>();
  /** lock -> actor -> when it last read the resource under that lock */
  private readonly reads = new Map<string, Map<Actor, number>>();
  /** accepted write number (resource.use `write`) -> its writer, and whether it was reported as V3 */
  private readonly writes = new Map<number, { actor: Actor; reported: boolean }>();

  constructor(
    private readonly host: MonitorHost,
    /** the monitor's list, where a V3 is added as it is found */
    private readonly violations: Violation[],
    /** whether the thread's last request of the lock was a read lock (shared: no V3 "stale") */
    private readonly readLocked: (actor: Actor, lock: string) => boolean,
  ) {}

  /** A new (not reentrant) grant of `lock` to `actor`, now. */
  granted(lock: string, actor: Actor): void {
    let g = this.grants.get(lock);
    if (g === undefined) this.grants.set(lock, (g = new Map()));
    g.set(actor, { seq: ++this.grantSeq, t: this.host.now() });
    this.latestGrant.set(lock, this.grantSeq);
  }

  /** A `resource.use`: judges an accepted write (V3), then remembers the read and the write. */
  onUse(ev: TraceEventOf<'resource.use'>, actor: Actor): void {
    const lock = ev.lock ?? null;
    if (ev.accepted) {
      // (most uses have neither: no arrays are made for them)
      const pending =
        ev.pending === undefined || ev.pending.length === 0
          ? NONE
          : ev.pending.filter((p) => p.actor !== actor);
      const erasedBy =
        ev.erased === undefined || ev.erased.length === 0
          ? NONE
          : ev.erased.map((w) => this.writes.get(w)).filter((w) => w !== undefined);
      let cause: string | null = null;
      let wronged: Actor[] = [];
      const exclusive = lock !== null && !this.readLocked(actor, lock);
      if (exclusive) {
        wronged = this.newerHoldersThatActed(actor, lock, pending);
        if (wronged.length > 0) cause = 'stale';
      } else if (erasedBy.length > 0 || pending.length > 0) {
        cause = 'unlocked';
        wronged = [...erasedBy.map((w) => w.actor), ...pending.map((p) => p.actor)];
      }
      if (cause === null && erasedBy.some((w) => !w.reported)) {
        cause = 'lost-update';
        wronged = erasedBy.filter((w) => !w.reported).map((w) => w.actor);
      }
      if (ev.write !== undefined) this.writes.set(ev.write, { actor, reported: cause !== null });
      if (cause !== null) this.reportV3(actor, lock ?? NO_LOCK, cause, wronged);
    }
    if (lock !== null) {
      let r = this.reads.get(lock);
      if (r === undefined) this.reads.set(lock, (r = new Map()));
      r.set(actor, ev.readAt);
    }
  }

  /**
   * Threads granted `lock` after `actor`'s latest grant that have since used the resource under
   * it: a read is enough, whether its write is done or still to come (`pending`).
   */
  private newerHoldersThatActed(actor: Actor, lock: string, pending: readonly PendingUse[]): Actor[] {
    const grants = this.grants.get(lock);
    if (grants === undefined) return [];
    const mine = grants.get(actor)?.seq ?? 0;
    // (the common case: the user holds the lock's latest grant, so no grant is newer)
    if (mine === this.latestGrant.get(lock)) return [];
    const reads = this.reads.get(lock);
    const out: Actor[] = [];
    // (forEach: an entries() walk builds a pair per thread, at every accepted use)
    grants.forEach((g, other) => {
      if (other === actor || g.seq <= mine) return;
      const read = reads?.get(other);
      if (
        (read !== undefined && read >= g.t) ||
        pending.some((p) => p.actor === other && p.lock === lock && p.readAt >= g.t)
      )
        out.push(other);
    });
    return out;
  }

  private reportV3(actor: Actor, lock: string, cause: string, wronged: readonly Actor[]): void {
    const holders = [actor, ...[...new Set(wronged)].filter((a) => a !== actor).sort()];
    const t = this.host.now();
    const v: Violation = { kind: 'V3', lock, from: t, to: t, holders, cause };
    this.violations.push(v);
    this.host.emit('violation.start', { violation: 'V3', lock, holders: holders.slice(), cause });
    this.host.emit('violation.end', { violation: 'V3', lock, holders: holders.slice(), cause });
  }
}
