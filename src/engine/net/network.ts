/**
 * The links between clients and nodes: a one-way latency per message and partitions. A message
 * between two endpoints in different partition groups is lost (the caller's response timeout
 * notices); an endpoint named in no group reaches everyone, and `"sentinels"` stands for every
 * `sentinel-N`.
 */
export class Network {
  private group: Map<string, number> | null = null;

  constructor(private readonly latencyMs: number) {}

  /** One-way delay from `from` to `to`, in virtual ms. */
  latency(_from: string, _to: string): number {
    return this.latencyMs;
  }

  partition(groups: readonly (readonly string[])[]): void {
    const g = new Map<string, number>();
    groups.forEach((members, i) => {
      for (const m of members) g.set(m, i);
    });
    this.group = g;
  }

  heal(): void {
    this.group = null;
  }

  get partitioned(): boolean {
    return this.group !== null;
  }

  reachable(a: string, b: string): boolean {
    if (this.group === null) return true;
    const ga = this.groupOf(a);
    const gb = this.groupOf(b);
    return ga === undefined || gb === undefined || ga === gb;
  }

  private groupOf(id: string): number | undefined {
    const g = this.group!.get(id);
    if (g !== undefined || !id.startsWith('sentinel-')) return g;
    return this.group!.get('sentinels');
  }
}
