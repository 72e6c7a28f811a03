/** A resource whose writes become visible at a separate commit: the lock released before it. */
import { client } from '../../build';
import { defineIncident } from './define';

const BUYERS = ['A', 'B', 'C'];

/** Three buyers, 20 ms apart, each running `program` once against a transactional stock row. */
const buyers = (program: unknown[]) => ({
  resource: { kind: 'counter', transactional: true },
  clients: BUYERS.map((id, i) => client(id, program, { start: i * 20 })),
});

const lockStock = { op: 'lock', lock: 'stock' };
const unlockStock = { op: 'unlock', lock: 'stock' };
const sell = { op: 'use', ms: 50 };
/** the proxy's commit: flushing and committing the transaction takes a few ms */
const commit = { op: 'commit', ms: 20 };

export const transactionalCommitAfterUnlock = defineIncident(
  'incident-transactional-commit-after-unlock',
  {
    title: '@Transactional: the lock is released before the commit',
    titleZh: '@Transactional：锁在事务提交前就释放了',
    description:
      'Three buyers each record a sale in a `@Transactional` method: `lock.lock(); try { sell(); } finally { ' +
      'lock.unlock(); }`. The sale is a database write inside the transaction, which Spring commits only after the ' +
      'method returns. A:1 unlocks, and B:1, woken by the unlock message, reads the row before A’s commit: it sees ' +
      'the old count and writes old + 1 (V3, a write outside the lock). Every sale ran under the lock, yet the ' +
      'counter ends below three.',
    descriptionZh:
      '三个买家各在一个 `@Transactional` 方法里记一笔销售：`lock.lock(); try { sell(); } finally { lock.unlock(); }`。' +
      '销售是事务里的一次数据库写入，Spring 要等方法返回后才提交。A:1 解锁，被解锁消息唤醒的 B:1 在 A 提交之前读到这一行：' +
      '它看到旧的计数，写入旧值 + 1（V3，锁外的写入）。每笔销售都在锁内进行，计数器却小于三。',
    incident: {
      family: 'transaction',
      links: [
        'https://github.com/redisson/redisson/issues/2183',
        'https://dev.to/manas_3dot14/eliminating-lost-update-anomalies-in-spring-boot-with-redlock-and-custom-aop-1b36',
        'https://besthub.dev/articles/why-transactional-can-invalidate-locks-in-spring-and-how-to-fix-it-6670ac360185',
      ],
      reported: 'any',
      symptom: {
        en: 'Lost updates and overselling although every update runs under the lock, inside a `@Transactional` method.',
        zh: '每次更新都在锁内、在 `@Transactional` 方法里执行，仍然出现更新丢失和超卖。',
      },
      cause: {
        en: 'The lock is released in the method’s `finally`, before Spring’s proxy commits the transaction; the next holder reads the committed (stale) row. Lock around the transaction (take the lock outside the @Transactional method, or unlock after commit) so the commit happens while the lock is held.',
        zh: '锁在方法的 `finally` 里释放，早于 Spring 代理提交事务；下一个持有者读到的是已提交的（旧）数据。应当让锁包住事务（在 @Transactional 方法外面加锁，或在提交后解锁），让提交发生在持锁期间。',
      },
      keywords: [
        '@Transactional',
        'Transactional',
        'Spring',
        'transaction',
        'commit',
        'oversell',
        'lost update',
        '事务',
        '提交',
        '超卖',
        '更新丢失',
        '库存',
      ],
      verdict: 'unsafe',
    },
    scenario: { title: 'Unlocked before the commit', ...buyers([lockStock, sell, unlockStock, commit]) },
  },
  {
    title: 'The remedy: commit, then unlock',
    titleZh: '补救：先提交，再解锁',
    description:
      'The same three buyers with the lock around the transaction: each commits its sale before it unlocks, so the ' +
      'next buyer reads the committed count and the counter ends at exactly three.',
    descriptionZh:
      '同样三个买家，锁包住整个事务：每人先提交销售再解锁，下一个买家读到的是已提交的计数，计数器最终正好是三。',
    verdict: 'safe',
    scenario: { title: 'Remedy: commit before unlock', ...buyers([lockStock, sell, commit, unlockStock]) },
  },
);

export const incidentsTransaction = [...transactionalCommitAfterUnlock];
