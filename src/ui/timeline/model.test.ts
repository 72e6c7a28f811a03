import { describe, expect, it } from 'vitest';
import { buildContentionFixture } from '../fixtures/contention';
import { deriveLaneModel } from './model';

describe('deriveLaneModel (hand-written fixture)', () => {
  const run = buildContentionFixture();
  const model = deriveLaneModel(run.trace, (i) => run.stateAt(i));

  it('has a lane per thread and per node', () => {
    expect(model.threads.map((t) => t.id)).toEqual(['A:1', 'B:1']);
    expect(model.nodes.map((n) => n.id)).toEqual(['master']);
  });

  it('turns frames into state bands and hold spans with counts', () => {
    const a = model.threads[0];
    expect(a.holds.some((h) => h.count === 2)).toBe(true);
    const b = model.threads[1];
    expect(b.bands.find((x) => x.kind === 'paused')).toMatchObject({ from: 18000, to: 58000 });
    expect(b.bands.some((x) => x.kind === 'waiting')).toBe(true);
  });

  it('marks renewals, wake-ups by cause, and pub/sub arrows', () => {
    const kinds = model.threads.flatMap((t) => t.marks.map((m) => m.kind));
    expect(kinds).toContain('renew');
    expect(kinds).toContain('wake-message');
    expect(kinds).toContain('wake-timeout');
    expect(model.arrows).toEqual([
      expect.objectContaining({ kind: 'pubsub', fromLane: 'master', toLane: 'B:1', t0: 5003, t1: 5004 }),
    ]);
  });

  it('follows the lock key: its TTL after each change and its end at expiry', () => {
    const keys = model.nodes[0].keys;
    expect(keys.length).toBeGreaterThan(3);
    const renewed = keys.find((k) => k.from === 15007);
    expect(renewed).toMatchObject({ ttlAtFrom: 30000, to: 45007 });
  });

  it('keeps violations as bands', () => {
    expect(model.violations).toEqual([
      { kind: 'V1', lock: 'myLock', from: 45010, to: 50012, open: false, holders: ['B:1', 'A:1'] },
    ]);
  });
});
