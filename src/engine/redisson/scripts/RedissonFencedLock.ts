/**
 * The Lua RedissonFencedLock sends, per release, exactly as Java builds it: each line is one string literal of
 * the Java source (a blank line stands for a blank or comment line between them), so the
 * concatenation is the text Redis receives and hashes. Taken from the release tags of
 * redisson/src/main/java/org/redisson/; `since` is the first release tag with that text.
 */
import { family } from './family';

export const FENCED_LOCK = family('fencedLock', 'RedissonFencedLock.tryLockInnerAsync', [
  {
    since: '3.19.0',
    sha1: '49babb5a1e6a0c5f188c2ae62b93b51cdfd63e45',
    lines: [
      "if (redis.call('exists', KEYS[1]) == 0 ",
      "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then ",
      "local token = redis.call('incr', KEYS[2]);",
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); ",
      "redis.call('pexpire', KEYS[1], ARGV[1]); ",
      "return {-1, token}; ",
      "end; ",
      "return {redis.call('pttl', KEYS[1]), -1};",
    ],
  },
]);
