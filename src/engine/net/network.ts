/**
 * The links between clients and nodes: a one-way latency per message, latency spikes and
 * partitions. Endpoints in different partition groups cannot reach each other; an endpoint named
 * in no group reaches everyone, and `"sentinels"` stands for every `sentinel-N`. What a client
 * connection sends across a partition is held by TCP and delivered after the heal (`tcp.ts`, the
 * kernel's transport), unless the partition resets connections (`resets`): then it is lost.
 */
export class Network {
  private group: Map<string, number> | null = null;
  /** the partition in force resets the connections it cuts (what crosses it is lost, not held) */
  private resetting = false;
  /** the latency spikes in force: extra one-way ms on links touching `endpoints` (null: all) */
  private readonly spikes: { ms: number; endpoints: ReadonlySet<string> | null }[] = [];
  /**
   * Latest arrival scheduled on a link (`from>to`) by a message a spike slowed down. TCP keeps a
   * link FIFO, so a later message may not overtake it once the spike is over. Only spiked
   * messages are recorded, so a run without spikes schedules exactly as before.
   */
  private readonly slowed = new Map<string, number>();

  constructor(private readonly latencyMs: number) {}

  /** One-way delay of a message `from` sends to `to` now, in virtual ms (FIFO clamp not included). */
  latency(from: string, to: string): number {
    let ms = this.latencyMs;
    const spikes = this.spikes;
    for (let i = 0; i < spikes.length; i++) {
      const s = spikes[i];
      if (s.endpoints === null || touches(s.endpoints, from, to)) ms += s.ms;
    }
    return ms;
  }

  /**
   * When a message `from` sends to `to` at `sentAt` (now) arrives: one latency later, but never
   * before a message a spike delayed on the same link.
   */
  arrival(from: string, to: string, sentAt: number): number {
    const at = sentAt + this.latency(from, to);
    // (no spike has slowed a link yet: nothing to clamp to, and no link name to build and hash for
    // each of the run's messages)
    if (this.slowed.size === 0 && at === sentAt + this.latencyMs) return at;
    const link = `${from}>${to}`;
    const before = this.slowed.get(link);
    if (at === sentAt + this.latencyMs && before === undefined) return at;
    const clamped = Math.max(at, before ?? at);
    this.slowed.set(link, clamped);
    return clamped;
  }

  /** Starts a spike; the returned function ends it. */
  spike(ms: number, endpoints: readonly string[] | null): () => void {
    const s = { ms, endpoints: endpoints === null ? null : new Set(endpoints) };
    this.spikes.push(s);
    return () => {
      const i = this.spikes.indexOf(s);
      if (i >= 0) this.spikes.splice(i, 1);
    };
  }

  partition(groups: readonly (readonly string[])[], reset = false): void {
    const g = new Map<string, number>();
    groups.forEach((members, i) => {
      for (const m of members) g.set(m, i);
    });
    this.group = g;
    this.resetting = reset;
  }

  heal(): void {
    this.group = null;
    this.resetting = false;
  }

  /** Whether what a connection sends across the partition in force is lost rather than held. */
  get resets(): boolean {
    return this.resetting;
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

/** Whether a link touches one of `endpoints`; `"sentinels"` names every `sentinel-N` (and the reverse). */
function touches(endpoints: ReadonlySet<string>, from: string, to: string): boolean {
  const named = (id: string) =>
    endpoints.has(id) ||
    (id.startsWith('sentinel-') && endpoints.has('sentinels')) ||
    (id === 'sentinels' && [...endpoints].some((e) => e.startsWith('sentinel-')));
  return named(from) || named(to);
}
