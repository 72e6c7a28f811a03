-- Release a SET NX PX lock only if it still holds this acquisition's token: the compare and the
-- delete run as one atomic script, so a lock someone else took after our lease ran out survives.
-- KEYS[1] lock key, ARGV[1] our token. Returns 1 if deleted, 0 if the lock was not ours (or gone).
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
else
    return 0
end
