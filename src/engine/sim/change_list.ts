/**
 * The names a kernel task changed, kept from task to task without allocating (Kernel.wakeChanges):
 * `reset` forgets them by starting a new round, where emptying a Set gave it a new table after
 * every task (4 MB a run of contention-100). Each name is listed once a round.
 */
export class ChangeList {
  /** name -> the round it was last added in (one entry per name ever added: threads, clients) */
  private readonly roundOf = new Map<string, number>();
  /** this round's names, [0, size) */
  private readonly items: string[] = [];
  private round = 0;
  size = 0;

  add(name: string): void {
    if (this.roundOf.get(name) === this.round) return;
    this.roundOf.set(name, this.round);
    this.items[this.size++] = name;
  }

  has(name: string): boolean {
    return this.roundOf.get(name) === this.round;
  }

  /** the i-th name added this round (i < size) */
  at(i: number): string {
    return this.items[i];
  }

  reset(): void {
    if (this.size === 0) return;
    this.round++;
    this.size = 0;
  }
}
