-- RedissonBaseLock.renewExpirationAsync (Redisson 2.6 .. 3.43, one timer per lock): push the
-- lock's TTL back to the lease if this owner still holds it. 1 renewed, 0 lost (stop renewing).
-- KEYS[1] lock key
-- ARGV[1] lease in ms (internalLockLeaseTime, 30000 under the watchdog)
-- ARGV[2] lock name "<clientId>:<threadId>" of the first thread registered for this lock
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return 1;
end;
return 0;
