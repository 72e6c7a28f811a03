-- RedissonSpinLock.unlockInnerAsync: release one hold, like RLock's unlock but without any
-- PUBLISH: nobody is subscribed, waiters poll. The latch key makes a retried unlock idempotent.
-- Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released).
-- KEYS[1] lock key, KEYS[2] unlock latch key
-- ARGV[1] lease in ms, ARGV[2] lock name, ARGV[3] latch TTL in ms
local val = redis.call('get', KEYS[2]);
if val ~= false then
    return tonumber(val);
end;

if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then
    return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1);
if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    redis.call('set', KEYS[2], 0, 'px', ARGV[3]);
    return 0;
end;
redis.call('del', KEYS[1]);
redis.call('set', KEYS[2], 1, 'px', ARGV[3]);
return 1;
