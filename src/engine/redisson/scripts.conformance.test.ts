/**
 * The version variants of the lock scripts (3.11's HSET acquire, latch-less unlock and literal
 * PUBLISH; the one-lock renewal of ≤ 3.43) and the naive compare-and-delete give the replies the
 * client model decodes, on a real redis-server and on the simulator with the same assertions.
 * (The four current scripts are checked in redis/conformance/redisson_scripts.conformance.test.ts.)
 */
import { expect, it } from 'vitest';
import compareAndDeleteLua from '../naive/scripts/compare_and_delete.lua?raw';
import { describeOnSimAndReal, type Exec } from '../../testing/redis/on_sim_and_real';
import { FORCE_UNLOCK, LOCK, RENEW, UNLOCK } from './scripts/RedissonLock';

const lock311Lua = LOCK.at('3.11.6').text;
const unlock311Lua = UNLOCK.at('3.11.6').text;
const forceUnlock311Lua = FORCE_UNLOCK.at('3.11.6').text;
const renewSingleLua = RENEW.at('3.27.2').text;

const A1 = '8743c9c0-0795-4907-87fd-6c719a6b4586:1';
const B1 = 'b2c1d3e4-5f60-4718-9a2b-3c4d5e6f7a80:1';
const CHANNEL = 'redisson_lock__channel:{v311}';
const NIL = { t: 'bulk', v: null };
const int = (v: number) => ({ t: 'int', v });
const bulk = (v: string) => ({ t: 'bulk', v });

function variantChecks(exec: () => Exec): void {
  const lock = (owner: string, lease = '30000') => exec()('EVAL', lock311Lua, '1', 'v311', lease, owner);
  const unlock = (owner: string) => exec()('EVAL', unlock311Lua, '2', 'v311', CHANNEL, '0', '30000', owner);

  it('3.11 acquire: HSET then HINCRBY on reentry, the holder TTL for others', async () => {
    expect(await lock(A1)).toEqual(NIL);
    expect(await exec()('HGET', 'v311', A1)).toEqual(bulk('1'));
    expect(await lock(A1, '20000')).toEqual(NIL);
    expect(await exec()('HGET', 'v311', A1)).toEqual(bulk('2'));
    const ttl = Number((await exec()('PTTL', 'v311')).v);
    expect(ttl).toBeGreaterThan(19_000);
    expect(ttl).toBeLessThanOrEqual(20_000);
    const other = await lock(B1);
    expect(other.t).toBe('int');
    expect(Number(other.v)).toBeGreaterThan(19_000);
  });

  it('3.11 unlock: nil for a non-owner, 0 while still held (TTL back to the lease), 1 when released', async () => {
    expect(await unlock(B1)).toEqual(NIL);
    expect(await unlock(A1)).toEqual(int(0));
    expect(Number((await exec()('PTTL', 'v311')).v)).toBeGreaterThan(29_000);
    expect(await unlock(A1)).toEqual(int(1));
    expect(await exec()('EXISTS', 'v311')).toEqual(int(0));
    expect(await unlock(A1)).toEqual(NIL);
  });

  it('renew (one lock): 1 and the TTL pushed back while held, 0 otherwise', async () => {
    expect(await lock(A1)).toEqual(NIL);
    await exec()('PEXPIRE', 'v311', '1000');
    expect(await exec()('EVAL', renewSingleLua, '1', 'v311', '30000', A1)).toEqual(int(1));
    expect(Number((await exec()('PTTL', 'v311')).v)).toBeGreaterThan(29_000);
    expect(await exec()('EVAL', renewSingleLua, '1', 'v311', '30000', B1)).toEqual(int(0));
  });

  it('3.11 forceUnlock: 1 when it deleted a lock, 0 when there was none', async () => {
    expect(await exec()('EVAL', forceUnlock311Lua, '2', 'v311', CHANNEL, '0')).toEqual(int(1));
    expect(await exec()('EXISTS', 'v311')).toEqual(int(0));
    expect(await exec()('EVAL', forceUnlock311Lua, '2', 'v311', CHANNEL, '0')).toEqual(int(0));
  });

  it('naive compare-and-delete: deletes only its own token', async () => {
    await exec()('SET', 'naive', 'tokB', 'PX', '10000');
    expect(await exec()('EVAL', compareAndDeleteLua, '1', 'naive', 'tokA')).toEqual(int(0));
    expect(await exec()('GET', 'naive')).toEqual(bulk('tokB'));
    expect(await exec()('EVAL', compareAndDeleteLua, '1', 'naive', 'tokB')).toEqual(int(1));
    expect(await exec()('EVAL', compareAndDeleteLua, '1', 'naive', 'tokB')).toEqual(int(0));
  });
}

describeOnSimAndReal('lock script variants', variantChecks);
