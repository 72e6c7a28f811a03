import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { formatReply } from './cli_format';
import type { Reply } from './reply';
import { RedisServer } from './server';

function setup() {
  const published: [string, string, number][] = [];
  const server = new RedisServer({
    clock: new ManualClock(0),
    events: { publish: (ch, m, n) => published.push([ch, m, n]) },
  });
  const client = () => {
    const pushed: string[] = [];
    const conn = server.connect((msg) => pushed.push(show(msg)));
    return {
      conn,
      pushed,
      run: (...argv: string[]) => show(server.exec(conn, argv)),
      execRaw: (...argv: string[]) => server.exec(conn, argv),
    };
  };
  return { server, published, client };
}

/** One line per reply: the raw-mode rendering with newlines as spaces (like Tcl lists in Redis's tests). */
function show(r: Reply): string {
  return formatReply(r, 'raw').trimEnd().split('\n').join(' ');
}

// Mirrors tests/unit/pubsub.tcl of Redis 7.0 and the RESP2 shapes checked over a raw socket.
describe('pub/sub', () => {
  it('SUBSCRIBE answers one frame per channel: the reply and then pushes', () => {
    const { client } = setup();
    const a = client();
    expect(a.run('SUBSCRIBE', 'chan1', 'chan2')).toBe('subscribe chan1 1');
    expect(a.pushed).toEqual(['subscribe chan2 2']);
    expect(a.run('SUBSCRIBE', 'chan1')).toBe('subscribe chan1 2');
  });

  it('execFrames returns every frame in wire order', () => {
    const { server } = setup();
    const conn = server.connect();
    const frames = server.execFrames(conn, ['SUBSCRIBE', 'a', 'b']).map(show);
    expect(frames).toEqual(['subscribe a 1', 'subscribe b 2']);
    expect(server.execFrames(conn, ['UNSUBSCRIBE']).map(show)).toEqual([
      'unsubscribe a 1',
      'unsubscribe b 0',
    ]);
  });

  it('PUBLISH counts deliveries and pushes message / pmessage', () => {
    const { client, published } = setup();
    const a = client();
    const b = client();
    const p = client();
    a.run('SUBSCRIBE', 'foo.bar');
    a.run('PSUBSCRIBE', 'foo.*');
    b.run('PSUBSCRIBE', 'foo.*');
    expect(p.run('PUBLISH', 'foo.bar', 'hello')).toBe('3');
    expect(a.pushed).toEqual(['message foo.bar hello', 'pmessage foo.* foo.bar hello']);
    expect(b.pushed).toEqual(['pmessage foo.* foo.bar hello']);
    expect(p.run('PUBLISH', 'foo1', 'x')).toBe('0');
    expect(p.run('PUBLISH', 'barfoo.1', 'x')).toBe('0');
    expect(published).toEqual([
      ['foo.bar', 'hello', 3],
      ['foo1', 'x', 0],
      ['barfoo.1', 'x', 0],
    ]);
  });

  it('unsubscribing from nothing still confirms, with a nil channel when none is named', () => {
    const { client } = setup();
    const a = client();
    expect(a.run('UNSUBSCRIBE', 'x', 'y')).toBe('unsubscribe x 0');
    expect(a.pushed).toEqual(['unsubscribe y 0']);
    expect(a.run('UNSUBSCRIBE')).toBe('unsubscribe  0');
    expect(a.run('PUNSUBSCRIBE')).toBe('punsubscribe  0');
  });

  it('a subscribed RESP2 connection may only run the pub/sub commands, PING answers pong arrays', () => {
    const { client } = setup();
    const a = client();
    a.run('SUBSCRIBE', 'c');
    expect(a.execRaw('PING')).toEqual({
      t: 'array',
      v: [
        { t: 'bulk', v: 'pong' },
        { t: 'bulk', v: '' },
      ],
    });
    expect(a.run('PING', 'foo')).toBe('pong foo');
    expect(a.run('GET', 'k')).toBe(
      "ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
    );
    expect(a.run('PUBSUB', 'NUMPAT')).toBe(
      "ERR Can't execute 'pubsub|numpat': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
    );
    expect(a.run('GET')).toBe("ERR wrong number of arguments for 'get' command");
    a.run('UNSUBSCRIBE', 'c');
    expect(a.run('PING')).toBe('PONG');
  });

  it('PUBSUB CHANNELS / NUMSUB / NUMPAT, and disconnect drops subscriptions', () => {
    const { client, server } = setup();
    const a = client();
    const b = client();
    a.run('SUBSCRIBE', 'news.1', 'sport');
    b.run('SUBSCRIBE', 'news.1');
    b.run('PSUBSCRIBE', 'n*', 'x*');
    a.run('PSUBSCRIBE', 'n*');
    const p = client();
    expect(p.run('PUBSUB', 'CHANNELS')).toBe('news.1 sport');
    expect(p.run('PUBSUB', 'CHANNELS', 'n*')).toBe('news.1');
    expect(p.run('PUBSUB', 'NUMSUB', 'news.1', 'sport', 'none')).toBe('news.1 2 sport 1 none 0');
    expect(p.run('PUBSUB', 'NUMPAT')).toBe('2');
    server.disconnect(b.conn);
    expect(p.run('PUBSUB', 'NUMSUB', 'news.1')).toBe('news.1 1');
    expect(p.run('PUBLISH', 'news.1', 'm')).toBe('2');
    expect(b.pushed).toEqual(['psubscribe x* 3']);
    expect(p.run('PUBSUB', 'CHANNELS', 'a', 'b')).toBe(
      "ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.",
    );
  });

  it('a subscriber may unsubscribe while a message is being delivered', () => {
    const { server } = setup();
    const seen: string[] = [];
    const a = server.connect((m) => {
      seen.push('a:' + show(m));
      server.exec(a, ['UNSUBSCRIBE', 'c']);
    });
    const b = server.connect((m) => seen.push('b:' + show(m)));
    server.exec(a, ['SUBSCRIBE', 'c']);
    server.exec(b, ['SUBSCRIBE', 'c']);
    expect(server.exec(server.connect(), ['PUBLISH', 'c', 'x'])).toEqual({ t: 'int', v: 2 });
    expect(seen).toEqual(['a:message c x', 'b:message c x']);
  });
});

// Shapes observed on redis-server 7.0.15 (standalone: one shard).
describe('sharded pub/sub', () => {
  it('SSUBSCRIBE / SPUBLISH / SUNSUBSCRIBE and the PUBSUB SHARD* views', () => {
    const { client } = setup();
    const a = client();
    const p = client();
    expect(a.run('SSUBSCRIBE', 'a', 'b')).toBe('ssubscribe a 1');
    expect(a.pushed).toEqual(['ssubscribe b 2']);
    expect(a.run('SUBSCRIBE', 'x')).toBe('subscribe x 1');
    expect(a.run('GET', 'k')).toBe(
      "ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
    );
    expect(p.run('SPUBLISH', 'a', 'hello')).toBe('1');
    expect(p.run('PUBLISH', 'a', 'nope')).toBe('0');
    expect(a.pushed.slice(1)).toEqual(['smessage a hello']);
    expect(p.run('PUBSUB', 'SHARDCHANNELS')).toBe('a b');
    expect(p.run('PUBSUB', 'SHARDNUMSUB', 'a', 'b', 'c')).toBe('a 1 b 1 c 0');
    expect(p.run('PUBSUB', 'CHANNELS')).toBe('x');
    expect(a.run('SUNSUBSCRIBE')).toBe('sunsubscribe a 1');
    expect(a.pushed.slice(2)).toEqual(['sunsubscribe b 0']);
    expect(a.run('SUNSUBSCRIBE')).toBe('sunsubscribe  0');
    expect(p.run('SUNSUBSCRIBE', 'a', 'b')).toBe('sunsubscribe a 0');
  });
});
