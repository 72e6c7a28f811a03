/** Every Redisson script of every release, registered: what a reader of texts (the script view) imports. */
import './RedissonLock';
import './RedissonFairLock';
import './RedissonReadWriteLock';
import './RedissonSpinLock';
import './RedissonFencedLock';
import './RedissonExpirable';

export { allRedissonScripts, redissonScriptOf, type RedissonScript } from './family';
