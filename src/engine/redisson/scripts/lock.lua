-- RedissonLock.tryLockInnerAsync (Redisson 3.19+): take the lock, or re-enter it if this owner
-- already holds it; either way the TTL is reset to the lease. nil means acquired; otherwise the
-- remaining TTL (ms) of the current holder's lock.
-- KEYS[1] lock key (a hash)
-- ARGV[1] lease in ms (30000 under the watchdog)
-- ARGV[2] lock name "<clientId>:<threadId>"
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;
return redis.call('pttl', KEYS[1]);
