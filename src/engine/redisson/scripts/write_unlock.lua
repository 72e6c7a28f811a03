-- RedissonWriteLock.unlockInnerAsync: release one write hold. The last one deletes the lock and
-- publishes READ_UNLOCK_MESSAGE (1), which wakes every waiter (readers can all go in at once);
-- if the writer still holds read locks, the lock stays, downgraded to mode=read.
-- KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}", KEYS[3] unlock latch key
-- ARGV[1] read-unlock message (1), ARGV[2] lease in ms, ARGV[3] write lock name,
-- ARGV[4] publish command, ARGV[5] latch TTL in ms
-- Returns nil (not the writer), 0 (still held) or 1 (released).
local val = redis.call('get', KEYS[3]);
if val ~= false then
    return tonumber(val);
end;

local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
    redis.call(ARGV[4], KEYS[2], ARGV[1]);
    return nil;
end;
if (mode == 'write') then
    if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
        return nil;
    end;
    local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
    if (counter > 0) then
        redis.call('pexpire', KEYS[1], ARGV[2]);
        redis.call('set', KEYS[3], 0, 'px', ARGV[5]);
        return 0;
    end;
    redis.call('hdel', KEYS[1], ARGV[3]);
    if (redis.call('hlen', KEYS[1]) == 1) then
        redis.call('del', KEYS[1]);
        redis.call(ARGV[4], KEYS[2], ARGV[1]);
    else
        redis.call('hset', KEYS[1], 'mode', 'read');
    end;
    redis.call('set', KEYS[3], 1, 'px', ARGV[5]);
    return 1;
end;
return nil;
