import { describe, expect, it } from 'vitest';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('sorted set commands', () => {
  it('ZADD options NX XX GT LT CH INCR', () => {
    const { run } = fixture();
    expect(run('ZADD', 'z', '1', 'a', '2', 'b', '3', 'c')).toBe('(integer) 3');
    expect(run('ZADD', 'z', 'nx', '5', 'a', '4', 'd')).toBe('(integer) 1');
    expect(run('ZADD', 'z', 'xx', '10', 'a', '11', 'e')).toBe('(integer) 0');
    expect(run('ZADD', 'z', 'xx', 'ch', '10', 'a', '12', 'b')).toBe('(integer) 1');
    expect(run('ZADD', 'z', 'gt', 'ch', '1', 'a', '20', 'c')).toBe('(integer) 1');
    expect(run('ZADD', 'z', 'lt', 'ch', '1', 'a', '30', 'c')).toBe('(integer) 1');
    expect(run('ZADD', 'z', 'nx', 'xx', '1', 'a')).toBe(
      '(error) ERR XX and NX options at the same time are not compatible',
    );
    expect(run('ZADD', 'z', 'gt', 'lt', '1', 'a')).toBe(
      '(error) ERR GT, LT, and/or NX options at the same time are not compatible',
    );
    expect(run('ZADD', 'z', 'incr', '1', 'a', '2', 'b')).toBe(
      '(error) ERR INCR option supports a single increment-element pair',
    );
    expect(run('ZADD', 'z', 'incr', '1.5', 'a')).toBe('"2.5"');
    expect(run('ZADD', 'z', 'incr', 'nx', '1.5', 'a')).toBe('(nil)');
    expect(run('ZADD', 'z', '1', 'a', '2')).toBe('(error) ERR syntax error');
    expect(run('ZADD', 'z', 'abc', 'a')).toBe('(error) ERR value is not a valid float');
    expect(run('ZADD', 'z', 'nan', 'a')).toBe('(error) ERR value is not a valid float');
    expect(run('ZADD', 'z', 'inf', 'i')).toBe('(integer) 1');
    expect(run('ZINCRBY', 'z', '-inf', 'i')).toBe('(error) ERR resulting score is not a number (NaN)');
  });

  it('prints scores with %.17g like 7.0 (ties to even, exponents, -0 as 0)', () => {
    const { run } = fixture();
    run('ZADD', 'z', '0.1', 'a', '1e300', 'b', '2.5e-7', 'c', '123456789012345678', 'd');
    run('ZADD', 'z', '1234567890123456.25', 'e', '-0', 'f', 'inf', 'g', '0x10', 'h');
    expect(run('ZRANGE', 'z', '0', '-1', 'WITHSCORES')).toBe(
      [
        ' 1) "f"',
        ' 2) "0"',
        ' 3) "c"',
        ' 4) "2.4999999999999999e-07"',
        ' 5) "a"',
        ' 6) "0.10000000000000001"',
        ' 7) "h"',
        ' 8) "16"',
        ' 9) "e"',
        '10) "1234567890123456.2"',
        '11) "d"',
        '12) "1.2345678901234568e+17"',
        '13) "b"',
        '14) "1.0000000000000001e+300"',
        '15) "g"',
        '16) "inf"',
      ].join('\n'),
    );
    expect(run('ZINCRBY', 'z', '0.2', 'a')).toBe('"0.30000000000000004"');
  });

  it('ranges by rank and by score, with REV and LIMIT', () => {
    const { run } = fixture();
    run('ZADD', 'z', '1', 'a', '2', 'b', '3', 'c', '4', 'd', '5', 'e');
    expect(run('ZRANGE', 'z', '-2', '-1', 'WITHSCORES')).toBe('1) "d"\n2) "4"\n3) "e"\n4) "5"');
    expect(run('ZRANGE', 'z', '0', '1', 'REV')).toBe('1) "e"\n2) "d"');
    expect(run('ZREVRANGE', 'z', '0', '1')).toBe('1) "e"\n2) "d"');
    expect(run('ZRANGE', 'z', '(1', '3', 'BYSCORE')).toBe('1) "b"\n2) "c"');
    expect(run('ZRANGE', 'z', '3', '1', 'BYSCORE', 'REV')).toBe('1) "c"\n2) "b"\n3) "a"');
    expect(run('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '1', '2')).toBe('1) "b"\n2) "c"');
    expect(run('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '3', '-1')).toBe('1) "d"\n2) "e"');
    expect(run('ZRANGE', 'z', '-inf', '+inf', 'BYSCORE', 'LIMIT', '-1', '2')).toBe('(empty array)');
    expect(run('ZRANGE', 'z', '0', '-1', 'LIMIT', '0', '1')).toBe(
      '(error) ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX',
    );
    expect(run('ZRANGE', 'z', '0', '-1', 'foo')).toBe('(error) ERR syntax error');
    expect(run('ZRANGE', 'z', 'a', 'b', 'BYSCORE')).toBe('(error) ERR min or max is not a float');
    expect(run('ZRANGEBYSCORE', 'z', '2', '(4', 'WITHSCORES')).toBe('1) "b"\n2) "2"\n3) "c"\n4) "3"');
    expect(run('ZREVRANGEBYSCORE', 'z', '+inf', '-inf', 'LIMIT', '0', '2')).toBe('1) "e"\n2) "d"');
    expect(run('ZRANGEBYSCORE', 'z', '', '')).toBe('(empty array)');
    expect(run('ZRANGEBYSCORE', 'z', ' 1', '1')).toBe('1) "a"');
    expect(run('ZCOUNT', 'z', '2', '(4')).toBe('(integer) 2');
    expect(run('ZRANGE', 'nokey', '0', '-1')).toBe('(empty array)');
  });

  it('scores, ranks, removal', () => {
    const { run } = fixture();
    run('ZADD', 'z', '1', 'a', '2', 'b', '3', 'c');
    expect(run('ZSCORE', 'z', 'b')).toBe('"2"');
    expect(run('ZSCORE', 'z', 'x')).toBe('(nil)');
    expect(run('ZMSCORE', 'z', 'a', 'x')).toBe('1) "1"\n2) (nil)');
    expect(run('ZRANK', 'z', 'c')).toBe('(integer) 2');
    expect(run('ZREVRANK', 'z', 'c')).toBe('(integer) 0');
    expect(run('ZRANK', 'z', 'x')).toBe('(nil)');
    expect(run('ZCARD', 'z')).toBe('(integer) 3');
    expect(run('ZREM', 'z', 'a', 'x')).toBe('(integer) 1');
    expect(run('ZREMRANGEBYSCORE', 'z', '2', '2')).toBe('(integer) 1');
    expect(run('ZREMRANGEBYRANK', 'z', '0', '-1')).toBe('(integer) 1');
    expect(run('EXISTS', 'z')).toBe('(integer) 0');
  });

  it('orders equal scores by member bytes', () => {
    const { run } = fixture();
    run('ZADD', 'z', '1', 'b', '1', 'a', '1', '\xff', '1', 'A', '0', 'z');
    expect(run('ZRANGE', 'z', '0', '-1')).toBe('1) "z"\n2) "A"\n3) "a"\n4) "b"\n5) "\\xff"');
  });
});

describe('lex ranges', () => {
  it('BYLEX / ZRANGEBYLEX / ZREVRANGEBYLEX / ZLEXCOUNT on equal scores', () => {
    const { run } = fixture();
    run('ZADD', 'z', '0', 'a', '0', 'b', '0', 'c', '0', 'd', '0', 'e');
    expect(run('ZRANGE', 'z', '[b', '(e', 'BYLEX')).toBe('1) "b"\n2) "c"\n3) "d"');
    expect(run('ZRANGE', 'z', '+', '-', 'BYLEX', 'REV', 'LIMIT', '1', '2')).toBe('1) "d"\n2) "c"');
    expect(run('ZRANGEBYLEX', 'z', '(c', '+')).toBe('1) "d"\n2) "e"');
    expect(run('ZREVRANGEBYLEX', 'z', '(d', '-')).toBe('1) "c"\n2) "b"\n3) "a"');
    expect(run('ZLEXCOUNT', 'z', '(a', '[c')).toBe('(integer) 2');
    expect(run('ZRANGEBYLEX', 'z', '[c', '[a')).toBe('(empty array)');
    expect(run('ZRANGEBYLEX', 'z', '(b', '(b')).toBe('(empty array)');
    expect(run('ZRANGE', 'z', 'a', 'b', 'BYLEX')).toBe('(error) ERR min or max not valid string range item');
    expect(run('ZRANGE', 'z', '-', '+', 'BYLEX', 'WITHSCORES')).toBe(
      '(error) ERR syntax error, WITHSCORES not supported in combination with BYLEX',
    );
  });

  it('with mixed scores answers what the listpack walk answers', () => {
    const { run } = fixture();
    run('ZADD', 'z', '0', 'a', '0', 'b', '1', 'c', '0', 'd');
    expect(run('ZRANGEBYLEX', 'z', '-', '+')).toBe('1) "a"\n2) "b"\n3) "d"\n4) "c"');
    expect(run('ZRANGEBYLEX', 'z', '[b', '[d')).toBe('1) "b"\n2) "d"\n3) "c"');
    expect(run('ZREVRANGEBYLEX', 'z', '[d', '[a')).toBe('1) "c"\n2) "d"\n3) "b"\n4) "a"');
    run('ZADD', 'z', '2', 'aa');
    expect(run('ZRANGEBYLEX', 'z', '[b', '+')).toBe('(empty array)');
  });
});
