import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { keyViewOf } from './key_view';
import type { KeyView } from '../trace/types';
import { formatReply } from '../redis/cli_format';
import { checkpointFromKeyViews, serverFromKeyViews } from './snapshot';
import { fixture } from '../redis/test_server';

function viewsOf(db: { keys(): Iterable<string> } & Parameters<typeof keyViewOf>[0]): KeyView[] {
  return [...db.keys()].map((k) => keyViewOf(db, k)!);
}

describe('serverFromKeyViews', () => {
  it('round-trips a key view of every type, with and without expiry', () => {
    const f = fixture(1_000);
    f.exec('SET', 's', 'v\x00\xff');
    f.exec('SET', 's-ttl', '1', 'PX', '5000');
    f.exec('HSET', 'h', 'b', '2', 'a', '1', 'c', '3');
    f.exec('PEXPIRE', 'h', '777');
    f.exec('RPUSH', 'l', 'x', 'y', 'x');
    f.exec('ZADD', 'z', '0.1', 'a', '-inf', 'lo', '+inf', 'hi', '1e-320', 'tiny', '9007199254740993', 'big');
    f.exec('ZINCRBY', 'z', '0.2', 'a'); // 0.30000000000000004: no shorter decimal prints it
    f.exec('ZADD', 'z-ttl', '3', 'm');
    f.exec('PEXPIREAT', 'z-ttl', '123456');
    const views = viewsOf(f.server.db);
    expect(new Set(views.map((v) => v.type))).toEqual(new Set(['string', 'hash', 'list', 'zset']));

    const copy = serverFromKeyViews(views, new ManualClock(1_000));
    expect(copy.db.snapshot()).toEqual(f.server.db.snapshot());
    expect(viewsOf(copy.db)).toEqual(views);
    expect(copy.db.snapshot().z).toMatchObject({
      value: [
        ['lo', -Infinity],
        ['tiny', 1e-320],
        ['a', 0.1 + 0.2],
        ['big', 9007199254740992],
        ['hi', Infinity],
      ],
    });
  });

  it('answers reads like the node, expiring a key whose deadline has passed', () => {
    const views: KeyView[] = [
      { key: 'gone', type: 'string', value: 'x', expireAt: 500 },
      { key: 'kept', type: 'hash', value: [['f', 'v']], expireAt: 2_000 },
    ];
    const server = serverFromKeyViews(views, new ManualClock(1_000));
    const conn = server.connect();
    const run = (...argv: string[]) => formatReply(server.exec(conn, argv), 'tty').trim();
    expect(run('GET', 'gone')).toBe('(nil)');
    expect(run('HGET', 'kept', 'f')).toBe('"v"');
    expect(run('PTTL', 'kept')).toBe('(integer) 1000');
    expect(run('DBSIZE')).toBe('(integer) 1');
  });

  it('refuses a score that is not a number rather than storing NaN', () => {
    expect(() =>
      checkpointFromKeyViews([{ key: 'z', type: 'zset', value: [['m', 'nope']], expireAt: null }]),
    ).toThrow(/score "nope"/);
  });

  it('copies values, so the rebuilt server cannot change the views it came from', () => {
    const view: KeyView = { key: 'l', type: 'list', value: ['a'], expireAt: null };
    const server = serverFromKeyViews([view], new ManualClock(0));
    server.exec(server.connect(), ['RPUSH', 'l', 'b']);
    expect(view.value).toEqual(['a']);
  });
});
