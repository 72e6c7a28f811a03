-- RedissonLock.forceUnlockAsync: delete the lock whoever holds it, and wake waiters if there was
-- one. Returns 1 if a lock was deleted, 0 if there was none.
-- KEYS[1] lock key, KEYS[2] pub/sub channel
-- ARGV[1] unlock message (0), ARGV[2] publish command ('PUBLISH' or 'SPUBLISH')
if (redis.call('del', KEYS[1]) == 1) then
    redis.call(ARGV[2], KEYS[2], ARGV[1]);
    return 1;
else
    return 0;
end;
