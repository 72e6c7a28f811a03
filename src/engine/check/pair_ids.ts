/**
 * The "<actor>\0<lock>" ids the monitor and the liveness checker key their per-thread, per-lock
 * facts by, one string per pair. Built anew on every event and key change, each id was a fresh
 * string that every Map look-up flattened and hashed again (at scale, 10,000 locks renewed every
 * 10 s); one string per pair keeps its hash.
 */
export interface Pair {
  readonly id: string;
  readonly actor: string;
  readonly lock: string;
  /** the liveness checker's round in which this pair was last queued for L4 (its l4Pending) */
  l4Round: number;
}

export const PAIR_SEP = '\u0000';

export class PairIds {
  private readonly byActor = new Map<string, Map<string, Pair>>();

  pair(actor: string, lock: string): Pair {
    let m = this.byActor.get(actor);
    if (m === undefined) this.byActor.set(actor, (m = new Map()));
    let p = m.get(lock);
    if (p === undefined) m.set(lock, (p = { id: actor + PAIR_SEP + lock, actor, lock, l4Round: 0 }));
    return p;
  }

  id(actor: string, lock: string): string {
    return this.pair(actor, lock).id;
  }
}
