import { describe, expect, it } from 'vitest';
import { masterWorld } from '../../scenario/testing/world';
import { acquire, call, now, sleep, type AcquireResult, type Process } from '../../sim/effects';
import { RedissonClient } from '../RedissonClient';
import type { RedissonLockEntry } from './RedissonLockEntry';

function world() {
  return masterWorld({ seed: 3, threads: ['B:1', 'B:2', 'P:1'] });
}

const CHANNEL = 'redisson_lock__channel:{myLock}';

describe('LockPubSub', () => {
  it('lets unlock messages accumulate as latch permits while nobody waits', () => {
    const w = world();
    const k = w.kernel;
    const b = new RedissonClient(k, 'B');
    const entryName = `${b.id}:myLock`;
    const waits: [number, AcquireResult][] = [];
    let busyUntil = 0;
    k.spawn(
      'B',
      'B:1',
      (function* (): Process<void> {
        const entry = (yield* b.pubSub.subscribe(
          entryName,
          CHANNEL,
          7500,
          false,
          'B:1',
        )) as RedissonLockEntry;
        const quiet = yield* acquire(entry.latch, 100); // nothing published yet
        waits.push([yield* now(), quiet]);
        const woken = yield* acquire(entry.latch, 5000); // the first message
        waits.push([yield* now(), woken]);
        // busy elsewhere while the other two messages arrive
        for (let i = 0; i < 3; i++) yield* call(b.connection(), ['PING']);
        busyUntil = yield* now();
        for (let i = 0; i < 3; i++) {
          const r = yield* acquire(entry.latch, 1000);
          waits.push([yield* now(), r]);
        }
      })(),
    );
    const pub = k.connect('P', 'master', 'P/cmd');
    k.spawn(
      'P',
      'P:1',
      (function* (): Process<void> {
        yield* sleep(200);
        for (let i = 0; i < 3; i++) yield* call(pub, ['PUBLISH', CHANNEL, '0']);
      })(),
    );
    k.run(1e6, () => false, 1e5);
    expect(waits.map(([, r]) => r)).toEqual(['timeout', 'acquired', 'acquired', 'acquired', 'timeout']);
    expect(waits[1][0]).toBe(202); // published at 201, delivered one latency later
    expect(busyUntil).toBeGreaterThan(206); // both later messages arrived while B was busy
    expect(waits[2][0]).toBe(busyUntil); // the permits were waiting in the latch
    expect(waits[3][0]).toBe(busyUntil);
    expect(waits[4][0]).toBe(busyUntil + 1000);
  });

  it('READ_UNLOCK_MESSAGE releases one permit per thread blocked on the latch, none for idle subscribers', () => {
    const w = world();
    const k = w.kernel;
    const b = new RedissonClient(k, 'B');
    const entryName = `${b.id}:myLock`;
    const seen: [string, number, AcquireResult][] = [];
    const queue: number[] = [];
    let entry: RedissonLockEntry | undefined;
    const thread = (name: string, waitFrom: number) =>
      function* (): Process<void> {
        entry = (yield* b.pubSub.subscribe(entryName, CHANNEL, 7500, false, name)) as RedissonLockEntry;
        yield* sleep(waitFrom - (yield* now())); // subscribed, but not waiting yet
        const r = yield* acquire(entry.latch, 1000);
        seen.push([name, yield* now(), r]);
      };
    k.spawn('B', 'B:1', thread('B:1', 100)());
    k.spawn('B', 'B:2', thread('B:2', 300)());
    const pub = k.connect('P', 'master', 'P/cmd');
    k.spawn(
      'P',
      'P:1',
      (function* (): Process<void> {
        yield* sleep(50); // both subscribed, nobody waiting: no permit
        yield* call(pub, ['PUBLISH', CHANNEL, '1']);
        yield* sleep(150); // B:1 waits, B:2 does not yet: one permit
        queue.push(k.queueLength(entry!.latch));
        yield* call(pub, ['PUBLISH', CHANNEL, '1']);
      })(),
    );
    k.run(1e6, () => false, 1e5);
    expect(queue).toEqual([1]);
    expect(b.pubSub.subscribers(entryName)).toBe(2);
    // B:1 woke on the second message (published at 203, delivered at 204); B:2 found no permit left
    expect(seen).toEqual([
      ['B:1', 204, 'acquired'],
      ['B:2', 1300, 'timeout'],
    ]);
  });
});
