import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { RedisServer } from '../redis/server';
import { touchedKeys } from './touched_keys';

describe('touchedKeys', () => {
  it('takes the keys from the command table, in argv order', () => {
    expect(touchedKeys(['DEL', 'b', 'a'])).toEqual(['b', 'a']);
    expect(touchedKeys(['mset', 'a', '1', 'b', '2'])).toEqual(['a', 'b']);
    expect(touchedKeys(['EVAL', 'return 1', '2', 'k1', 'k2', 'arg'])).toEqual(['k1', 'k2']);
    expect(touchedKeys(['hincrby', 'h', 'f', '1'])).toEqual(['h']);
    expect(touchedKeys(['PUBLISH', 'ch', 'm'])).toEqual([]);
    expect(touchedKeys(['PING'])).toEqual([]);
  });

  it('answers null (resynchronise the node) when any key may have changed', () => {
    for (const argv of [['EXEC'], ['FLUSHALL'], ['flushdb', 'ASYNC'], ['smove', 'a', 'b', 'm']])
      expect(touchedKeys(argv)).toBeNull();
  });
});

describe('touchedKeys with the server that ran the command', () => {
  const run = (...commands: string[][]) => {
    const server = new RedisServer({ clock: new ManualClock() });
    const conn = server.connect();
    for (const argv of commands) server.exec(conn, argv);
    return touchedKeys(commands[commands.length - 1], server);
  };

  it('reports what the server modified, not what argv declares', () => {
    expect(run(['SET', 'a', '1'])).toEqual(['a']);
    expect(run(['GET', 'a'])).toEqual([]);
    expect(run(['SET', 'x', '1'], ['SET', 'x', '2', 'NX'])).toEqual([]);
    const body =
      "redis.call('set', KEYS[1], 1); redis.call('hset', 'undeclared', 'f', 1); redis.call('set', KEYS[1], 2)";
    expect(run(['EVAL', body, '1', 'k'])).toEqual(['k', 'undeclared']);
  });

  it("lists the keys of EXEC's queued commands; any key after FLUSHALL", () => {
    expect(run(['MULTI'], ['SET', 'b', '1'], ['DEL', 'c', 'b'], ['EXEC'])).toEqual(['b', 'c']);
    expect(run(['SET', 'a', '1'], ['FLUSHALL'])).toBeNull();
  });
});
