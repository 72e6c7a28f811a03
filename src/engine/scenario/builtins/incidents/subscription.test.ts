/** The subscriptions incident: the fifth wait finds no pub/sub slot and lock() throws #995's text. */
import { describe, expect, it } from 'vitest';
import { sim } from '../../testing/builtins';
import { errorOf } from '../../testing/incidents';

describe('subscription incidents', () => {
  it('Subscribe timeout (3.4.4, #995 settings): App:5 finds the 2 × 2 pool full and lock() throws after 9500 ms; the four others get their locks', () => {
    const s = sim('incident-subscribe-timeout');
    const wait = s.of('pubsub.wait', 'App:5')[0];
    expect(wait).toMatchObject({ used: 4, capacity: 4 });
    expect(s.of('pubsub.timeout', 'App:5')[0]).toMatchObject({ waitedMs: 9500 });
    expect(errorOf(s, 'App:5')[0]).toBe(
      "RedisTimeoutException: Subscribe timeout: (9500ms). Increase 'subscriptionsPerConnection' and/or 'subscriptionConnectionPoolSize' parameters.",
    );
    expect(
      s
        .of('lock.acquired')
        .filter((e) => e.actor?.startsWith('App:'))
        .map((e) => e.actor),
    ).toEqual(['App:1', 'App:2', 'App:3', 'App:4']);
    expect(s.violations).toEqual([]);
  });

  it('remedy: the default 50 × 5 pool has room for every wait, nobody times out', () => {
    const s = sim('incident-subscribe-timeout-remedy');
    expect(s.of('pubsub.wait')).toEqual([]);
    expect(s.of('pubsub.timeout')).toEqual([]);
    expect(s.of('lock.acquired').filter((e) => e.actor?.startsWith('App:'))).toHaveLength(5);
  });
});
