-- RedissonLock.unlockInnerAsync (Redisson 3.24+): release one hold. A latch key remembers the
-- outcome so a retried unlock (same request id) returns the same answer instead of failing.
-- Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
-- KEYS[1] lock key, KEYS[2] pub/sub channel, KEYS[3] unlock latch key
-- ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name,
-- ARGV[4] publish command ('PUBLISH' or 'SPUBLISH'), ARGV[5] latch TTL in ms
local val = redis.call('get', KEYS[3]);
if val ~= false then
    return tonumber(val);
end;

if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
    return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[2]);
    redis.call('set', KEYS[3], 0, 'px', ARGV[5]);
    return 0;
else
    redis.call('del', KEYS[1]);
    redis.call(ARGV[4], KEYS[2], ARGV[1]);
    redis.call('set', KEYS[3], 1, 'px', ARGV[5]);
    return 1;
end;
