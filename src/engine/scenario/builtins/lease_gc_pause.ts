/** The page's default built-in (leases.ts lists it with the others). */
import { aThenB } from '../build';
import { defineBuiltin } from './types';

export const gcPauseLeaseExpiry = defineBuiltin('gc-pause-lease-expiry', {
  group: 'watchdog',
  title: 'A GC pause outlives the watchdog lease',
  titleZh: 'GC 停顿超过看门狗租期',
  description:
    'A:1 locks (watchdog), reads the counter and stops for a 40 s stop-the-world pause; the watchdog is part ' +
    'of the same JVM and stops too. The lease expires at 30 s, B:1 takes the lock and increments the ' +
    'counter. When A wakes up it still believes it holds the lock and writes its stale value: two holders ' +
    "(V1) and a lost update (V3). Only fencing at the resource can refuse A's write.",
  descriptionZh:
    'A:1 加锁（看门狗模式），读取计数器后遇到 40 秒的 stop-the-world 停顿；看门狗在同一个 JVM 里，也停了。' +
    '租期在第 30 秒到期，B:1 拿到锁并把计数器加一。A 醒来后仍以为自己持有锁，写入旧值：两个持有者（V1）和一次更新丢失（V3）。' +
    '只有资源端的防护令牌才能拒绝 A 的写入。',
  scenario: {
    title: 'A GC pause outlives the lease',
    clients: aThenB('myLock', { a: 2000, b: 100, bStart: 500 }, { body: 'use' }),
    faults: [{ at: 1000, kind: 'pause', client: 'A', ms: 40000 }],
  },
});
