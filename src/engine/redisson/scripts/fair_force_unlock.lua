-- RedissonFairLock.forceUnlockAsync: delete the lock whoever holds it; if there was one, wake the
-- head of the queue. Returns 1 if a lock was deleted, 0 otherwise.
-- KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts, KEYS[4] channel prefix
-- ARGV[1] unlock message (0), ARGV[2] client time in ms, ARGV[3] publish command
while true do
    local head = redis.call('lindex', KEYS[2], 0);
    if head == false then
        break;
    end;
    local deadline = tonumber(redis.call('zscore', KEYS[3], head));
    if deadline <= tonumber(ARGV[2]) then
        redis.call('zrem', KEYS[3], head);
        redis.call('lpop', KEYS[2]);
    else
        break;
    end;
end;

if (redis.call('del', KEYS[1]) == 1) then
    local nextThread = redis.call('lindex', KEYS[2], 0);
    if nextThread ~= false then
        redis.call(ARGV[3], KEYS[4] .. ':' .. nextThread, ARGV[1]);
    end;
    return 1;
end;
return 0;
