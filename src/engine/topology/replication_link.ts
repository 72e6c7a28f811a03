/**
 * The replication links of one simulated deployment: who replicates from whom, how late the
 * stream arrives, and how a broken link heals (Redis replication.c, seen from outside).
 *
 * - A master's propagated effects (redis/server.ts `propagate`, already in 7.0's form: a script
 *   as MULTI/EXEC, PEXPIREAT, expired keys as DEL) reach each replica `lagMs` later and are
 *   applied there as the master client would (`applyFromMaster`); `repl.apply` records it.
 *   The lag is the time before the write has left the master: a master that crashes or changes
 *   role meanwhile never sends it, and a partition in between breaks the link.
 * - The replica acknowledges what it applied (REPLCONF ACK), one network latency back; WAITs on
 *   the master re-count then. Every second (replicationCron) a replica re-acks, which keeps it
 *   "good" for min-replicas-to-write, or, if its link is down, resynchronises: the master's
 *   dataset replaces the replica's (the RDB transfer; a partial resync ends the same way).
 */
import type { TopologyHost } from '../sim/api';

const CRON_MS = 1000;

interface Link {
  replica: string;
  /** the node it replicates from; null: it is a master itself */
  master: string | null;
  lagMs: number;
  online: boolean;
  /** when the link went down (master_link_down_since), null while online */
  downSince: number | null;
  /** slave_repl_offset: how much of its master's stream it has applied */
  offset: number;
}

export class ReplicationLinks {
  private readonly links = new Map<string, Link>();
  /** bumped when a node crashes or changes role: stream items sent before that are void */
  private readonly gen = new Map<string, number>();

  constructor(
    private readonly kernel: TopologyHost,
    nodes: readonly string[],
  ) {
    this.masterCron(nodes);
  }

  /** A replica that starts in sync with its (empty) master. */
  addReplica(replica: string, master: string, lagMs: number): void {
    this.links.set(replica, { replica, master, lagMs, online: true, downSince: null, offset: 0 });
    this.kernel.onNode(replica, (s) => s.setRole('replica'));
    this.kernel.onNode(master, (s) => s.repl.attach(replica, 0, this.kernel.nodeNow(master)));
    this.cron(replica);
  }

  /** REPLICAOF <master> / REPLICAOF NO ONE as seen by the stream. */
  replicaOf(node: string): string | null {
    return this.links.get(node)?.master ?? null;
  }

  /** slave_repl_offset of a replica (what Sentinel reads from INFO to pick the best one). */
  offsetOf(node: string): number {
    return this.links.get(node)?.offset ?? 0;
  }

  /** Replicas currently configured to replicate from `master`, in id order. */
  replicasOf(master: string): string[] {
    const out: string[] = [];
    for (const l of this.links.values()) if (l.master === master) out.push(l.replica);
    return out.sort();
  }

  /** The node's effects, as its server propagated them (the server already advanced its offset). */
  propagate(master: string, commands: string[][]): void {
    const k = this.kernel;
    const offset = k.server(master)?.repl.offset ?? 0;
    const gen = this.genOf(master);
    for (const r of this.replicasOf(master)) {
      const link = this.links.get(r)!;
      if (!link.online) continue;
      k.at(k.now() + link.lagMs, () => this.deliver(link, master, gen, commands, offset));
    }
  }

  private deliver(link: Link, master: string, gen: number, commands: string[][], offset: number): void {
    const k = this.kernel;
    if (!link.online || link.master !== master || this.genOf(master) !== gen) return;
    if (!k.isUp(master) || !k.isUp(link.replica) || !k.reachable(master, link.replica)) {
      this.offline(link);
      return;
    }
    // The event first: the key changes that follow are recorded as part of it.
    k.emit('repl.apply', { actor: link.replica, node: link.replica, replica: link.replica, master, offset });
    k.onNode(link.replica, (s) => {
      for (const argv of commands) s.applyFromMaster(argv);
    });
    link.offset = offset;
    this.ack(link, master, gen);
  }

  /** REPLCONF ACK <offset>, arriving one latency later. */
  private ack(link: Link, master: string, gen: number): void {
    const k = this.kernel;
    const offset = link.offset;
    const replica = link.replica;
    if (!k.reachable(replica, master)) return;
    k.at(k.now() + k.latency(replica, master), () => {
      if (this.genOf(master) !== gen || link.master !== master || !k.isUp(master)) return;
      if (!k.reachable(replica, master)) return;
      k.server(master)!.repl.ack(replica, offset, k.nodeNow(master));
      k.checkWaits(master);
    });
  }

  /** replicationCron: re-ack, or reconnect and resync a broken link. */
  private cron(replica: string): void {
    const k = this.kernel;
    k.at(k.now() + CRON_MS, () => {
      const link = this.links.get(replica);
      if (link === undefined) return;
      this.cron(replica);
      const m = link.master;
      if (m === null || !k.isUp(replica)) return;
      if (!k.isUp(m) || !k.reachable(m, replica)) {
        this.offline(link);
        return;
      }
      if (link.online) this.ack(link, m, this.genOf(m));
      else this.resync(link, m);
    });
  }

  /** Full resynchronisation: the replica's dataset becomes the master's. */
  private resync(link: Link, master: string): void {
    const k = this.kernel;
    const ms = k.server(master)!;
    const snapshot = ms.db.checkpoint();
    const offset = ms.repl.offset;
    k.emit('repl.sync', { actor: link.replica, node: link.replica, replica: link.replica, master, offset });
    k.onNode(link.replica, (s) => {
      s.setRole('replica');
      s.db.restore(snapshot);
    });
    link.online = true;
    link.downSince = null;
    link.offset = offset;
    ms.repl.attach(link.replica, offset, k.nodeNow(master));
    k.checkWaits(master);
  }

  /** The node crashed or restarted: its links and the stream it had not sent are gone. */
  reset(node: string): void {
    this.gen.set(node, this.genOf(node) + 1);
    const link = this.links.get(node);
    if (link !== undefined && link.master !== null) {
      this.offline(link);
      this.detach(link.master, node);
      // A replica comes back as a replica (its config file says so) and resyncs at the next cron.
      this.kernel.onNode(node, (s) => s.setRole('replica'));
    }
  }

  /** REPLICAOF NO ONE: the node becomes a master and keeps its data and offset. */
  promote(node: string): void {
    const k = this.kernel;
    const link = this.links.get(node);
    const old = link?.master ?? null;
    if (link !== undefined) {
      link.master = null;
      this.offline(link);
    }
    if (old !== null) this.detach(old, node);
    this.gen.set(node, this.genOf(node) + 1);
    k.onNode(node, (s) => {
      s.setRole('master');
      s.repl.offset = Math.max(s.repl.offset, link?.offset ?? 0);
      // Keys that were hidden as expired are deleted now, and reach the new replicas as DEL.
      s.activeExpireCycle();
    });
  }

  /** REPLICAOF <master>: the next cron resyncs it from `master` (its data is replaced). */
  repoint(node: string, master: string, lagMs: number): void {
    const k = this.kernel;
    let link = this.links.get(node);
    if (link === undefined) {
      link = { replica: node, master, lagMs, online: false, downSince: 0, offset: 0 };
      this.links.set(node, link);
      this.cron(node);
    }
    if (link.master !== null && link.master !== master) this.detach(link.master, node);
    link.master = master;
    this.offline(link);
    this.gen.set(node, this.genOf(node) + 1);
    k.unblockAll(node);
    k.onNode(node, (s) => s.setRole('replica'));
  }

  private offline(link: Link): void {
    if (link.online) link.downSince = this.kernel.now();
    link.online = false;
  }

  /** How long a replica's link to its master has been down (0 while it streams). */
  downFor(node: string): number {
    const l = this.links.get(node);
    return l === undefined || l.downSince === null ? 0 : this.kernel.now() - l.downSince;
  }

  /** The replica closed its link; a master that cannot hear it notices only at repl-timeout. */
  private detach(master: string, replica: string): void {
    const k = this.kernel;
    if (k.isUp(master) && k.reachable(master, replica)) k.server(master)!.repl.detach(replica);
  }

  /** The masters' side of replicationCron: drop replicas silent for longer than repl-timeout. */
  private masterCron(nodes: readonly string[]): void {
    const k = this.kernel;
    k.at(k.now() + CRON_MS, () => {
      this.masterCron(nodes);
      for (const n of nodes) if (k.isUp(n)) k.server(n)!.repl.dropSilent(k.nodeNow(n));
    });
  }

  private genOf(node: string): number {
    return this.gen.get(node) ?? 0;
  }
}
