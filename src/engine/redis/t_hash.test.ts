import { describe, expect, it } from 'vitest';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('hash commands', () => {
  it('HSET counts new fields, keeps insertion order, checks pairs', () => {
    const { run } = fixture();
    expect(run('HSET', 'h', 'b', '1', 'a', '2')).toBe('(integer) 2');
    expect(run('HSET', 'h', 'a', '3', 'c', '4')).toBe('(integer) 1');
    expect(run('HGETALL', 'h')).toBe('1) "b"\n2) "1"\n3) "a"\n4) "3"\n5) "c"\n6) "4"');
    expect(run('HKEYS', 'h')).toBe('1) "b"\n2) "a"\n3) "c"');
    expect(run('HVALS', 'h')).toBe('1) "1"\n2) "3"\n3) "4"');
    expect(run('HSET', 'h', 'a')).toBe("(error) ERR wrong number of arguments for 'hset' command");
    expect(run('HSET', 'h', 'a', '1', 'b')).toBe("(error) ERR wrong number of arguments for 'hset' command");
    expect(run('HMSET', 'h', 'a')).toBe("(error) ERR wrong number of arguments for 'hmset' command");
    expect(run('HMSET', 'h', 'a', '1', 'b')).toBe(
      "(error) ERR wrong number of arguments for 'hmset' command",
    );
    expect(run('HMSET', 'h', 'x', '1')).toBe('OK');
  });

  it('reads fields', () => {
    const { run } = fixture();
    run('HSET', 'h', 'a', '1', 'c', '3');
    expect(run('HGET', 'h', 'a')).toBe('"1"');
    expect(run('HGET', 'h', 'zz')).toBe('(nil)');
    expect(run('HGET', 'nokey', 'a')).toBe('(nil)');
    expect(run('HMGET', 'h', 'a', 'nope', 'c')).toBe('1) "1"\n2) (nil)\n3) "3"');
    expect(run('HMGET', 'nokey', 'a')).toBe('1) (nil)');
    expect(run('HLEN', 'h')).toBe('(integer) 2');
    expect(run('HSTRLEN', 'h', 'a')).toBe('(integer) 1');
    expect(run('HEXISTS', 'h', 'a')).toBe('(integer) 1');
    expect(run('HEXISTS', 'h', 'b')).toBe('(integer) 0');
    expect(run('HGETALL', 'nokey')).toBe('(empty array)');
    expect(run('HSETNX', 'h', 'a', '9')).toBe('(integer) 0');
    expect(run('HSETNX', 'h', 'n', '9')).toBe('(integer) 1');
    run('SET', 's', 'x');
    for (const cmd of [
      ['HGET', 's', 'a'],
      ['HSET', 's', 'a', '1'],
      ['HMGET', 's', 'a'],
      ['HLEN', 's'],
      ['HDEL', 's', 'a'],
    ]) {
      expect(run(...cmd)).toBe('(error) WRONGTYPE Operation against a key holding the wrong kind of value');
    }
  });

  it('HDEL deletes the key with its last field (and its TTL)', () => {
    const { run } = fixture();
    run('HSET', 'h', 'a', '1', 'b', '2', 'c', '3');
    run('PEXPIRE', 'h', '100000');
    expect(run('HDEL', 'h', 'a', 'zz')).toBe('(integer) 1');
    expect(run('PTTL', 'h')).toBe('(integer) 100000');
    expect(run('HDEL', 'h', 'b', 'c', 'a')).toBe('(integer) 2');
    expect(run('EXISTS', 'h')).toBe('(integer) 0');
    expect(run('PTTL', 'h')).toBe('(integer) -2');
  });

  it('HINCRBY: increment parsed first, strict field values, overflow, TTL kept', () => {
    const { run, clock } = fixture();
    expect(run('HINCRBY', 'h', 'f', '2')).toBe('(integer) 2');
    run('PEXPIRE', 'h', '100000');
    clock.advance(13);
    expect(run('HINCRBY', 'h', 'f', '5')).toBe('(integer) 7');
    expect(run('PTTL', 'h')).toBe('(integer) 99987');
    expect(run('HINCRBY', 'h', 'f', 'x')).toBe('(error) ERR value is not an integer or out of range');
    run('HSET', 'h', 'l', ' 11', 'r', '11 ');
    expect(run('HINCRBY', 'h', 'l', '1')).toBe('(error) ERR hash value is not an integer');
    expect(run('HINCRBY', 'h', 'r', '1')).toBe('(error) ERR hash value is not an integer');
    run('HSET', 'h', 'big', '9223372036854775807');
    expect(run('HINCRBY', 'h', 'big', '1')).toBe('(error) ERR increment or decrement would overflow');
    expect(run('HINCRBY', 'h', 'big', '-1')).toBe('(integer) 9223372036854775806');
    expect(run('HINCRBY', 'nokey', 'f', 'x')).toBe('(error) ERR value is not an integer or out of range');
    expect(run('EXISTS', 'nokey')).toBe('(integer) 0');
  });

  it('HINCRBYFLOAT formats like Redis and refuses NaN / infinity', () => {
    const { run } = fixture();
    expect(run('HINCRBYFLOAT', 'h', 'f', '0.1')).toBe('"0.1"');
    expect(run('HINCRBYFLOAT', 'h', 'f', '0.2')).toBe('"0.3"');
    expect(run('HINCRBYFLOAT', 'h', 'f', '1e20')).toBe('"100000000000000000000"');
    expect(run('HINCRBYFLOAT', 'h', 'f', '-1e20')).toBe('"0"');
    expect(run('HINCRBYFLOAT', 'h', 'g', 'inf')).toBe('(error) ERR value is NaN or Infinity');
    expect(run('HINCRBYFLOAT', 'h', 'g', 'nan')).toBe('(error) ERR value is not a valid float');
    run('HSET', 'h', 'n', ' 11');
    expect(run('HINCRBYFLOAT', 'h', 'n', '1')).toBe('(error) ERR hash value is not a float');
  });
});
