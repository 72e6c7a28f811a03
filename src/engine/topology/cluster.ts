/**
 * Redis Cluster (Redis 7.0's cluster.c), reduced to what decides where a lock lives and when it
 * is lost. Every node keeps its own picture of the cluster (a `NodeClusterView`, handed to its
 * server for routing and the CLUSTER command); pictures only meet through the cluster bus, so a
 * partition splits them.
 *
 * - clusterCron (every 100 ms per node): a ping to every peer it can reach; the pong refreshes
 *   `lastPong` and carries the peer's own slots, role and epochs (clusterProcessPacket:
 *   clusterUpdateSlotsConfigWith adopts slots claimed with a higher configEpoch, and a master
 *   that loses its last slot to another node becomes that node's replica: clusterSetMaster).
 * - Failure detection: no pong for longer than cluster-node-timeout → PFAIL (`cluster.pfail`);
 *   PFAIL becomes FAIL (`cluster.fail`, then broadcast) when a majority of the masters serving
 *   slots report it (markNodeAsFailingIfNeeded; the observer counts itself when it is a master).
 *   A report travels only in the gossip of a ping or its pong, and a node pings a peer whose
 *   last pong is older than node-timeout / 2; the count is taken when a report arrives, so a
 *   node usually waits for the next exchange after its own PFAIL (a real 7.0 cluster with a
 *   1000 ms timeout: FAIL ~500 ms after PFAIL). Reports older than 2 × node-timeout lapse.
 *   A FAIL flag is cleared when the node is reachable again and serves no slots, or after
 *   2 × node-timeout if it still does (clearNodeFailureIfNeeded).
 * - Replica election (clusterHandleSlaveFailover): a replica whose master is FAIL waits
 *   500 ms + random(0..500) ms + rank × 1000 ms (clusterGetSlaveRank: replicas of the same master
 *   with a higher replication offset rank before it) (`cluster.election`), bumps currentEpoch and
 *   asks every master for a vote. A master votes once per epoch, only for a replica whose master it
 *   also sees FAIL, and not twice for replicas of one master within 2 × node-timeout
 *   (clusterSendFailoverAuthIfNeeded, `cluster.vote`). With the votes of a majority of the masters
 *   the replica takes its master's slots with the election epoch as configEpoch
 *   (clusterFailoverReplaceYourMaster, `cluster.promoted`). No majority within
 *   max(2 × node-timeout, 2000 ms): it tries again after twice that.
 * - cluster_state (clusterUpdateState): fail while a slot's owner is FAIL (cluster-require-full-
 *   coverage yes) or while the node reaches fewer than a majority of the masters (a minority
 *   partition): every keyed command gets CLUSTERDOWN then (`cluster.state`). A master stays FAIL
 *   for 2000 ms after a restart (CLUSTER_WRITABLE_DELAY) and, back from a minority, for the node
 *   timeout clamped to 500..5000 ms (the rejoin delay).
 * - Pub/sub over the bus: PUBLISH goes to every node; SPUBLISH to the other nodes of the sender's
 *   shard (PUBLISHSHARD). When a slot moves, every node of the losing shard (its master and the
 *   replicas still following it, not the promoted one) drops the slot's shard channels.
 *
 * Not modelled: the replica data-age check (cluster-replica-validity-factor), manual failover,
 * slot migration (ASK), replica migration, the ping cadence for slots, roles and epochs (a pong
 * every cron carries the sender's picture at once; only failure reports wait for the cadence), the
 * PFAIL clock starting at the first unanswered ping (here: at the last pong, up to T/2 sooner).
 */
import type { Prng, TopologyHost } from '../sim/api';
import {
  CLUSTER_SLOTS,
  clusterNodeAddress,
  clusterNodeId,
  formatSlots,
  initialSlotRanges,
  type ClusterNodeInfo,
  type ClusterView,
  type SlotRange,
} from '../redis/cluster_slots';
import { ClientSlotMaps } from './client_slot_maps';
import { publishOverBus } from './cluster_bus_pubsub';
import { ClusterNode, type Belief, type Election } from './cluster_node';
import type { ReplicationLinks } from './replication_link';
import { intersect, overlaps, rangeEnd, sameSlots, subtract } from './slot_ranges';

export { CLUSTER_SCAN_MS } from './client_slot_maps';

const CRON_MS = 100;
/** clusterHandleSlaveFailover: the fixed part of the election delay, and random() % 500's largest value */
const ELECTION_FIXED_MS = 500;
const ELECTION_RANDOM_MAX_MS = 499;
const RANK_MS = 1000;
/** CLUSTER_FAIL_UNDO_TIME_MULT */
const FAIL_UNDO_MULT = 2;
/** CLUSTER_FAIL_REPORT_VALIDITY_MULT */
const REPORT_VALIDITY_MULT = 2;
/** clusterUpdateState: a master stays FAIL this long after its first call (a restart) */
const WRITABLE_DELAY_MS = 2000;
/** clusterUpdateState: the rejoin delay is the node timeout clamped to these */
const MIN_REJOIN_DELAY_MS = 500;
const MAX_REJOIN_DELAY_MS = 5000;
export interface ClusterSettings {
  masters: number;
  replicasPerMaster: number;
  nodeTimeoutMs: number;
  /** replication delay of a node re-pointed at a new master */
  lagOf(node: string): number;
}

export class Cluster {
  private readonly nodes = new Map<string, ClusterNode>();
  private readonly order: string[];
  private kernel: TopologyHost | null = null;
  private rng: Prng | null = null;
  private links: ReplicationLinks | null = null;
  /** Redisson's side: each client's slot map */
  private readonly slotMaps: ClientSlotMaps;
  private readonly quorumOf = (n: ClusterNode) => Math.floor(n.slotMasters().length / 2) + 1;
  /** called when the set of nodes some client sends slots to changed */
  onMastersChanged: () => void = () => {};

  constructor(
    private readonly cfg: ClusterSettings,
    nodeNames: readonly string[],
    clients: readonly string[],
  ) {
    this.order = nodeNames.slice();
    const ranges = initialSlotRanges(cfg.masters);
    const start = new Map<string, Belief>();
    nodeNames.forEach((n, i) => {
      const shard = i < cfg.masters ? i : (i - cfg.masters) % cfg.masters;
      start.set(n, {
        role: i < cfg.masters ? 'master' : 'replica',
        master: i < cfg.masters ? null : nodeNames[shard],
        slots: i < cfg.masters ? [ranges[i]] : [],
        configEpoch: i < cfg.masters ? i + 1 : 0,
        flag: 'ok',
        failSince: 0,
      });
    });
    nodeNames.forEach((n, i) => {
      const node = new ClusterNode(n, i);
      for (const [m, b] of start) node.beliefs.set(m, { ...b, slots: b.slots.slice() });
      // redis-cli --cluster create sends CLUSTER SET-CONFIG-EPOCH 1..N to every node it joins,
      // replicas included (they then report their master's): currentEpoch starts at N
      node.currentEpoch = nodeNames.length;
      this.nodes.set(n, node);
    });
    this.slotMaps = new ClientSlotMaps(
      this.order,
      clients,
      ranges,
      (name) => this.nodes.get(name)!,
      () => this.onMastersChanged(),
    );
  }

  /** The ClusterView the server of `node` routes by. */
  view(node: string): ClusterView {
    const me = this.nodes.get(node)!;
    return {
      myId: () => me.id,
      slotOwner: (slot) => {
        const o = me.owner(slot);
        return o === null ? null : this.info(me, o);
      },
      nodes: () => this.order.map((n) => this.info(me, n)),
      state: () => me.state,
      currentEpoch: () => me.currentEpoch,
      publishToBus: (channel, message) =>
        publishOverBus(this.kernel, this.order, me, channel, message, false),
      publishShardToBus: (channel, message) =>
        publishOverBus(this.kernel, this.order, me, channel, message, true),
    };
  }

  install(kernel: TopologyHost, links: ReplicationLinks): void {
    this.kernel = kernel;
    this.links = links;
    const rng = kernel.rng('cluster');
    this.rng = rng;
    for (const n of this.nodes.values()) {
      for (const p of this.order) n.lastPong.set(p, 0);
      // each node's cron has its own phase, as separate processes would
      kernel.at(rng.int(0, CRON_MS - 1), () => this.cron(n));
    }
    this.slotMaps.start(kernel);
  }

  /**
   * The node's process started again (with its nodes.conf): clusterInit's state is FAIL, and
   * clusterUpdateState counts the writable delay from now.
   */
  restarted(node: string): void {
    const n = this.nodes.get(node);
    if (n === undefined) return;
    const k = this.kernel!;
    n.down = true;
    n.firstCall = k.now();
    n.amongMinority = -Infinity;
    if (n.state === 'fail') return;
    n.state = 'fail';
    k.emit('cluster.state', { actor: n.name, node: n.name, state: 'fail' });
  }

  /** The node a client sends a command for `key` to (its slot map; the first master without a key). */
  ownerFor(client: string, key: string | undefined): string {
    return this.slotMaps.ownerFor(client, key);
  }

  /** The distinct masters of the client's slot map, in slot order (the first serves slot 0). */
  slotMasters(client: string): string[] {
    return this.slotMaps.slotMasters(client);
  }

  /** Nodes some client sends slots to (what V2 and L1 look at). */
  clientMasters(): string[] {
    return this.slotMaps.clientMasters();
  }

  /**
   * A MOVED reply: the node the client re-sends that one command to (RedisExecutor: a NodeSource
   * with the address; 4.7.0 redirectedConnectionWriteOp). The client's slot map is left alone:
   * nothing in Redisson touches it on MOVED, it changes at the next scan.
   */
  redirect(_client: string, address: string): string | null {
    return this.slotMaps.nodeAt(address);
  }

  // ---------------------------------------------------------------------------------------------
  // The nodes

  private cron(n: ClusterNode): void {
    const k = this.kernel!;
    k.at(k.now() + CRON_MS, () => this.cron(n));
    const now = k.now();
    if (!k.isUp(n.name)) {
      n.down = true;
      return;
    }
    if (n.down) {
      n.down = false;
      for (const p of this.order) n.lastPong.set(p, now);
      n.lastPing.clear();
      n.reports.clear();
    }
    for (const p of this.order) {
      if (p === n.name) continue;
      if (k.isUp(p) && k.reachable(n.name, p)) {
        n.lastPong.set(p, now);
        this.gossip(n, this.nodes.get(p)!);
      }
    }
    this.detect(n, now);
    this.exchangeReports(n, now);
    this.handleFailover(n, now);
    this.updateState(n);
  }

  /** A pong from `p`: its own slots, role and epochs, and the FAIL flags it holds. */
  private gossip(n: ClusterNode, p: ClusterNode): void {
    const k = this.kernel!;
    const claim = p.self();
    n.currentEpoch = Math.max(n.currentEpoch, p.currentEpoch);
    const known = n.beliefs.get(p.name)!;
    if (known.flag === 'pfail') known.flag = 'ok';
    if (known.flag === 'fail' && (claim.slots.length === 0 || k.now() - known.failSince > this.failUndo()))
      known.flag = 'ok';
    if (claim.role === 'replica') {
      if (known.role !== 'replica' || known.master !== claim.master) {
        known.role = 'replica';
        known.master = claim.master;
        known.slots = [];
        n.changed();
      }
      return;
    }
    if (known.role !== 'master') {
      known.role = 'master';
      known.master = null;
      n.changed();
    }
    known.configEpoch = Math.max(known.configEpoch, claim.configEpoch);
    this.adoptSlots(n, p.name, claim);
  }

  /**
   * clusterUpdateSlotsConfigWith: the sender keeps the slots it claims unless another master holds
   * them with a configEpoch at least as high; slots held with a lower one move to the sender. If my
   * master (or I, as a master) lost its last slot that way, I become the sender's replica.
   */
  private adoptSlots(n: ClusterNode, sender: string, claim: Belief): void {
    let won = claim.slots.slice();
    const losers = new Set<string>();
    const self = n.self();
    const mine = self.role === 'master' ? n.name : self.master;
    for (const [other, b] of n.beliefs) {
      if (other === sender || b.role !== 'master' || b.slots.length === 0) continue;
      if (b.configEpoch >= claim.configEpoch) {
        for (const r of b.slots) won = subtract(won, r);
        continue;
      }
      for (const r of claim.slots)
        if (overlaps(b.slots, r)) {
          // clusterDelSlot: a node of the losing shard (its master or a replica following it)
          // drops the shard channels of the slot (removeChannelsInSlot, cluster.c:4377-4390)
          if (other === mine) this.dropShardChannels(n, intersect(b.slots, r));
          b.slots = subtract(b.slots, r);
          losers.add(other);
        }
    }
    const known = n.beliefs.get(sender)!;
    if (losers.size === 0 && sameSlots(known.slots, won)) return;
    known.slots = won;
    n.changed();
    if (mine !== null && losers.has(mine) && n.beliefs.get(mine)!.slots.length === 0)
      this.becomeReplica(n, sender);
  }

  private becomeReplica(n: ClusterNode, master: string): void {
    const k = this.kernel!;
    const self = n.self();
    // removeChannelsInSlot: shard subscribers of the slots it lost are unsubscribed
    if (self.slots.length > 0) this.dropShardChannels(n, self.slots);
    self.role = 'replica';
    self.master = master;
    self.slots = [];
    self.configEpoch = 0;
    n.election = null;
    n.changed();
    k.emit('node.role', { actor: n.name, node: n.name, role: 'replica', master, by: master });
    this.links!.repoint(n.name, master, this.cfg.lagOf(n.name));
  }

  private dropShardChannels(n: ClusterNode, slots: readonly SlotRange[]): void {
    if (slots.length === 0 || !this.kernel!.isUp(n.name)) return;
    const lost = slots.slice();
    this.kernel!.onNode(n.name, (s) => s.dropShardChannelsInSlots(lost));
  }

  private detect(n: ClusterNode, now: number): void {
    const k = this.kernel!;
    for (const p of this.order) {
      if (p === n.name) continue;
      const b = n.beliefs.get(p)!;
      if (b.flag === 'ok' && now - (n.lastPong.get(p) ?? 0) > this.cfg.nodeTimeoutMs) {
        b.flag = 'pfail';
        k.emit('cluster.pfail', { actor: n.name, node: p, observer: n.name });
      }
    }
  }

  /**
   * A ping to every reachable peer whose last one is older than node-timeout / 2, answered by a
   * pong: each side's gossip carries the failure reports of a master serving slots to the other.
   */
  private exchangeReports(n: ClusterNode, now: number): void {
    const k = this.kernel!;
    for (const p of this.order) {
      if (p === n.name || !k.isUp(p) || !k.reachable(n.name, p)) continue;
      if (now - (n.lastPing.get(p) ?? -Infinity) <= this.cfg.nodeTimeoutMs / 2) continue;
      n.lastPing.set(p, now);
      const peer = this.nodes.get(p)!;
      this.carryReports(n, peer, now);
      this.carryReports(peer, n, now);
    }
  }

  /** clusterProcessGossipSection: `to` files (or drops) `from`'s report on every other node. */
  private carryReports(from: ClusterNode, to: ClusterNode, now: number): void {
    const claim = from.self();
    if (claim.role !== 'master' || claim.slots.length === 0) return;
    for (const target of this.order) {
      if (target === from.name || target === to.name) continue;
      let byReporter = to.reports.get(target);
      if (from.beliefs.get(target)!.flag === 'ok') {
        byReporter?.delete(from.name);
        continue;
      }
      if (byReporter === undefined) to.reports.set(target, (byReporter = new Map()));
      byReporter.set(from.name, now);
      if (to.beliefs.get(target)!.flag === 'pfail') this.markFailingIfNeeded(to, target, now);
    }
  }

  /** markNodeAsFailingIfNeeded: failure reports from a majority of the masters serving slots. */
  private markFailingIfNeeded(n: ClusterNode, target: string, now: number): void {
    const k = this.kernel!;
    // cluster.c:1513 "Also count myself as a voter if I'm a master" (slots or not)
    let reports = n.self().role === 'master' ? 1 : 0;
    const valid = this.cfg.nodeTimeoutMs * REPORT_VALIDITY_MULT;
    const filed = n.reports.get(target);
    for (const m of n.slotMasters()) {
      if (m === n.name || m === target) continue;
      const at = filed?.get(m);
      if (at !== undefined && now - at <= valid) reports++;
    }
    const quorum = this.quorumOf(n);
    if (reports < quorum) return;
    this.setFail(n, target, now);
    k.emit('cluster.fail', { actor: n.name, node: target, observer: n.name, reports, quorum });
    // clusterSendFail: every node that can hear us marks it FAIL at once.
    for (const p of this.order)
      if (p !== n.name && p !== target && k.isUp(p) && k.reachable(n.name, p))
        this.setFail(this.nodes.get(p)!, target, now);
  }

  private setFail(n: ClusterNode, target: string, now: number): void {
    const b = n.beliefs.get(target)!;
    if (b.flag === 'fail') return;
    b.flag = 'fail';
    b.failSince = now;
  }

  private failUndo(): number {
    return this.cfg.nodeTimeoutMs * FAIL_UNDO_MULT;
  }

  private authTimeout(): number {
    return Math.max(2 * this.cfg.nodeTimeoutMs, 2000);
  }

  /** clusterHandleSlaveFailover, for a replica whose master is FAIL. */
  private handleFailover(n: ClusterNode, now: number): void {
    const k = this.kernel!;
    const self = n.self();
    if (self.role !== 'replica' || self.master === null) return;
    const master = n.beliefs.get(self.master)!;
    if (master.flag !== 'fail' || master.slots.length === 0) {
      n.election = null;
      return;
    }
    const e = n.election;
    if (e === null || now - e.at > 2 * this.authTimeout()) {
      const rank = this.rankOf(n, self.master);
      const delayMs = ELECTION_FIXED_MS + this.rng!.int(0, ELECTION_RANDOM_MAX_MS) + rank * RANK_MS;
      n.election = { at: now + delayMs, epoch: 0, votes: new Set(), master: self.master, rank };
      k.emit('cluster.election', {
        actor: n.name,
        node: n.name,
        master: self.master,
        rank,
        offset: this.links!.offsetOf(n.name),
        delayMs,
      });
      return;
    }
    // cluster.c:3684-3695: a rank that got worse while waiting adds a second per step
    if (e.epoch === 0) {
      const rank = this.rankOf(n, self.master);
      if (rank > e.rank) {
        e.at += (rank - e.rank) * RANK_MS;
        e.rank = rank;
      }
    }
    if (now < e.at || e.epoch !== 0 || now - e.at > this.authTimeout()) return;
    n.currentEpoch++;
    e.epoch = n.currentEpoch;
    for (const m of n.slotMasters()) {
      if (!k.isUp(m) || !k.reachable(n.name, m)) continue;
      const there = k.latency(n.name, m);
      k.at(now + there, () => this.authRequest(this.nodes.get(m)!, n, e));
    }
  }

  /** clusterGetSlaveRank: replicas of the same master with a higher replication offset. */
  private rankOf(n: ClusterNode, master: string): number {
    const mine = this.links!.offsetOf(n.name);
    let rank = 0;
    for (const [other, b] of n.beliefs)
      if (
        other !== n.name &&
        b.role === 'replica' &&
        b.master === master &&
        this.links!.offsetOf(other) > mine
      )
        rank++;
    return rank;
  }

  /** clusterSendFailoverAuthIfNeeded, on master `m`, for the election of replica `r`. */
  private authRequest(m: ClusterNode, r: ClusterNode, e: Election): void {
    const k = this.kernel!;
    const now = k.now();
    if (!k.isUp(m.name) || m.self().role !== 'master' || m.self().slots.length === 0) return;
    m.currentEpoch = Math.max(m.currentEpoch, e.epoch);
    if (m.lastVoteEpoch >= e.epoch) return;
    if (m.beliefs.get(e.master)!.flag !== 'fail') return;
    const last = m.votedFor.get(e.master);
    if (last !== undefined && now - last < 2 * this.cfg.nodeTimeoutMs) return;
    if (this.slotsClaimedByNewer(m, r.beliefs.get(e.master)!)) return;
    m.lastVoteEpoch = e.epoch;
    m.votedFor.set(e.master, now);
    k.emit('cluster.vote', { actor: m.name, node: m.name, replica: r.name, epoch: e.epoch });
    if (!k.reachable(m.name, r.name)) return;
    k.at(now + k.latency(m.name, r.name), () => this.voteArrived(r, e, m.name));
  }

  /**
   * clusterSendFailoverAuthIfNeeded (cluster.c:3405-3420): a master refuses when a slot the
   * replica claims for its master is served, as it sees it, by a node with a greater configEpoch
   * than the one the replica advertises (its master's).
   */
  private slotsClaimedByNewer(m: ClusterNode, claimed: Belief): boolean {
    for (const r of claimed.slots)
      for (let s = r.start; s <= r.end; s++) {
        const owner = m.owner(s);
        if (owner === null) continue;
        const b = m.beliefs.get(owner)!;
        if (b.configEpoch > claimed.configEpoch) return true;
        s = Math.min(r.end, rangeEnd(b.slots, s));
      }
    return false;
  }

  private voteArrived(r: ClusterNode, e: Election, voter: string): void {
    const k = this.kernel!;
    if (r.election !== e || !k.isUp(r.name) || r.self().role !== 'replica') return;
    if (k.now() - e.at > this.authTimeout()) return;
    e.votes.add(voter);
    if (e.votes.size < this.quorumOf(r)) return;
    this.promote(r, e);
  }

  /** clusterFailoverReplaceYourMaster: the replica takes its master's slots. */
  private promote(r: ClusterNode, e: Election): void {
    const k = this.kernel!;
    const old = r.beliefs.get(e.master)!;
    const slots = old.slots.slice();
    const self = r.self();
    self.role = 'master';
    self.master = null;
    self.slots = slots;
    self.configEpoch = e.epoch;
    old.slots = [];
    r.election = null;
    r.changed();
    k.emit('node.role', { actor: r.name, node: r.name, role: 'master', by: r.name });
    k.emit('cluster.promoted', {
      actor: r.name,
      node: r.name,
      from: e.master,
      epoch: e.epoch,
      votes: e.votes.size,
      slots: formatSlots(slots),
    });
    this.links!.promote(r.name);
    // the other replicas of the old master follow the new one (they hear the pong)
    for (const [other, b] of r.beliefs)
      if (other !== r.name && b.role === 'replica' && b.master === e.master) b.master = r.name;
    this.updateState(r);
  }

  /**
   * clusterUpdateState (7.0.15 cluster.c:4430-4520): fail while a slot is unowned or its owner
   * FAIL, or while fewer than a majority of the slot-serving masters are reachable (the time is
   * noted as among_minority_time). A master does not change from FAIL for CLUSTER_WRITABLE_DELAY
   * (2000 ms) after its first call (a restart), nor turn OK within the rejoin delay (node timeout
   * clamped to 500..5000 ms) of having been in a minority.
   */
  private updateState(n: ClusterNode): void {
    const k = this.kernel!;
    const now = k.now();
    const master = n.self().role === 'master';
    if (master && n.state === 'fail' && now - n.firstCall < WRITABLE_DELAY_MS) return;
    let ok = true;
    for (let s = 0; s < CLUSTER_SLOTS && ok; s++) {
      const o = n.owner(s);
      if (o === null || n.beliefs.get(o)!.flag === 'fail') ok = false;
      // ranges are contiguous: jump to the owner's range end
      else s = rangeEnd(n.beliefs.get(o)!.slots, s);
    }
    let reachable = 0;
    for (const m of n.slotMasters()) if (m === n.name || n.beliefs.get(m)!.flag === 'ok') reachable++;
    if (reachable < this.quorumOf(n)) {
      ok = false;
      n.amongMinority = now;
    }
    const state = ok ? 'ok' : 'fail';
    if (state === n.state) return;
    if (state === 'ok' && master && now - n.amongMinority < this.rejoinDelay()) return;
    n.state = state;
    k.emit('cluster.state', { actor: n.name, node: n.name, state });
  }

  private rejoinDelay(): number {
    return Math.min(Math.max(this.cfg.nodeTimeoutMs, MIN_REJOIN_DELAY_MS), MAX_REJOIN_DELAY_MS);
  }

  private info(me: ClusterNode, name: string): ClusterNodeInfo {
    const b = me.beliefs.get(name)!;
    const k = this.kernel;
    const index = this.order.indexOf(name);
    const flags: ClusterNodeInfo['flags'][number][] = [];
    if (name === me.name) flags.push('myself');
    if (b.flag === 'pfail') flags.push('fail?');
    if (b.flag === 'fail') flags.push('fail');
    return {
      id: this.nodes.get(name)!.id,
      name,
      ...clusterNodeAddress(index),
      role: b.role,
      masterId: b.master === null ? null : clusterNodeId(b.master),
      slots: b.slots.slice(),
      configEpoch: b.configEpoch,
      flags,
      connected: name === me.name || k === null || (k.isUp(name) && k.reachable(me.name, name)),
    };
  }
}
