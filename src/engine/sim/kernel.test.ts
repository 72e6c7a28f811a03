import { describe, expect, it } from 'vitest';
import type { Reply } from '../redis/reply';
import type { AcquireResult, Process } from './effects';
import { NOW, acquire, acquireEffect, call, CALL_INTERRUPTED, isCallTimeout, now, sleep } from './effects';
import {
  connWorld,
  kinds,
  onA,
  runAll,
  semaphoreWorld,
  thread,
  world,
} from '../scenario/testing/kernel_world';
import { INTERRUPTED_GET_FINDS_REPLY, INTERRUPTED_GET_MS } from './interrupted_get';
import { INSTANT_RESUMES_BASE } from './instant_budget';

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
    // the second get() throws on the flag at once, after the INTERRUPTED_GET_MS its exception costs
    // (this seed's draw: its reply was not there yet)
    expect(log).toEqual([`${interrupted} @20`, `${interrupted} @21`, '{"t":"bulk","v":"2"} @121']);
  });

  it('a thread that retries calls with its interrupt flag set spins: each turn costs time, every command runs, now and then a reply is found', () => {
    const { w, k, conn } = connWorld({ latencyMs: 1 });
    const turns = 20_000;
    let found = 0;
    let foundAfterFound = 0;
    let before = false;
    let t = 0;
    let wrongCost = 0;
    let final: string | null = null;
    const h = thread(k, 'A:1', function* () {
      yield* sleep(10);
      t = yield* now();
      for (let i = 0; i < turns; i++) {
        const r = yield* call(conn, ['INCR', 'x'], true);
        const ok = r.t === 'int';
        if (ok) found++;
        if (ok && before) foundAfterFound++;
        before = ok;
        const t2 = yield* now();
        // an interrupted get costs INTERRUPTED_GET_MS; a found reply the round trip
        if (t2 - t !== (ok ? 2 : INTERRUPTED_GET_MS)) wrongCost++;
        t = t2;
      }
      const x = yield* call(conn, ['GET', 'x']);
      final = x.t === 'bulk' ? x.v : null;
    });
    k.at(5, () => k.interrupt(h));
    runAll(w);
    expect(h.done).toBe(true);
    expect(wrongCost).toBe(0);
    // every turn's command reached the node: cancelling the future does not recall it
    expect(final).toBe(String(turns));
    // one in INTERRUPTED_GET_FINDS_REPLY, one in INTERRUPTED_GET_FINDS_REPLY_AFTER_ONE right after one;
    // the chain's long-run share is p0 / (1 - p1 + p0) = 1.37 %, 274 of 20,000
    expect(1 / INTERRUPTED_GET_FINDS_REPLY).toBeCloseTo(1 / 90);
    expect(found).toBeGreaterThan(200);
    expect(found).toBeLessThan(350);
    expect(foundAfterFound / found).toBeGreaterThan(0.1);
    expect(foundAfterFound / found).toBeLessThan(0.3);
  });

  it('a get with the interrupt flag set finds no reply that cannot come: cut off from the node, every one throws within a round trip, none waits for the response timeout', () => {
    const { w, k, conn } = connWorld({ latencyMs: 1 });
    const ends: number[] = [];
    let other = 0;
    const h = thread(k, 'A:1', function* () {
      yield* sleep(10);
      for (let i = 0; i < 2000; i++) {
        const t0 = yield* now();
        const r = yield* call(conn, ['INCR', 'x'], true);
        if (!(r.t === 'error' && r.v === CALL_INTERRUPTED)) other++;
        ends.push((yield* now()) - t0);
      }
    });
    k.at(5, () => k.interrupt(h));
    k.partition([['A'], ['master']], 1e8);
    runAll(w, 1e7);
    expect(h.done).toBe(true);
    expect(other).toBe(0);
    // INTERRUPTED_GET_MS, or (drawn to find its reply) one round trip and a ms
    expect(new Set(ends)).toEqual(new Set([INTERRUPTED_GET_MS, 3]));
  });

  it('stops a run whose time stopped passing (a loop at one instant) instead of running for ever', () => {
    const { k } = semaphoreWorld();
    let turns = 0;
    thread(k, 'A:1', function* () {
      for (;;) {
        turns++;
        yield* sleep(0);
      }
    });
    k.run(1e9, () => false, 1e8);
    expect(k.truncated).toBe(true);
    expect(k.truncatedBy).toBe('instant');
    expect(k.now()).toBe(0);
    // a process without a program: INSTANT_RESUMES_BASE resumes at one instant
    expect(turns).toBe(INSTANT_RESUMES_BASE + 1);
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
