/**
 * Which Redisson method sends a script, by the script's SHA1: the captions name a script without
 * loading the texts (scripts/*.ts; a test keeps the two in step). Grouped by method to stay small
 * in the page's first chunk.
 */
const SHA1S_BY_METHOD: Readonly<Record<string, string>> = {
  'RedissonReadLock.isLocked': '8ad44f1ba014938c20da38206b6d496c85ec1aed',
  'RedissonExpirable.expireAsync': '3fd750e0b43af99dbd223e5523718f18cded3664',
  'RedissonLock.tryLockInnerAsync':
    '9401052d872adfd0179ef8c8e8c028512707629a dad0f8d619e548e04f21fb48d50be5034df3adae 149c5a8bf18676fd99e9e6e24923bd64d9b62f94',
  'RedissonLock.unlockInnerAsync':
    '3ffe249c16dee540ac8ab32e39bd408626b9aff7 778cea8aada230ae060b432fc333adaec85f2f4c 6866459238a13a701d42f4971f12d9f3a50e2442',
  'RedissonLock.forceUnlockAsync':
    '7e9c80b3d786b95d5d4aaf8fd73adb9775fa6fb1 605e338249a7a1d40df83b04f7658354f883b41b',
  'RedissonBaseLock.renewExpirationAsync': '8e19a1ddbdee9138df9f32a480c57addab4353d1',
  LockTask: '6a3d31570dc6f4b0bd32bcdc8e75667747c6f635',
  'RedissonFairLock.tryLockInnerAsync':
    'aa0a28d2eb7cbeb50151315a58eb75302d8dfa40 d20501c26a30adf6fb0fe9883bbbcc497e6157e2 762bfafa6be221431a0b668685dd15c926483619 929defe0321e0a4c943b4244951d3a730b6eaabc 8f6ed299ffd259f0539c20f89253998c0777ea75',
  'RedissonFairLock.acquireFailedAsync': 'd1ddef65ad80886b5d36e023c99930044ddd653a',
  'RedissonFairLock.unlockInnerAsync':
    '35d32367b21753c39b55dc64d1906fee627cc9a8 14f85250fb2a386500bf8e4b25a8e95db140ff0c ca303f8587d0942f8a0021f62338626ca4dd0118 367f80bd2e300e411fb0936d9b601e5bcb3fd4b6',
  'RedissonFairLock.forceUnlockAsync':
    '95cdf4b03f82c82edf987c7d216b4b67d861b14f 047c11d7fec40d0102fe9903ff1e19e9a1dec610 71ed11d4e4818119ac560b3d670a7f08256afc46',
  'RedissonReadLock.tryLockInnerAsync': '95553a6ff11176c18e71344e89d116b06fd6f753',
  'RedissonReadLock.unlockInnerAsync':
    'f5469be4bfe5232d519471092634b3ee84e5ee6f 92a54c31a4dc3b46f81e24a6dd5bb7d677c6f882 5947c0fee6ca25ae094ec1b3e7a2559a9273d29f 6e1b10e11ac0a3ed8e902562ecd32ce01b553039',
  'RedissonReadLock.forceUnlockAsync':
    '23f9bc91439172625235ce2ee06d6647f08a7e27 27dbe744e95c1d854a7f556cc6817030de2d0d01',
  'RedissonReadLock.renewExpirationAsync': '6563941ff57e01b8cf61e86907b80686438a2f74',
  ReadLockTask:
    '1affef780a01e1406cb1968c62918f618d10d6a3 d6564f42b98d6eece0e940a478ee248f80b8a90a 38d2b478dfbe264ab67c221b7e4be62245f00ba0',
  'RedissonWriteLock.tryLockInnerAsync': '6306ba3bf1f563b284bed52d305fce615c6664d9',
  'RedissonWriteLock.unlockInnerAsync':
    'baa634f6184acc1b8f145e810a0e0e00967a3cbe 319a1cdf1b56c767a0a9adf2224250bf811f110c d29c5559782035515d32e926762830b3304b49be 21f5fb0f8ddfa9be5c3e0c9757c128796add75c6',
  'RedissonWriteLock.forceUnlockAsync':
    '23639b0b2d18d26ce352e148ff4ac5b8e984b696 2e2cb2a3b13e2e80e4236ef6a25beaf365dba608',
  'RedissonSpinLock.unlockInnerAsync':
    '5b9e58d1bcb8498e14aa1d5b49a1ca5b90748946 73ac2729af29ea9a975f95e8097f7ee9a74cce3d',
  'RedissonSpinLock.forceUnlockAsync': '51b433c3cc9a6ca991b3aefec63d23490c246318',
  'RedissonFencedLock.tryLockInnerAsync': '49babb5a1e6a0c5f188c2ae62b93b51cdfd63e45',
};

export const METHOD_BY_SHA1: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SHA1S_BY_METHOD).flatMap(([method, shas]) => shas.split(' ').map((sha) => [sha, method])),
);
