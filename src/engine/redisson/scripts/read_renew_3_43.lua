-- RedissonReadLock.renewExpirationAsync up to 3.43: if this thread still holds the read lock,
-- push back the hash's TTL and then the hold timeout keys of EVERY field in the hash, so the
-- holds of other clients' readers (crashed ones too) are kept alive as well.
-- KEYS[1] lock key, KEYS[2] key prefix "{name}"
-- ARGV[1] lease in ms, ARGV[2] lock name of the renewing thread
-- Returns 1 (renewed) or 0 (this thread holds nothing).
local counter = redis.call('hget', KEYS[1], ARGV[2]);
if (counter ~= false) then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    if (redis.call('hlen', KEYS[1]) > 1) then
        local keys = redis.call('hkeys', KEYS[1]);
        for n, key in ipairs(keys) do
            counter = tonumber(redis.call('hget', KEYS[1], key));
            if type(counter) == 'number' then
                for i = counter, 1, -1 do
                    redis.call('pexpire', KEYS[2] .. ':' .. key .. ':rwlock_timeout:' .. i, ARGV[1]);
                end;
            end;
        end;
    end;
    return 1;
end;
return 0;
