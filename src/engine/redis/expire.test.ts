import { describe, expect, it } from 'vitest';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('EXPIRE family', () => {
  it('NX / XX / GT / LT, with no TTL counting as infinite', () => {
    const { run } = fixture();
    run('SET', 'k', 'v');
    expect(run('PEXPIRE', 'k', '100', 'GT')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'k', '100', 'XX')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'k', '100000', 'LT')).toBe('(integer) 1');
    expect(run('PEXPIRE', 'k', '100000', 'NX')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'k', '200000', 'XX')).toBe('(integer) 1');
    expect(run('PEXPIRE', 'k', '50000', 'GT')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'k', '300000', 'gt')).toBe('(integer) 1');
    expect(run('PEXPIRE', 'k', '400000', 'LT')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'k', '100000', 'lt')).toBe('(integer) 1');
    expect(run('PERSIST', 'k')).toBe('(integer) 1');
    expect(run('PERSIST', 'k')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'nokey', '100')).toBe('(integer) 0');
    expect(run('PEXPIRE', 'nokey', '100', 'NX')).toBe('(integer) 0');
  });

  it('reports option and overflow errors like 7.0, options before the number', () => {
    const { run } = fixture();
    run('SET', 'k', 'v');
    expect(run('PEXPIRE', 'k', 'abc')).toBe('(error) ERR value is not an integer or out of range');
    expect(run('PEXPIRE', 'k', 'abc', 'zz')).toBe('(error) ERR Unsupported option zz');
    expect(run('PEXPIRE', 'k', '10', 'NX', 'GT')).toBe(
      '(error) ERR NX and XX, GT or LT options at the same time are not compatible',
    );
    expect(run('PEXPIRE', 'k', '10', 'GT', 'LT')).toBe(
      '(error) ERR GT and LT options at the same time are not compatible',
    );
    expect(run('EXPIRE', 'k', '9223372036854775807')).toBe(
      "(error) ERR invalid expire time in 'expire' command",
    );
    expect(run('PEXPIRE', 'k', '9223372036854775807')).toBe(
      "(error) ERR invalid expire time in 'pexpire' command",
    );
    expect(run('EXPIREAT', 'k', '9223372036854775807')).toBe(
      "(error) ERR invalid expire time in 'expireat' command",
    );
    expect(run('PEXPIREAT', 'k', '9223372036854775807')).toBe('(integer) 1');
  });

  it('a deadline at or before now deletes the key and answers 1', () => {
    const { run, expired } = fixture();
    for (const args of [
      ['PEXPIRE', '0'],
      ['PEXPIRE', '-5'],
      ['EXPIRE', '0'],
      ['EXPIREAT', '100'],
      ['PEXPIREAT', '1000000'],
    ]) {
      run('SET', 'k', 'v');
      expect(run(args[0], 'k', args[1])).toBe('(integer) 1');
      expect(run('EXISTS', 'k')).toBe('(integer) 0');
    }
    expect(expired).toEqual([]);
  });

  it('TTL rounds to the nearest second, PTTL clamps at 0, *TIME are absolute', () => {
    const { run, clock } = fixture(10_000);
    expect(run('TTL', 'nokey')).toBe('(integer) -2');
    expect(run('PEXPIRETIME', 'nokey')).toBe('(integer) -2');
    run('SET', 'k', 'v');
    expect(run('TTL', 'k')).toBe('(integer) -1');
    expect(run('EXPIRETIME', 'k')).toBe('(integer) -1');
    run('PEXPIRE', 'k', '1499');
    expect(run('TTL', 'k')).toBe('(integer) 1');
    run('PEXPIRE', 'k', '1500');
    expect(run('TTL', 'k')).toBe('(integer) 2');
    expect(run('PEXPIRETIME', 'k')).toBe('(integer) 11500');
    expect(run('EXPIRETIME', 'k')).toBe('(integer) 12');
    clock.set(11_500);
    expect(run('PTTL', 'k')).toBe('(integer) 0');
    expect(run('GET', 'k')).toBe('"v"');
    clock.set(11_501);
    expect(run('PTTL', 'k')).toBe('(integer) -2');
  });
});

describe('lazy and active expiry', () => {
  it('a key lives through its deadline ms and is gone one ms later (lazy)', () => {
    const { run, clock, expired } = fixture(0);
    run('SET', 'k', 'v', 'PX', '100');
    clock.set(100);
    expect(run('EXISTS', 'k')).toBe('(integer) 1');
    clock.set(101);
    expect(run('DBSIZE')).toBe('(integer) 1');
    expect(run('KEYS', '*')).toBe('(empty array)');
    expect(run('GET', 'k')).toBe('(nil)');
    expect(run('DBSIZE')).toBe('(integer) 0');
    expect(expired).toEqual([['k', 'lazy']]);
  });

  it('activeExpireCycle deletes every due key at nextExpiryAt, in deadline order', () => {
    const { run, clock, server, expired } = fixture(0);
    run('SET', 'a', '1', 'PX', '300');
    run('SET', 'b', '1', 'PX', '100');
    run('SET', 'c', '1', 'PX', '100');
    run('SET', 'd', '1');
    run('PEXPIRE', 'b', '200');
    run('PEXPIRE', 'b', '50');
    expect(server.nextExpiryAt()).toBe(51);
    clock.set(50);
    server.activeExpireCycle();
    expect(expired).toEqual([]);
    clock.set(server.nextExpiryAt()!);
    server.activeExpireCycle();
    expect(expired).toEqual([['b', 'active']]);
    expect(server.nextExpiryAt()).toBe(101);
    clock.set(301);
    server.activeExpireCycle();
    expect(expired).toEqual([
      ['b', 'active'],
      ['c', 'active'],
      ['a', 'active'],
    ]);
    expect(server.nextExpiryAt()).toBeUndefined();
    expect(run('DBSIZE')).toBe('(integer) 1');
  });

  it('a renewed or persisted key is not expired by its old deadline', () => {
    const { run, clock, server, expired } = fixture(0);
    run('SET', 'k', 'v', 'PX', '100');
    for (let t = 0; t < 1000; t += 10) {
      clock.set(t);
      run('PEXPIRE', 'k', '100');
    }
    clock.set(1050);
    server.activeExpireCycle();
    expect(run('EXISTS', 'k')).toBe('(integer) 1');
    run('PERSIST', 'k');
    expect(server.nextExpiryAt()).toBeUndefined();
    clock.set(1_000_000);
    server.activeExpireCycle();
    expect(run('EXISTS', 'k')).toBe('(integer) 1');
    expect(expired).toEqual([]);
  });

  it('inside a script the expiry clock is frozen at script start, PTTL is not', () => {
    const { run, clock, server } = fixture(0);
    run('SET', 'k', 'v', 'PX', '5');
    const inside = server.runScript(() => {
      clock.advance(50);
      return {
        t: 'array',
        v: [server.exec(server.connect(), ['EXISTS', 'k']), server.exec(server.connect(), ['PTTL', 'k'])],
      };
    });
    expect(inside).toEqual({
      t: 'array',
      v: [
        { t: 'int', v: 1 },
        { t: 'int', v: 0 },
      ],
    });
    expect(run('EXISTS', 'k')).toBe('(integer) 0');
  });
});
