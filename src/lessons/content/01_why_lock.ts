import { choice, dodge, exactly, none, toggleControl, why, yourTurn } from './common';
import { ev } from './events';
import type { Lesson, ScenarioJson } from '../types';

/** Three buyers, 20 ms apart, each doing one 50 ms read-modify-write of the sales counter. */
const threeBuyers: ScenarioJson = {
  format: 'lockscope/1',
  title: 'Three buyers, no lock',
  titleZh: '三个买家，没有锁',
  resource: { kind: 'counter', initial: 0 },
  clients: ['A', 'B', 'C'].map((id, i) => ({
    id,
    threads: [{ id: 1, start: i * 20, program: [{ op: 'use', ms: 50 }] }],
  })),
};

/** The three buyers' programs (the task's control and solution set them together). */
const buyers = [0, 1, 2].map((c) => `/clients/${c}/threads/0/program`);

const locked = [
  { op: 'lock', lock: 'stock' },
  { op: 'use', ms: 50 },
  { op: 'unlock', lock: 'stock' },
];

const lesson: Lesson = {
  id: 'why-lock',
  title: { en: 'Why lock at all: the oversold stock', zh: '为什么要加锁：超卖的库存' },
  minutes: 6,
  part: 1,
  objective: {
    en: 'Explain a lost update (an oversell) and why three processes need a lock outside all of them.',
    zh: '解释什么是更新丢失（超卖），以及为什么三个进程需要一把放在它们之外的锁。',
  },
  steps: [
    {
      claims: ['C01'],
      teacher: {
        en: 'Before anything else, read the lane names and `V3` aloud with the room: the rest of the course uses this notation without explaining it again. Ask what a “counter” stands for in a shop (stock left, sales made). Some will say the three buyers do not overlap because they start 20 ms apart; point at the three bars lying over each other on the timeline.',
        zh: '先带大家把泳道名和 `V3` 念一遍：后面的课程都用这套记法，不会再解释。问大家在商店里这个“计数器”代表什么（剩余库存、已售数量）。有人会说三个买家相隔 20 毫秒开始，所以不会重叠；指给他们看时间轴上叠在一起的三段条。',
      },
      scenario: { inline: threeBuyers },
      at: { kind: 'resource.use', actor: 'A:1' },
      text: {
        en:
          'Three instances of the same service sell from one stock. Each does what the `deduct_stock` handler ' +
          'in the classic tutorial does: read the counter, spend 50 ms on the order, write the new value back. ' +
          '**How to read the screen:** each lane is one thread, named `<client>:<thread>`: `A:1` is thread 1 of ' +
          'client A. The **monitor** is LockScope’s checker: it watches every write and every lock and flags ' +
          'what goes wrong: `V1` two threads each believe they hold the same lock, `V2` two owners hold live ' +
          'copies of one lock on servers treated as masters, `V3` a write the resource should not have taken ' +
          '(from a thread whose lock is gone, or none, while another update is in flight); `(none)` means “no lock ' +
          'at all”. A:1 has just written `1`, without a lock, while ' +
          'B:1 and C:1 were in the middle of their own read-modify-write: the first `V3`.',
        zh:
          '同一个服务部署了三个实例，卖的是同一份库存。每个实例做的事就是经典教程里 `deduct_stock` 的逻辑：先读计数器，' +
          '花 50 毫秒处理订单，再把新值写回去。**怎么看这个画面：**每条泳道是一个线程，记作 `<客户端>:<线程>`：`A:1` 就是客户端 A 的 1 号线程。' +
          '**监视器**是 LockScope 的检查器：它盯着每一次写入和每一把锁，把出错的地方标出来——`V1` 两个线程都认为自己持有同一把锁，' +
          '`V2` 两个持有者在都被当作主节点的服务器上各有一份有效的锁，`V3` 资源接受了一次不该接受的写入（写入者的锁已失效或根本没锁，而别人的更新正在进行）；`(none)` 表示“根本没有锁”。' +
          'A:1 刚刚在没有锁的情况下写入了 `1`，而 B:1 和 C:1 正处在各自的“读-改-写”中间：这就是第一个 `V3`。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'] },
      checks: [
        { resource: { value: 1, accepted: 1 } },
        { thread: 'B:1', state: 'running' },
        { thread: 'C:1', state: 'running' },
      ],
    },
    {
      claims: ['C01'],
      teacher: {
        en: 'Ask for a show of hands before answering: 1 or 2? Most people who pick 2 imagine B:1 reading after A:1’s write; point at the read at 20 ms on B:1’s lane.',
        zh: '先让大家举手：1 还是 2？选 2 的人大多以为 B:1 是在 A:1 写完之后才读的；指给他们看 B:1 泳道上第 20 毫秒的那次读取。',
      },
      at: { kind: 'resource.use', actor: 'B:1' },
      text: {
        en:
          'B:1 writes back what it computed from its stale read: `0 + 1`. Two sales, and the counter says one. ' +
          'That is a **lost update**; with stock instead of a sales count it is an oversell: two customers ' +
          'bought the last item. The monitor flags B:1’s write as a second `V3` on `(none)`, and this one ' +
          'erased A:1’s update.',
        zh:
          'B:1 把它根据旧值算出来的结果写回去：`0 + 1`。卖了两件，计数器只记了一件。这就是**更新丢失**；' +
          '换成库存就是超卖：最后一件商品卖给了两个人。监视器把 B:1 的这次写入标成第二个锁为 `(none)` 的 `V3`，' +
          '而且这一次把 A:1 的更新抹掉了。',
      },
      question: {
        prompt: {
          en: 'B:1 started its read-modify-write at 20 ms, while A:1 was still working. What value will B:1 write?',
          zh: 'B:1 在第 20 毫秒开始它的“读-改-写”，那时 A:1 还在处理。B:1 会写入什么值？',
        },
        choices: [
          choice('one', 1, '`1`', '写入 `1`'),
          choice(
            'two',
            2,
            '`2`',
            '写入 `2`',
            why(
              'It is tempting because A:1 has written `1` by the time B:1 writes, so `1 + 1` looks natural. But B:1 computes from what it **read** at 20 ms, `0`, not from what is there when it writes.',
              '很容易这么想：B:1 写入时 A:1 已经写了 `1`，`1 + 1` 似乎顺理成章。但 B:1 用的是它在第 20 毫秒**读到**的 `0`，而不是写入那一刻的值。',
            ),
          ),
        ],
        answer: { from: 'field-of', selector: { kind: 'resource.use', actor: 'B:1' }, field: 'value' },
        feedback: {
          en:
            '`1`. B:1 read `0` at 20 ms, 30 ms before A:1 wrote `1`, and it computes from the value it read, not ' +
            'from the value that is there when it writes: `0 + 1`, the same `1` A:1 wrote. Nothing stops a read ' +
            'from happening in the middle of someone else’s read-modify-write.',
          zh:
            '`1`。B:1 在第 20 毫秒读到 `0`，比 A:1 写入 `1` 早了 30 毫秒；它用读到的值来计算，而不是写入那一刻的值：' +
            '`0 + 1`，和 A:1 写的一样是 `1`。没有任何东西阻止一次读取插进别人的“读-改-写”中间。',
        },
      },
      checks: [{ resource: { value: 1, accepted: 2 } }, { violation: 'V3', lock: '(none)' }],
    },
    {
      claims: ['C01'],
      teacher: {
        en: 'Ask the room how they would fix it inside one JVM; someone will say `synchronized`. Then ask what `synchronized` knows about the two other machines: nothing. If you run the task live, use the switch beside it rather than the JSON editor, and point at the buyers now queuing one after another.',
        zh: '问大家在一个 JVM 里会怎么修；总有人说 `synchronized`。再问：`synchronized` 对另外两台机器知道些什么？什么都不知道。如果现场做这个任务，用任务旁边的开关而不是 JSON 编辑器，然后指给大家看买家们一个接一个地排队。',
      },
      at: { kind: 'resource.use', actor: 'C:1' },
      text: {
        en:
          'Three sales, three accepted writes, and the counter ends at `1`: two updates are gone. Inside one JVM ' +
          'a `synchronized` block would fix this, but these are three processes, maybe on three machines. They ' +
          'need a lock that lives outside all of them, where every instance can see it: a **distributed lock**, ' +
          'here a key in Redis.',
        zh:
          '三笔销售，三次写入都被接受，计数器最后却是 `1`：两次更新丢了。在一个 JVM 里，`synchronized` 就能解决；' +
          '但这是三个进程，可能在三台机器上。它们需要一把放在所有实例之外、大家都看得见的锁：**分布式锁**，这里就是 Redis 里的一个键。',
      },
      checks: [{ resource: { value: 1, accepted: 3, lost: 2 } }, { verdict: 'unsafe' }],
      task: {
        prompt: yourTurn(
          'wrap each buyer’s `use` in `lock` / `unlock` of one lock (name it `stock`).',
          '给每个买家的 `use` 前后加上同一把锁（叫 `stock`）的 `lock` / `unlock`。',
        ),
        controls: [
          toggleControl(
            'Lock `stock` around each buyer’s `use`',
            '在每个买家的 `use` 前后加 `stock` 锁',
            buyers,
            locked,
            [{ op: 'use', ms: 50 }],
          ),
        ],
        goalText: {
          en: 'All three sales counted (the counter ends at 3), no violation, and each buyer took `stock` once.',
          zh: '三笔销售都被记上（计数器最终为 3），没有任何违规，并且每个买家都拿过一次 `stock`。',
        },
        goal: {
          all: [
            { resource: { value: 3 } },
            { verdict: 'safe' },
            ...['A:1', 'B:1', 'C:1'].map((a) => exactly(1, ev('lock.acquired', a, { lock: 'stock' }))),
          ],
        },
        solution: buyers.map((path) => ({ op: 'replace' as const, path, value: locked })),
        dodges: [
          dodge(
            { all: [{ resource: { value: 3 } }, none({ kind: 'lock.acquired' })] },
            'That works, but only because the buyers no longer overlap: you moved them apart in time, and ' +
              'nothing stops two requests from arriving together in production. Make them queue on a lock instead.',
            '这样确实行，但只是因为买家们不再重叠了：你把它们在时间上错开了，而生产环境里没有任何东西能阻止两个请求同时到达。' +
              '请让它们在一把锁上排队。',
            [
              { op: 'replace', path: '/clients/1/threads/0/start', value: 100 },
              { op: 'replace', path: '/clients/2/threads/0/start', value: 200 },
            ],
          ),
        ],
        success: {
          en:
            'Each buyer took `stock` once, so each read happened only after the previous buyer’s write: ' +
            'three sales, the counter at 3, no violation.',
          zh: '每个买家都拿过一次 `stock`，所以每次读取都发生在上一个买家写入之后：三笔销售，计数器为 3，没有违规。',
        },
      },
    },
    {
      claims: ['C01'],
      teacher: {
        en: 'A breather step: let the run play to the end and point at the counter reaching exactly 10. Ask what could still go wrong with this lock; collect the answers on the board (a crash, a slow holder, Redis failing) and tick them off as the course reaches them.',
        zh: '这是喘口气的一步：让运行播放到结束，指给大家看计数器正好到 10。问大家这把锁还可能出什么问题；把回答写在黑板上（崩溃、慢吞吞的持有者、Redis 自己出故障），后面讲到一个就勾掉一个。',
      },
      scenario: { builtin: 'stock-with-lock' },
      text: {
        en:
          'The same idea at scale: ten buyers on five clients, each taking `RLock` `stock` around the ' +
          'read-modify-write. The counter ends at exactly ten. The rest of the course is about what it takes ' +
          'for that lock to really be exclusive: what happens when a holder crashes, stalls or outlives its ' +
          'lease, and when Redis itself fails over.',
        zh:
          '放大来看：五个客户端上的十个买家，每个都在“读-改-写”外面加上 `RLock` `stock`。计数器最终正好是 10。' +
          '后面的课程讲的都是：要让这把锁真正互斥需要什么——持有者崩溃、卡住、超出租期时会怎样，Redis 自己主从切换时又会怎样。',
      },
      checks: [{ resource: { value: 10, accepted: 10 } }, { verdict: 'safe' }],
    },
  ],
};

export default lesson;
