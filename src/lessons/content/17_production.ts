import { choice, exactly, why } from './common';
import { ev, violationStart } from './events';
import type { Lesson } from '../types';

/**
 * The course's last part, “What goes wrong in production”: three real incidents from Redisson's
 * issue tracker, each run as its user reported it, and the way into the gallery of the rest.
 */
const lesson: Lesson = {
  id: 'production',
  title: { en: 'What goes wrong in production: real incidents', zh: '生产环境里会出什么问题：真实案例' },
  minutes: 6,
  part: 3,
  objective: {
    en: 'Recognise the commonest real Redisson lock incidents by their symptom and find each one, with its remedy, in the gallery.',
    zh: '从症状认出最常见的真实 Redisson 锁事故，并在案例库里找到每一个及其补救方案。',
  },
  steps: [
    {
      claims: ['C07', 'C19'],
      teacher: {
        en: 'Ask who has seen `IllegalMonitorStateException` in their logs. Most treat it as a nuisance to catch and ignore; the run shows it arrives after the damage, so the fix is the lease (or the watchdog), not the `catch`. The incident card links the real thread.',
        zh: '问问在座谁在日志里见过 `IllegalMonitorStateException`。多数人把它当成一个捕获后忽略就好的麻烦；运行显示它是在损害已经发生之后才出现的，所以要修的是租期（或看门狗），而不是 `catch`。事故卡片上有真实讨论的链接。',
      },
      scenario: { builtin: 'incident-lease-shorter-than-work' },
      at: ev('lock.error', 'A:1'),
      text: {
        en:
          'The commonest complaint in Redisson’s tracker is an `IllegalMonitorStateException` from `unlock()`. ' +
          'This is issue #2468 as reported on 3.11.6: `lock(10, SECONDS)` and twelve seconds of work. With a ' +
          'lease there is no watchdog, the key expired at 10 s, B:1 took the lock and wrote, and A:1 wrote over ' +
          'it. The exception is only the last symptom: the verdict is **Unsafe**. The incident’s card, above the ' +
          'timeline (in presenter mode behind **Panels**), links the thread and runs the remedy beside it.',
        zh:
          'Redisson 问题追踪里最常见的抱怨是 `unlock()` 抛出 `IllegalMonitorStateException`。这是在 3.11.6 上报告的 #2468：' +
          '`lock(10, SECONDS)` 后工作了十二秒。有租期就没有看门狗，键在 10 秒过期，B:1 拿到锁并写入，A:1 又覆盖了它。' +
          '异常只是最后一个症状：结论是**不安全**。时间线上方的案例卡片（演示模式下点**面板**）链接到原帖，并可以运行旁边的补救方案。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['order:42'] },
      checks: [
        { verdict: 'unsafe' },
        exactly(1, ev('lock.error', 'A:1')),
        { resource: { value: 1, accepted: 2, lost: 1 } },
      ],
    },
    {
      claims: ['C25'],
      teacher: {
        en: 'Many pick “Safe: the lease expires”, forgetting that the watchdog belongs to the client and keeps renewing. Ask what would end the wait (the client shutting down, or an unlock). Point at the verdict: Stuck, which LockScope never calls Safe.',
        zh: '很多人会选“安全：租期会过期”，忘了看门狗属于客户端，会一直续期。问大家什么能结束这场等待（客户端关闭，或者一次解锁）。指给大家看结论：卡死，LockScope 从不把它叫作安全。',
      },
      scenario: { builtin: 'incident-thread-ends-holding' },
      at: violationStart('L3'),
      question: {
        prompt: {
          en: 'A:1 took `testthread` with `lock()` and its task ended without an unlock. Its client is alive. B:1 asks with `tryLock(60, SECONDS)`. What will the run’s verdict be?',
          zh: 'A:1 用 `lock()` 拿到 `testthread`，它的任务结束时没有解锁。它的客户端还活着。B:1 用 `tryLock(60, SECONDS)` 申请。这次运行的结论是什么？',
        },
        choices: [
          choice(
            'safe',
            'safe',
            'Safe: the lease expires after 30 s and B gets it',
            '安全：30 秒后租期到期，B 拿到锁',
            why(
              'The 30 s are only the watchdog’s lease: while the client lives the watchdog renews the key every 10 s, whether or not the thread that took it still runs. The run shows the key renewed again and again and B:1’s tryLock ending in `false` after 60 s.',
              '30 秒只是看门狗的租期：只要客户端活着，看门狗每 10 秒续期一次，不管拿锁的线程还在不在。运行里键一次次被续期，B:1 的 tryLock 在 60 秒后返回 `false`。',
            ),
          ),
          choice(
            'unsafe',
            'unsafe',
            'Unsafe: two holders',
            '不安全：两个持有者',
            why(
              'A thread that ends without unlocking sounds like a broken lock, but two holders need the key to go away first. It never does: the watchdog keeps it alive, B:1 never acquires, and nothing is written twice.',
              '线程不解锁就结束听起来像锁坏了，但要有两个持有者，键得先消失。它始终没有消失：看门狗让它一直存活，B:1 从未拿到锁，也没有任何东西被写两次。',
            ),
          ),
          choice('stuck', 'stuck', 'Stuck: nobody gets it', '卡死：谁也拿不到'),
        ],
        answer: { from: 'verdict' },
        feedback: {
          en: 'The watchdog runs in the client, not in the thread: it keeps renewing a lock nobody will release, and B:1’s wait ends in `false`.',
          zh: '看门狗运行在客户端里，而不是线程里：它不停地为一把没人会释放的锁续期，B:1 的等待以 `false` 告终。',
        },
      },
      text: {
        en:
          'Most incidents are not two holders but nobody getting the lock. Here A:1’s task ended without an ' +
          'unlock; the watchdog belongs to the client, not the thread, so it renews the lock for nobody and B:1 ' +
          'waits in vain. LockScope calls this **Stuck** (L3, a lock kept alive for no live holder), never Safe.',
        zh:
          '大多数事故不是两个持有者，而是谁也拿不到锁。这里 A:1 的任务结束时没有解锁；看门狗属于客户端而不是线程，' +
          '于是它为一个不存在的持有者续期，B:1 白白等待。LockScope 把这叫作**卡死**（L3，锁被保活却没有活着的持有者），绝不是安全。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['testthread'] },
      checks: [{ verdict: 'stuck' }, { thread: 'A:1', state: 'done' }],
    },
    {
      claims: ['C01'],
      teacher: {
        en: 'End the course on the question the incident raises: what exactly does the lock protect? Ask the room where the unlock should be in a `@Transactional` method (after the commit). Let them open the Real incidents group in the picker and search a symptom they know.',
        zh: '用这个事故提出的问题来结束课程：这把锁到底保护的是什么？问大家在 `@Transactional` 方法里解锁应该放在哪里（提交之后）。让大家打开场景选择器里的“真实案例”分组，搜一个自己见过的症状。',
      },
      scenario: { builtin: 'incident-transactional-commit-after-unlock' },
      text: {
        en:
          'And a lock can work perfectly and still not protect the data: inside a Spring `@Transactional` method the ' +
          'lock is released in `finally`, before the transaction commits, so the next buyer reads the old stock. ' +
          'Every sale ran under the lock; one was lost. More incidents wait in the picker’s **Real incidents** ' +
          'group: type an exception or a symptom (`IllegalMonitorStateException`, `watchdog`, `卡住`) into its ' +
          'search box to find the ones that show it.',
        zh:
          '锁本身可以完全正常，却依然保护不了数据：在 Spring 的 `@Transactional` 方法里，锁在 `finally` 中释放，早于事务提交，' +
          '于是下一个买家读到旧库存。每笔销售都在锁内，仍有一笔丢失。更多案例在场景选择器的**真实案例**分组里：在搜索框输入异常或症状' +
          '（`IllegalMonitorStateException`、`watchdog`、`卡住`）就能找到表现出它的案例。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'] },
      checks: [{ verdict: 'unsafe' }, { resource: { value: 2, accepted: 3, lost: 1 } }],
    },
  ],
};

export default lesson;
