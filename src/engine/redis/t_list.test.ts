import { describe, expect, it } from 'vitest';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('list commands', () => {
  it('pushes, ranges and indexes', () => {
    const { run } = fixture();
    expect(run('RPUSH', 'l', 'a', 'b', 'c', 'd', 'e')).toBe('(integer) 5');
    expect(run('LPUSH', 'l', 'z', 'y')).toBe('(integer) 7');
    expect(run('LRANGE', 'l', '0', '-1')).toBe('1) "y"\n2) "z"\n3) "a"\n4) "b"\n5) "c"\n6) "d"\n7) "e"');
    expect(run('LRANGE', 'l', '-3', '-1')).toBe('1) "c"\n2) "d"\n3) "e"');
    expect(run('LRANGE', 'l', '5', '1')).toBe('(empty array)');
    expect(run('LRANGE', 'l', '-100', '1')).toBe('1) "y"\n2) "z"');
    expect(run('LRANGE', 'l', 'x', '1')).toBe('(error) ERR value is not an integer or out of range');
    expect(run('LINDEX', 'l', '-1')).toBe('"e"');
    expect(run('LINDEX', 'l', '100')).toBe('(nil)');
    expect(run('LINDEX', 'nol', 'x')).toBe('(nil)');
    expect(run('LINDEX', 'l', 'x')).toBe('(error) ERR value is not an integer or out of range');
    expect(run('LLEN', 'l')).toBe('(integer) 7');
    expect(run('LPUSHX', 'nol', 'a')).toBe('(integer) 0');
    expect(run('EXISTS', 'nol')).toBe('(integer) 0');
  });

  it('pops with and without count', () => {
    const { run } = fixture();
    run('RPUSH', 'l', '1', '2', '3', '4', '5');
    expect(run('RPOP', 'l', '2')).toBe('1) "5"\n2) "4"');
    expect(run('LPOP', 'l', '0')).toBe('(empty array)');
    expect(run('LPOP', 'l', '-1')).toBe('(error) ERR value is out of range, must be positive');
    expect(run('LPOP', 'l', '1', '2')).toBe("(error) ERR wrong number of arguments for 'lpop' command");
    expect(run('LPOP', 'l', '10')).toBe('1) "1"\n2) "2"\n3) "3"');
    expect(run('EXISTS', 'l')).toBe('(integer) 0');
    expect(run('LPOP', 'l')).toBe('(nil)');
    expect(run('LPOP', 'l', '2')).toBe('(nil)');
  });

  it('LREM from either end, LSET, LTRIM', () => {
    const { run } = fixture();
    run('RPUSH', 'l', 'b', 'a', 'b', 'x', 'b');
    expect(run('LREM', 'l', '-1', 'b')).toBe('(integer) 1');
    expect(run('LRANGE', 'l', '0', '-1')).toBe('1) "b"\n2) "a"\n3) "b"\n4) "x"');
    expect(run('LREM', 'l', '1', 'b')).toBe('(integer) 1');
    expect(run('LREM', 'l', '0', 'zz')).toBe('(integer) 0');
    expect(run('LSET', 'l', '0', 'Q')).toBe('OK');
    expect(run('LSET', 'l', '100', 'Q')).toBe('(error) ERR index out of range');
    expect(run('LSET', 'nol', 'x', 'Q')).toBe('(error) ERR no such key');
    expect(run('LTRIM', 'l', '1', '2')).toBe('OK');
    expect(run('LRANGE', 'l', '0', '-1')).toBe('1) "b"\n2) "x"');
    expect(run('LTRIM', 'l', '5', '1')).toBe('OK');
    expect(run('EXISTS', 'l')).toBe('(integer) 0');
    run('SET', 's', 'v');
    expect(run('LPUSH', 's', 'a')).toBe(
      '(error) WRONGTYPE Operation against a key holding the wrong kind of value',
    );
  });
});

describe('LPOP count parsing', () => {
  it('reports a non-number count as out of range, like getPositiveLongFromObjectOrReply', () => {
    const { run } = fixture();
    run('RPUSH', 'l', 'a');
    expect(run('LPOP', 'l', 'x')).toBe('(error) ERR value is out of range, must be positive');
  });
});
