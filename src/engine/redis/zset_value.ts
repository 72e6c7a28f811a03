/**
 * A sorted set: members ordered by (score, member bytes) like Redis's skiplist (t_zset.c
 * `zslInsert` compares scores, then memcmp of the members), plus a member → score map.
 * A sorted array is plenty for the sizes a lock simulation sees (fair-lock queues).
 */
export class ZSet {
  readonly scores = new Map<string, number>();
  private order: string[] = [];

  get size(): number {
    return this.order.length;
  }

  /** Members in ascending (score, member) order. Do not mutate. */
  members(): readonly string[] {
    return this.order;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Inserts or moves `member` to `score`. */
  set(member: string, score: number): void {
    const old = this.scores.get(member);
    if (old !== undefined) {
      if (old === score) return;
      this.order.splice(this.indexOf(member, old), 1);
    }
    this.scores.set(member, score);
    this.order.splice(this.lowerBound(score, member), 0, member);
  }

  delete(member: string): boolean {
    const old = this.scores.get(member);
    if (old === undefined) return false;
    this.order.splice(this.indexOf(member, old), 1);
    this.scores.delete(member);
    return true;
  }

  /** 0-based rank in ascending order, or -1. */
  rank(member: string): number {
    const s = this.scores.get(member);
    return s === undefined ? -1 : this.indexOf(member, s);
  }

  /** Index of the first member whose score is >= min (or > min when exclusive). */
  firstAtOrAbove(min: number, exclusive: boolean): number {
    return this.countBelow((s) => s < min || (exclusive && s === min));
  }

  /** Index just past the last member whose score is <= max (or < max when exclusive). */
  endAtOrBelow(max: number, exclusive: boolean): number {
    return this.countBelow((s) => s < max || (!exclusive && s === max));
  }

  /** How many members, from the lowest score, pass `below` (true up to some score, then false). */
  private countBelow(below: (score: number) => boolean): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (below(this.scores.get(this.order[mid])!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  clone(): ZSet {
    const z = new ZSet();
    for (const [m, s] of this.scores) z.scores.set(m, s);
    z.order = this.order.slice();
    return z;
  }

  private indexOf(member: string, score: number): number {
    return this.lowerBound(score, member);
  }

  private lowerBound(score: number, member: string): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.order[mid];
      const s = this.scores.get(m)!;
      if (s < score || (s === score && m < member)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
