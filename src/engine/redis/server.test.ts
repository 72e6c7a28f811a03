import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import type { ScriptHost } from './eval';
import { commandKeys, commandTable, lookupCommand, RedisServer } from './server';
import { fixture } from './test_server';

function hostOf(server: RedisServer): ScriptHost {
  // The host is what the Lua layer receives; reach it the way the ScriptEngine holds it.
  return (server.scripts as unknown as { host: ScriptHost }).host;
}

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('dispatch', () => {
  it('unknown commands quote each argument followed by a space, cut at 128 bytes', () => {
    const { run } = fixture();
    expect(run('foo')).toBe("(error) ERR unknown command 'foo', with args beginning with: ");
    expect(run('FOO', 'a b', 'c')).toBe(
      "(error) ERR unknown command 'FOO', with args beginning with: 'a b' 'c' ",
    );
    expect(run('foo', 'a\nb')).toBe("(error) ERR unknown command 'foo', with args beginning with: 'a b' ");
    const long = run('x'.repeat(150), 'a'.repeat(100), 'b'.repeat(54), 'c');
    expect(long).toBe(
      `(error) ERR unknown command '${'x'.repeat(128)}', with args beginning with: '${'a'.repeat(100)}' '${'b'.repeat(25)}' `,
    );
  });

  it('checks arity with the lower-case full name, subcommands included', () => {
    const { run } = fixture();
    expect(run('GET')).toBe("(error) ERR wrong number of arguments for 'get' command");
    expect(run('GET', 'a', 'b')).toBe("(error) ERR wrong number of arguments for 'get' command");
    expect(run('PUBSUB')).toBe("(error) ERR wrong number of arguments for 'pubsub' command");
    expect(run('PUBSUB', 'NUMPAT', 'x')).toBe(
      "(error) ERR wrong number of arguments for 'pubsub|numpat' command",
    );
    expect(run('pubsub', 'foo')).toBe("(error) ERR unknown subcommand 'foo'. Try PUBSUB HELP.");
    expect(run('script', 'foo')).toBe("(error) ERR unknown subcommand 'foo'. Try SCRIPT HELP.");
    expect(run('SCRIPT')).toBe("(error) ERR wrong number of arguments for 'script' command");
    expect(run('ping', 'a', 'b')).toBe("(error) ERR wrong number of arguments for 'ping' command");
    expect(run('GeT', 'nokey')).toBe('(nil)');
  });

  it('exposes name, arity and flags as COMMAND INFO reports them', () => {
    const server = new RedisServer({ clock: new ManualClock() });
    const spec = (n: string) => {
      const s = server.commandSpec(n)!;
      return [s.name, s.arity, [...s.flags].join(' ')];
    };
    expect(spec('HSET')).toEqual(['hset', -4, 'write denyoom fast']);
    expect(spec('pexpire')).toEqual(['pexpire', -3, 'write fast']);
    expect(spec('publish')).toEqual(['publish', 3, 'pubsub loading stale fast']);
    expect(spec('subscribe')).toEqual(['subscribe', -2, 'pubsub noscript loading stale']);
    expect(spec('eval')).toEqual(['eval', -3, 'noscript stale skip_monitor no_mandatory_keys movablekeys']);
    expect(spec('script|load')).toEqual(['script|load', 3, 'noscript stale']);
    expect(spec('get')).toEqual(['get', 2, 'readonly fast']);
    expect(server.commandSpec('nope')).toBeUndefined();
  });

  it('keyspace commands: EXISTS counts repeats, DEL skips expired keys, TYPE, FLUSH options, RENAME keeps the TTL', () => {
    const { run, clock } = fixture(0);
    run('MSET', 'a', '1', 'b', '2');
    run('HSET', 'h', 'f', 'v');
    run('RPUSH', 'l', 'x');
    run('ZADD', 'z', '1', 'm');
    expect(run('EXISTS', 'a', 'a', 'nokey')).toBe('(integer) 2');
    expect(['a', 'h', 'l', 'z', 'nokey'].map((k) => run('TYPE', k))).toEqual([
      'string',
      'hash',
      'list',
      'zset',
      'none',
    ]);
    run('SET', 'gone', 'v', 'PX', '10');
    clock.set(11);
    expect(run('DEL', 'a', 'a', 'gone', 'nokey')).toBe('(integer) 1');
    run('PEXPIRE', 'h', '1000');
    expect(run('RENAME', 'h', 'h2')).toBe('OK');
    expect(run('PTTL', 'h2')).toBe('(integer) 1000');
    expect(run('RENAME', 'nokey', 'x')).toBe('(error) ERR no such key');
    expect(run('FLUSHALL', 'foo')).toBe('(error) ERR syntax error');
    expect(run('FLUSHDB', 'ASYNC')).toBe('OK');
    expect(run('DBSIZE')).toBe('(integer) 0');
  });

  it('KEYS matches with Redis glob rules', () => {
    const { run } = fixture();
    run('MSET', 'hello', '1', 'hallo', '2', 'hxllo', '3', 'hllo', '4', 'heeeello', '5');
    const keys = (p: string) =>
      run('KEYS', p)
        .split('\n')
        .map((l) => l.replace(/^\d+\) /, ''))
        .sort()
        .join(' ');
    expect(keys('h?llo')).toBe('"hallo" "hello" "hxllo"');
    expect(keys('h*llo')).toBe('"hallo" "heeeello" "hello" "hllo" "hxllo"');
    expect(keys('h[ae]llo')).toBe('"hallo" "hello"');
    expect(keys('h[^e]llo')).toBe('"hallo" "hxllo"');
    expect(keys('h[b-a]llo')).toBe('"hallo"');
  });

  it('PING, ECHO, TIME from the virtual clock, DEBUG SLEEP moves it, SELECT 0 only', () => {
    const { run, clock } = fixture(1_234_567.891);
    expect(run('PING')).toBe('PONG');
    expect(run('PING', 'x')).toBe('"x"');
    expect(run('ECHO', 'a\x00b')).toBe('"a\\x00b"');
    expect(run('TIME')).toBe('1) "1234"\n2) "567891"');
    expect(run('DEBUG', 'SLEEP', '0.05')).toBe('OK');
    expect(clock.now()).toBeCloseTo(1_234_617.891, 6);
    expect(run('DEBUG', 'foo')).toBe(
      "(error) ERR unknown subcommand or wrong number of arguments for 'foo'. Try DEBUG HELP.",
    );
    expect(run('SELECT', '0')).toBe('OK');
    expect(run('SELECT', 'x')).toBe('(error) ERR value is not an integer or out of range');
  });

  it('routes EVAL / EVALSHA / SCRIPT to the scripting layer', () => {
    const { server, exec } = fixture();
    const seen: string[][] = [];
    server.scripts.evalCommand = (argv) => (seen.push(argv), { t: 'status', v: 'eval' });
    server.scripts.evalshaCommand = (argv) => (seen.push(argv), { t: 'status', v: 'evalsha' });
    server.scripts.scriptLoad = (argv) => (seen.push(argv), { t: 'status', v: 'script' });
    expect(exec('EVAL', 'return 1', '0')).toEqual({ t: 'status', v: 'eval' });
    expect(exec('evalsha', 'abc', '0')).toEqual({ t: 'status', v: 'evalsha' });
    expect(exec('SCRIPT', 'LOAD', 'return 1')).toEqual({ t: 'status', v: 'script' });
    expect(exec('EVAL', 'return 1')).toEqual({
      t: 'error',
      v: "ERR wrong number of arguments for 'eval' command",
    });
    expect(seen).toEqual([
      ['EVAL', 'return 1', '0'],
      ['evalsha', 'abc', '0'],
      ['SCRIPT', 'LOAD', 'return 1'],
    ]);
  });
});

describe('ScriptHost', () => {
  it('runs commands on the same db and PUBLISH reaches subscribers', () => {
    const clock = new ManualClock(42);
    const logs: string[] = [];
    const server = new RedisServer({ clock, events: { scriptLog: (l, m) => logs.push(`${l}:${m}`) } });
    const host = hostOf(server);
    const pushed: unknown[] = [];
    const sub = server.connect((m) => pushed.push(m));
    server.exec(sub, ['SUBSCRIBE', 'redisson_lock__channel:{myLock}']);
    expect(host.execFromScript(['hincrby', 'myLock', 'uuid:1', '1'])).toEqual({ t: 'int', v: 1 });
    expect(host.execFromScript(['pexpire', 'myLock', '30000'])).toEqual({ t: 'int', v: 1 });
    expect(host.execFromScript(['publish', 'redisson_lock__channel:{myLock}', '0'])).toEqual({
      t: 'int',
      v: 1,
    });
    expect(pushed).toEqual([
      {
        t: 'array',
        v: [
          { t: 'bulk', v: 'message' },
          { t: 'bulk', v: 'redisson_lock__channel:{myLock}' },
          { t: 'bulk', v: '0' },
        ],
      },
    ]);
    expect(server.exec(server.connect(), ['PTTL', 'myLock'])).toEqual({ t: 'int', v: 30000 });
    expect(host.lookupCommand(['HINCRBY'])?.flags.has('write')).toBe(true);
    expect(host.lookupCommand(['nope'])).toBeUndefined();
    expect(host.lookupCommand(['script', 'LOAD'])?.flags.has('noscript')).toBe(true);
    expect(host.lookupCommand(['script', 'nope'])).toBeUndefined();
    expect(host.now()).toBe(42);
    host.log('warning', 'hi');
    expect(logs).toEqual(['warning:hi']);
  });
});

describe('snapshots and checkpoints', () => {
  it('snapshot is a sorted, JSON-ready view with deadlines', () => {
    const { run, server } = fixture(0);
    run('HSET', 'b', 'f2', '2', 'f1', '1');
    run('PEXPIRE', 'b', '500');
    run('SET', 'a', 'x');
    run('ZADD', 'c', '2', 'n', '1', 'm');
    run('RPUSH', 'd', 'p', 'q');
    const snap = server.db.snapshot();
    expect(Object.keys(snap)).toEqual(['a', 'b', 'c', 'd']);
    expect(JSON.parse(JSON.stringify(snap))).toEqual({
      a: { type: 'string', value: 'x', expireAt: null },
      b: {
        type: 'hash',
        value: [
          ['f2', '2'],
          ['f1', '1'],
        ],
        expireAt: 500,
      },
      c: {
        type: 'zset',
        value: [
          ['m', 1],
          ['n', 2],
        ],
        expireAt: null,
      },
      d: { type: 'list', value: ['p', 'q'], expireAt: null },
    });
  });

  it('restore brings back values and deadlines, independent of later writes', () => {
    const { run, server, clock } = fixture(0);
    run('HSET', 'lock', 'u:1', '1');
    run('PEXPIRE', 'lock', '100');
    run('ZADD', 'q', '1', 'a');
    const cp = server.db.checkpoint();
    run('HINCRBY', 'lock', 'u:1', '5');
    run('ZADD', 'q', '2', 'b');
    run('PERSIST', 'lock');
    server.db.restore(cp);
    expect(run('HGET', 'lock', 'u:1')).toBe('"1"');
    expect(run('ZCARD', 'q')).toBe('(integer) 1');
    expect(server.nextExpiryAt()).toBe(101);
    run('HINCRBY', 'lock', 'u:1', '1');
    server.db.restore(cp);
    expect(run('HGET', 'lock', 'u:1')).toBe('"1"');
    clock.set(101);
    server.activeExpireCycle();
    expect(run('EXISTS', 'lock')).toBe('(integer) 0');
  });
});

describe('redis.call subcommand checks', () => {
  it('applies scriptCall rules to the subcommand argv names', () => {
    const { exec } = fixture();
    const pcall = (...args: string[]) =>
      exec('EVAL', `return redis.pcall(${args.map((a) => `'${a}'`).join(', ')})`, '0');
    expect(pcall('script', 'flush')).toEqual({
      t: 'error',
      v: 'ERR This Redis command is not allowed from script',
    });
    expect(pcall('pubsub', 'nope')).toEqual({
      t: 'error',
      v: 'ERR Unknown Redis command called from script',
    });
    expect(pcall('pubsub', 'numpat', 'x')).toEqual({
      t: 'error',
      v: 'ERR Wrong number of args calling Redis command from script',
    });
    expect(pcall('pubsub')).toEqual({
      t: 'error',
      v: 'ERR Wrong number of args calling Redis command from script',
    });
    expect(pcall('pubsub', 'numpat')).toEqual({ t: 'int', v: 0 });
  });
});

/**
 * COMMAND INFO's (first, last, step) for every command in the table, written out by hand from
 * Redis 7.0.15: 0,0,0 is "no keys" (EVAL and EVALSHA are movablekeys, keys found from numkeys).
 * The shard-channel commands' channels are NOT_KEY key specs in Redis; they have none here.
 */
const RANGE: Record<string, readonly [number, number, number] | 'numkeys'> = {};
for (const n of ['del', 'unlink', 'exists', 'mget', 'watch']) RANGE[n] = [1, -1, 1];
RANGE.mset = [1, -1, 2];
RANGE.rename = [1, 2, 1];
RANGE.eval = RANGE.evalsha = 'numkeys';
const NO_KEYS = [
  ...['keys', 'dbsize', 'flushall', 'flushdb', 'pubsub', 'script', 'publish', 'spublish'],
  ...['subscribe', 'unsubscribe', 'psubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe'],
  ...['multi', 'exec', 'discard', 'unwatch', 'ping', 'echo', 'time', 'info', 'debug', 'select'],
  ...['quit', 'reset', 'wait', 'cluster', 'readonly', 'readwrite', 'asking'],
];
for (const n of NO_KEYS) RANGE[n] = [0, 0, 0];
const ONE_KEY = [
  ...['type', 'expire', 'pexpire', 'expireat', 'pexpireat', 'ttl', 'pttl', 'expiretime'],
  ...['pexpiretime', 'persist', 'get', 'set', 'setnx', 'setex', 'psetex', 'getdel', 'getex'],
  ...['getset', 'strlen', 'append', 'incr', 'decr', 'incrby', 'decrby', 'incrbyfloat'],
  ...['hset', 'hmset', 'hsetnx', 'hget', 'hmget', 'hgetall', 'hkeys', 'hvals', 'hdel'],
  ...['hexists', 'hlen', 'hstrlen', 'hincrby', 'hincrbyfloat', 'lpush', 'rpush', 'lpushx'],
  ...['rpushx', 'lpop', 'rpop', 'llen', 'lindex', 'lrange', 'lrem', 'lset', 'ltrim', 'zadd'],
  ...['zincrby', 'zrem', 'zscore', 'zmscore', 'zcard', 'zrank', 'zrevrank', 'zcount'],
  ...['zlexcount', 'zrangebylex', 'zrevrangebylex', 'zrange', 'zrevrange', 'zrangebyscore'],
  ...['zrevrangebyscore', 'zremrangebyscore', 'zremrangebyrank'],
];
for (const n of ONE_KEY) RANGE[n] = [1, 1, 1];

describe('key positions (the table is the one description)', () => {
  it('every command has the key positions Redis gives it', () => {
    const table = commandTable();
    expect(table.map((c) => c.name).sort()).toEqual(Object.keys(RANGE).sort());
    for (const c of table) {
      const want = RANGE[c.name];
      expect([c.name, c.keys ?? [0, 0, 0]]).toEqual([c.name, want]);
      for (const sub of c.subcommands?.values() ?? []) expect([sub.name, sub.keys]).toEqual([sub.name, null]);
    }
  });

  it('write commands all name their keys (WATCH and the recorder depend on it)', () => {
    for (const c of commandTable()) {
      if (c.flags.has('write') && c.name !== 'flushall' && c.name !== 'flushdb')
        expect(c.keys).not.toBeNull();
    }
  });

  // What COMMAND GETKEYS answers on Redis 7.0.15 (an error "has no key arguments" is no keys).
  it.each([
    [['SET', 'k', 'v', 'EX', '10'], ['k']],
    [
      ['del', 'k1', 'k2'],
      ['k1', 'k2'],
    ],
    [['HSET', 'h', 'f', 'v', 'f2', 'v2'], ['h']],
    [
      ['EVAL', 'return 1', '2', 'a', 'b', 'c'],
      ['a', 'b'],
    ],
    [['EVAL', 'return 1', '0', 'x'], []],
    [['EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '1', 'k', 'arg'], ['k']],
    [
      ['RENAME', 'a', 'b'],
      ['a', 'b'],
    ],
    [
      ['MSET', 'a', '1', 'b', '2'],
      ['a', 'b'],
    ],
    [
      ['MGET', 'a', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
    [
      ['WATCH', 'a', 'b'],
      ['a', 'b'],
    ],
    [['ZADD', 'z', 'NX', '1', 'm'], ['z']],
    [['PEXPIRE', 'k', '100', 'GT'], ['k']],
    [['LPUSH', 'l', 'a', 'b'], ['l']],
    [['PUBLISH', 'ch', 'm'], []],
    [['SPUBLISH', 'ch', 'm'], []],
    [['FLUSHALL'], []],
    [['SCRIPT', 'LOAD', 'return 1'], []],
  ])('%j -> %j', (argv, keys) => {
    expect(commandKeys(argv)).toEqual(keys);
  });

  it('no keys for an EVAL whose numkeys Redis refuses; undefined for an unknown command', () => {
    for (const n of ['x', '-1', '3', '01']) expect(commandKeys(['EVAL', 'return 1', n, 'a'])).toEqual([]);
    expect(commandKeys(['nosuch', 'k'])).toBeUndefined();
  });
});

describe('lookupCommand', () => {
  it('resolves subcommands and answers processCommand errors', () => {
    expect(lookupCommand(['Script', 'LOAD'])).toMatchObject({ fullname: 'script|load', arity: 3 });
    expect(lookupCommand(['script'])).toMatchObject({ fullname: 'script' });
    expect(lookupCommand(['script', 'nope'])).toEqual({
      t: 'error',
      v: "ERR unknown subcommand 'nope'. Try SCRIPT HELP.",
    });
    expect(lookupCommand(['nope', 'a'])).toEqual({
      t: 'error',
      v: "ERR unknown command 'nope', with args beginning with: 'a' ",
    });
  });
});

describe('INFO (only the Replication section is modelled)', () => {
  it('reports role and connected_slaves, what Redisson 4.7.0 CommandAsyncService.syncedEval reads from INFO ALL', () => {
    const s = new RedisServer({ clock: new ManualClock() });
    const c = s.connect();
    const all = s.exec(c, ['INFO', 'ALL']);
    expect(all).toEqual({ t: 'bulk', v: '# Replication\r\nrole:master\r\nconnected_slaves:0\r\nmaster_repl_offset:0\r\n' });
    expect(s.exec(c, ['INFO', 'replication'])).toEqual(all);
    // a section the model does not keep is answered empty, not made up
    expect(s.exec(c, ['INFO', 'memory'])).toEqual({ t: 'bulk', v: '' });
  });
});
