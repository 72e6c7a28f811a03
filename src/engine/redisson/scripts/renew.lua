-- LockTask (Redisson 3.44+ watchdog): renew a batch of locks in one call. For each lock key that
-- still holds this client's lock name, reset its TTL to the lease and report 1; otherwise 0, which
-- tells the client to stop renewing that lock.
-- KEYS[i]   lock key i
-- ARGV[1]   lease in ms (lockWatchdogTimeout, 30000)
-- ARGV[i+1] lock name "<clientId>:<threadId>" of the first waiting thread for KEYS[i]
local result = {};
for i = 1, #KEYS, 1 do
    if (redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1) then
        redis.call('pexpire', KEYS[i], ARGV[1]);
        table.insert(result, 1);
    else
        table.insert(result, 0);
    end;
end;
return result;
