-- RedissonFencedLock.tryLockInnerAsync (Redisson 3.19+): RLock's acquire, plus a fencing token.
-- Every successful acquire, reentrant ones included, increments the token counter; the counter
-- is never deleted, so tokens only grow (on this node).
-- Returns {-1, token} when acquired, {pttl, -1} when another owner holds the lock.
-- KEYS[1] lock key (a hash), KEYS[2] token counter "redisson_lock_token:{name}"
-- ARGV[1] lease in ms, ARGV[2] lock name "<clientId>:<threadId>"
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    local token = redis.call('incr', KEYS[2]);
    return {-1, token};
end;
return {redis.call('pttl', KEYS[1]), -1};
