import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { formatCommandReply, formatReply } from './cli_format';
import type { ClusterView } from './cluster_slots';
import { staticClusterView } from './cluster_static';
import type { Reply } from './reply';
import { RedisServer } from './server';

// Expected replies were checked against a redis-server 7.0.15 three-master cluster (the cluster
// conformance test compares the same with a live one). On master-1 (slots 0-5460): b (3300),
// f (3168), lockA (4805) are local; a (15495) and myLock (12769) live on master-3.
function node(view: ClusterView = staticClusterView('master-1', { masters: 3 })) {
  const server = new RedisServer({ clock: new ManualClock(0), cluster: view });
  const pushed: Reply[] = [];
  const conn = server.connect((m) => pushed.push(m));
  const run = (...argv: string[]) => formatReply(server.exec(conn, argv), 'tty').replace(/\n$/, '');
  return { server, conn, run, pushed };
}

/** The static view with some slots unserved or the state failed. */
function degraded(state: 'ok' | 'fail', unserved: (slot: number) => boolean): ClusterView {
  const base = staticClusterView('master-1', { masters: 3 });
  return { ...base, state: () => state, slotOwner: (s) => (unserved(s) ? null : base.slotOwner(s)) };
}

describe('cluster redirect (processCommand)', () => {
  it.each([
    [['GET', 'b'], '(nil)'],
    [['GET', 'a'], '(error) MOVED 15495 127.0.0.1:30003'],
    [['SET', 'myLock', 'x'], '(error) MOVED 12769 127.0.0.1:30003'],
    [['MSET', 'b', '1', 'f', '2'], "(error) CROSSSLOT Keys in request don't hash to the same slot"],
    [['MGET', 'a', 'b'], "(error) CROSSSLOT Keys in request don't hash to the same slot"],
    [['MGET', 'myLock', 'myLock'], '(error) MOVED 12769 127.0.0.1:30003'],
    [['MSET', '{b}1', '1', '{b}2', '2'], 'OK'],
    [['EVAL', 'return 1', '2', 'b', 'f'], "(error) CROSSSLOT Keys in request don't hash to the same slot"],
    [['EVAL', 'return 1', '1', 'a'], '(error) MOVED 15495 127.0.0.1:30003'],
    [['EVAL', 'return 1', '0'], '(integer) 1'],
    [['WATCH', 'a'], '(error) MOVED 15495 127.0.0.1:30003'],
    [['SSUBSCRIBE', 'myLock'], '(error) MOVED 12769 127.0.0.1:30003'],
    [['SPUBLISH', 'b', 'x'], '(integer) 0'],
    [['PING'], 'PONG'],
    [['SELECT', '1'], '(error) ERR SELECT is not allowed in cluster mode'],
    [['SELECT', '0'], 'OK'],
  ])('%j → %s', (argv, want) => {
    expect(node().run(...argv)).toBe(want);
  });

  it('CLUSTERDOWN: an unserved first key at once, then any keyed command while the state is fail', () => {
    const { run } = node(degraded('fail', (s) => s === 0));
    expect(run('GET', '06S')).toBe('(error) CLUSTERDOWN Hash slot not served');
    expect(run('GET', 'b')).toBe('(error) CLUSTERDOWN The cluster is down');
    expect(run('GET', 'a')).toBe('(error) CLUSTERDOWN The cluster is down');
    expect(run('SPUBLISH', 'b', 'x')).toBe('(integer) 0');
    expect(run('PING')).toBe('PONG');
    expect(run('EVAL', "return redis.call('get', 'b')", '0')).toMatch(
      /^\(error\) ERR Script attempted to execute a command while the cluster is down script: \w{40}, on @user_script:1\.$/,
    );
  });

  it('MULTI: a refused command dooms the transaction; EXEC checks the queue as one and discards it', () => {
    const { run } = node();
    expect([run('MULTI'), run('SET', 'b', '1'), run('GET', 'a'), run('EXEC')]).toEqual([
      'OK',
      'QUEUED',
      '(error) MOVED 15495 127.0.0.1:30003',
      '(error) EXECABORT Transaction discarded because of previous errors.',
    ]);
    expect([run('MULTI'), run('SET', 'b', '1'), run('SET', 'f', '1'), run('EXEC'), run('EXEC')]).toEqual([
      'OK',
      'QUEUED',
      'QUEUED',
      "(error) CROSSSLOT Keys in request don't hash to the same slot",
      '(error) ERR EXEC without MULTI',
    ]);
    expect([run('MULTI'), run('SELECT', '1'), run('EXEC')]).toEqual([
      'OK',
      'QUEUED',
      '1) (error) ERR SELECT is not allowed in cluster mode',
    ]);
  });

  it('scripts: a non-local key fails redis.call with the sha and line, pcall returns it; local slots may mix', () => {
    const { run } = node();
    const body = "return redis.call('get', 'a')";
    const sha = run('SCRIPT', 'LOAD', body).slice(1, -1);
    expect(run('EVAL', body, '0')).toBe(
      `(error) ERR Script attempted to access a non local key in a cluster node script: ${sha}, on @user_script:1.`,
    );
    expect(run('EVAL', "local r = redis.pcall('get', 'a'); return type(r) .. ':' .. r.err", '0')).toBe(
      '"table:ERR Script attempted to access a non local key in a cluster node"',
    );
    expect(run('EVAL', "redis.call('set', 'b', '1'); return redis.call('set', 'f', '2')", '0')).toBe('OK');
    expect(run('EVAL', "return redis.pcall('mset', 'b', '1', 'f', '2')", '0')).toBe(
      '(error) ERR Script attempted to access a non local key in a cluster node',
    );
    expect(run('EVAL', "return redis.pcall('spublish', 'myLock', 'x')", '0')).toBe(
      '(error) ERR Script attempted to access a non local key in a cluster node',
    );
  });

  it('a replica serves its master slots to READONLY clients and shard subscribers, for reads only', () => {
    // replica-1 follows master-1
    const { run } = node(staticClusterView('replica-1', { masters: 3, replicasPerMaster: 1 }));
    expect(run('GET', 'b')).toBe('(error) MOVED 3300 127.0.0.1:30001');
    expect(run('READONLY')).toBe('OK');
    expect(run('GET', 'b')).toBe('(nil)');
    expect(run('GET', 'a')).toBe('(error) MOVED 15495 127.0.0.1:30003');
    expect(run('SET', 'b', '1')).toBe('(error) MOVED 3300 127.0.0.1:30001');
    expect(run('READWRITE')).toBe('OK');
    expect(run('GET', 'b')).toBe('(error) MOVED 3300 127.0.0.1:30001');
    expect(run('SPUBLISH', 'b', 'x')).toBe('(integer) 0');
  });
});

describe('pub/sub across the bus', () => {
  it('PUBLISH goes to the bus, not to replicas; SPUBLISH to the shard; bus messages reach local subscribers', () => {
    const sent: string[] = [];
    const view = staticClusterView(
      'master-1',
      { masters: 3 },
      {
        publish: (from, ch, msg) => sent.push(`${from} publish ${ch} ${msg}`),
        publishShard: (from, ch, msg) => sent.push(`${from} spublish ${ch} ${msg}`),
      },
    );
    const propagated: string[][][] = [];
    const server = new RedisServer({
      clock: new ManualClock(0),
      cluster: view,
      events: { propagate: (c) => propagated.push(c) },
    });
    const pushed: Reply[] = [];
    const sub = server.connect((m) => pushed.push(m));
    server.exec(sub, ['SUBSCRIBE', 'ch']);
    const pub = server.connect();
    expect(server.exec(pub, ['PUBLISH', 'ch', 'hi'])).toEqual({ t: 'int', v: 1 });
    expect(server.exec(pub, ['SPUBLISH', 'b', 'x'])).toEqual({ t: 'int', v: 0 });
    expect(sent).toEqual(['master-1 publish ch hi', 'master-1 spublish b x']);
    expect(propagated).toEqual([]);
    expect(server.deliverFromBus('ch', 'remote')).toBe(1);
    expect(server.deliverFromBus('b', 'remote', true)).toBe(0);
    expect(pushed.map((m) => formatReply(m, 'raw'))).toEqual(['message\nch\nhi\n', 'message\nch\nremote\n']);
  });

  it('dropShardChannelsInSlots unsubscribes, slot by slot, every shard channel of the lost slots', () => {
    const { server, conn, pushed } = node();
    for (const ch of ['{b}2', 'f', '{b}1', 'lockA']) server.exec(conn, ['SSUBSCRIBE', ch]);
    pushed.length = 0;
    expect(server.dropShardChannelsInSlots([{ start: 3000, end: 3400 }])).toBe(3);
    expect(pushed.map((m) => formatReply(m, 'raw').split('\n').join(' '))).toEqual([
      'sunsubscribe f 3 ',
      'sunsubscribe {b}1 2 ',
      'sunsubscribe {b}2 1 ',
    ]);
    expect(server.pubsub.activeShardChannels(null)).toEqual(['lockA']);
  });
});

describe('CLUSTER', () => {
  it('NODES, SLOTS and INFO describe the static layout with replicas', () => {
    const { server, conn } = node(staticClusterView('master-1', { masters: 2, replicasPerMaster: 1 }));
    const text = (...argv: string[]) => formatCommandReply(argv, server.exec(conn, argv), 'tty');
    const lines = text('CLUSTER', 'NODES').split('\n');
    expect(lines[0]).toMatch(/^\w{40} 127\.0\.0\.1:30001@40001 myself,master - 0 0 1 connected 0-8191$/);
    expect(lines[3]).toMatch(/^\w{40} 127\.0\.0\.1:30004@40004 slave (\w{40}) 0 0 2 connected$/);
    expect(lines[3].split(' ')[3]).toBe(lines[1].split(' ')[0]);
    expect(text('CLUSTER', 'SLOTS').split('\n').slice(0, 7).join('\n')).toMatch(
      /^1\) 1\) \(integer\) 0\n {3}2\) \(integer\) 8191\n {3}3\) 1\) "127.0.0.1"\n {6}2\) \(integer\) 30001\n.*\n.*\n {3}4\) 1\) "127.0.0.1"$/,
    );
    expect(text('CLUSTER', 'INFO')).toContain('cluster_known_nodes:4\r\ncluster_size:2\r\n');
    expect(text('CLUSTER', 'REPLICAS', 'x')).toBe('(error) ERR Unknown node x\n');
    expect(text('CLUSTER', 'MEET', '127.0.0.1', '1')).toBe(
      '(error) ERR LockScope does not simulate CLUSTER MEET\n',
    );
  });

  it('is disabled outside cluster mode, after the table checked subcommand and arity', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const conn = server.connect();
    const run = (...argv: string[]) => formatReply(server.exec(conn, argv), 'tty').trimEnd();
    expect(run('CLUSTER', 'INFO')).toBe('(error) ERR This instance has cluster support disabled');
    expect(run('READONLY')).toBe('(error) ERR This instance has cluster support disabled');
    expect(run('CLUSTER', 'foo')).toBe("(error) ERR unknown subcommand 'foo'. Try CLUSTER HELP.");
    expect(run('CLUSTER', 'KEYSLOT')).toBe(
      "(error) ERR wrong number of arguments for 'cluster|keyslot' command",
    );
    expect(run('SELECT', '1')).toBe('(error) ERR DB index is out of range');
  });
});
