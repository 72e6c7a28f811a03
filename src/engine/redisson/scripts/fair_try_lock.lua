-- RedissonFairLock.tryLockInnerAsync, EVAL_NULL_BOOLEAN form (tryLock() without a wait): one
-- attempt that never joins the queue.
-- KEYS[1] lock key, KEYS[2] queue, KEYS[3] timeouts (see fair_lock.lua)
-- ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] threadWaitTime in ms, ARGV[4] client time in ms
-- Returns nil (acquired) or 1 (not acquired).
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

if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;

return 1;
