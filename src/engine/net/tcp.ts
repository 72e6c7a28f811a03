/**
 * What a TCP connection does with bytes a partition drops: the sender's kernel keeps them and
 * retransmits the oldest unacknowledged segment with exponential back-off, and the first
 * retransmission that gets through after the heal delivers them, in order, with everything
 * written behind them. Linux's numbers (net/ipv4/tcp_timer.c, include/net/tcp.h): the
 * retransmission timeout starts at TCP_RTO_MIN (200 ms; on a LAN the measured RTT adds well under
 * a millisecond), doubles on each retransmission (tcp_retransmit_timer) up to TCP_RTO_MAX
 * (120 s), and the connection is given up after tcp_retries2 (15) retransmissions, 924.6 s after
 * the first send (retransmits_timed_out with the linear back-off threshold of 9 doublings).
 */

export const TCP_RTO_MIN_MS = 200;
export const TCP_RTO_MAX_MS = 120_000;
export const TCP_RETRIES2 = 15;

/**
 * Ms after the first send of the k-th retransmission (k ≥ 1): 200, 600, 1400, 3000, 6200, …,
 * each interval doubling up to 120 s.
 */
export function retransmissionOffset(k: number): number {
  let at = 0;
  let rto = TCP_RTO_MIN_MS;
  for (let i = 0; i < k; i++) {
    at += rto;
    rto = Math.min(rto * 2, TCP_RTO_MAX_MS);
  }
  return at;
}

/** How long after its first send a connection whose bytes get no ACK is given up (924.6 s). */
export const TCP_GIVE_UP_MS = retransmissionOffset(TCP_RETRIES2 + 1);

/**
 * When bytes first sent at `firstSentAt` and held since are retransmitted once a partition heals
 * at `healedAt`: the first retransmission time not before the heal; null when the sender has
 * given the connection up by then (tcp_retries2), so the bytes never arrive.
 */
export function retransmitAfterHeal(firstSentAt: number, healedAt: number): number | null {
  for (let k = 1; k <= TCP_RETRIES2; k++) {
    const at = firstSentAt + retransmissionOffset(k);
    if (at >= healedAt) return at;
  }
  return null;
}
