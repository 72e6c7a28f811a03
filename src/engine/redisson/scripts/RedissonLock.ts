/**
 * The Lua RedissonLock sends, per release, exactly as Java builds it: each line is one string literal of
 * the Java source (a blank line stands for a blank or comment line between them), so the
 * concatenation is the text Redis receives and hashes. Taken from the release tags of
 * redisson/src/main/java/org/redisson/; `since` is the first release tag with that text.
 */
import { family } from './family';

export const LOCK = family('lock', 'RedissonLock.tryLockInnerAsync', [
  {
    since: '3.11.1',
    sha1: '9401052d872adfd0179ef8c8e8c028512707629a',
    lines: [
      "if (redis.call('exists', KEYS[1]) == 0) then ",
      "redis.call('hset', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return nil; ",
      "end; ",
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then ",
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return nil; ",
      "end; ",
      "return redis.call('pttl', KEYS[1]);",
    ],
  },
  {
    since: '3.12.3',
    sha1: 'dad0f8d619e548e04f21fb48d50be5034df3adae',
    lines: [
      "if (redis.call('exists', KEYS[1]) == 0) then ",
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return nil; ",
      "end; ",
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then ",
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return nil; ",
      "end; ",
      "return redis.call('pttl', KEYS[1]);",
    ],
  },
  {
    since: '3.19.0',
    sha1: '149c5a8bf18676fd99e9e6e24923bd64d9b62f94',
    lines: [
      "if ((redis.call('exists', KEYS[1]) == 0) ",
      "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then ",
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return nil; ",
      "end; ",
      "return redis.call('pttl', KEYS[1]);",
    ],
  },
]);

export const UNLOCK = family('unlock', 'RedissonLock.unlockInnerAsync', [
  {
    since: '3.11.1',
    sha1: '3ffe249c16dee540ac8ab32e39bd408626b9aff7',
    lines: [
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then ",
      "return nil;",
      "end; ",
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); ",
      "if (counter > 0) then ",
      "redis.call('pexpire', KEYS[1], ARGV[2]); ",
      "return 0; ",
      "else ",
      "redis.call('del', KEYS[1]); ",
      "redis.call('publish', KEYS[2], ARGV[1]); ",
      "return 1; ",
      "end; ",
      "return nil;",
    ],
  },
  {
    since: '3.22.0',
    sha1: '778cea8aada230ae060b432fc333adaec85f2f4c',
    lines: [
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then ",
      "return nil;",
      "end; ",
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); ",
      "if (counter > 0) then ",
      "redis.call('pexpire', KEYS[1], ARGV[2]); ",
      "return 0; ",
      "else ",
      "redis.call('del', KEYS[1]); ",
      "redis.call(ARGV[4], KEYS[2], ARGV[1]); ",
      "return 1; ",
      "end; ",
      "return nil;",
    ],
  },
  {
    since: '3.24.0',
    sha1: '6866459238a13a701d42f4971f12d9f3a50e2442',
    lines: [
      "local val = redis.call('get', KEYS[3]); ",
      "if val ~= false then ",
      "return tonumber(val);",
      "end; ",
      "",
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then ",
      "return nil;",
      "end; ",
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); ",
      "if (counter > 0) then ",
      "redis.call('pexpire', KEYS[1], ARGV[2]); ",
      "redis.call('set', KEYS[3], 0, 'px', ARGV[5]); ",
      "return 0; ",
      "else ",
      "redis.call('del', KEYS[1]); ",
      "redis.call(ARGV[4], KEYS[2], ARGV[1]); ",
      "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); ",
      "return 1; ",
      "end; ",
    ],
  },
]);

export const FORCE_UNLOCK = family('forceUnlock', 'RedissonLock.forceUnlockAsync', [
  {
    since: '3.11.1',
    sha1: '7e9c80b3d786b95d5d4aaf8fd73adb9775fa6fb1',
    lines: [
      "if (redis.call('del', KEYS[1]) == 1) then ",
      "redis.call('publish', KEYS[2], ARGV[1]); ",
      "return 1 ",
      "else ",
      "return 0 ",
      "end",
    ],
  },
  {
    since: '3.22.0',
    sha1: '605e338249a7a1d40df83b04f7658354f883b41b',
    lines: [
      "if (redis.call('del', KEYS[1]) == 1) then ",
      "redis.call(ARGV[2], KEYS[2], ARGV[1]); ",
      "return 1 ",
      "else ",
      "return 0 ",
      "end",
    ],
  },
]);

export const RENEW = family('renew', 'RedissonBaseLock.renewExpirationAsync', [
  {
    since: '3.11.1',
    sha1: '8e19a1ddbdee9138df9f32a480c57addab4353d1',
    lines: [
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return 1; ",
      "end; ",
      "return 0;",
    ],
  },
]);

export const RENEW_BATCH = family('renewBatch', 'LockTask', [
  {
    since: '3.44.0',
    sha1: '6a3d31570dc6f4b0bd32bcdc8e75667747c6f635',
    lines: [
      "local result = {} ",
      "for i = 1, #KEYS, 1 do ",
      "if (redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1) then ",
      "redis.call('pexpire', KEYS[i], ARGV[1]); ",
      "table.insert(result, 1); ",
      "else ",
      "table.insert(result, 0); ",
      "end; ",
      "end; ",
      "return result;",
    ],
  },
]);
