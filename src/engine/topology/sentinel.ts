/**
 * Redis Sentinel (Redis 7.0's sentinel.c), reduced to the decisions that shape a lock's timeline:
 *
 * - Each Sentinel PINGs the master and its replicas every second; no valid reply for longer than
 *   `downAfterMs` → SDOWN (`sentinel.sdown`).
 * - ODOWN when this Sentinel plus the reachable peers that also see SDOWN reach `quorum`
 *   (`sentinel.odown`).
 * - The Sentinel then bumps its epoch and asks the reachable peers for their vote; a peer votes for
 *   the first asker of an epoch it has not voted in. Elected with votes ≥ max(quorum, majority of
 *   all Sentinels) (`sentinel.leader`); otherwise it retries after 2 × failover-timeout.
 * - The leader picks a replica: not down, heard from within 5 s, linked to the master recently
 *   enough; lowest priority, then highest replication offset, then lowest run id. It sends
 *   REPLICAOF NO ONE (with CLIENT KILL: every connection on the node drops); `failoverMs` later
 *   the promotion is seen (`failover.promote`), the new configuration is published
 *   (+switch-master) and the other replicas are re-pointed (full resync).
 * - Sentinels that could not hear it learn the new configuration from a peer when they can reach
 *   one (hello messages). A returning old master is converted to a replica 8 s after it is seen
 *   again as a master (+convert-to-slave), at the next INFO; its data is replaced by the resync.
 *
 * Time is driven by one 100 ms timer per Sentinel (sentinelTimer at hz 10), each with its own
 * phase drawn from the run's seed, so the Sentinels do not act in lock-step.
 */
import type { TopologyHost } from '../sim/api';
import type { ReplicationLinks } from './replication_link';

export interface SentinelSettings {
  count: number;
  quorum: number;
  downAfterMs: number;
  failoverMs: number;
}

const TIMER_MS = 100;
const PING_MS = 1000;
const INFO_MS = 1000;
/** sentinel.conf failover-timeout default; a failed election waits twice this */
const FAILOVER_TIMEOUT_MS = 180_000;
const ELECTION_TIMEOUT_MS = 10_000;
/** SENTINEL_PUBLISH_PERIOD × 4: how long a returning old master may report role master (then the next INFO) */
const CONVERT_AFTER_MS = 8000;
/** a replica not heard from for longer than this is not promoted (5 × ping period) */
const REPLICA_SILENT_MS = 5000;

interface SentinelState {
  id: string;
  up: boolean;
  /** node -> last valid PING reply */
  lastOk: Map<string, number>;
  sdown: boolean;
  /** when this Sentinel marked the master SDOWN */
  sdownSince: number;
  odown: boolean;
  currentEpoch: number;
  leaderEpoch: number;
  /** the master this Sentinel believes in, and the epoch of that configuration */
  master: string;
  configEpoch: number;
  /** failover in progress by this Sentinel: its epoch and when it started */
  failover: { epoch: number; startedAt: number; elected: boolean } | null;
  nextAttemptAt: number;
  nextPingAt: number;
  /** node -> when this Sentinel first saw it answer as a stale master */
  staleSeen: Map<string, number>;
}

export interface SentinelHost {
  /** +switch-master: a Sentinel published a new master */
  switchMaster(): void;
  /** the replication lag a re-pointed node gets */
  lagOf(node: string): number;
  /** replica-priority: lower is preferred, 0 is never promoted */
  priorityOf(node: string): number;
}

export class Sentinels {
  private readonly list: SentinelState[] = [];
  /** run ids (random, from the seed) break ties between equally good replicas */
  private readonly runId = new Map<string, string>();
  /** nodes that were a master and were replaced (to convert once they are back) */
  private readonly stale = new Set<string>();

  constructor(
    private readonly kernel: TopologyHost,
    private readonly links: ReplicationLinks,
    private readonly cfg: SentinelSettings,
    private readonly host: SentinelHost,
    dataNodes: readonly string[],
  ) {
    const rng = kernel.rng('sentinel');
    for (const n of dataNodes) this.runId.set(n, kernel.rng(`runid:${n}`).hex(20));
    for (let i = 1; i <= cfg.count; i++) {
      const s: SentinelState = {
        id: `sentinel-${i}`,
        up: true,
        lastOk: new Map(dataNodes.map((n) => [n, 0])),
        sdown: false,
        sdownSince: 0,
        odown: false,
        currentEpoch: 0,
        leaderEpoch: 0,
        master: 'master',
        configEpoch: 0,
        failover: null,
        nextAttemptAt: 0,
        nextPingAt: 0,
        staleSeen: new Map(),
      };
      this.list.push(s);
      const phase = rng.int(0, TIMER_MS - 1);
      kernel.at(phase, () => this.timer(s));
    }
  }

  /**
   * SENTINEL get-master-addr-by-name as a client that asks every Sentinel it can reach sees it:
   * the newest configuration (highest config epoch) wins; null when it reaches none.
   */
  masterSeenBy(client: string): string | null {
    let best: SentinelState | null = null;
    for (const s of this.list)
      if (s.up && this.kernel.reachable(client, s.id) && (best === null || s.configEpoch > best.configEpoch))
        best = s;
    return best?.master ?? null;
  }

  crash(id: string): void {
    const s = this.list.find((x) => x.id === id);
    if (s === undefined || !s.up) return;
    s.up = false;
    s.failover = null;
    this.kernel.emit('node.crash', { actor: id, node: id });
  }

  restart(id: string): void {
    const s = this.list.find((x) => x.id === id);
    if (s === undefined || s.up) return;
    s.up = true;
    // Its config file remembers the master and epochs; PING history starts over.
    for (const n of s.lastOk.keys()) s.lastOk.set(n, this.kernel.now());
    this.kernel.emit('node.restart', { actor: id, node: id });
  }

  private timer(s: SentinelState): void {
    const k = this.kernel;
    k.at(k.now() + this.tick(s), () => this.timer(s));
  }

  /** One run of sentinelTimer; returns when the next one can change anything (whole 100 ms steps). */
  private tick(s: SentinelState): number {
    if (!s.up) return PING_MS;
    this.step(s, this.kernel.now());
    if (s.failover !== null || s.sdown) return TIMER_MS;
    // Nothing can change before the next PING or the moment the master would count as down, so
    // the ticks in between are skipped (on the same 100 ms grid); stale nodes are read by INFO.
    const now = this.kernel.now();
    const downAt = (s.lastOk.get(s.master) ?? 0) + this.cfg.downAfterMs + 1;
    let next = Math.max(TIMER_MS, Math.ceil((Math.min(s.nextPingAt, downAt) - now) / TIMER_MS) * TIMER_MS);
    if (this.stale.size > 0) next = Math.min(next, INFO_MS);
    return next;
  }

  private step(s: SentinelState, now: number): void {
    const k = this.kernel;
    this.hello(s);
    if (now >= s.nextPingAt) {
      s.nextPingAt = now + Math.min(PING_MS, this.cfg.downAfterMs);
      for (const n of this.monitored(s))
        if (k.isUp(n) && k.reachable(s.id, n)) s.lastOk.set(n, now + 2 * k.latency(s.id, n));
    }
    this.checkDown(s, now);
    this.convertStale(s, now);
    if (s.failover !== null) this.continueFailover(s, now);
    else if (s.odown && now >= s.nextAttemptAt) this.startFailover(s, now);
  }

  /** The master this Sentinel monitors and the replicas it knows of. */
  private monitored(s: SentinelState): string[] {
    return [s.master, ...this.links.replicasOf(s.master), ...this.stale];
  }

  /** Hello messages: a Sentinel adopts a newer configuration from any peer it can reach. */
  private hello(s: SentinelState): void {
    for (const p of this.list) {
      if (p === s || !p.up || p.configEpoch <= s.configEpoch || !this.kernel.reachable(s.id, p.id)) continue;
      s.master = p.master;
      s.configEpoch = p.configEpoch;
      s.currentEpoch = Math.max(s.currentEpoch, p.currentEpoch);
      s.sdown = false;
      s.odown = false;
      s.failover = null;
    }
  }

  private checkDown(s: SentinelState, now: number): void {
    const k = this.kernel;
    const last = s.lastOk.get(s.master) ?? 0;
    const down = now - last > this.cfg.downAfterMs;
    if (down && !s.sdown) {
      s.sdown = true;
      s.sdownSince = now;
      k.emit('sentinel.sdown', { actor: s.id, node: s.master, sentinel: s.id });
    } else if (!down && s.sdown) {
      s.sdown = false;
      s.odown = false;
    }
    if (!s.sdown || s.odown) return;
    let agree = 1;
    for (const p of this.list)
      if (p !== s && p.up && p.sdown && p.master === s.master && k.reachable(s.id, p.id)) agree++;
    if (agree >= this.cfg.quorum) {
      s.odown = true;
      k.emit('sentinel.odown', {
        actor: s.id,
        node: s.master,
        sentinel: s.id,
        agree,
        quorum: this.cfg.quorum,
      });
    }
  }

  private startFailover(s: SentinelState, now: number): void {
    const k = this.kernel;
    s.currentEpoch++;
    const epoch = s.currentEpoch;
    s.leaderEpoch = epoch;
    let votes = 1;
    for (const p of this.list) {
      if (p === s || !p.up || !k.reachable(s.id, p.id)) continue;
      p.currentEpoch = Math.max(p.currentEpoch, epoch);
      if (p.leaderEpoch < epoch) {
        p.leaderEpoch = epoch;
        votes++;
        // sentinelVoteLeader: a voter does not start a failover of its own for a while.
        p.nextAttemptAt = Math.max(p.nextAttemptAt, now + 2 * FAILOVER_TIMEOUT_MS);
      }
    }
    s.failover = { epoch, startedAt: now, elected: false };
    s.nextAttemptAt = now + 2 * FAILOVER_TIMEOUT_MS;
    const needed = Math.max(this.cfg.quorum, Math.floor(this.cfg.count / 2) + 1);
    if (votes < needed) return;
    // The votes travel one round trip.
    const rtt = 2 * k.latency(s.id, s.master);
    k.at(now + rtt, () => {
      if (s.failover?.epoch !== epoch || !s.up) return;
      s.failover.elected = true;
      k.emit('sentinel.leader', { actor: s.id, sentinel: s.id, node: s.master, epoch, votes });
      this.promoteBest(s, epoch);
    });
  }

  private continueFailover(s: SentinelState, now: number): void {
    const f = s.failover!;
    if (!f.elected && now - f.startedAt > Math.min(ELECTION_TIMEOUT_MS, FAILOVER_TIMEOUT_MS)) {
      // -failover-abort-not-elected
      s.failover = null;
    }
  }

  /** sentinelSelectSlave + SLAVEOF NO ONE, then the promotion is seen `failoverMs` later. */
  private promoteBest(s: SentinelState, epoch: number): void {
    const k = this.kernel;
    const now = k.now();
    const old = s.master;
    // A replica cut from the master for longer than down-after × 10 plus the time the master has
    // been down has data too old to promote.
    const maxLinkDown = this.cfg.downAfterMs * 10 + (now - s.sdownSince);
    const candidates = this.links.replicasOf(old).filter((r) => {
      const last = s.lastOk.get(r) ?? 0;
      return (
        k.isUp(r) &&
        k.reachable(s.id, r) &&
        now - last <= REPLICA_SILENT_MS &&
        this.host.priorityOf(r) !== 0 &&
        this.links.downFor(r) <= maxLinkDown
      );
    });
    if (candidates.length === 0) {
      // -failover-abort-no-good-slave
      s.failover = null;
      return;
    }
    candidates.sort((a, b) => {
      const p = this.host.priorityOf(a) - this.host.priorityOf(b);
      if (p !== 0) return p;
      const d = this.links.offsetOf(b) - this.links.offsetOf(a);
      if (d !== 0) return d;
      const ra = this.runId.get(a)!;
      const rb = this.runId.get(b)!;
      return ra < rb ? -1 : ra > rb ? 1 : 0;
    });
    const chosen = candidates[0];
    k.at(now + k.latency(s.id, chosen), () => {
      if (s.failover?.epoch !== epoch || !k.isUp(chosen) || !k.reachable(s.id, chosen)) return;
      k.emit('node.role', { actor: chosen, node: chosen, role: 'master', by: s.id });
      this.links.promote(chosen);
      k.killClients(chosen);
    });
    k.at(now + this.cfg.failoverMs, () => {
      if (s.failover?.epoch !== epoch || this.links.replicaOf(chosen) !== null) return;
      s.failover = null;
      s.master = chosen;
      s.configEpoch = epoch;
      s.sdown = false;
      s.odown = false;
      this.stale.add(old);
      this.stale.delete(chosen);
      k.emit('failover.promote', { actor: s.id, sentinel: s.id, node: chosen, from: old, epoch });
      for (const r of this.links.replicasOf(old)) if (k.reachable(s.id, r)) this.reconfigure(s, r, chosen);
      this.host.switchMaster();
    });
  }

  /** SLAVEOF <new master> (with CLIENT KILL) to a node that follows the wrong master. */
  private reconfigure(s: SentinelState, node: string, master: string): void {
    const k = this.kernel;
    k.emit('node.role', { actor: node, node, role: 'replica', master, by: s.id });
    this.links.repoint(node, master, this.host.lagOf(node));
    k.killClients(node);
  }

  /**
   * Replicas left pointing at a replaced master, and a replaced master that is back: converted
   * once this Sentinel, holding the newest configuration, has seen them long enough.
   */
  private convertStale(s: SentinelState, now: number): void {
    const k = this.kernel;
    if (s.configEpoch === 0) return;
    for (const n of [...this.stale].sort()) {
      if (n === s.master) continue;
      const visible = k.isUp(n) && k.reachable(s.id, n);
      if (!visible) {
        s.staleSeen.delete(n);
        continue;
      }
      const wasMaster = this.links.replicaOf(n) === null;
      if (!wasMaster) {
        if (this.links.replicaOf(n) !== s.master) this.reconfigure(s, n, s.master);
        this.stale.delete(n);
        continue;
      }
      const seen = s.staleSeen.get(n);
      if (seen === undefined) s.staleSeen.set(n, now);
      else if (now - seen >= CONVERT_AFTER_MS + INFO_MS) {
        this.reconfigure(s, n, s.master);
        this.stale.delete(n);
        for (const p of this.list) p.staleSeen.delete(n);
      }
    }
    // Replicas still following a replaced master (they were unreachable at the failover).
    for (const n of [...this.stale].sort()) {
      if (n === s.master || this.links.replicaOf(n) !== null) continue;
      for (const r of this.links.replicasOf(n))
        if (k.isUp(r) && k.reachable(s.id, r)) this.reconfigure(s, r, s.master);
    }
  }
}
