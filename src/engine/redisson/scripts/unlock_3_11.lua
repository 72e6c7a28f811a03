-- RedissonLock.unlockInnerAsync as of Redisson 3.11 (3.10.6 .. 3.23): release one hold. No unlock
-- latch yet, and the publish command is always PUBLISH.
-- Returns nil (not the owner), 0 (still held: reentrant count > 0) or 1 (released, published).
-- KEYS[1] lock key, KEYS[2] pub/sub channel
-- ARGV[1] unlock message (0), ARGV[2] lease in ms, ARGV[3] lock name
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
    return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
    redis.call('pexpire', KEYS[1], ARGV[2]);
    return 0;
else
    redis.call('del', KEYS[1]);
    redis.call('publish', KEYS[2], ARGV[1]);
    return 1;
end;
return nil;
