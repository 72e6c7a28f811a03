/**
 * The Lua RedissonExpirable sends to set a TTL, per release, exactly as Java builds it (one string
 * literal a line, as the other script files). RedissonMultiLock / RedissonRedLock call
 * `expireAsync(leaseTime)` on each sub-lock once all are taken; from 3.17.0 that is this script
 * (ARGV[2] is the NX/XX/GT/LT option, '' for none), before it a plain PEXPIRE. The SHA1 is the
 * one the real client sent at 3.27.2 (EVAL) and 4.7.0 (EVALSHA) in the oracle's RedLock runs.
 */
import { family } from './family';

export const EXPIRE = family('expire', 'RedissonExpirable.expireAsync', [
  {
    since: '3.17.0',
    sha1: '3fd750e0b43af99dbd223e5523718f18cded3664',
    lines: [
      'local result = 0;',
      'for j = 1, #KEYS, 1 do ',
      'local expireSet; ',
      "if ARGV[2] ~= '' then ",
      "expireSet = redis.call('pexpire', KEYS[j], ARGV[1], ARGV[2]); ",
      'else ',
      "expireSet = redis.call('pexpire', KEYS[j], ARGV[1]); ",
      'end; ',
      'if expireSet == 1 then ',
      'result = expireSet;',
      'end; ',
      'end; ',
      'return result; ',
    ],
  },
]);
