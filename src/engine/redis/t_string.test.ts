import { describe, expect, it } from 'vitest';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('SET and friends', () => {
  it('honours NX / XX / GET in their combinations', () => {
    const { run } = fixture();
    expect(run('SET', 'k', 'v', 'XX')).toBe('(nil)');
    expect(run('SET', 'k', 'v', 'NX')).toBe('OK');
    expect(run('SET', 'k', 'v2', 'NX', 'GET')).toBe('"v"');
    expect(run('GET', 'k')).toBe('"v"');
    expect(run('SET', 'k', 'v3', 'xx', 'get')).toBe('"v"');
    expect(run('SET', 'k', 'v', 'nx', 'nx')).toBe('(nil)');
    expect(run('SET', 'k', 'v', 'NX', 'XX')).toBe('(error) ERR syntax error');
    run('HSET', 'h', 'f', 'v');
    expect(run('SET', 'h', 'x', 'GET')).toBe(
      '(error) WRONGTYPE Operation against a key holding the wrong kind of value',
    );
    expect(run('SET', 'h', 'x')).toBe('OK');
  });

  it('parses expire options like Redis, last EX wins, conflicts are syntax errors', () => {
    const { run } = fixture();
    expect(run('SET', 'k', 'v', 'EX', '10', 'EX', '20')).toBe('OK');
    expect(run('TTL', 'k')).toBe('(integer) 20');
    expect(run('SET', 'k', 'v', 'EX', '10', 'PX', '100')).toBe('(error) ERR syntax error');
    expect(run('SET', 'k', 'v', 'KEEPTTL', 'EX', '10')).toBe('(error) ERR syntax error');
    expect(run('SET', 'k', 'v', 'PX')).toBe('(error) ERR syntax error');
    expect(run('SET', 'k', 'v', 'EX', 'abc')).toBe('(error) ERR value is not an integer or out of range');
  });

  it('rejects zero, negative and overflowing expire times', () => {
    const { run } = fixture();
    for (const args of [
      ['EX', '0'],
      ['PX', '0'],
      ['EX', '-1'],
      ['EX', '9223372036854775807'],
      ['PX', '9223372036854775807'],
      ['PXAT', '0'],
    ]) {
      expect(run('SET', 'k', 'v', ...args)).toBe("(error) ERR invalid expire time in 'set' command");
    }
    expect(run('SETEX', 'k', '0', 'v')).toBe("(error) ERR invalid expire time in 'setex' command");
    expect(run('PSETEX', 'k', '-1', 'v')).toBe("(error) ERR invalid expire time in 'psetex' command");
    expect(run('EXISTS', 'k')).toBe('(integer) 0');
  });

  it('drops the TTL on SET unless KEEPTTL', () => {
    const { run } = fixture();
    run('SET', 'k', 'v', 'PX', '100000');
    expect(run('SET', 'k', 'v3', 'KEEPTTL')).toBe('OK');
    expect(run('PTTL', 'k')).toBe('(integer) 100000');
    run('SET', 'k', 'v2');
    expect(run('PTTL', 'k')).toBe('(integer) -1');
    run('SET', 'k', 'v', 'PX', '100000');
    run('GETSET', 'k', 'x');
    expect(run('PTTL', 'k')).toBe('(integer) -1');
  });

  it('sets absolute deadlines with EXAT / PXAT', () => {
    const { run, clock } = fixture(5_000);
    run('SET', 'k', 'v', 'PXAT', '9000');
    expect(run('PEXPIRETIME', 'k')).toBe('(integer) 9000');
    run('SET', 'k', 'v', 'EXAT', '7');
    expect(run('PTTL', 'k')).toBe('(integer) 2000');
    clock.set(7001);
    expect(run('GET', 'k')).toBe('(nil)');
  });

  it('SETNX / SETEX / GETDEL / MGET / MSET / STRLEN / APPEND', () => {
    const { run } = fixture();
    expect(run('SETNX', 'k', 'v')).toBe('(integer) 1');
    expect(run('SETNX', 'k', 'w')).toBe('(integer) 0');
    expect(run('SETEX', 'e', '10', 'v')).toBe('OK');
    expect(run('TTL', 'e')).toBe('(integer) 10');
    expect(run('GETDEL', 'e')).toBe('"v"');
    expect(run('GETDEL', 'e')).toBe('(nil)');
    run('HSET', 'h', 'f', 'v');
    expect(run('MGET', 'k', 'nokey', 'h')).toBe('1) "v"\n2) (nil)\n3) (nil)');
    expect(run('MSET', 'a', '1', 'b')).toBe("(error) ERR wrong number of arguments for 'mset' command");
    expect(run('MSET', 'a', '1', 'b', '2')).toBe('OK');
    expect(run('STRLEN', 'a')).toBe('(integer) 1');
    expect(run('STRLEN', 'h')).toBe(
      '(error) WRONGTYPE Operation against a key holding the wrong kind of value',
    );
    expect(run('APPEND', 'a', 'xyz')).toBe('(integer) 4');
    expect(run('APPEND', 'new', 'abc')).toBe('(integer) 3');
  });
});

describe('INCR family', () => {
  it('counts with exact 64-bit arithmetic and refuses overflow', () => {
    const { run } = fixture();
    expect(run('INCR', 'n')).toBe('(integer) 1');
    expect(run('INCRBY', 'n', '10')).toBe('(integer) 11');
    expect(run('DECRBY', 'n', '12')).toBe('(integer) -1');
    run('SET', 'n', '9223372036854775807');
    expect(run('INCR', 'n')).toBe('(error) ERR increment or decrement would overflow');
    expect(run('DECR', 'n')).toBe('(integer) 9223372036854775806');
    run('SET', 'n', '-9223372036854775808');
    expect(run('DECR', 'n')).toBe('(error) ERR increment or decrement would overflow');
    expect(run('DECRBY', 'n', '-9223372036854775808')).toBe('(error) ERR decrement would overflow');
    expect(run('INCRBY', 'n', '1')).toBe('(integer) -9223372036854775807');
    run('SET', 'big', '9007199254740992');
    expect(run('INCR', 'big')).toBe('(integer) 9007199254740993');
    expect(run('GET', 'big')).toBe('"9007199254740993"');
  });

  it('accepts only canonical integers', () => {
    const { run } = fixture();
    for (const bad of ['01', '+1', '-0', ' 1', '1 ', '9223372036854775808', '', '1.0']) {
      expect(run('INCRBY', 'x', bad)).toBe('(error) ERR value is not an integer or out of range');
    }
    run('SET', 'sp', ' 1');
    expect(run('INCR', 'sp')).toBe('(error) ERR value is not an integer or out of range');
  });

  it('keeps the TTL (the object is overwritten in place)', () => {
    const { run } = fixture();
    run('SET', 'n', '1', 'PX', '5000');
    run('INCR', 'n');
    expect(run('PTTL', 'n')).toBe('(integer) 5000');
  });

  it('INCRBYFLOAT uses long double arithmetic and human formatting', () => {
    const { run } = fixture();
    expect(run('INCRBYFLOAT', 'f', '0.1')).toBe('"0.1"');
    expect(run('INCRBYFLOAT', 'f', '0.2')).toBe('"0.3"');
    expect(run('INCRBYFLOAT', 's', '3.0e3')).toBe('"3000"');
    expect(run('INCRBYFLOAT', 's', '1.5')).toBe('"3001.5"');
    expect(run('INCRBYFLOAT', 'h', '0x10')).toBe('"16"');
    expect(run('INCRBYFLOAT', 'z', '-0')).toBe('"0"');
    expect(run('INCRBYFLOAT', 'p', '1.23456789012345678901')).toBe('"1.23456789012345679"');
    expect(run('INCRBYFLOAT', 't', '5e-20')).toBe('"0"');
    expect(run('INCRBYFLOAT', 'i', 'inf')).toBe('(error) ERR increment would produce NaN or Infinity');
    expect(run('INCRBYFLOAT', 'i', ' 1')).toBe('(error) ERR value is not a valid float');
    expect(run('INCRBYFLOAT', 'i', 'abc')).toBe('(error) ERR value is not a valid float');
  });
});

describe('GETEX', () => {
  it('reads and changes the TTL; option rules as 7.0', () => {
    const { run } = fixture(10_000);
    run('SET', 'k', 'v');
    expect(run('GETEX', 'k', 'EX', '100')).toBe('"v"');
    expect(run('TTL', 'k')).toBe('(integer) 100');
    expect(run('GETEX', 'k', 'PERSIST', 'PERSIST')).toBe('"v"');
    expect(run('TTL', 'k')).toBe('(integer) -1');
    expect(run('GETEX', 'k', 'PX', '0')).toBe("(error) ERR invalid expire time in 'getex' command");
    expect(run('GETEX', 'k', 'EX', '1', 'PERSIST')).toBe('(error) ERR syntax error');
    expect(run('GETEX', 'k', 'KEEPTTL')).toBe('(error) ERR syntax error');
    expect(run('GETEX', 'k', 'EX', 'abc')).toBe('(error) ERR value is not an integer or out of range');
    expect(run('GETEX', 'nokey', 'EX', 'abc')).toBe('(nil)');
    expect(run('GETEX', 'k', 'EXAT', '1')).toBe('"v"');
    expect(run('EXISTS', 'k')).toBe('(integer) 0');
    run('HSET', 'h', 'f', 'v');
    expect(run('GETEX', 'h')).toBe(
      '(error) WRONGTYPE Operation against a key holding the wrong kind of value',
    );
  });
});
