-- RedissonReadLock.tryLockInnerAsync: share the lock with other readers. The hash says
-- mode=read; each reader's field counts its holds, and every hold n has its own timeout key
-- <prefix>:n, so one reader's stale hold cannot keep the whole lock alive. A thread that holds
-- the write lock may also read.
-- KEYS[1] lock key (a hash), KEYS[2] this thread's timeout prefix "{name}:<lock name>:rwlock_timeout"
-- ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>",
-- ARGV[3] the same thread's write lock name "<clientId>:<threadId>:write"
-- Returns nil (acquired) or the lock's PTTL.
local mode = redis.call('hget', KEYS[1], 'mode');
if (mode == false) then
    redis.call('hset', KEYS[1], 'mode', 'read');
    redis.call('hset', KEYS[1], ARGV[2], 1);
    redis.call('set', KEYS[2] .. ':1', 1);
    redis.call('pexpire', KEYS[2] .. ':1', ARGV[1]);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;
if (mode == 'read') or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
    local ind = redis.call('hincrby', KEYS[1], ARGV[2], 1);
    local key = KEYS[2] .. ':' .. ind;
    redis.call('set', key, 1);
    redis.call('pexpire', key, ARGV[1]);
    local remainTime = redis.call('pttl', KEYS[1]);
    redis.call('pexpire', KEYS[1], math.max(remainTime, tonumber(ARGV[1])));
    return nil;
end;
return redis.call('pttl', KEYS[1]);
