-- RedissonFairLock.tryLockInnerAsync, EVAL_LONG form (lock(), tryLock(wait)): take the lock if it
-- is free and this thread is first in the queue; otherwise join the queue (once) and return how
-- long this thread should expect to wait.
-- KEYS[1] lock key (a hash), KEYS[2] queue "redisson_lock_queue:{name}" (LIST of lock names),
-- KEYS[3] timeouts "redisson_lock_timeout:{name}" (ZSET lock name -> deadline, client epoch ms)
-- ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
-- ARGV[3] threadWaitTime in ms, ARGV[4] the client's current time in ms
-- Returns nil (acquired) or a wait estimate in ms.

-- Waiters whose deadline has passed gave up long ago: drop them, but only from the head.
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

-- Free, and nobody queued ahead of us: take it and pull everyone's deadline forward one slot.
if (redis.call('exists', KEYS[1]) == 0)
    and ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then
    redis.call('lpop', KEYS[2]);
    redis.call('zrem', KEYS[3], ARGV[2]);
    local waiting = redis.call('zrange', KEYS[3], 0, -1);
    for i = 1, #waiting, 1 do
        redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), waiting[i]);
    end;
    redis.call('hset', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;

-- Reentry.
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;

-- Already queued: wait for the holder's ttl (or a message).
local queued = redis.call('zscore', KEYS[3], ARGV[2]);
if queued ~= false then
    local ttl = redis.call('pttl', KEYS[1]);
    return math.max(0, ttl);
end;

-- Join the queue behind the last waiter: its deadline (or the lock's ttl) plus our slot.
local last = redis.call('lindex', KEYS[2], -1);
local ttl;
if last ~= false and last ~= ARGV[2] then
    ttl = tonumber(redis.call('zscore', KEYS[3], last)) - tonumber(ARGV[4]);
else
    ttl = redis.call('pttl', KEYS[1]);
end;
local deadline = ttl + tonumber(ARGV[3]) + tonumber(ARGV[4]);
if redis.call('zadd', KEYS[3], deadline, ARGV[2]) == 1 then
    redis.call('rpush', KEYS[2], ARGV[2]);
end;
return ttl;
