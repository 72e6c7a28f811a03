-- RedissonFairLock.acquireFailedAsync: a tryLock gave up. Leave the queue, and give the waiters
-- behind us back the slot we no longer need.
-- KEYS[1] queue, KEYS[2] timeouts
-- ARGV[1] lock name, ARGV[2] the wait (tryLock's waitTime, or threadWaitTime)
local queue = redis.call('lrange', KEYS[1], 0, -1);
local i = 1;
while i <= #queue and queue[i] ~= ARGV[1] do
    i = i + 1;
end;
i = i + 1;
while i <= #queue do
    redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), queue[i]);
    i = i + 1;
end;
redis.call('zrem', KEYS[2], ARGV[1]);
redis.call('lrem', KEYS[1], 0, ARGV[1]);
