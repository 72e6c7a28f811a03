/**
 * Every built-in with `network.latencyMs` 0, a setting the form offers: replies come back at the
 * instant a command ran, so a loop that re-tries without a wait never lets the clock move. Each
 * must still run to its end (before, fourteen were cut short at one instant: a waiter answered
 * ttl 0, the key's last millisecond, re-tried at once for ever).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../redisson/testing/simulate';
import { builtin, builtins } from './index';

const atZero = (id: string) => {
  const b = builtin(id)!;
  return simulate({ ...b.scenario, network: { ...(b.scenario.network as object), latencyMs: 0 } });
};

describe('built-ins at latencyMs 0', () => {
  it('every one runs to its end, none cut short at one instant', () => {
    const cut = builtins
      .filter((b) => b.id !== 'contention-100')
      .map((b) => [b.id, atZero(b.id).trace.truncatedBy] as const)
      .filter(([, by]) => by !== undefined);
    expect(cut).toEqual([]);
  });

  it("lease-expiry-no-watchdog: B, answered ttl 0 when A's lease has its last millisecond, waits it out and takes the lock 1 ms later", () => {
    const s = atZero('lease-expiry-no-watchdog');
    const waits = s.of('lock.wait', 'B:1');
    const last = waits[waits.length - 1];
    expect([last.ttl, last.waitMs]).toEqual([0, 1]);
    expect(s.of('lock.acquired', 'B:1')[0].t).toBe(last.t + 1);
  });
});
