import { describe, expect, it } from 'vitest';
import { HorizonQueue, TimedHeap } from './heap';
import { prngFor } from './prng';

interface Item {
  at: number;
  seq: number;
  dead: boolean;
}

/**
 * The tasks of a random run, given to both queues: a step below 0.5 adds a task due now, soon,
 * or far ahead (a timer), one below 0.6 cancels one; true when the step did either.
 */
class Tasks {
  private seq = 0;
  private readonly live: Item[] = [];

  constructor(private readonly queues: readonly { push(x: Item): void }[]) {}

  step(r: ReturnType<typeof prngFor>, op: number, now: number): boolean {
    if (op < 0.5) {
      const ahead = r.next() < 0.3 ? r.int(1000, 30000) : r.int(0, 20);
      const item = { at: now + ahead, seq: this.seq++, dead: false };
      for (const q of this.queues) q.push(item);
      this.live.push(item);
      return true;
    }
    if (op < 0.6 && this.live.length > 0) {
      this.live[r.int(0, this.live.length - 1)].dead = true;
      return true;
    }
    return op < 0.6;
  }
}

describe('HorizonQueue', () => {
  it('hands out what one TimedHeap of the same tasks would, in the same order, compactions included', () => {
    for (let round = 0; round < 20; round++) {
      const r = prngFor(round, 'heap');
      const heap = new TimedHeap<Item>();
      const queue = new HorizonQueue<Item>(1 + r.int(0, 300));
      const tasks = new Tasks([heap, queue]);
      let now = 0;
      const out: [number, number][][] = [[], []];
      for (let step = 0; step < 3000; step++) {
        const op = r.next();
        if (tasks.step(r, op, now)) {
          // a task added or cancelled
        } else if (op < 0.62) {
          heap.compact((x) => x.dead);
          queue.compact((x) => x.dead);
          expect(queue.size).toBe(heap.size);
        } else {
          const a = heap.pop();
          const b = queue.pop();
          expect(b).toBe(a);
          if (a !== undefined) {
            now = a.at;
            out[0].push([a.at, a.seq]);
            out[1].push([b!.at, b!.seq]);
          }
        }
        expect(queue.peek()).toBe(heap.peek());
      }
      expect(out[1]).toEqual(out[0]);
    }
  });

  it('hands out cancelled tasks when due, as one heap would: the kernel clock reaches them', () => {
    // A cancelled timer is still popped at its time, so a stuck run ends at the last one's time
    // (endedAt, and the explore search's horizon from it). Dropping them when the horizon moved
    // changed both, though no trace (run.test.ts "a stuck run ends where main's did").
    for (let round = 0; round < 20; round++) {
      const r = prngFor(round, 'heap-dead');
      const heap = new TimedHeap<Item>();
      const queue = new HorizonQueue<Item>(1 + r.int(0, 300));
      const tasks = new Tasks([heap, queue]);
      let now = 0;
      let deadHandedOut = 0;
      for (let step = 0; step < 3000; step++) {
        if (!tasks.step(r, r.next(), now)) {
          const a = heap.pop();
          const b = queue.pop();
          expect(b).toBe(a);
          expect(queue.size).toBe(heap.size);
          if (a?.dead) deadHandedOut++;
          if (a !== undefined) now = a.at;
        }
      }
      // cancelled tasks did come due (the test would pass vacuously otherwise)
      if (round === 0) expect(deadHandedOut).toBeGreaterThan(0);
    }
  });
});
