/**
 * The kernel's TCP: a message a client connection sends across a partition is not lost. The
 * sender's kernel keeps it (and everything written behind it on that direction of the connection)
 * and retransmits with back-off; the first retransmission after the heal delivers them all, in
 * order (`net/tcp.ts` has Linux's numbers). A partition that resets connections loses them instead.
 * Only client ↔ node connections are held here; replication, Sentinel and the cluster bus keep
 * their own reachability rules (topology/).
 */
import type { Network } from '../net/network';
import { retransmitAfterHeal } from '../net/tcp';
import type { Conn, HeldBytes, Send, Task } from './kernel_parts';

export class TcpHold {
  /** connections with bytes held in either direction, in the order they were first held */
  private readonly holding = new Set<Conn>();

  constructor(
    private readonly net: Network,
    private readonly later: (at: number, fn: () => void) => Task,
    private readonly now: () => number,
    /** a client's held bytes changed (liveness asks canWake again) */
    private readonly changed: (client: string) => void,
  ) {}

  /**
   * One message on `c` toward the node (`toNode`) or the client, leaving at `leave`: `send` gets
   * its arrival time, one latency later when the link is up and nothing is held before it.
   */
  transmit(c: Conn, toNode: boolean, leave: number, send: Send): void {
    const at = this.direct(c, toNode, leave);
    if (at !== null) {
      send(at, false);
      return;
    }
    const held = toNode ? c.toNode : c.toClient;
    if (held !== null) {
      held.sends.push(send);
      return;
    }
    // the link is down
    if (this.net.resets) return;
    const h: HeldBytes = { since: leave, sends: [send], flush: null };
    if (toNode) c.toNode = h;
    else c.toClient = h;
    this.holding.add(c);
    this.changed(c.client);
  }

  /**
   * When a message leaving at `leave` arrives, if nothing on that direction of `c` is held and
   * the link is up: what `transmit` would hand `send` at once (null: it would not). The kernel's
   * every command, reply and push asks this first, so that only a message that may be held
   * needs a function for later.
   */
  direct(c: Conn, toNode: boolean, leave: number): number | null {
    if ((toNode ? c.toNode : c.toClient) !== null) return null;
    // (no [from, to] pair: this runs for every message, and the pair was an array each time)
    const from = toNode ? c.client : c.node;
    const to = toNode ? c.node : c.client;
    return this.net.reachable(from, to) ? this.net.arrival(from, to, leave) : null;
  }

  /** Reachability changed (a heal, another partition): links up again retransmit what they hold. */
  retransmit(): void {
    for (const c of this.holding) {
      this.schedule(c, true);
      this.schedule(c, false);
    }
  }

  /** Whether bytes toward `client` are held (a pub/sub message the heal will still deliver). */
  holdsFor(client: string): boolean {
    for (const c of this.holding) if (c.client === client && c.toClient !== null) return true;
    return false;
  }

  private schedule(c: Conn, toNode: boolean): void {
    const h = toNode ? c.toNode : c.toClient;
    if (h === null || h.flush !== null) return;
    const [from, to] = toNode ? [c.client, c.node] : [c.node, c.client];
    if (!this.net.reachable(from, to)) return;
    const at = retransmitAfterHeal(h.since, this.now());
    if (at === null) {
      // the sender gave the connection up (tcp_retries2): what it held never arrives
      this.release(c, toNode);
      return;
    }
    h.flush = this.later(at, () => {
      h.flush = null;
      // cut again before this retransmission: the next heal schedules the one after it
      if (!this.net.reachable(from, to)) return;
      this.release(c, toNode);
      const arrival = this.net.arrival(from, to, at);
      for (const send of h.sends) send(arrival, true);
    });
  }

  private release(c: Conn, toNode: boolean): void {
    if (toNode) c.toNode = null;
    else c.toClient = null;
    if (c.toNode === null && c.toClient === null) this.holding.delete(c);
    this.changed(c.client);
  }
}
