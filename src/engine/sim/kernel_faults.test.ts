import { describe, expect, it } from 'vitest';
import { acquire, call, isCallTimeout, now, sleep } from './effects';
import {
  connWorld,
  kinds,
  onA,
  runAll,
  semaphoreWorld,
  thread,
  world,
  type Kernel,
} from '../scenario/testing/kernel_world';

describe('Kernel: node faults', () => {
  function setAndRead(k: Kernel, log: string[]) {
    onA(k, function* (conn) {
      yield* call(conn, ['SET', 'k', 'v']);
      yield* call(conn, ['SET', 't', 'v', 'PX', '50000']);
      yield* sleep(100);
      const down = yield* call(conn, ['GET', 'k']);
      log.push(`${yield* now()} ${isCallTimeout(down) ? 'timeout' : JSON.stringify(down)}`);
      yield* sleep(1000);
      const up = yield* call(conn, ['GET', 'k']);
      log.push(`${yield* now()} ${JSON.stringify(up)}`);
    });
  }

  /** setAndRead's calls, with the master crashing at 50 ms and restarting at 4 s. */
  function crashAndRestart(persistence: boolean) {
    const w = world();
    const k = w.kernel;
    const log: string[] = [];
    setAndRead(k, log);
    k.at(50, () => k.crashNode('master', persistence));
    k.at(4000, () => k.restartNode('master'));
    runAll(w);
    return { w, log };
  }

  it('a crash without persistence loses every key; calls meanwhile time out; the restarted node answers', () => {
    const { w, log } = crashAndRestart(false);
    expect(log).toEqual(['3104 timeout', '4106 {"t":"bulk","v":null}']);
    const crash = w.events.findIndex((e) => e.kind === 'node.crash');
    expect(w.timeline.stateAt(crash - 1).nodes.master.keys.k).toBeDefined();
    expect(w.timeline.stateAt(crash).nodes.master).toMatchObject({ up: false, keys: {} });
    expect(w.timeline.stateAt(w.events.length - 1).nodes.master.up).toBe(true);
  });

  it('tells a client its connection dropped when the node crashes', () => {
    const w = world();
    const k = w.kernel;
    const drops: number[] = [];
    k.connect('A', 'master', 'A/pubsub', undefined, () => drops.push(k.now()));
    k.connect('B', 'master', 'B/cmd', undefined, () => drops.push(-1));
    k.at(5, () => k.crashClient('B'));
    k.at(10, () => k.crashNode('master', false));
    runAll(w);
    expect(drops).toEqual([11]);
  });

  it('a crash with persistence keeps the keys (and their deadlines) across the restart', () => {
    const { w, log } = crashAndRestart(true);
    expect(log).toEqual(['3104 timeout', '4106 {"t":"bulk","v":"v"}']);
    // SET t ran at 3: deadline 50003, gone from 50004 although the node was down in between
    expect(kinds(w.events, 'key.expired').map((e) => [e.t, e.key])).toEqual([[50004, 't']]);
  });

  it('a clock jump on a node expires its keys early', () => {
    const w = world();
    const k = w.kernel;
    onA(k, function* (conn) {
      yield* call(conn, ['SET', 'k', 'v', 'PX', '30000']);
    });
    k.at(1000, () => k.jumpClock('master', 20000));
    runAll(w);
    // deadline 30001 on the node clock = kernel 10001 after the jump; gone from 10002
    expect(kinds(w.events, 'key.expired').map((e) => e.t)).toEqual([10002]);
    expect(kinds(w.events, 'node.clock')[0]).toMatchObject({ t: 1000, node: 'master', jumpMs: 20000 });
  });

  it('a partition heals at healAt', () => {
    const { w, k, conn, log } = connWorld();
    thread(k, 'A:1', function* () {
      for (let i = 0; i < 3; i++) {
        const r = yield* call(conn, ['PING']);
        log.push(`${yield* now()} ${isCallTimeout(r) ? 'timeout' : 'PONG'}`);
      }
    });
    k.partition([['A'], ['master']], 4000);
    runAll(w);
    // the PINGs were held by TCP: the first retransmission after the heal (6.2 s after the first
    // send at 0) carries all three, and the third is answered
    expect(log).toEqual(['3000 timeout', '6000 timeout', '6202 PONG']);
    expect(kinds(w.events, 'net.heal').map((e) => e.t)).toEqual([4000]);
    expect(kinds(w.events, 'cmd').map((e) => e.t)).toEqual([6201, 6201, 6201]);
  });
});

describe('Kernel: a partition holds a connection’s bytes (Linux TCP retransmission)', () => {
  it('delivers a request held by a short partition at the first retransmission after the heal: the call is only late', () => {
    const { w, k, conn, log } = connWorld();
    k.at(100, () => k.partition([['A'], ['master']], 500));
    thread(k, 'A:1', function* () {
      yield* sleep(150);
      const r = yield* call(conn, ['SET', 'k', 'v']);
      log.push(`${yield* now()} ${isCallTimeout(r) ? 'timeout' : JSON.stringify(r)}`);
    });
    runAll(w);
    // sent at 150; retransmissions at 350 (cut), 750 (healed at 500): it runs at 751
    expect(kinds(w.events, 'cmd').map((e) => [e.t, (e.argv as string[])[0]])).toEqual([[751, 'SET']]);
    expect(log).toEqual(['752 {"t":"status","v":"OK"}']);
  });

  it('a request that timed out and was re-sent runs twice at the heal: its first copy, then the copy', () => {
    const { w, k, conn, log } = connWorld();
    k.partition([['A'], ['master']], 5000);
    thread(k, 'A:1', function* () {
      for (let i = 0; i < 2; i++) {
        const r = yield* call(conn, ['INCR', 'n']);
        log.push(`${yield* now()} ${isCallTimeout(r) ? 'timeout' : JSON.stringify(r)}`);
      }
    });
    runAll(w);
    // first send at 0: retransmissions at 3000 (cut), 6200; both INCRs run there, in order
    expect(kinds(w.events, 'cmd').map((e) => [e.t, e.reply])).toEqual([
      [6201, 1],
      [6201, 2],
    ]);
    expect(log).toEqual(['3000 timeout', '6000 timeout']);
    expect(kinds(w.events, 'reply.late').map((e) => e.t)).toEqual([6202, 6202]);
  });

  it('holds a reply and a pub/sub message toward a cut-off client and delivers them in order', () => {
    const w = world();
    const k = w.kernel;
    const got: number[] = [];
    const sub = k.connect('A', 'master', 'A/pubsub', () => got.push(k.now()));
    const pub = k.connect('B', 'master', 'B/cmd');
    thread(k, 'A:sub', function* () {
      yield* call(sub, ['SUBSCRIBE', 'ch']);
    });
    k.at(10, () => k.partition([['A'], ['master', 'B']], 1000));
    thread(k, 'B:1', function* () {
      yield* sleep(100);
      yield* call(pub, ['PUBLISH', 'ch', 'x']);
    });
    runAll(w);
    // published at 101 into the cut: retransmitted at 301, 701 (cut), 1501 → arrives 1502
    expect(kinds(w.events, 'pubsub.publish').map((e) => [e.t, e.receivers])).toEqual([[101, 1]]);
    expect(got).toEqual([1502]);
    expect(kinds(w.events, 'pubsub.deliver').map((e) => e.t)).toEqual([1502]);
  });

  it('counts a held pub/sub message as a way to wake the client only while a heal is still to come', () => {
    for (const healAt of [2000, undefined]) {
      const w = world();
      const k = w.kernel;
      const sem = k.semaphore();
      k.connect('A', 'master', 'A/pubsub', () => k.release(sem));
      const sub = k.connect('A', 'master', 'A/pubsub');
      const pub = k.connect('B', 'master', 'B/cmd');
      thread(k, 'A:sub', function* () {
        yield* call(sub, ['SUBSCRIBE', 'ch']);
      });
      thread(k, 'A:1', function* () {
        yield* acquire(sem);
      });
      k.at(10, () => k.partition([['A'], ['master', 'B']], healAt));
      thread(k, 'B:1', function* () {
        yield* sleep(100);
        yield* call(pub, ['PUBLISH', 'ch', 'x']);
      });
      k.run(500, () => false, 1e6);
      expect(k.canWake('A:1')).toBe(healAt !== undefined);
    }
  });

  it('a partition that resets connections loses what crosses it (the call times out, nothing runs at the heal)', () => {
    const { w, k, conn, log } = connWorld();
    k.partition([['A'], ['master']], 500, true);
    thread(k, 'A:1', function* () {
      const r = yield* call(conn, ['SET', 'k', 'v']);
      log.push(`${yield* now()} ${isCallTimeout(r) ? 'timeout' : 'OK'}`);
    });
    runAll(w);
    expect(log).toEqual(['3000 timeout']);
    expect(kinds(w.events, 'cmd')).toHaveLength(0);
    expect(kinds(w.events, 'net.partition')[0]).toMatchObject({ reset: true });
  });

  it('a request held while the node dropped its side of the connection is lost (the node answers a reset)', () => {
    const { w, k, conn } = connWorld();
    k.partition([['A'], ['master']], 1000);
    thread(k, 'A:1', function* () {
      yield* call(conn, ['SET', 'k', 'v']);
    });
    k.at(100, () => k.crashNode('master', false));
    k.at(200, () => k.restartNode('master'));
    runAll(w);
    expect(kinds(w.events, 'cmd')).toHaveLength(0);
  });

  it('a connection closed after a write still delivers the write, then the close (the FIN follows the data)', () => {
    const { w, k, conn } = connWorld();
    k.partition([['A'], ['master']], 1000);
    thread(k, 'A:1', function* () {
      yield* call(conn, ['SET', 'k', 'v'], { timeoutMs: 50 });
      k.disconnect(conn);
    });
    runAll(w);
    expect(kinds(w.events, 'cmd').map((e) => e.t)).toEqual([1401]);
    expect(kinds(w.events, 'conn.close').map((e) => e.t)).toEqual([1401]);
  });
});

describe('Kernel: latency spikes', () => {
  it('delays messages on the spiked links and keeps each link FIFO after the spike ends', () => {
    const w = world({ latencyMs: 1, threads: ['A:1', 'A:2', 'B:1'] });
    const k = w.kernel;
    const setAt = (actor: string, start: number, value: string) => {
      const conn = k.connect(actor.split(':')[0], 'master', `${actor}/cmd`);
      thread(k, actor, function* () {
        yield* sleep(start);
        yield* call(conn, ['SET', actor[0], value]);
      });
    };
    k.latencySpike(100, ['A'], 5);
    setAt('A:1', 0, 'first'); // sent during the spike: arrives at 101
    setAt('A:2', 10, 'second'); // sent after it: 11 alone, but TCP keeps it behind the first
    setAt('B:1', 10, 'b'); // another link: not slowed
    runAll(w);
    expect(kinds(w.events, 'cmd').map((e) => [e.t, e.actor, (e as { argv: string[] }).argv[2]])).toEqual([
      [11, 'B:1', 'b'],
      [101, 'A:1', 'first'],
      [101, 'A:2', 'second'],
    ]);
    expect(w.timeline.liveKey('master', 'A')?.value).toBe('second');
    const [start] = kinds(w.events, 'net.latency');
    expect(start).toMatchObject({ t: 0, ms: 100, endpoints: ['A'] });
    expect(kinds(w.events, 'net.latency.end')).toMatchObject([{ t: 5, causeSeq: start.seq }]);
  });
});

describe('Kernel: runaway processes', () => {
  it('stops a process that never lets time pass once the task cap is reached', () => {
    const w = world();
    const k = w.kernel;
    thread(k, 'A:1', function* () {
      for (;;) yield* sleep(0);
    });
    k.run(1e9, () => false, 1000);
    expect(k.truncated).toBe(true);
    expect(k.now()).toBe(0);
    expect(k.tasksRun).toBe(8000);
  });
});

describe('Kernel.canWake (liveness: what is still scheduled for a thread)', () => {
  it('false for a thread blocked with no timeout, true while it sleeps or waits with one, false once it is gone', () => {
    const { w, k, sem } = semaphoreWorld();
    thread(k, 'A:1', function* () {
      yield* acquire(sem);
    });
    thread(k, 'B:1', function* () {
      yield* acquire(sem, 5000);
    });
    expect(k.canWake('A:1')).toBe(true); // not started yet
    w.kernel.run(10, () => false, 1e6);
    expect(k.canWake('A:1')).toBe(false);
    expect(k.canWake('B:1')).toBe(true);
    expect(k.canWake('C:1')).toBe(false);
    k.release(sem);
    expect(k.canWake('A:1')).toBe(true);
    k.crashClient('B');
    expect(k.canWake('B:1')).toBe(false);
  });
});
