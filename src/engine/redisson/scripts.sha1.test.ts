/**
 * The SHA1 of every Redisson script the model sends, per release, pinned to what the real client
 * sent. Observed by running the real Redisson client (built from the release tags, on Debian's JDK
 * 17) against redis-server 7.0.15 with MONITOR: `EVAL <text>` at 3.11.6 and 3.27.2, `SCRIPT LOAD
 * <text>` at 4.7.0, for RLock lock/unlock/forceUnlock and a held lock's renewal, FairLock lock(), a
 * contended tryLock(300 ms) that gave up, tryLock(), unlock and forceUnlock, ReadWriteLock read
 * (held past a renewal) and write lock/unlock/forceUnlock, SpinLock and FencedLock lock/unlock/
 * forceUnlock (3.27.2, 4.7.0; 3.11.6 has neither), and a read lock's isLocked() (a script from
 * 3.24.0; 3.11.6 sent HGET). The SHA1 is of the text as MONITOR printed it.
 */
import { describe, expect, it } from 'vitest';
import { sha1hex } from '../redis/sha1';
import { FORCE_UNLOCK, LOCK, RENEW, RENEW_BATCH, UNLOCK } from './scripts/RedissonLock';
import {
  FAIR_ACQUIRE_FAILED,
  FAIR_FORCE_UNLOCK,
  FAIR_LOCK,
  FAIR_TRY_LOCK,
  FAIR_UNLOCK,
} from './scripts/RedissonFairLock';
import {
  READ_FORCE_UNLOCK,
  READ_IS_LOCKED,
  READ_LOCK,
  READ_RENEW,
  READ_RENEW_BATCH,
  READ_UNLOCK,
  WRITE_FORCE_UNLOCK,
  WRITE_LOCK,
  WRITE_UNLOCK,
} from './scripts/RedissonReadWriteLock';
import { SPIN_FORCE_UNLOCK, SPIN_LOCK, SPIN_UNLOCK } from './scripts/RedissonSpinLock';
import { FENCED_LOCK } from './scripts/RedissonFencedLock';
import { allRedissonScripts, redissonScriptOf, type ScriptFamily } from './scripts/family';
import { METHOD_BY_SHA1 } from './scripts/methods';
import { lockScripts } from './scripts';
import { RELEASE_TRAITS, versionTraits } from './versions';

/** release -> [family, SHA1 the real client sent] */
const OBSERVED: Record<string, [ScriptFamily, string][]> = {
  '3.11.6': [
    [LOCK, '9401052d872adfd0179ef8c8e8c028512707629a'],
    [UNLOCK, '3ffe249c16dee540ac8ab32e39bd408626b9aff7'],
    [FORCE_UNLOCK, '7e9c80b3d786b95d5d4aaf8fd73adb9775fa6fb1'],
    [RENEW, '8e19a1ddbdee9138df9f32a480c57addab4353d1'],
    [FAIR_LOCK, '762bfafa6be221431a0b668685dd15c926483619'],
    [FAIR_TRY_LOCK, 'aa0a28d2eb7cbeb50151315a58eb75302d8dfa40'],
    [FAIR_ACQUIRE_FAILED, 'd1ddef65ad80886b5d36e023c99930044ddd653a'],
    [FAIR_UNLOCK, '35d32367b21753c39b55dc64d1906fee627cc9a8'],
    [FAIR_FORCE_UNLOCK, '95cdf4b03f82c82edf987c7d216b4b67d861b14f'],
    [READ_LOCK, '95553a6ff11176c18e71344e89d116b06fd6f753'],
    [READ_UNLOCK, 'f5469be4bfe5232d519471092634b3ee84e5ee6f'],
    [READ_RENEW, '6563941ff57e01b8cf61e86907b80686438a2f74'],
    [READ_FORCE_UNLOCK, '23f9bc91439172625235ce2ee06d6647f08a7e27'],
    [WRITE_LOCK, '6306ba3bf1f563b284bed52d305fce615c6664d9'],
    [WRITE_UNLOCK, 'baa634f6184acc1b8f145e810a0e0e00967a3cbe'],
    [WRITE_FORCE_UNLOCK, '23639b0b2d18d26ce352e148ff4ac5b8e984b696'],
  ],
  '3.27.2': [
    [LOCK, '149c5a8bf18676fd99e9e6e24923bd64d9b62f94'],
    [UNLOCK, '6866459238a13a701d42f4971f12d9f3a50e2442'],
    [FORCE_UNLOCK, '605e338249a7a1d40df83b04f7658354f883b41b'],
    [RENEW, '8e19a1ddbdee9138df9f32a480c57addab4353d1'],
    [FAIR_LOCK, '762bfafa6be221431a0b668685dd15c926483619'],
    [FAIR_TRY_LOCK, 'aa0a28d2eb7cbeb50151315a58eb75302d8dfa40'],
    [FAIR_ACQUIRE_FAILED, 'd1ddef65ad80886b5d36e023c99930044ddd653a'],
    [FAIR_UNLOCK, 'ca303f8587d0942f8a0021f62338626ca4dd0118'],
    [FAIR_FORCE_UNLOCK, '047c11d7fec40d0102fe9903ff1e19e9a1dec610'],
    [READ_LOCK, '95553a6ff11176c18e71344e89d116b06fd6f753'],
    [READ_UNLOCK, '5947c0fee6ca25ae094ec1b3e7a2559a9273d29f'],
    [READ_RENEW, '6563941ff57e01b8cf61e86907b80686438a2f74'],
    [READ_FORCE_UNLOCK, '27dbe744e95c1d854a7f556cc6817030de2d0d01'],
    [WRITE_LOCK, '6306ba3bf1f563b284bed52d305fce615c6664d9'],
    [WRITE_UNLOCK, 'd29c5559782035515d32e926762830b3304b49be'],
    [WRITE_FORCE_UNLOCK, '2e2cb2a3b13e2e80e4236ef6a25beaf365dba608'],
    [SPIN_LOCK, 'dad0f8d619e548e04f21fb48d50be5034df3adae'],
    [SPIN_UNLOCK, '73ac2729af29ea9a975f95e8097f7ee9a74cce3d'],
    [SPIN_FORCE_UNLOCK, '51b433c3cc9a6ca991b3aefec63d23490c246318'],
    [FENCED_LOCK, '49babb5a1e6a0c5f188c2ae62b93b51cdfd63e45'],
    [READ_IS_LOCKED, '8ad44f1ba014938c20da38206b6d496c85ec1aed'],
  ],
  '4.7.0': [
    [LOCK, '149c5a8bf18676fd99e9e6e24923bd64d9b62f94'],
    [UNLOCK, '6866459238a13a701d42f4971f12d9f3a50e2442'],
    [FORCE_UNLOCK, '605e338249a7a1d40df83b04f7658354f883b41b'],
    [RENEW_BATCH, '6a3d31570dc6f4b0bd32bcdc8e75667747c6f635'],
    [FAIR_LOCK, '8f6ed299ffd259f0539c20f89253998c0777ea75'],
    [FAIR_TRY_LOCK, 'd20501c26a30adf6fb0fe9883bbbcc497e6157e2'],
    [FAIR_ACQUIRE_FAILED, 'd1ddef65ad80886b5d36e023c99930044ddd653a'],
    [FAIR_UNLOCK, '367f80bd2e300e411fb0936d9b601e5bcb3fd4b6'],
    [FAIR_FORCE_UNLOCK, '71ed11d4e4818119ac560b3d670a7f08256afc46'],
    [READ_LOCK, '95553a6ff11176c18e71344e89d116b06fd6f753'],
    [READ_UNLOCK, '6e1b10e11ac0a3ed8e902562ecd32ce01b553039'],
    [READ_RENEW_BATCH, '38d2b478dfbe264ab67c221b7e4be62245f00ba0'],
    [READ_FORCE_UNLOCK, '27dbe744e95c1d854a7f556cc6817030de2d0d01'],
    [WRITE_LOCK, '6306ba3bf1f563b284bed52d305fce615c6664d9'],
    [WRITE_UNLOCK, '21f5fb0f8ddfa9be5c3e0c9757c128796add75c6'],
    [WRITE_FORCE_UNLOCK, '2e2cb2a3b13e2e80e4236ef6a25beaf365dba608'],
    [SPIN_LOCK, 'dad0f8d619e548e04f21fb48d50be5034df3adae'],
    [SPIN_UNLOCK, '73ac2729af29ea9a975f95e8097f7ee9a74cce3d'],
    [SPIN_FORCE_UNLOCK, '51b433c3cc9a6ca991b3aefec63d23490c246318'],
    [FENCED_LOCK, '49babb5a1e6a0c5f188c2ae62b93b51cdfd63e45'],
    [READ_IS_LOCKED, '8ad44f1ba014938c20da38206b6d496c85ec1aed'],
  ],
};

describe('Redisson scripts byte for byte', () => {
  for (const [release, pairs] of Object.entries(OBSERVED))
    for (const [family, sha] of pairs)
      it(`${release} ${family.method} (${family.id}): SHA1 ${sha.slice(0, 8)} as the real client sent it`, () => {
        expect(sha1hex(family.at(release).text)).toBe(sha);
      });

  it('each variant says its own SHA1 (the lines were not edited)', () => {
    for (const s of allRedissonScripts()) expect(sha1hex(s.text), `${s.id} ${s.since}`).toBe(s.sha1);
  });

  it('the client picks them per release: RLock lock text changes at 3.12.3 and 3.19.0, unlock at 3.22.0 and 3.24.0', () => {
    const lock = (r: string) => sha1hex(lockScripts(versionTraits(r)).lock).slice(0, 8);
    const unlock = (r: string) => sha1hex(lockScripts(versionTraits(r)).unlock).slice(0, 8);
    expect([lock('3.12.2'), lock('3.12.3'), lock('3.18.1'), lock('3.19.0')]).toEqual([
      '9401052d',
      'dad0f8d6',
      'dad0f8d6',
      '149c5a8b',
    ]);
    expect([unlock('3.21.3'), unlock('3.22.0'), unlock('3.23.5'), unlock('3.24.0')]).toEqual([
      '3ffe249c',
      '778cea8a',
      '778cea8a',
      '68664592',
    ]);
    expect(sha1hex(lockScripts(versionTraits('3.43.0')).renew).slice(0, 8)).toBe('8e19a1dd');
    expect(sha1hex(lockScripts(versionTraits('3.44.0')).renew).slice(0, 8)).toBe('6a3d3157');
  });

  it('FairLock.tryLockInnerAsync (EVAL_LONG) changes at 3.32.0 (timeout guard, max(0, pttl)) and 3.45.0 (zscore of the last waiter)', () => {
    const at = (r: string) => FAIR_LOCK.at(r).sha1.slice(0, 8);
    expect([at('3.30.0'), at('3.32.0'), at('3.44.0'), at('3.45.0'), at('4.7.0')]).toEqual([
      '762bfafa',
      '929defe0',
      '929defe0',
      '8f6ed299',
      '8f6ed299',
    ]);
    expect(FAIR_LOCK.at('4.7.0').text).toContain(
      "and redis.call('zscore', KEYS[3], lastThreadId) ~= false then",
    );
    expect(FAIR_LOCK.at('4.7.0').text).toContain(
      'if timeout ~= false and tonumber(timeout) <= tonumber(ARGV[4]) then',
    );
  });
});

describe('the method names by SHA1 (captions)', () => {
  it('name every variant, and nothing else', () => {
    const all = allRedissonScripts();
    expect(Object.keys(METHOD_BY_SHA1).sort()).toEqual([...new Set(all.map((s) => s.sha1))].sort());
    for (const s of all) expect(METHOD_BY_SHA1[s.sha1]).toBe(redissonScriptOf(s.text)?.method);
  });
});

describe('the release table and the script variants change at the same releases', () => {
  const from = (row: { ranges: readonly { from?: string }[] }, i = 1) => row.ranges[i].from;
  const since = (family: ScriptFamily, i: number) => family.variants[i].since;
  it.each([
    [
      'hsetFirstAcquire / RedissonLock.tryLockInnerAsync',
      from(RELEASE_TRAITS.hsetFirstAcquire),
      since(LOCK, 1),
    ],
    [
      'shardedLockPubSub / RedissonLock.forceUnlockAsync',
      from(RELEASE_TRAITS.shardedLockPubSub),
      since(FORCE_UNLOCK, 1),
    ],
    ['unlockLatch / RedissonLock.unlockInnerAsync', from(RELEASE_TRAITS.unlockLatch), since(UNLOCK, 2)],
    [
      'fairQueuedEstimatePttl / RedissonFairLock.tryLockInnerAsync',
      from(RELEASE_TRAITS.fairQueuedEstimatePttl),
      since(FAIR_LOCK, 1),
    ],
    [
      'rwUnlockMissingKeyReturnsTrue / RedissonReadLock.unlockInnerAsync',
      from(RELEASE_TRAITS.rwUnlockMissingKeyReturnsTrue),
      since(READ_UNLOCK, 3),
    ],
    [
      'rwUnlockMissingKeyReturnsTrue / RedissonWriteLock.unlockInnerAsync',
      from(RELEASE_TRAITS.rwUnlockMissingKeyReturnsTrue),
      since(WRITE_UNLOCK, 3),
    ],
    ['renewal / LockTask', from(RELEASE_TRAITS.renewal), since(RENEW_BATCH, 0)],
    ['readRenewOwnOnly / ReadLockTask', from(RELEASE_TRAITS.readRenewOwnOnly), since(READ_RENEW_BATCH, 2)],
  ])('%s', (_, trait, script) => {
    expect(trait).toBe(script);
  });
});
