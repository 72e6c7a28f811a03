import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import type { ScriptHost } from './eval';
import { RedisServer } from './server';

function master(start = 1_000_000) {
  const clock = new ManualClock(start);
  const stream: string[][][] = [];
  const server = new RedisServer({ clock, events: { propagate: (cmds) => stream.push(cmds) } });
  const conn = server.connect();
  const run = (...argv: string[]) => server.exec(conn, argv);
  return { clock, server, stream, run };
}

// The expected stream is what a real 7.0.15 replica received (MONITOR on the replica) for the
// same commands, absolute times aside.
describe('propagation to replicas', () => {
  it('sends changes only, with 7.0 rewrites', () => {
    const { run, stream } = master();
    run('set', 'a', '1');
    run('set', 'a', '2', 'nx');
    run('set', 'b', '1', 'px', '100000');
    run('set', 'c', '1', 'ex', '100', 'get');
    run('setex', 'd', '100', 'v');
    run('set', 'e', 'v', 'pxat', '99999999999999', 'nx');
    run('pexpire', 'a', '100000', 'nx');
    run('expire', 'nokey', '10');
    run('pexpire', 'a', '0');
    run('del', 'nokey');
    run('del', 'b', 'nokey');
    run('incrbyfloat', 'f', '1.5');
    run('hincrbyfloat', 'h', 'x', '0.5');
    run('hdel', 'h', 'nope');
    run('getset', 'g', 'v');
    run('getdel', 'g');
    run('publish', 'ch', 'm');
    run('lpush', 'l', 'a', 'b');
    run('ltrim', 'l', '0', '-1');
    run('ltrim', 'l', '0', '0');
    run('zadd', 'z', '1', 'a');
    run('zadd', 'z', '1', 'a');
    run('persist', 'c');
    run('persist', 'c');
    run('getex', 'c2', 'ex', '1');
    run('getex', 'e', 'px', '100');
    run('getex', 'e', 'persist');
    run('getex', 'e', 'persist');
    run('expireat', 'e', '100');
    run('flushdb');
    expect(stream).toEqual([
      [['set', 'a', '1']],
      [['SET', 'b', '1', 'PXAT', '1100000']],
      [['SET', 'c', '1', 'PXAT', '1100000']],
      [['SET', 'd', 'v', 'PXAT', '1100000']],
      [['SET', 'e', 'v', 'PXAT', '99999999999999']],
      [['PEXPIREAT', 'a', '1100000', 'nx']],
      [['DEL', 'a']],
      [['del', 'b', 'nokey']],
      [['SET', 'f', '1.5', 'KEEPTTL']],
      [['HSET', 'h', 'x', '0.5']],
      [['SET', 'g', 'v']],
      [['DEL', 'g']],
      [['publish', 'ch', 'm']],
      [['lpush', 'l', 'a', 'b']],
      [['ltrim', 'l', '0', '0']],
      [['zadd', 'z', '1', 'a']],
      [['persist', 'c']],
      [['PEXPIREAT', 'e', '1000100']],
      [['PERSIST', 'e']],
      [['DEL', 'e']],
      [['flushdb']],
    ]);
  });

  it('a script sends its effects, wrapped in MULTI/EXEC when there are several', () => {
    const { server, stream, run } = master();
    const host = (server.scripts as unknown as { host: ScriptHost }).host;
    server.scripts.evalCommand = () =>
      server.runScript(() => {
        host.execFromScript(['hincrby', 'lk', 'u', '1']);
        host.execFromScript(['pexpire', 'lk', '30000']);
        host.execFromScript(['hget', 'lk', 'u']);
        return host.execFromScript(['publish', 'c', 'x']);
      });
    run('EVAL', 'lock', '1', 'lk');
    server.scripts.evalCommand = () => host.execFromScript(['set', 'one', 'x', 'px', '500']);
    run('EVAL', 'one', '1', 'one');
    server.scripts.evalCommand = () => host.execFromScript(['get', 'one']);
    run('EVAL', 'read', '1', 'one');
    expect(stream).toEqual([
      [
        ['MULTI'],
        ['hincrby', 'lk', 'u', '1'],
        ['PEXPIREAT', 'lk', '1030000'],
        ['publish', 'c', 'x'],
        ['EXEC'],
      ],
      [['SET', 'one', 'x', 'PXAT', '1000500']],
    ]);
  });

  it('expired keys reach replicas as DEL: lazily before the command, actively one by one', () => {
    const { run, stream, clock, server } = master(0);
    run('set', 'a', '1', 'px', '10');
    run('set', 'b', '1', 'px', '10');
    run('set', 'c', '1', 'px', '10');
    stream.length = 0;
    clock.set(11);
    run('set', 'a', '2');
    run('get', 'b');
    server.activeExpireCycle();
    expect(stream).toEqual([
      [['MULTI'], ['DEL', 'a'], ['set', 'a', '2'], ['EXEC']],
      [['DEL', 'b']],
      [['DEL', 'c']],
    ]);
  });
});

describe('replica role', () => {
  it('refuses client writes, also inside scripts, but reads and publishes', () => {
    const { server, run } = master();
    server.setRole('replica');
    expect(run('SET', 'k', 'v')).toEqual({
      t: 'error',
      v: "READONLY You can't write against a read only replica.",
    });
    expect(run('GET', 'k')).toEqual({ t: 'bulk', v: null });
    expect(run('PUBLISH', 'c', 'm')).toEqual({ t: 'int', v: 0 });
    const host = (server.scripts as unknown as { host: ScriptHost }).host;
    expect(host.execFromScript(['hincrby', 'k', 'f', '1'])).toEqual({
      t: 'error',
      v: "READONLY You can't write against a read only replica.",
    });
    expect(host.execFromScript(['exists', 'k'])).toEqual({ t: 'int', v: 0 });
  });

  it('hides logically expired keys without deleting them, and never expires on its own', () => {
    const { server, run, clock, stream } = master(0);
    server.setRole('replica');
    expect(server.applyFromMaster(['SET', 'lock', 'v', 'PXAT', '100'])).toEqual({ t: 'status', v: 'OK' });
    clock.set(150);
    expect(run('GET', 'lock')).toEqual({ t: 'bulk', v: null });
    expect(run('EXISTS', 'lock')).toEqual({ t: 'int', v: 0 });
    expect(run('PTTL', 'lock')).toEqual({ t: 'int', v: -2 });
    expect(run('DBSIZE')).toEqual({ t: 'int', v: 1 });
    expect(server.nextExpiryAt()).toBeUndefined();
    server.activeExpireCycle();
    expect(run('DBSIZE')).toEqual({ t: 'int', v: 1 });
    // The master's stream never sees expiry: its HINCRBY lands on the old value.
    expect(server.applyFromMaster(['MULTI'])).toEqual({ t: 'status', v: 'OK' });
    server.applyFromMaster(['SET', 'h', 'x', 'PXAT', '100']);
    expect(server.applyFromMaster(['GET', 'h'])).toEqual({ t: 'bulk', v: 'x' });
    server.applyFromMaster(['DEL', 'lock']);
    expect(run('DBSIZE')).toEqual({ t: 'int', v: 1 });
    expect(stream).toEqual([]);
  });

  it('after promotion expires keys again and propagates', () => {
    const { server, run, clock, stream } = master(0);
    server.setRole('replica');
    server.applyFromMaster(['SET', 'old', 'v', 'PXAT', '100']);
    server.applyFromMaster(['SET', 'live', 'v', 'PXAT', '1000']);
    clock.set(200);
    server.setRole('master');
    expect(server.nextExpiryAt()).toBe(101);
    server.activeExpireCycle();
    expect(run('DBSIZE')).toEqual({ t: 'int', v: 1 });
    expect(stream).toEqual([[['DEL', 'old']]]);
    expect(run('PTTL', 'live')).toEqual({ t: 'int', v: 800 });
  });
});
