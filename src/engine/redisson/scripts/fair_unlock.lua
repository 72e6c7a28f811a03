-- RedissonFairLock.unlockInnerAsync: release one hold and, when the lock is free, wake only the
-- thread at the head of the queue, on its own channel. A lock that no longer exists (its lease
-- ran out) is not an error for the fair lock: the head waiter is woken and 1 returned.
-- KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts,
-- KEYS[4] channel prefix "redisson_lock__channel:{name}" (a waiter listens on <prefix>:<lock name>),
-- KEYS[5] unlock latch key
-- ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name, ARGV[4] client time in ms,
-- ARGV[5] publish command, ARGV[6] latch TTL in ms
-- Returns nil (not the owner), 0 (still held) or 1 (released).
local val = redis.call('get', KEYS[5]);
if val ~= false then
    return tonumber(val);
end;

while true do
    local head = redis.call('lindex', KEYS[2], 0);
    if head == false then
        break;
    end;
    local deadline = tonumber(redis.call('zscore', KEYS[3], head));
    if deadline <= tonumber(ARGV[4]) then
        redis.call('zrem', KEYS[3], head);
        redis.call('lpop', KEYS[2]);
    else
        break;
    end;
end;

if (redis.call('exists', KEYS[1]) == 0) then
    local nextThread = redis.call('lindex', KEYS[2], 0);
    if nextThread ~= false then
        redis.call(ARGV[5], KEYS[4] .. ':' .. nextThread, ARGV[1]);
    end;
    redis.call('set', KEYS[5], 1, 'px', ARGV[6]);
    return 1;
end;

if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
    return nil;
end;

local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[2]);
    redis.call('set', KEYS[5], 0, 'px', ARGV[6]);
    return 0;
end;

redis.call('del', KEYS[1]);
redis.call('set', KEYS[5], 1, 'px', ARGV[6]);
local nextThread = redis.call('lindex', KEYS[2], 0);
if nextThread ~= false then
    redis.call(ARGV[5], KEYS[4] .. ':' .. nextThread, ARGV[1]);
end;
return 1;
