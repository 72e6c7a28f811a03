/**
 * fast-check arbitraries for random command sequences over a handful of keys: strings, hashes,
 * lists, sorted sets, expiry, type errors and small scripts (Redisson's own among them). Used by
 * the differential property test; every command is something both servers must answer alike.
 */
import fc from 'fast-check';

export interface GenCommand {
  readonly argv: readonly string[];
  /** integer replies (also inside arrays) may differ by this much: TTLs tick on the real server */
  readonly tolerance?: number;
  /** the reply is an unordered set (KEYS) */
  readonly unordered?: boolean;
  /**
   * A Lua float `%` whose exact result is zero: the simulator may answer "-0" where Redis answers
   * "0" (known difference `lua-float-mod-negative-zero`, docs/lua-differences.md). Nothing else is
   * relaxed for these commands.
   */
  readonly negativeZeroMod?: boolean;
}

// Few keys, so commands keep colliding: a GET on a hash, an INCR on a list, a lock over a string.
const key = fc.constantFrom('a', 'b', 'c', 'lock');
const field = fc.constantFrom('f', 'g', 'owner-1:1', 'owner-2:7');
const value = fc.constantFrom('0', '1', '-5', '10', '41', 'x', '', ' 1', '1.5', '9223372036854775807', 'a b');
const smallInt = fc.integer({ min: -3, max: 3 }).map(String);
const increment = fc.constantFrom('1', '-1', '5', '-100', '9223372036854775807', 'x', '1.5');
const score = fc.constantFrom('0', '1', '1.5', '-2', '10', 'inf', '-inf', 'x');
const member = fc.constantFrom('m', 'n', 'o');
// Long enough that nothing expires while a run is in flight; 0 and negatives delete at once.
const ms = fc.constantFrom('0', '-1', '60000', '100000', '30000');
const secs = fc.constantFrom('0', '-1', '100', '1000');
const owner = fc.constantFrom(
  '8743c9c0-0795-4907-87fd-6c719a6b4586:1',
  '8743c9c0-0795-4907-87fd-6c719a6b4586:2',
);
const latch = fc.constantFrom('redisson_unlock_latch:{lock}:0a', 'redisson_unlock_latch:{lock}:0b');

const cmd = (...argv: string[]): GenCommand => ({ argv });
const ttlCmd = (tolerance: number, ...argv: string[]): GenCommand => ({ argv, tolerance });

const strings: fc.Arbitrary<GenCommand>[] = [
  fc
    .tuple(
      key,
      value,
      fc.constantFrom([], ['NX'], ['XX']),
      fc.constantFrom([], ['PX', '100000'], ['EX', '100'], ['KEEPTTL'], ['PX', '0']),
      fc.constantFrom([], ['GET']),
    )
    .map(([k, v, cond, ttl, get]) => cmd('SET', k, v, ...cond, ...ttl, ...get)),
  key.map((k) => cmd('GET', k)),
  fc.tuple(key, value).map(([k, v]) => cmd('SETNX', k, v)),
  key.map((k) => cmd('INCR', k)),
  key.map((k) => cmd('DECR', k)),
  fc.tuple(key, increment).map(([k, n]) => cmd('INCRBY', k, n)),
  fc.tuple(key, increment).map(([k, n]) => cmd('DECRBY', k, n)),
  fc.array(key, { minLength: 1, maxLength: 3 }).map((ks) => cmd('MGET', ...ks)),
];

const hashes: fc.Arbitrary<GenCommand>[] = [
  fc
    .tuple(key, fc.array(fc.tuple(field, value), { minLength: 1, maxLength: 2 }))
    .map(([k, pairs]) => cmd('HSET', k, ...pairs.flat())),
  fc.tuple(key, field).map(([k, f]) => cmd('HGET', k, f)),
  fc.tuple(key, field, field).map(([k, f, g]) => cmd('HMGET', k, f, g)),
  key.map((k) => cmd('HGETALL', k)),
  fc.tuple(key, field).map(([k, f]) => cmd('HDEL', k, f)),
  fc.tuple(key, field).map(([k, f]) => cmd('HEXISTS', k, f)),
  fc.tuple(key, field, increment).map(([k, f, n]) => cmd('HINCRBY', k, f, n)),
  key.map((k) => cmd('HLEN', k)),
  key.map((k) => cmd('HKEYS', k)),
  key.map((k) => cmd('HVALS', k)),
];

const lists: fc.Arbitrary<GenCommand>[] = [
  fc
    .tuple(fc.constantFrom('RPUSH', 'LPUSH'), key, fc.array(value, { minLength: 1, maxLength: 3 }))
    .map(([c, k, vs]) => cmd(c, k, ...vs)),
  fc
    .tuple(fc.constantFrom('LPOP', 'RPOP'), key, fc.constantFrom([], ['2'], ['0']))
    .map(([c, k, n]) => cmd(c, k, ...n)),
  fc.tuple(key, smallInt).map(([k, i]) => cmd('LINDEX', k, i)),
  fc.tuple(key, smallInt, smallInt).map(([k, a, b]) => cmd('LRANGE', k, a, b)),
  fc.tuple(key, smallInt, value).map(([k, n, v]) => cmd('LREM', k, n, v)),
  key.map((k) => cmd('LLEN', k)),
];

const zsets: fc.Arbitrary<GenCommand>[] = [
  fc
    .tuple(key, fc.constantFrom([], [], ['NX'], ['XX'], ['CH'], ['GT'], ['INCR']), score, member)
    .map(([k, opts, s, m]) => cmd('ZADD', k, ...opts, s, m)),
  fc.tuple(key, member).map(([k, m]) => cmd('ZREM', k, m)),
  fc.tuple(key, member).map(([k, m]) => cmd('ZSCORE', k, m)),
  fc
    .tuple(key, smallInt, smallInt, fc.constantFrom([], ['WITHSCORES']))
    .map(([k, a, b, w]) => cmd('ZRANGE', k, a, b, ...w)),
  fc
    .tuple(key, fc.constantFrom('-inf', '0', '(1', '1.5'), fc.constantFrom('+inf', '10', '(10', '1'))
    .map(([k, a, b]) => cmd('ZRANGEBYSCORE', k, a, b, 'WITHSCORES')),
  fc.tuple(key, score, member).map(([k, s, m]) => cmd('ZINCRBY', k, s, m)),
  key.map((k) => cmd('ZCARD', k)),
];

const keyspace: fc.Arbitrary<GenCommand>[] = [
  fc.array(key, { minLength: 1, maxLength: 2 }).map((ks) => cmd('DEL', ...ks)),
  fc.array(key, { minLength: 1, maxLength: 2 }).map((ks) => cmd('EXISTS', ...ks)),
  key.map((k) => cmd('TYPE', k)),
  fc.constant(cmd('DBSIZE')),
  fc.constant<GenCommand>({ argv: ['KEYS', '*'], unordered: true }),
  // No GT/LT: the real clock moves between two commands while the virtual clock does not, so
  // "PEXPIRE k 60000" twice ties on the simulator and not on the server. The corpus covers them.
  fc
    .tuple(key, ms, fc.constantFrom([], [], ['NX'], ['XX']))
    .map(([k, t, opt]) => cmd('PEXPIRE', k, t, ...opt)),
  fc.tuple(key, secs).map(([k, t]) => cmd('EXPIRE', k, t)),
  fc.tuple(key, fc.constantFrom('1000', '4102444800000')).map(([k, t]) => cmd('PEXPIREAT', k, t)),
  key.map((k) => cmd('PERSIST', k)),
  key.map((k) => ttlCmd(200, 'PTTL', k)),
  key.map((k) => ttlCmd(1, 'TTL', k)),
];

const floatIncr = fc.constantFrom('0.1', '1.5', '-3', '1e10', '-0.25', '3.0e-5', 'x', '10.50');

const extras: fc.Arbitrary<GenCommand>[] = [
  fc.tuple(key, floatIncr).map(([k, n]) => cmd('INCRBYFLOAT', k, n)),
  fc.tuple(key, field, floatIncr).map(([k, f, n]) => cmd('HINCRBYFLOAT', k, f, n)),
  fc.tuple(key, value).map(([k, v]) => cmd('APPEND', k, v)),
  fc.tuple(key, value).map(([k, v]) => cmd('GETSET', k, v)),
  key.map((k) => cmd('GETDEL', k)),
  fc
    .tuple(key, fc.constantFrom([], ['PX', '100000'], ['EX', '1000'], ['PERSIST'], ['EX', '0']))
    .map(([k, opt]) => cmd('GETEX', k, ...opt)),
  key.map((k) => cmd('STRLEN', k)),
  fc.tuple(key, key).map(([a, b]) => cmd('RENAME', a, b)),
  fc.tuple(key, smallInt, value).map(([k, i, v]) => cmd('LSET', k, i, v)),
  fc.tuple(key, smallInt, smallInt).map(([k, a, b]) => cmd('LTRIM', k, a, b)),
  fc.tuple(key, field, value).map(([k, f, v]) => cmd('HSETNX', k, f, v)),
  fc.tuple(key, member).map(([k, m]) => cmd('ZRANK', k, m)),
  fc
    .tuple(key, fc.constantFrom('-inf', '0', '(1'), fc.constantFrom('+inf', '1.5', '(10'))
    .map(([k, a, b]) => cmd('ZCOUNT', k, a, b)),
  fc.tuple(key, smallInt, smallInt).map(([k, a, b]) => cmd('ZREMRANGEBYRANK', k, a, b)),
];

// Lua 5.1 has only doubles: literal arithmetic must never wrap like Lua 5.3's integers.
const luaNumber = fc.constantFrom(
  '0',
  '1',
  '-1',
  '3',
  '7',
  '2147483647',
  '-2147483648',
  '65536',
  '100000',
  '0.5',
  '1e15',
);
const luaOp = fc.constantFrom('+', '-', '*', '/', '%', '^');
const arithmetic: fc.Arbitrary<GenCommand>[] = [
  fc.tuple(luaNumber, luaOp, luaNumber).map(([a, op, b]) => cmd('EVAL', `return ${a} ${op} ${b}`, '0')),
  fc.tuple(luaNumber, luaOp, luaNumber).map(([a, op, b]) => ({
    ...cmd('EVAL', `return tostring(${a} ${op} ${b})`, '0'),
    ...(op === '%' ? { negativeZeroMod: true } : {}),
  })),
  fc.tuple(luaOp, luaNumber, luaNumber).map(([op, a, b]) => ({
    ...cmd('EVAL', `return tostring(tonumber(ARGV[1]) ${op} ARGV[2])`, '0', a, b),
    ...(op === '%' ? { negativeZeroMod: true } : {}),
  })),
];

const transactions: fc.Arbitrary<GenCommand>[] = [
  fc.constant(cmd('MULTI')),
  fc.constant(cmd('EXEC')),
  fc.constant(cmd('DISCARD')),
  key.map((k) => cmd('WATCH', k)),
  fc.constant(cmd('UNWATCH')),
];

const LOCK =
  "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then " +
  "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; " +
  "return redis.call('pttl', KEYS[1]);";
const UNLOCK =
  "local val = redis.call('get', KEYS[3]); if val ~= false then return tonumber(val); end; " +
  "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end; " +
  "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); " +
  "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); redis.call('set', KEYS[3], 0, 'px', ARGV[5]); return 0; " +
  "else redis.call('del', KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); redis.call('set', KEYS[3], 1, 'px', ARGV[5]); return 1; end;";

const scripts: fc.Arbitrary<GenCommand>[] = [
  key.map((k) => cmd('EVAL', "return redis.call('get', KEYS[1])", '1', k)),
  fc
    .tuple(key, increment)
    .map(([k, n]) => cmd('EVAL', "return redis.call('incrby', KEYS[1], ARGV[1])", '1', k, n)),
  fc
    .tuple(key, field, increment)
    .map(([k, f, n]) =>
      cmd('EVAL', "return redis.pcall('hincrby', KEYS[1], ARGV[1], ARGV[2])", '1', k, f, n),
    ),
  fc
    .tuple(key, value)
    .map(([k, v]) =>
      cmd(
        'EVAL',
        "redis.call('rpush', KEYS[1], ARGV[1]); return redis.call('lrange', KEYS[1], 0, -1)",
        '1',
        k,
        v,
      ),
    ),
  key.map((k) =>
    cmd('EVAL', "return {redis.call('type', KEYS[1]).ok, redis.call('exists', KEYS[1])}", '1', k),
  ),
  fc
    .tuple(key, value)
    .map(([k, v]) =>
      cmd(
        'EVAL',
        "local v = redis.call('get', KEYS[1]); if v then return v .. ARGV[1] end; return false",
        '1',
        k,
        v,
      ),
    ),
  value.map((v) => cmd('EVAL', 'return tonumber(ARGV[1])', '0', v)),
  value.map((v) => cmd('EVAL', 'return {tonumber(ARGV[1]), ARGV[1], (tonumber(ARGV[1]) or 0) / 4}', '0', v)),
  fc
    .tuple(fc.constantFrom('get', 'hgetall', 'lrange', 'zcard', 'ttl', 'type', 'incr', 'lpop'), key)
    .map(([c, k]) => cmd('EVAL', 'return redis.pcall(ARGV[1], KEYS[1])', '1', k, c)),
  fc
    .tuple(key, member)
    .map(([k, m]) =>
      cmd('EVAL', "local s = redis.call('zscore', KEYS[1], ARGV[1]); return {s, type(s)}", '1', k, m),
    ),
  value.map((v) => cmd('EVAL', "return redis.call('set', 'a', tonumber(ARGV[1]) or ARGV[1])", '0', v)),
  fc.tuple(key, owner).map(([k, o]) => ttlCmd(200, 'EVAL', LOCK, '1', k, '30000', o)),
  fc
    .tuple(key, owner, latch)
    .map(([k, o, l]) =>
      cmd('EVAL', UNLOCK, '3', k, 'redisson_lock__channel:{lock}', l, '0', '30000', o, 'PUBLISH', '16000'),
    ),
];

// Writes come first in each group and weigh more, so keys fill up and reads see real values.
const weighted = (arbs: fc.Arbitrary<GenCommand>[], writes: number) =>
  arbs.map((arbitrary, i) => ({ arbitrary, weight: i < writes ? 4 : 1 }));

export const commandArb: fc.Arbitrary<GenCommand> = fc.oneof(
  ...weighted(strings, 1),
  ...weighted(hashes, 1),
  ...weighted(lists, 1),
  ...weighted(zsets, 1),
  ...weighted(keyspace, 0),
  ...weighted(extras, 0),
  ...weighted(transactions, 0),
  ...weighted(arithmetic, 0),
  ...weighted(scripts, 0),
);

export const sequenceArb = fc.array(commandArb, { minLength: 1, maxLength: 60, size: 'max' });
