/**
 * The Lua RedissonSpinLock sends, per release, exactly as Java builds it: each line is one string literal of
 * the Java source (a blank line stands for a blank or comment line between them), so the
 * concatenation is the text Redis receives and hashes. Taken from the release tags of
 * redisson/src/main/java/org/redisson/; `since` is the first release tag with that text.
 */
import { family } from './family';

export const SPIN_LOCK = family('spinLock', 'RedissonSpinLock.tryLockInnerAsync', [
  {
    since: '3.15.0',
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
]);

export const SPIN_UNLOCK = family('spinUnlock', 'RedissonSpinLock.unlockInnerAsync', [
  {
    since: '3.15.0',
    sha1: '5b9e58d1bcb8498e14aa1d5b49a1ca5b90748946',
    lines: [
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then ",
      "return nil;",
      "end; ",
      "local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); ",
      "if (counter > 0) then ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return 0; ",
      "else ",
      "redis.call('del', KEYS[1]); ",
      "return 1; ",
      "end; ",
      "return nil;",
    ],
  },
  {
    since: '3.24.0',
    sha1: '73ac2729af29ea9a975f95e8097f7ee9a74cce3d',
    lines: [
      "local val = redis.call('get', KEYS[2]); ",
      "if val ~= false then ",
      "return tonumber(val);",
      "end; ",
      "",
      "if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then ",
      "return nil;",
      "end; ",
      "local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); ",
      "if (counter > 0) then ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "redis.call('set', KEYS[2], 0, 'px', ARGV[3]); ",
      "return 0; ",
      "else ",
      "redis.call('del', KEYS[1]); ",
      "redis.call('set', KEYS[2], 1, 'px', ARGV[3]); ",
      "return 1; ",
      "end; ",
    ],
  },
]);

export const SPIN_FORCE_UNLOCK = family('spinForceUnlock', 'RedissonSpinLock.forceUnlockAsync', [
  {
    since: '3.15.0',
    sha1: '51b433c3cc9a6ca991b3aefec63d23490c246318',
    lines: [
      "if (redis.call('del', KEYS[1]) == 1) then ",
      "return 1 ",
      "else ",
      "return 0 ",
      "end",
    ],
  },
]);
