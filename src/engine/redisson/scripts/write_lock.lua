-- RedissonWriteLock.tryLockInnerAsync: exclusive. Only a free lock (no mode) or this thread's own
-- write lock can be taken; a reader cannot upgrade. A reentrant write acquire ADDS the lease to
-- the remaining TTL instead of resetting it.
-- KEYS[1] lock key (a hash)
-- ARGV[1] lease in ms, ARGV[2] write lock name "<clientId>:<threadId>:write"
-- Returns nil (acquired) or the lock's PTTL.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
    redis.call('hset', KEYS[1], 'mode', 'write');
    redis.call('hset', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;
if (mode == 'write') then
    if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
        redis.call('hincrby', KEYS[1], ARGV[2], 1);
        local currentExpire = redis.call('pttl', KEYS[1]);
        redis.call('pexpire', KEYS[1], currentExpire + ARGV[1]);
        return nil;
    end;
end;
return redis.call('pttl', KEYS[1]);
