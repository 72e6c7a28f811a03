import { atLeast, choice, exactly, fieldOf, none, v1, whether, why } from './common';
import { ev, violationStart } from './events';
import type { Lesson } from '../types';

/**
 * The course's last lesson: what Redisson's locks give and cannot give, fencing, and how a
 * consensus-backed lock differs, with the sources a reader can follow. The runs are built-ins
 * the course has met, each pointed at the one fact it shows here.
 */
const SOURCES = {
  redisson: 'https://redisson.pro/docs/data-and-services/locks-and-synchronizers/',
  redisDocs: 'https://redis.io/docs/latest/develop/use/patterns/distributed-locks/',
  kleppmann: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
  antirez: 'http://antirez.com/news/101',
  etcdGuarantees: 'https://etcd.io/docs/v3.5/learning/api_guarantees/',
  etcdLock: 'https://etcd.io/docs/v3.3/dev-guide/api_concurrency_reference_v3/',
  zookeeper: 'https://zookeeper.apache.org/doc/current/recipes.html#sc_recipes_Locks',
};

const aWrite = ev('resource.use', 'A:1');

const lesson: Lesson = {
  id: 'choosing-a-lock',
  title: { en: 'Choosing a lock', zh: '如何选择一把锁' },
  minutes: 9,
  part: 3,
  objective: {
    en: 'Say what a Redisson lock guarantees and what it cannot, when fencing is needed, and when a consensus-backed lock (etcd, ZooKeeper) is the right tool.',
    zh: '说出 Redisson 锁能保证什么、不能保证什么，什么时候需要防护令牌，什么时候该用基于共识的锁（etcd、ZooKeeper）。',
  },
  steps: [
    {
      claims: ['C29', 'C34'],
      scenario: { builtin: 'gc-pause-lease-expiry' },
      at: violationStart('V1', 'myLock'),
      text: {
        en:
          'What a Redisson lock gives: on one healthy Redis, only one live, punctual client holds it; a holder ' +
          'that crashes loses it when its lease runs out, so nobody waits for ever; and while its JVM runs, the ' +
          'watchdog renews the lease for as long as the work takes ([Redisson docs, “Locks and synchronizers”](' +
          SOURCES.redisson +
          ')). What it cannot give: a lease is a timeout on the **holder**, not on the **work**. Here A:1’s JVM ' +
          'froze for 40 s, the watchdog with it; at 30 s Redis let the key go and B:1 took the lock while A:1 ' +
          'still believed it held it. Nothing in the client can notice a pause it is inside.',
        zh:
          'Redisson 锁能给的：在一台健康的 Redis 上，同一时刻只有一个活着且准时的客户端持有它；持有者崩溃后，租期一到锁就释放，没有人会永远等下去；' +
          '只要 JVM 在运行，看门狗就会在工作期间一直续期（[Redisson 文档“Locks and synchronizers”](' +
          SOURCES.redisson +
          ')）。它给不了的：租期是对**持有者**的超时，而不是对**工作**的超时。这里 A:1 的 JVM 冻结了 40 秒，看门狗也一起被冻住；' +
          '第 30 秒 Redis 放掉了这个键，B:1 拿到锁，而 A:1 仍以为自己持有。客户端无法察觉自己正身处其中的停顿。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'] },
      checks: [v1('myLock', 'A:1', 'B:1'), none({ kind: 'watchdog.renew', actor: 'A:1' })],
      teacher: {
        en: 'Put the two sentences on the board: “the lock is released when the holder is gone or late” and “the work is finished when the holder says so”. The course was the gap between them.',
        zh: '把两句话写在黑板上：“持有者不在了或迟到了，锁就释放”和“持有者说完成，工作才算完成”。整门课讲的就是这两句话之间的缝隙。',
      },
    },
    {
      claims: ['C33', 'C35'],
      scenario: { builtin: 'failover-lost-lock' },
      at: violationStart('V1', 'myLock'),
      question: {
        // B:1's lock request, not its acquire: the lock script's reply just before the acquire
        // already says "B:1 now holds myLock" in the caption
        decides: ev('lock.request', 'B:1'),
        prompt: {
          en: 'A:1 locked on the master 10 ms before it lost power; the replica was 40 ms behind. Sentinel promotes the replica. Will B:1 get the lock while A:1 still works?',
          zh: 'A:1 在主节点断电前 10 毫秒加了锁；从节点落后 40 毫秒。哨兵提升了从节点。A:1 还在工作时，B:1 会拿到锁吗？',
        },
        choices: [
          choice('yes', true, 'Yes: the new master never saw the lock', '会：新的主节点从没见过这把锁'),
          choice(
            'no',
            false,
            'No: Sentinel waits until the replica has caught up',
            '不会：哨兵会等从节点追上来',
            why(
              'Sentinel promotes the best replica it has, not one that is up to date: replication is asynchronous and the master is gone. The run shows the promotion at ≈ 6 s and B:1 acquiring on the new master at ≈ 7 s, with A:1 still at work.',
              '哨兵提升的是它手里最好的从节点，而不是一个已经同步完的：复制是异步的，而主节点已经没了。运行里约 6 秒时提升，约 7 秒时 B:1 在新主节点上拿到锁，A:1 仍在工作。',
            ),
          ),
        ],
        answer: whether(v1('myLock', 'A:1', 'B:1')),
        feedback: {
          en: 'A lock on a replicated Redis is only as durable as its replication: what the master acknowledged and did not replicate, a failover forgets.',
          zh: '复制环境下的 Redis 锁，持久程度取决于复制：主节点确认了却没来得及复制的东西，一次主从切换就会忘掉。',
        },
      },
      text: {
        en:
          'Two holders, and neither knows. Redis replication is asynchronous; the Redis docs’ page on ' +
          '[distributed locks](' +
          SOURCES.redisDocs +
          ') makes the same point about a master with a replica. Redisson’s answer since 3.12.5 is `WAIT` after ' +
          'each acquire (lesson {lesson:replication}; since 3.17 `checkLockSyncedSlaves` turns zero acknowledgements into an ' +
          'error): it narrows the window, but a replica that ' +
          'acknowledged and then was not the one promoted, or a `WAIT` that timed out, still loses the lock.',
        zh:
          '两个持有者，而且谁都不知道。Redis 的复制是异步的；Redis 文档中关于[分布式锁](' +
          SOURCES.redisDocs +
          ')的页面对带从节点的主节点也指出了同一点。Redisson 从 3.12.5 起的做法是每次加锁后发 `WAIT`（第 {lesson:replication} 课；从 3.17 起 `checkLockSyncedSlaves` 把零个确认变成错误）：' +
          '它缩小了窗口，但确认过的从节点如果不是被提升的那个，或者 `WAIT` 超时，锁照样会丢。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['myLock'] },
      checks: [v1('myLock', 'A:1', 'B:1'), atLeast(1, { kind: 'failover.promote' })],
      teacher: {
        en: 'Ask who in the room runs Redis with Sentinel or a managed failover. Then ask whether their lock code knows what `WAIT` is. Most do not.',
        zh: '问问在座谁在用带哨兵或托管故障切换的 Redis。再问他们的加锁代码是否知道 `WAIT` 是什么。大多数人不知道。',
      },
    },
    {
      claims: ['C37'],
      scenario: { builtin: 'redlock-clock-jump' },
      at: violationStart('V1', 'res'),
      text: {
        en:
          'RedLock, the Redis docs’ algorithm, takes the lock on a majority of independent masters within a ' +
          'validity time. Its safety assumes that clocks advance at about the same rate and that a holder does ' +
          'its work within the validity. Martin Kleppmann’s [“How to do distributed locking”](' +
          SOURCES.kleppmann +
          ') shows both assumptions failing (a clock jump, a pause); antirez’s reply [“Is Redlock safe?”](' +
          SOURCES.antirez +
          ') argues they hold in practice with monotonic clocks and a check of the elapsed time after ' +
          'acquiring. Here master-3’s clock jumped 10 s, its key expired early, and B:1 took a majority while ' +
          'A:1 held the lock. Redisson deprecated `getRedLock` in 3.12.5 and the `RedissonRedLock` class in 3.25.0; ' +
          'since 3.20 the note reads “Use getLock() or getFencedLock() method instead”.',
        zh:
          'RedLock 是 Redis 文档给出的算法：在有效期内，在多数独立主节点上拿到锁。它的安全性假设各节点的时钟走得差不多快，' +
          '并且持有者会在有效期内做完工作。Martin Kleppmann 的[《How to do distributed locking》](' +
          SOURCES.kleppmann +
          ')展示了这两个假设如何失效（时钟跳变、停顿）；antirez 的回应[《Is Redlock safe?》](' +
          SOURCES.antirez +
          ')认为，用单调时钟并在加锁后检查已耗时间，这些假设在实践中是成立的。这里 master-3 的时钟跳了 10 秒，它上面的键提前过期，' +
          'B:1 在 A:1 持有锁时拿到了多数。Redisson 在 3.12.5 弃用了 `getRedLock`，在 3.25.0 弃用了 `RedissonRedLock` 类；从 3.20 起那条注释写的是“Use getLock() or getFencedLock() method instead”。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master-3'] },
      checks: [v1('res', 'A:1', 'B:1'), exactly(1, { kind: 'node.clock', node: 'master-3' })],
      teacher: {
        en: 'Do not let the room turn this into a verdict on who won the debate. Ask which assumption each side needs, and whether their own servers meet it.',
        zh: '别让大家把这一步变成“谁赢了那场争论”的裁决。问问每一方需要哪个假设，以及他们自己的服务器是否满足它。',
      },
    },
    {
      claims: ['C39', 'C40'],
      scenario: { builtin: 'fencing-saves-gc-pause' },
      at: aWrite,
      text: {
        en:
          'What a lock cannot do, the resource can. Kleppmann’s **fencing token**: every acquire returns a ' +
          'number larger than any before, every write carries it, and the resource refuses a number lower than ' +
          'one it has seen. Redisson’s `RFencedLock` (since 3.19.0) hands out the numbers, an `INCR` of ' +
          '`redisson_lock_token:{res}` inside the lock script; the check is yours, in the resource. A:1 thawed ' +
          'and wrote with token 1 after B:1 wrote with 2: refused. The two holders still overlapped (`V1`), but ' +
          'no stale write landed (no `V3`). This is the capstone’s fix.',
        zh:
          '锁做不到的，资源可以做到。Kleppmann 的**防护令牌**（fencing token）：每次加锁返回一个比之前都大的数，每次写入都带上它，' +
          '资源拒绝比已见过的更小的数。Redisson 的 `RFencedLock`（3.19.0 起）负责发号，即在加锁脚本里对 `redisson_lock_token:{res}` 执行 `INCR`；' +
          '检查则由你在资源里完成。A:1 解冻后带着防护令牌 1 写入，而 B:1 已经用 2 写过：被拒绝。两个持有者依然重叠（`V1`），' +
          '但没有过期的写入落地（没有 `V3`）。这正是综合练习的解法。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['res', 'redisson_lock_token:{res}'] },
      checks: [
        { resource: { accepted: 1, rejected: 1, lastToken: 2 } },
        { noViolation: 'V3' },
        v1('res', 'A:1', 'B:1'),
      ],
      teacher: {
        en: 'Ask what the resource must be able to do for fencing to work: compare and remember a number, atomically with the write. A file on S3 or a third-party API often cannot; then fencing is not available and the lock is all you have.',
        zh: '问问资源要具备什么能力防护令牌才有用：比较并记住一个数，而且要和写入原子地完成。S3 上的文件或第三方 API 往往做不到；那就用不了防护令牌，只剩锁本身。',
      },
    },
    {
      claims: ['C39', 'C33'],
      scenario: { builtin: 'fencing-after-failover' },
      at: violationStart('V3', 'res'),
      question: {
        decides: aWrite,
        prompt: {
          en: 'The fenced store has accepted B:1’s write with token 34. A:1, which got 34 from the old master before it died, now writes with 34. Is its write refused?',
          zh: '带防护的存储已经接受了 B:1 带防护令牌 34 的写入。A:1 在旧主节点宕机前从它那里也拿到了 34，现在带着 34 写入。它的写入会被拒绝吗？',
        },
        choices: [
          choice(
            'refused',
            false,
            'Refused: fencing catches the stale holder',
            '被拒绝：防护令牌拦住了过期的持有者',
            why(
              'Fencing refuses a token lower than one seen, and A:1’s is not lower: the promoted replica never saw the counter reach 34, so it gave 34 to B:1 too. The run shows both writes accepted and one increment lost (`V3`).',
              '防护令牌拒绝的是比见过的更小的数，而 A:1 的并不更小：被提升的从节点从没见过计数器到达 34，于是又把 34 发给了 B:1。运行里两次写入都被接受，丢了一次加一（`V3`）。',
            ),
          ),
          choice(
            'accepted',
            true,
            'Accepted: both holders got the same token',
            '被接受：两个持有者拿到了同一个防护令牌',
          ),
        ],
        answer: fieldOf(aWrite, 'accepted'),
        feedback: {
          en: 'A token is only as good as its counter. Redis’ counter lives in asynchronously replicated memory, so a failover can hand the same number out twice.',
          zh: '防护令牌的可靠程度取决于它的计数器。Redis 的计数器存在异步复制的内存里，一次主从切换就可能把同一个数发出两次。',
        },
      },
      text: {
        en:
          'Both writes accepted, one sale lost, despite fencing. The counter `redisson_lock_token:{res}` had ' +
          'reached 34 on the old master only; the promoted replica still said 33. For fencing to hold, the ' +
          'numbers must come from somewhere that cannot forget an acknowledged write.',
        zh:
          '尽管有防护令牌，两次写入都被接受，丢了一笔。计数器 `redisson_lock_token:{res}` 只在旧主节点上到了 34；被提升的从节点上仍是 33。' +
          '要让防护令牌成立，这些数必须来自一个不会忘记已确认写入的地方。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['res', 'redisson_lock_token:{res}'] },
      checks: [
        { violation: 'V3', lock: 'res' },
        { resource: { accepted: 2, rejected: 0, lastToken: 34 } },
        { key: 'redisson_lock_token:{res}', value: '34' },
      ],
      teacher: {
        en: 'Ask what “larger than any before” needs from the counter: durability and a single order of increments. That is what consensus systems sell.',
        zh: '问问“比之前都大”对计数器有什么要求：持久，并且所有递增只有一个顺序。这正是共识系统所提供的。',
      },
    },
    {
      claims: ['C35', 'C39'],
      text: {
        en:
          'A consensus-backed lock (etcd on Raft, ZooKeeper on Zab) differs in exactly that. A write is ' +
          'acknowledged only once a majority has it, and every operation takes its place in one total order ' +
          '([etcd API guarantees](' +
          SOURCES.etcdGuarantees +
          ')), so a leader change cannot forget a granted lock or reuse a number. etcd’s `Lock` returns a key ' +
          'held until `Unlock` or until its lease expires ([etcd concurrency API](' +
          SOURCES.etcdLock +
          ')); the key’s revision only ever grows and serves as the fencing token. ZooKeeper’s [lock recipe](' +
          SOURCES.zookeeper +
          ') uses ephemeral sequential znodes: the lowest holds, and the node dies with its session. What does ' +
          '**not** change: an etcd lease and a ZooKeeper session are leases too, so a paused holder still loses ' +
          'the lock without knowing, and the resource must still check the token. The price: a majority write ' +
          'per acquire, and no lock at all on the minority side of a partition.',
        zh:
          '基于共识的锁（基于 Raft 的 etcd、基于 Zab 的 ZooKeeper）恰恰在这一点上不同。只有多数节点都拿到了，写入才会被确认，' +
          '所有操作处在同一个全序里（[etcd API guarantees](' +
          SOURCES.etcdGuarantees +
          ')），所以换主不会忘掉已授予的锁，也不会重用一个数。etcd 的 `Lock` 返回一个键，它一直有效，直到 `Unlock` 或它的租期到期' +
          '（[etcd concurrency API](' +
          SOURCES.etcdLock +
          ')）；这个键的 revision 只增不减，可以用作防护令牌。ZooKeeper 的[锁配方](' +
          SOURCES.zookeeper +
          ')使用临时顺序节点：序号最小的持有锁，会话结束节点随之消失。**不**变的是：etcd 的租期和 ZooKeeper 的会话同样是租期，' +
          '停顿的持有者照样会在不知情时失去锁，资源照样要检查防护令牌。代价是：每次加锁都要一次多数派写入，而网络分区中少数派一侧根本拿不到锁。',
      },
      highlight: { lanes: ['A:1', 'B:1'] },
      checks: [{ resource: { lastToken: 34 } }],
      teacher: {
        en: 'People often hear “use ZooKeeper” as “then I need no fencing”. Ask what happens to a ZooKeeper lock holder paused past its session timeout: the same as step 1.',
        zh: '很多人把“用 ZooKeeper”理解成“那就不需要防护令牌了”。问问 ZooKeeper 锁的持有者停顿超过会话超时会怎样：和第 1 步一样。',
      },
    },
    {
      claims: ['C01', 'C39'],
      scenario: { builtin: 'stock-with-lock' },
      question: {
        prompt: {
          en: 'A nightly report must not be sent twice (a duplicate only costs a little). A stock count must never oversell. Which pairing fits?',
          zh: '每晚的报表不该发两次（重复只会多花一点钱）。库存计数绝不能超卖。哪种搭配合适？',
        },
        choices: [
          choice(
            'same',
            'same',
            'The same Redisson RLock for both: it works in the demo',
            '两者都用同一把 Redisson RLock：演示里它能用',
            why(
              'It does work in this run, on a good day. For the stock, the capstone’s search found a pause that lost a sale under exactly this lock; for the report, a rare duplicate is acceptable, so the RLock is fine there.',
              '在这次运行里、在平常的一天，它确实能用。但对库存，综合练习里的搜索正是在这把锁下找到了丢销售的停顿；对报表，偶尔重复可以接受，RLock 在那里没问题。',
            ),
          ),
          choice(
            'split',
            'split',
            'RLock for the report; for the stock, a check in the store itself (fencing tokens from a counter that survives failover, or the database’s own conditional write)',
            '报表用 RLock；库存则在存储本身做检查（来自不会因主从切换而丢失的计数器的防护令牌，或数据库自身的条件写入）',
          ),
          choice(
            'redlock',
            'redlock',
            'RedLock for both: a majority of masters is safer',
            '两者都用 RedLock：多数主节点更安全',
            why(
              'A majority narrows the failover case but still rests on clocks and pauses (step 3), and Redisson has deprecated it. It gives the stock no check at the store, which is what stops a stale write.',
              '多数派缩小了主从切换的问题，但仍然依赖时钟和停顿（第 3 步），而且 Redisson 已经弃用了它。它没有在存储端给库存加上检查，而挡住过期写入的正是这个检查。',
            ),
          ),
        ],
        answer: { from: 'fixed', choice: 'split' },
        feedback: {
          en: 'Kleppmann’s distinction: a lock for efficiency may fail now and then; a lock for correctness needs the resource to refuse what the lock could not stop.',
          zh: 'Kleppmann 的区分：为效率而加的锁偶尔失手也无妨；为正确性而加的锁，需要资源去拒绝锁拦不住的东西。',
        },
      },
      text: {
        en:
          'Choosing a lock is choosing what a failure costs. If a rare double run is only waste, a Redisson ' +
          'lock on one Redis, with the watchdog or a lease longer than the work, is simple and fast. If it ' +
          'corrupts data, make the data refuse it: fencing tokens the resource checks, from a source that ' +
          'cannot repeat them (etcd’s revision, ZooKeeper’s sequence number, or the database’s own version ' +
          'column), and expect to need both. Here ten buyers sold under an RLock and every sale counted, on a ' +
          'good day. The course ends here: the playground and the Explore search are yours.',
        zh:
          '选择一把锁，就是选择失败的代价。如果偶尔重复执行只是浪费，在一台 Redis 上用 Redisson 锁，配看门狗或长于工作的租期，简单又快。' +
          '如果它会破坏数据，就让数据来拒绝它：由资源检查的防护令牌，来自不会重复发号的来源（etcd 的 revision、ZooKeeper 的序号，或数据库自己的版本列），' +
          '并且做好两者都需要的准备。这里十个买家在 RLock 下卖货，每笔都算数，在平常的一天。课程到此结束：练习场和“探索”搜索交给你了。',
      },
      highlight: { lanes: ['A:1', 'B:1'] },
      checks: [{ verdict: 'safe' }, { resource: { value: 10, accepted: 10 } }],
      teacher: {
        en: 'End by asking each person to name one lock in their own system and say whether it is for efficiency or for correctness. The ones for correctness are the homework.',
        zh: '最后请每个人说出自己系统里的一把锁，并说明它是为效率还是为正确性。为正确性的那些，就是课后作业。',
      },
    },
  ],
};

export default lesson;
