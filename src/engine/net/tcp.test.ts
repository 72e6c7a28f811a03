import { describe, expect, it } from 'vitest';
import { retransmissionOffset, retransmitAfterHeal, TCP_GIVE_UP_MS } from './tcp';

describe('TCP retransmission (Linux tcp_timer.c: TCP_RTO_MIN 200 ms, doubling, TCP_RTO_MAX 120 s, tcp_retries2 15)', () => {
  it('retransmits 0.2, 0.6, 1.4, 3.0, 6.2 s … after the first send', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(retransmissionOffset)).toEqual([
      200, 600, 1400, 3000, 6200, 12_600, 25_400, 51_000,
    ]);
  });

  it('caps the interval at TCP_RTO_MAX (120 s) once 200 ms × 2^k passes it', () => {
    expect(retransmissionOffset(10) - retransmissionOffset(9)).toBe(102_400);
    expect(retransmissionOffset(11) - retransmissionOffset(10)).toBe(120_000);
    expect(retransmissionOffset(12) - retransmissionOffset(11)).toBe(120_000);
  });

  it('gives the connection up 924.6 s after the first send (retransmits_timed_out, tcp_retries2 = 15)', () => {
    expect(TCP_GIVE_UP_MS).toBe(924_600);
  });

  it('delivers at the first retransmission not before the heal', () => {
    // written at 5050 into a partition healed at 5500: retransmissions at 5250, 5650
    expect(retransmitAfterHeal(5050, 5500)).toBe(5650);
    // exactly at a retransmission time: that one gets through
    expect(retransmitAfterHeal(1000, 2400)).toBe(2400);
    // 10 s into a 40 s partition healed at 45 s: 35.4 s is before it, 61 s is the next
    expect(retransmitAfterHeal(10_000, 45_000)).toBe(61_000);
  });

  it('never delivers after the sender gave up (the last retransmission is 804.6 s after the send)', () => {
    expect(retransmitAfterHeal(0, 804_600)).toBe(804_600);
    expect(retransmitAfterHeal(0, 804_601)).toBeNull();
  });
});
