-- RedissonReadLock / RedissonWriteLock.forceUnlockAsync: delete the lock, but only while it is in
-- this half's mode (a read lock's forceUnlock leaves a write lock alone and vice versa).
-- KEYS[1] lock key, KEYS[2] channel "redisson_rwlock:{name}"
-- ARGV[1] message, ARGV[2] mode ('read' or 'write'), ARGV[3] publish command
-- Returns 1 if deleted, 0 otherwise.
if (redis.call('hget', KEYS[1], 'mode') == ARGV[2]) then
    redis.call('del', KEYS[1]);
    redis.call(ARGV[3], KEYS[2], ARGV[1]);
    return 1;
end;
return 0;
