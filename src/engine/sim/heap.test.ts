import { describe, expect, it } from 'vitest';
import { HorizonQueue, TimedHeap } from './heap';
import { prngFor } from './prng';

interface Item {
  at: number;
  seq: number;
  dead: boolean;
}

describe('HorizonQueue', () => {
  it('hands out what one TimedHeap of the same tasks would, in the same order, compactions included', () => {
    for (let round = 0; round < 20; round++) {
      const r = prngFor(round, 'heap');
      const heap = new TimedHeap<Item>();
      const queue = new HorizonQueue<Item>(1 + r.int(0, 300));
      let now = 0;
      let seq = 0;
      const live: Item[] = [];
      const out: [number, number][][] = [[], []];
      for (let step = 0; step < 3000; step++) {
        const op = r.next();
        if (op < 0.5) {
          // a task due now, soon, or far ahead (a timer), some of them cancelled later
          const ahead = r.next() < 0.3 ? r.int(1000, 30000) : r.int(0, 20);
          const item = { at: now + ahead, seq: seq++, dead: false };
          heap.push(item);
          queue.push(item);
          live.push(item);
        } else if (op < 0.6 && live.length > 0) {
          live[r.int(0, live.length - 1)].dead = true;
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

  it('with `dead`, drops dead tasks past the horizon and hands out every live one in the same order', () => {
    for (let round = 0; round < 20; round++) {
      const r = prngFor(round, 'heap-dead');
      const heap = new TimedHeap<Item>();
      const queue = new HorizonQueue<Item>(1 + r.int(0, 300), (x) => x.dead);
      let now = 0;
      let seq = 0;
      const live: Item[] = [];
      let dropped = 0;
      // the next task still alive (a dead one does nothing when handed out)
      const nextLive = (q: { pop(): Item | undefined }): Item | undefined => {
        for (;;) {
          const x = q.pop();
          if (x === undefined || !x.dead) return x;
        }
      };
      for (let step = 0; step < 3000; step++) {
        const op = r.next();
        if (op < 0.5) {
          const ahead = r.next() < 0.3 ? r.int(1000, 30000) : r.int(0, 20);
          const item = { at: now + ahead, seq: seq++, dead: false };
          heap.push(item);
          queue.push(item);
          live.push(item);
        } else if (op < 0.6 && live.length > 0) {
          live[r.int(0, live.length - 1)].dead = true;
        } else {
          const a = nextLive(heap);
          const b = nextLive(queue);
          expect(b).toBe(a);
          // both hold every task after `a` now, less the dead ones the queue dropped
          expect(queue.size).toBeLessThanOrEqual(heap.size);
          if (queue.size < heap.size) dropped++;
          if (a !== undefined) now = a.at;
        }
      }
      // the dead are dropped past the horizon (the test would pass vacuously otherwise)
      if (round === 0) expect(dropped).toBeGreaterThan(0);
    }
  });
});
