/** Leases, the watchdog, and what a crash or a pause does to them. */
import { aThenB } from '../build';
import { defineBuiltin } from './types';

export const leaseExpiryNoWatchdog = defineBuiltin('lease-expiry-no-watchdog', {
  group: 'watchdog',
  title: 'lock(leaseTime): the lease runs out mid-work',
  titleZh: 'lock(leaseTime)：租期在工作中途到期',
  description:
    'A:1 locks with a 3 s lease, so there is no watchdog, and then takes 4 s over its read-modify-write. At ' +
    '3 s the key expires; B:1, waiting for the TTL, takes the lock and updates the counter. A:1 then writes ' +
    "its stale value over B's (lost update), and its unlock fails with IllegalMonitorStateException.",
  descriptionZh:
    'A:1 以 3 秒租期加锁（因此没有看门狗），随后的读-改-写用了 4 秒。3 秒时键过期；一直等待 TTL 的 B:1 拿到锁并更新计数器。' +
    'A:1 接着用旧值覆盖 B 的结果（更新丢失），它的 unlock 抛出 IllegalMonitorStateException。',
  scenario: {
    title: 'The lease runs out mid-work',
    clients: aThenB('myLock', { a: 4000, b: 200, bStart: 100 }, { body: 'use' }, { leaseMs: 3000 }),
  },
});

export const watchdogRenewal = defineBuiltin('watchdog-renewal', {
  group: 'watchdog',
  title: 'The watchdog keeps the lock alive',
  titleZh: '看门狗为锁续期',
  description:
    'A:1 calls lock() without a lease and works for 70 s, far beyond the 30 s lease. Every 10 s ' +
    '(lockWatchdogTimeout / 3) the watchdog checks that A:1 still owns the hash field and pushes the TTL ' +
    'back to 30 s. B:1 waits the whole time and gets the lock only when A:1 unlocks; unlock also stops the renewal.',
  descriptionZh:
    'A:1 不带租期调用 lock()，工作 70 秒，远超 30 秒的租期。看门狗每 10 秒（lockWatchdogTimeout / 3）确认 A:1 仍持有哈希字段，' +
    '并把 TTL 重置为 30 秒。B:1 一直等待，直到 A:1 解锁才拿到锁；解锁同时停止续期。',
  scenario: {
    clients: aThenB('myLock', { a: 70000, b: 1000, bStart: 1000 }),
  },
});

export const clientCrashWatchdogExpiry = defineBuiltin('client-crash-watchdog-expiry', {
  group: 'failures',
  title: 'The holder crashes: the lock expires 30 s after the last renewal',
  titleZh: '持有者崩溃：最后一次续期 30 秒后锁过期',
  description:
    'A:1 holds myLock under the watchdog; the watchdog renews it at 10 s. At 15 s the JVM of client A dies: ' +
    'no unlock, no more renewals. The key lives out the 30 s lease set at the last renewal and expires at ' +
    'about 40 s; B:1, waiting for the TTL, takes the lock then. No deadlock, but a 25 s outage.',
  descriptionZh:
    'A:1 在看门狗保护下持有 myLock，看门狗在第 10 秒续期。第 15 秒客户端 A 的 JVM 崩溃：没有解锁，也不再续期。' +
    '键按最后一次续期设置的 30 秒租期存活，约在第 40 秒过期；一直等待 TTL 的 B:1 这时拿到锁。没有死锁，但有 25 秒不可用。',
  scenario: {
    title: 'The holder crashes',
    clients: aThenB('myLock', { a: 60000, b: 1000, bStart: 1000 }),
    faults: [{ at: 15000, kind: 'crash', client: 'A' }],
  },
});

// The page's default, in a module of its own: the engine worker's first chunk carries it alone.
export { gcPauseLeaseExpiry } from './lease_gc_pause';
