-- RedissonReadLock.unlockInnerAsync: release one read hold and its timeout key. While other
-- holds remain, the hash lives as long as the longest remaining timeout key; when none remain
-- the lock is deleted and waiters are told (0).
-- KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}",
-- KEYS[3] this thread's timeout prefix, KEYS[4] key prefix "{name}", KEYS[5] unlock latch key
-- ARGV[1] unlock message (0), ARGV[2] lock name, ARGV[3] publish command, ARGV[4] latch TTL in ms
-- Returns nil (not a holder), 0 (others still hold it) or 1 (deleted).
local val = redis.call('get', KEYS[5]);
if val ~= false then
    return tonumber(val);
end;

local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
    redis.call(ARGV[3], KEYS[2], ARGV[1]);
    return nil;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
    return nil;
end;

local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1);
if (counter == 0) then
    redis.call('hdel', KEYS[1], ARGV[2]);
end;
redis.call('del', KEYS[3] .. ':' .. (counter + 1));

if (redis.call('hlen', KEYS[1]) > 1) then
    local maxRemainTime = -3;
    local fields = redis.call('hkeys', KEYS[1]);
    for n, field in ipairs(fields) do
        local holds = tonumber(redis.call('hget', KEYS[1], field));
        if type(holds) == 'number' then
            for i = holds, 1, -1 do
                local remainTime = redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. i);
                maxRemainTime = math.max(remainTime, maxRemainTime);
            end;
        end;
    end;
    if maxRemainTime > 0 then
        redis.call('pexpire', KEYS[1], maxRemainTime);
        redis.call('set', KEYS[5], 0, 'px', ARGV[4]);
        return 0;
    end;
    if mode == 'write' then
        redis.call('set', KEYS[5], 0, 'px', ARGV[4]);
        return 0;
    end;
end;

redis.call('del', KEYS[1]);
redis.call(ARGV[3], KEYS[2], ARGV[1]);
redis.call('set', KEYS[5], 1, 'px', ARGV[4]);
return 1;
