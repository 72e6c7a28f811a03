import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { formatReply } from './cli_format';
import { RedisServer } from './server';
import { fixture } from './test_server';

// Expected replies were checked against redis-server 7.0.15 with redis-cli --no-raw.
describe('MULTI / EXEC / DISCARD', () => {
  it('queues, runs in order, and keeps each reply, errors included', () => {
    const { run } = fixture();
    expect(run('EXEC')).toBe('(error) ERR EXEC without MULTI');
    expect(run('DISCARD')).toBe('(error) ERR DISCARD without MULTI');
    expect(run('MULTI')).toBe('OK');
    expect(run('MULTI')).toBe('(error) ERR MULTI calls can not be nested');
    expect(run('SET', 'a', '1')).toBe('QUEUED');
    expect(run('INCR', 'a')).toBe('QUEUED');
    expect(run('LPUSH', 'a', 'x')).toBe('QUEUED');
    expect(run('WATCH', 'a')).toBe('(error) ERR WATCH inside MULTI is not allowed');
    expect(run('EXEC')).toBe(
      '1) OK\n2) (integer) 2\n3) (error) WRONGTYPE Operation against a key holding the wrong kind of value',
    );
    run('MULTI');
    expect(run('EXEC')).toBe('(empty array)');
  });

  it('a refused command while queueing aborts the whole transaction', () => {
    const { run } = fixture();
    run('MULTI');
    run('SET', 'a', '1');
    expect(run('GET')).toBe("(error) ERR wrong number of arguments for 'get' command");
    expect(run('foo')).toBe("(error) ERR unknown command 'foo', with args beginning with: ");
    expect(run('EXEC')).toBe('(error) EXECABORT Transaction discarded because of previous errors.');
    expect(run('EXISTS', 'a')).toBe('(integer) 0');
    run('MULTI');
    run('SET', 'a', '1');
    expect(run('DISCARD')).toBe('OK');
    expect(run('EXISTS', 'a')).toBe('(integer) 0');
  });
});

describe('WATCH', () => {
  it('a write to a watched key by anyone makes EXEC answer nil', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const a = server.connect();
    const b = server.connect();
    const run = (c: typeof a, ...argv: string[]) => formatReply(server.exec(c, argv), 'tty').trimEnd();
    run(a, 'SET', 'k', '1');
    run(a, 'WATCH', 'k', 'other');
    run(b, 'SET', 'unrelated', '1');
    run(b, 'HSET', 'other-hash', 'f', 'v');
    run(a, 'MULTI');
    run(a, 'INCR', 'k');
    expect(run(a, 'EXEC')).toBe('1) (integer) 2');
    run(a, 'WATCH', 'k');
    run(b, 'SET', 'k', '5');
    run(a, 'MULTI');
    run(a, 'INCR', 'k');
    expect(run(a, 'EXEC')).toBe('(nil)');
    expect(run(a, 'GET', 'k')).toBe('"5"');
    // A write that changes nothing is not a touch.
    run(a, 'WATCH', 'k');
    run(b, 'SET', 'k', 'x', 'NX');
    run(b, 'DEL', 'missing', 'nope');
    run(a, 'MULTI');
    run(a, 'GET', 'k');
    expect(run(a, 'EXEC')).toBe('1) "5"');
  });

  it('DEL of one of several keys, FLUSHALL of existing keys, UNWATCH, RESET', () => {
    const { run } = fixture();
    run('MSET', 'a', '1', 'b', '1');
    run('WATCH', 'x', 'b');
    run('DEL', 'a', 'b');
    run('MULTI');
    expect(run('EXEC')).toBe('(nil)');
    run('WATCH', 'nokey');
    run('FLUSHALL');
    run('MULTI');
    expect(run('EXEC')).toBe('(empty array)');
    run('SET', 'w', '1');
    run('WATCH', 'w');
    run('FLUSHALL');
    run('MULTI');
    expect(run('EXEC')).toBe('(nil)');
    run('SET', 'w', '1');
    run('WATCH', 'w');
    run('UNWATCH');
    run('SET', 'w', '2');
    run('MULTI');
    expect(run('EXEC')).toBe('(empty array)');
    run('MULTI');
    run('SET', 't', '1');
    expect(run('RESET')).toBe('RESET');
    expect(run('EXEC')).toBe('(error) ERR EXEC without MULTI');
  });

  // k is SET with PX 50 at 0; a number is when the clock moves to (k has expired by 100).
  it.each([
    ['a watched key expiring aborts', [['WATCH', 'k'], 100, ['MULTI'], ['PING']], '(nil)'],
    ['one already expired at WATCH does not', [100, ['WATCH', 'k'], ['MULTI'], ['PING']], '1) PONG'],
    [
      'a write after WATCH to a key expired before it aborts',
      [100, ['WATCH', 'k'], ['SET', 'k', 'new'], ['MULTI']],
      '(nil)',
    ],
  ] as const)('expiry: %s', (_, steps, reply) => {
    const { run, clock } = fixture(0);
    run('SET', 'k', 'v', 'PX', '50');
    for (const step of steps) {
      if (typeof step === 'number') clock.set(step);
      else run(...step);
    }
    expect(run('EXEC')).toBe(reply);
  });

  it('a transaction reaches replicas as MULTI ... EXEC when it wrote more than once', () => {
    const stream: string[][][] = [];
    const server = new RedisServer({
      clock: new ManualClock(0),
      events: { propagate: (c) => stream.push(c) },
    });
    const c = server.connect();
    for (const argv of [['MULTI'], ['SET', 't', '1'], ['GET', 't'], ['SET', 't', '2'], ['EXEC']])
      server.exec(c, argv);
    for (const argv of [['MULTI'], ['INCR', 'n'], ['EXEC']]) server.exec(c, argv);
    expect(stream).toEqual([[['MULTI'], ['SET', 't', '1'], ['SET', 't', '2'], ['EXEC']], [['INCR', 'n']]]);
  });
});
