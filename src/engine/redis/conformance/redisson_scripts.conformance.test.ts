/**
 * The Redisson scripts in src/engine/redisson/scripts behave as Redisson's own do (the lock,
 * unlock, renewal and fair-lock scripts of RedissonLock / RedissonFairLock), checked on a real redis-server and on the simulator with the
 * same assertions. The corpus only proves the simulator agrees with Redis; this proves the
 * scripts themselves say what Redisson says.
 */
import { expect, it } from 'vitest';
import { describeOnSimAndReal, type Exec } from '../../../testing/redis/on_sim_and_real';
import { FORCE_UNLOCK, LOCK, RENEW_BATCH, UNLOCK } from '../../redisson/scripts/RedissonLock';

const lockLua = LOCK.at('4.7.0').text;
const unlockLua = UNLOCK.at('4.7.0').text;
const forceUnlockLua = FORCE_UNLOCK.at('4.7.0').text;
const renewLua = RENEW_BATCH.at('4.7.0').text;

const A1 = '8743c9c0-0795-4907-87fd-6c719a6b4586:1';
const A2 = '8743c9c0-0795-4907-87fd-6c719a6b4586:2';
const B1 = 'b2c1d3e4-5f60-4718-9a2b-3c4d5e6f7a80:1';
const CHANNEL = 'redisson_lock__channel:{myLock}';
const latch = (id: string) => `redisson_unlock_latch:{myLock}:${id.repeat(32)}`;

const NIL = { t: 'bulk', v: null };
const int = (v: number) => ({ t: 'int', v });

function scriptChecks(exec: () => Exec): void {
  const lock = (owner: string, lease = '30000', key = 'myLock') =>
    exec()('EVAL', lockLua, '1', key, lease, owner);
  const unlock = (owner: string, request: string) =>
    exec()(
      'EVAL',
      unlockLua,
      '3',
      'myLock',
      CHANNEL,
      latch(request),
      '0',
      '30000',
      owner,
      'PUBLISH',
      '16000',
    );

  it('acquire: nil when free or re-entered (count grows, TTL reset), the holder TTL otherwise', async () => {
    expect(await lock(A1)).toEqual(NIL);
    expect(await exec()('HGET', 'myLock', A1)).toEqual({ t: 'bulk', v: '1' });
    await exec()('PEXPIRE', 'myLock', '5000');
    expect(await lock(A1)).toEqual(NIL);
    expect(await exec()('HGET', 'myLock', A1)).toEqual({ t: 'bulk', v: '2' });
    const ttl = Number((await exec()('PTTL', 'myLock')).v);
    expect(ttl).toBeGreaterThan(29_000);
    const other = await lock(A2);
    expect(other.t).toBe('int');
    expect(Number(other.v)).toBeGreaterThan(29_000);
    expect(Number((await lock(B1)).v)).toBeLessThanOrEqual(30_000);
  });

  it('unlock: nil for a non-owner, 0 while still held, 1 when released; latched per request', async () => {
    expect(await unlock(B1, 'a')).toEqual(NIL);
    expect(await exec()('EXISTS', latch('a'))).toEqual(int(0));
    expect(await unlock(A1, 'b')).toEqual(int(0));
    expect(await exec()('GET', latch('b'))).toEqual({ t: 'bulk', v: '0' });
    expect(await unlock(A1, 'b')).toEqual(int(0)); // retried request: answered from the latch
    expect(await exec()('HGET', 'myLock', A1)).toEqual({ t: 'bulk', v: '1' });
    expect(await unlock(A1, 'c')).toEqual(int(1));
    expect(await exec()('EXISTS', 'myLock')).toEqual(int(0));
    expect(await exec()('GET', latch('c'))).toEqual({ t: 'bulk', v: '1' });
    expect(await unlock(A1, 'd')).toEqual(NIL);
  });

  it('renew: 1 per key still held by that lock name (TTL reset), 0 otherwise', async () => {
    expect(await lock(B1)).toEqual(NIL);
    await exec()('PEXPIRE', 'myLock', '1000');
    const r = await exec()('EVAL', renewLua, '3', 'myLock', 'myLock', 'gone', '30000', B1, A1, B1);
    expect(r).toEqual({ t: 'array', v: [int(1), int(0), int(0)] });
    expect(Number((await exec()('PTTL', 'myLock')).v)).toBeGreaterThan(29_000);
  });

  it('forceUnlock: deletes whoever holds it (1), then finds nothing (0)', async () => {
    expect(await exec()('EVAL', forceUnlockLua, '2', 'myLock', CHANNEL, '0', 'PUBLISH')).toEqual(int(1));
    expect(await exec()('EXISTS', 'myLock')).toEqual(int(0));
    expect(await exec()('EVAL', forceUnlockLua, '2', 'myLock', CHANNEL, '0', 'PUBLISH')).toEqual(int(0));
  });

  it('an explicit lease sets the TTL to that lease', async () => {
    expect(await lock(A1, '10000', 'leased')).toEqual(NIL);
    const ttl = Number((await exec()('PTTL', 'leased')).v);
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(10_000);
  });
}

describeOnSimAndReal('Redisson scripts', scriptChecks);
