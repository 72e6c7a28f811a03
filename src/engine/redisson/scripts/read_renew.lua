-- ReadLockTask (the watchdog for read locks): for every local lock name still holding the read
-- lock, push back the TTL of each of its hold timeout keys, and then the hash's.
-- KEYS[1] lock key, KEYS[2] key prefix "{name}"
-- ARGV[1] lease in ms, ARGV[2..] lock names of this client's threads holding it
-- Returns 1 if any name still holds it (renewed), 0 otherwise.
local alive = false;
for i = 2, #ARGV, 1 do
    local holds = tonumber(redis.call('hget', KEYS[1], ARGV[i]));
    if type(holds) == 'number' then
        alive = true;
        for n = holds, 1, -1 do
            redis.call('pexpire', KEYS[2] .. ':' .. ARGV[i] .. ':rwlock_timeout:' .. n, ARGV[1]);
        end;
    end;
end;
if alive then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return 1;
end;
return 0;
