/** The protected resource under many hands: lost updates without a lock, none with one, and load. */
import { defineBuiltin } from './types';

const BUYERS = ['A', 'B', 'C', 'D', 'E'];

/** Ten buyers on five clients, starting 20 ms apart, each running `program` once. */
function buyers(program: Record<string, unknown>[]) {
  return BUYERS.map((id, c) => ({
    id,
    threads: [1, 2].map((t) => ({ id: t, start: (c * 2 + t - 1) * 20, program })),
  }));
}

export const stockOversellNoLock = defineBuiltin('stock-oversell-no-lock', {
  group: 'naive',
  title: 'Selling without a lock: lost updates',
  titleZh: '不加锁卖货：更新丢失',
  description:
    'Ten buyers each record one sale: read the sales counter, spend 50 ms on the order, write back +1. They ' +
    'overlap, so several read the same value and their writes overwrite each other: ten accepted writes, but ' +
    'the counter ends far below ten. The same check-then-write race oversells stock. No lock is involved, ' +
    'so no two threads ever hold one (no V1, no V2), yet the resource accepted writes from threads that held ' +
    'no lock: each overlapping write is a V3 “lost update without a lock”, and the run is ' +
    'unsafe.',
  descriptionZh:
    '十个买家各记一笔销售：读取销量计数器，花 50 毫秒处理订单，再写回加一。它们相互重叠，好几个读到同一个值，写入互相覆盖：' +
    '十次写入都被接受，计数器却远小于十。同样的先查后写竞争会导致超卖。这里没有锁，所以从没有两个线程同时持有锁（没有 V1、V2），' +
    '但资源接受了没有持锁的线程的写入：每次重叠的写入都是一个 V3“没有锁的更新丢失”，运行结果不安全。',
  scenario: {
    title: 'Selling without a lock',
    clients: buyers([{ op: 'use', ms: 50 }]),
  },
});

export const stockWithLock = defineBuiltin('stock-with-lock', {
  group: 'basics',
  title: 'Selling under an RLock: every sale counts',
  titleZh: '加 RLock 卖货：每笔销售都算数',
  description:
    'The same ten buyers, each taking RLock `stock` around the read-modify-write. They queue up on the lock ' +
    '(waiting through pub/sub, not polling), the writes no longer interleave, and the counter ends at exactly ten.',
  descriptionZh:
    '同样十个买家，每个都在读-改-写外面加上 RLock `stock`。它们在锁上排队（通过发布订阅等待，而不是轮询），写入不再交错，计数器最终正好是十。',
  scenario: {
    title: 'Selling under an RLock',
    clients: buyers([
      { op: 'lock', lock: 'stock' },
      { op: 'use', ms: 50 },
      { op: 'unlock', lock: 'stock' },
    ]),
  },
});

export const contention100 = defineBuiltin('contention-100', {
  group: 'basics',
  title: '100 threads, 20 lock cycles each',
  titleZh: '100 个线程，各加锁 20 次',
  description:
    'Four clients with 25 threads each run 20 rounds of lock, increment, unlock on one lock: 2000 critical ' +
    'sections. Each client subscribes once and wakes one waiter per unlock message, so the lock changes hands ' +
    'without a storm of retries, and the counter ends at exactly 2000.',
  descriptionZh:
    '四个客户端各 25 个线程，对同一把锁做 20 轮“加锁、加一、解锁”：共 2000 个临界区。每个客户端只订阅一次，每条解锁消息只唤醒一个等待者，' +
    '锁在没有重试风暴的情况下易手，计数器最终正好是 2000。',
  scenario: {
    clients: ['A', 'B', 'C', 'D'].map((id) => ({
      id,
      threads: Array.from({ length: 25 }, (_, i) => ({
        id: i + 1,
        program: [
          {
            op: 'repeat',
            times: 20,
            body: [
              { op: 'lock', lock: 'hot' },
              { op: 'use', ms: 1 },
              { op: 'unlock', lock: 'hot' },
            ],
          },
        ],
      })),
    })),
  },
});
