import { describe, expect, it } from 'vitest';
import type { Reply } from '../redis/reply';
import type { TraceEvent } from '../trace/types';
import type { AcquireResult, Process } from './effects';
import { NOW, acquire, acquireEffect, call, CALL_INTERRUPTED, isCallTimeout, now, sleep } from './effects';
import { masterWorld } from '../scenario/testing/world';

function world(opts: { latencyMs?: number; threads?: string[] } = {}) {
  return masterWorld({ seed: 7, threads: opts.threads ?? ['A:1', 'B:1'], latencyMs: opts.latencyMs });
}

type Kernel = ReturnType<typeof world>['kernel'];

/** Spawns `body` as thread `actor` ("A:1") of its client. */
function thread(k: Kernel, actor: string, body: () => Process<void>) {
  return k.spawn(actor.split(':')[0], actor, body());
}

/** A:1 runs `body` over its own connection to the master. */
function onA(k: Kernel, body: (conn: ReturnType<Kernel['connect']>) => Process<void>) {
  const conn = k.connect('A', 'master', 'A/cmd');
  return thread(k, 'A:1', () => body(conn));
}

/** A world, its kernel, one semaphore and a log for the threads that wait on it. */
function semaphoreWorld() {
  const w = world();
  return { w, k: w.kernel, sem: w.kernel.semaphore(), log: [] as string[] };
}

/** A world, its kernel, A's connection to the master, and a log for A:1. */
function connWorld(opts: Parameters<typeof world>[0] = {}) {
  const w = world(opts);
  return { w, k: w.kernel, conn: w.kernel.connect('A', 'master', 'A/cmd'), log: [] as string[] };
}

const runAll = (w: ReturnType<typeof world>, until = 1e9) => w.kernel.run(until, () => false, 1e6);
const kinds = (events: TraceEvent[], kind: string) => events.filter((e) => e.kind === kind);

describe('Kernel: calls', () => {
  it('executes a call at arrival and resumes the caller one round trip later', () => {
    const w = world({ latencyMs: 5 });
    const k = w.kernel;
    const seen: [number, Reply][] = [];
    onA(k, function* (conn) {
      const r = yield* call(conn, ['SET', 'k', 'v']);
      seen.push([yield* now(), r]);
      const g = yield* call(conn, ['GET', 'k']);
      seen.push([yield* now(), g]);
    });
    runAll(w);
    expect(seen).toEqual([
      [10, { t: 'status', v: 'OK' }],
      [20, { t: 'bulk', v: 'v' }],
    ]);
    const cmds = kinds(w.events, 'cmd');
    expect(cmds.map((e) => [e.t, e.actor, e.node, e.argv, e.reply])).toEqual([
      [5, 'A:1', 'master', ['SET', 'k', 'v'], { status: 'OK' }],
      [15, 'A:1', 'master', ['GET', 'k'], 'v'],
    ]);
    expect(w.timeline.liveKey('master', 'k')).toEqual({
      key: 'k',
      type: 'string',
      value: 'v',
      expireAt: null,
    });
  });

  it('orders commands sent at the same ms by send order, and logs only keys that changed', () => {
    const w = world();
    const k = w.kernel;
    for (const [client, val] of [
      ['A', '1'],
      ['B', '2'],
    ]) {
      const conn = k.connect(client, 'master', `${client}/cmd`);
      k.spawn(
        client,
        `${client}:1`,
        (function* (): Process<void> {
          yield* call(conn, ['SET', 'k', val]);
          yield* call(conn, ['GET', 'k']);
        })(),
      );
    }
    runAll(w);
    expect(kinds(w.events, 'cmd').map((e) => `${e.actor} ${(e.argv as string[]).join(' ')}`)).toEqual([
      'A:1 SET k 1',
      'B:1 SET k 2',
      'A:1 GET k',
      'B:1 GET k',
    ]);
    // two SETs changed the key; the GETs did not
    expect(w.timeline.stateAt(w.events.length - 1).nodes.master.keys.k.value).toBe('2');
  });

  it('turns a call to an unreachable node into a response timeout', () => {
    const w = world();
    const k = w.kernel;
    const conn = k.connect('A', 'master', 'A/cmd');
    let result: [number, Reply] | null = null;
    k.partition([['master'], ['A']]);
    thread(k, 'A:1', function* () {
      const r = yield* call(conn, ['PING']);
      result = [yield* now(), r];
    });
    runAll(w);
    expect(result![0]).toBe(3000);
    expect(isCallTimeout(result![1])).toBe(true);
    expect(kinds(w.events, 'cmd')).toHaveLength(0);
  });

  it('makes later commands wait while a node sleeps (DEBUG SLEEP)', () => {
    const w = world();
    const k = w.kernel;
    const a = k.connect('A', 'master', 'A/cmd');
    const b = k.connect('B', 'master', 'B/cmd');
    const done: Record<string, number> = {};
    thread(k, 'A:1', function* () {
      yield* call(a, ['DEBUG', 'SLEEP', '0.5']);
      done.A = yield* now();
    });
    thread(k, 'B:1', function* () {
      yield* sleep(10);
      yield* call(b, ['PING']);
      done.B = yield* now();
    });
    runAll(w);
    expect(done).toEqual({ A: 502, B: 502 });
    expect(kinds(w.events, 'cmd').map((e) => e.t)).toEqual([1, 501]);
  });
});

describe('Kernel: a busy node', () => {
  it('runs commands that arrived during DEBUG SLEEP in arrival order, per connection FIFO included', () => {
    const w = world({ latencyMs: 5 });
    const k = w.kernel;
    const a = k.connect('A', 'master', 'A/cmd');
    const b = k.connect('B', 'master', 'B/cmd');
    thread(k, 'A:1', function* () {
      yield* call(a, ['DEBUG', 'SLEEP', '0.005']); // runs at 5, node busy until 10
    });
    // B pipelines on one connection from two processes. Y is sent at 5, just before X (sent at
    // 0) reaches the busy node, and arrives exactly when the node wakes up: X must still go first.
    thread(k, 'B:y', function* () {
      yield* sleep(5);
      yield* call(b, ['SET', 'k', 'y']);
    });
    thread(k, 'B:x', function* () {
      yield* call(b, ['SET', 'k', 'x']);
    });
    runAll(w);
    expect(kinds(w.events, 'cmd').map((e) => [e.t, (e.argv as string[]).join(' ')])).toEqual([
      [5, 'DEBUG SLEEP 0.005'],
      [10, 'SET k x'],
      [10, 'SET k y'],
    ]);
    expect(w.timeline.liveKey('master', 'k')?.value).toBe('y');
  });
});

describe('Kernel: expiry and pub/sub', () => {
  it('expires a key actively the first ms it counts as expired', () => {
    const w = world();
    const k = w.kernel;
    onA(k, function* (conn) {
      yield* call(conn, ['SET', 'k', 'v', 'PX', '100']);
    });
    runAll(w);
    // SET runs at t=1: deadline 101, expired from 102 (Redis: now > deadline)
    const exp = kinds(w.events, 'key.expired');
    expect(exp.map((e) => [e.t, e.node, e.key, e.how])).toEqual([[102, 'master', 'k', 'active']]);
    const i = w.events.indexOf(exp[0]);
    expect(w.timeline.stateAt(i - 1).nodes.master.keys.k).toBeDefined();
    expect(w.timeline.stateAt(i).nodes.master.keys.k).toBeUndefined();
  });

  it('delivers a published message one latency later and records publish and deliver', () => {
    const w = world({ latencyMs: 2 });
    const k = w.kernel;
    const got: [number, Reply][] = [];
    const sub = k.connect('A', 'master', 'A/pubsub', (msg) => got.push([k.now(), msg]));
    const pub = k.connect('B', 'master', 'B/cmd');
    thread(k, 'A:sub', function* () {
      yield* call(sub, ['SUBSCRIBE', 'ch']);
    });
    let receivers: Reply | null = null;
    thread(k, 'B:1', function* () {
      yield* sleep(10);
      receivers = yield* call(pub, ['PUBLISH', 'ch', 'hello']);
    });
    runAll(w);
    expect(receivers).toEqual({ t: 'int', v: 1 });
    expect(got).toEqual([
      [
        14,
        {
          t: 'array',
          v: [
            { t: 'bulk', v: 'message' },
            { t: 'bulk', v: 'ch' },
            { t: 'bulk', v: 'hello' },
          ],
        },
      ],
    ]);
    expect(kinds(w.events, 'pubsub.publish').map((e) => [e.t, e.channel, e.message, e.receivers])).toEqual([
      [12, 'ch', 'hello', 1],
    ]);
    expect(kinds(w.events, 'pubsub.deliver').map((e) => [e.t, e.actor, e.channel, e.message])).toEqual([
      [14, 'A', 'ch', 'hello'],
    ]);
    expect(w.timeline.stateAt(w.events.length - 1).nodes.master.subscriptions).toEqual({ ch: ['A/pubsub'] });
  });

  it('delivers extra SUBSCRIBE confirmations after the reply, in order', () => {
    const w = world();
    const k = w.kernel;
    const order: string[] = [];
    const sub = k.connect('A', 'master', 'A/pubsub', (msg) => {
      if (msg.t === 'array' && msg.v) order.push(`push ${(msg.v[1] as { v: string }).v}`);
    });
    thread(k, 'A:1', function* () {
      const r = yield* call(sub, ['SUBSCRIBE', 'a', 'b', 'c']);
      if (r.t === 'array' && r.v) order.push(`reply ${(r.v[1] as { v: string }).v}`);
    });
    runAll(w);
    expect(order).toEqual(['reply a', 'push b', 'push c']);
  });
});

describe('Kernel: semaphores and interrupts', () => {
  it('accumulates permits, wakes waiters in FIFO order and times out', () => {
    const { w, k, sem, log } = semaphoreWorld();
    const waiter = (name: string, timeout?: number) =>
      function* (): Process<void> {
        const r: AcquireResult = yield* acquire(sem, timeout);
        log.push(`${name} ${r} @${yield* now()}`);
      };
    k.release(sem); // a permit before anyone waits: the first acquire returns at once
    k.spawn('A', 'A:1', waiter('w1')());
    k.spawn('A', 'A:2', waiter('w2', 50)());
    k.spawn('A', 'A:3', waiter('w3')());
    k.at(100, () => k.release(sem));
    runAll(w);
    expect(log).toEqual(['w1 acquired @0', 'w2 timeout @50', 'w3 acquired @100']);
  });

  it('ends an interruptible wait at once and remembers an interrupt for the next one', () => {
    const { w, k, sem, log } = semaphoreWorld();
    const h = thread(k, 'A:1', function* () {
      log.push(`${yield* acquire(sem, undefined, true)} @${yield* now()}`);
      yield* sleep(100);
      log.push(`${yield* acquire(sem, 1000, false)} @${yield* now()}`);
      log.push(`${yield* acquire(sem, 1000, true)} @${yield* now()}`);
    });
    k.at(10, () => k.interrupt(h));
    k.at(50, () => k.interrupt(h));
    runAll(w);
    expect(log).toEqual(['interrupted @10', 'timeout @1110', 'interrupted @1110']);
  });

  it('an interruptible call ends at the interrupt; its late reply is dropped, the command still ran', () => {
    const { w, k, conn, log } = connWorld({ latencyMs: 50 });
    const h = thread(k, 'A:1', function* () {
      const r1 = yield* call(conn, ['SET', 'x', '1'], true);
      log.push(`${JSON.stringify(r1)} @${yield* now()}`);
      // the flag stays set (get() sets it again): the next interruptible call ends at once
      const r2 = yield* call(conn, ['INCR', 'x'], true);
      log.push(`${JSON.stringify(r2)} @${yield* now()}`);
      // a plain call is not affected, and gets its own reply, not a stale one
      const r3 = yield* call(conn, ['GET', 'x']);
      log.push(`${JSON.stringify(r3)} @${yield* now()}`);
    });
    k.at(20, () => k.interrupt(h));
    runAll(w);
    const interrupted = JSON.stringify({ t: 'error', v: CALL_INTERRUPTED });
    expect(log).toEqual([`${interrupted} @20`, `${interrupted} @20`, '{"t":"bulk","v":"2"} @120']);
  });

  it('kills a process: it never resumes and gives up its wait', () => {
    const { w, k, sem, log } = semaphoreWorld();
    const h = thread(k, 'A:1', function* () {
      yield* acquire(sem);
      log.push('A woke');
    });
    thread(k, 'A:2', function* () {
      yield* acquire(sem);
      log.push('B woke');
    });
    k.at(5, () => k.kill(h));
    k.at(10, () => k.release(sem));
    runAll(w);
    expect(log).toEqual(['B woke']);
    expect(h.done).toBe(true);
  });
});

describe('Kernel: sub-processes (a yielded generator runs like yield*)', () => {
  it('resumes the caller with the result, once the sub-process (and its own subs) ended', () => {
    const { w, k, log } = semaphoreWorld();
    function* inner(ms: number): Process<number> {
      yield* sleep(ms);
      return (yield NOW) as number;
    }
    function* middle(): Process<string> {
      const a = (yield inner(10)) as number;
      const b = (yield inner(5)) as number;
      return `${a},${b}`;
    }
    thread(k, 'A:1', function* () {
      log.push(`${(yield middle()) as string} @${yield* now()}`);
    });
    runAll(w);
    expect(log).toEqual(['10,15 @15']);
  });

  it("throws a sub-process's exception into its caller at the yield, through every level", () => {
    const { w, k, log } = semaphoreWorld();
    function* failing(): Process<void> {
      yield* sleep(3);
      throw new Error('boom');
    }
    function* passing(): Process<void> {
      try {
        yield failing();
      } finally {
        log.push('finally ran');
      }
    }
    thread(k, 'A:1', function* () {
      try {
        yield passing();
      } catch (e) {
        log.push(`caught ${(e as Error).message} @${yield* now()}`);
      }
    });
    runAll(w);
    expect(log).toEqual(['finally ran', 'caught boom @3']);
  });

  it('an uncaught exception of a sub-process fails the process; throwInto reaches the innermost wait', () => {
    const { w, k, sem, log } = semaphoreWorld();
    function* waits(): Process<void> {
      try {
        yield acquireEffect(sem, undefined, false);
      } catch (e) {
        log.push(`inner got ${String(e)}`);
        throw e;
      }
    }
    const h = thread(k, 'A:1', function* () {
      try {
        yield waits();
      } catch (e) {
        log.push(`outer got ${String(e)}`);
      }
      log.push(`goes on @${yield* now()}`);
    });
    k.at(7, () => k.throwInto(h, 'cancelled'));
    runAll(w);
    expect(log).toEqual(['inner got cancelled', 'outer got cancelled', 'goes on @7']);
    thread(k, 'A:2', function* () {
      yield (function* (): Process<void> {
        yield* sleep(0);
        throw new Error('deep');
      })();
    });
    expect(() => runAll(w)).toThrow(/process A:2 failed at t=7: deep/);
  });
});

describe('Kernel: client faults', () => {
  it('pause defers timers and incoming replies to the resume, in their original order', () => {
    const { w, k, conn, log } = connWorld();
    thread(k, 'A:1', function* () {
      yield* sleep(10);
      log.push(`timer @${yield* now()}`);
    });
    thread(k, 'A:2', function* () {
      yield* sleep(4);
      const r = yield* call(conn, ['PING']);
      log.push(`reply ${r.t === 'status' ? r.v : '?'} @${yield* now()}`);
    });
    k.at(5, () => k.pauseClient('A', 100));
    runAll(w);
    // the PING left at 4, ran at 5 (the node is not paused), its reply waited for the resume at 105
    expect(kinds(w.events, 'cmd').map((e) => e.t)).toEqual([5]);
    expect(log).toEqual(['reply PONG @105', 'timer @105']);
    expect(kinds(w.events, 'client.pause').map((e) => e.t)).toEqual([5]);
    expect(kinds(w.events, 'client.resume').map((e) => e.t)).toEqual([105]);
  });

  it('crash stops processes, drops replies and closes connections (subscriptions go)', () => {
    const w = world();
    const k = w.kernel;
    const log: string[] = [];
    const sub = k.connect('A', 'master', 'A/pubsub', () => log.push('push'));
    const cmd = k.connect('A', 'master', 'A/cmd');
    thread(k, 'A:1', function* () {
      yield* call(sub, ['SUBSCRIBE', 'ch']);
      yield* sleep(20);
      const r = yield* call(cmd, ['SET', 'x', '1']);
      log.push(`reply ${r.t}`);
    });
    const pub = k.connect('B', 'master', 'B/cmd');
    let receivers: Reply | null = null;
    thread(k, 'B:1', function* () {
      yield* sleep(40);
      receivers = yield* call(pub, ['PUBLISH', 'ch', 'm']);
    });
    k.at(23, () => k.crashClient('A')); // SET left at 22, runs at 23, reply dropped
    runAll(w);
    expect(log).toEqual([]);
    expect(receivers).toEqual({ t: 'int', v: 0 });
    expect(w.timeline.liveKey('master', 'x')?.value).toBe('1');
    expect(kinds(w.events, 'conn.close').map((e) => [e.t, e.conn])).toEqual([
      [24, 'A/pubsub'],
      [24, 'A/cmd'],
    ]);
    const last = w.timeline.stateAt(w.events.length - 1);
    expect(last.nodes.master.subscriptions).toBeUndefined();
    expect(last.threads['A:1'].state).toBe('crashed');
  });
});

describe('Kernel: determinism', () => {
  it('derives the same PRNG stream for the same purpose and a different one per purpose', () => {
    const a = world().kernel;
    const b = world().kernel;
    const xs = [a.rng('A/uuid').hex(16), a.rng('A/uuid').hex(4), a.rng('B/uuid').hex(16)];
    const ys = [b.rng('A/uuid').hex(16), b.rng('A/uuid').hex(4), b.rng('B/uuid').hex(16)];
    expect(xs).toEqual(ys);
    expect(xs[0]).not.toBe(xs[2]);
    expect(xs[0]).toMatch(/^[0-9a-f]{32}$/);
  });
});

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
