import {
  choice,
  dodge,
  exactly,
  firstOpPaths,
  lockTypeControl,
  msControl,
  none,
  toggleControl,
  why,
  yourTurn,
} from './common';
import { ev, violationStart } from './events';
import type { Check, Lesson, PatchOp, ScenarioJson, TaskSearch } from '../types';

/**
 * The capstone: the stock service of the `stock-*` built-ins (a sales counter, read-modify-write
 * under RLock `stock`), cut to three buyers so that a thousand schedules take seconds, graded by
 * the violation search instead of by one run.
 */
const BUYERS = ['A', 'B', 'C'];
const sale = [
  { op: 'lock', lock: 'stock' },
  { op: 'use', ms: 50 },
  { op: 'unlock', lock: 'stock' },
];

const stockService: ScenarioJson = {
  format: 'lockscope/1',
  title: 'A stock service: three buyers, one RLock',
  titleZh: '库存服务：三个买家，一把 RLock',
  // written out so that the task's persistence switch has a field to set
  redis: { topology: 'single', persistence: 'none' },
  resource: { kind: 'counter', initial: 0 },
  // each buyer its own copy: a patch on one program must not edit the others
  clients: BUYERS.map((id, i) => ({
    id,
    threads: [{ id: 1, start: i * 20, program: sale.map((op) => ({ ...op })) }],
  })),
};

/**
 * Every kind of change the search can make (no `faults`: all of them; those that cannot apply to
 * a scenario are skipped). V1 (two threads that each believe they hold the lock) is left out on purpose: no lease-based
 * lock can prevent it under a pause longer than its lease, and what the stock owner needs is that
 * no sale is lost and nobody is stuck, which is V3 and the liveness kinds.
 */
const search: TaskSearch = {
  budget: 1000,
  seed: 1,
  // every kind but `interrupt`: an interrupt that lands while lock() runs leaves, from 3.20.1, a
  // lock its watchdog renews for ever (incident-interrupted-acquire-renewed); no lock type, lease or
  // resource the task offers can fix that, so it would fail every answer (the step text says so)
  faults: ['pause', 'client-crash', 'node-crash', 'partition', 'clock', 'replica-lag', 'move', 'latency'],
  violations: ['V2', 'V3', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7'],
};

const everyBuyerSold: Check = {
  all: BUYERS.map((b) => exactly(1, ev('lock.acquired', `${b}:1`))),
};
/** B:1 and C:1 queue behind A:1 on a good day: the buyers really contend for the lock. */
const theyContend: Check = {
  all: ['B:1', 'C:1'].map((b) => ({ count: ev('lock.wait', b), min: 1 })),
};
/** three sales, three accepted writes, each with a token, at a stock that checks tokens */
const fencedSales: Check = {
  all: [
    { resource: { value: 3, accepted: 3, rejected: 0, lastToken: 3 } },
    { setting: '/resource/kind', is: 'fenced' },
  ],
};
/** the run is not cut short: `until` would stop every schedule before a late write lands */
const wholeRun: Check = { setting: '/until', is: null };

const allBuyers = [0, 1, 2];
const pauseFound: PatchOp[] = [
  { op: 'add', path: '/faults', value: [{ at: 8, kind: 'pause', client: 'A', ms: 30_000 }] },
];

const lesson: Lesson = {
  id: 'capstone',
  title: {
    en: 'Capstone: a stock service the search cannot break',
    zh: '综合练习：让搜索也攻不破的库存服务',
  },
  minutes: 8,
  part: 3,
  objective: {
    en: 'Make a stock service safe under every fault schedule the violation search tries, and say which mechanism made it safe.',
    zh: '让一个库存服务在违规搜索尝试的每一种故障组合下都安全，并说出是哪个机制让它安全。',
  },
  steps: [
    {
      claims: ['C01', 'C34'],
      scenario: { inline: stockService },
      at: ev('resource.use', 'C:1'),
      text: {
        en:
          'The stock service of the `stock-*` built-ins, cut to three buyers: each takes RLock `stock` with ' +
          '`lock()` (the watchdog keeps it), reads the sales counter, spends 50 ms on the order and writes ' +
          'back +1. B:1 and C:1 queue behind A:1. On a good day every sale counts: the counter ends at 3 and ' +
          'the verdict is **Safe**. But one run is one schedule. The **violation search** (the Explore ' +
          'button) runs the same scenario a thousand more times, each with up to three faults added: pauses, ' +
          'crashes, partitions, clock jumps, interrupts, latency spikes.',
        zh:
          '这是 `stock-*` 内置场景里的库存服务，缩减为三个买家：每人用 `lock()` 获取 RLock `stock`（由看门狗续期），' +
          '读取销量计数器，花 50 毫秒处理订单，再写回加一。B:1 和 C:1 排在 A:1 后面。平常的一天里每笔销售都算数：' +
          '计数器最终是 3，结论是**安全**。但一次运行只是一种调度。**违规搜索**（“探索…”按钮）把同一个场景再跑一千次，' +
          '每次最多加三个故障：停顿、崩溃、网络分区、时钟跳变、中断、延迟尖峰。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'] },
      checks: [{ verdict: 'safe' }, { resource: { value: 3, accepted: 3 } }, everyBuyerSold, theyContend],
      teacher: {
        en: 'Ask the room for a fault that would lose a sale here before anyone presses Explore. Most will name a crash; a crash loses no sale (the key expires and the others go on). The pause is the one that hurts.',
        zh: '在有人按“探索…”之前，先请大家说出一个会让这里丢掉一笔销售的故障。多数人会说崩溃；但崩溃不会丢销售（键过期后其他人继续）。真正伤人的是停顿。',
      },
      explore: {
        prompt: {
          en: 'Let the search try it yourself (it also counts `V1`, two holders, which the capstone leaves out: see step 3).',
          zh: '自己让搜索试一试（它也会统计 `V1`，即两个持有者；综合练习不计它，见第 3 步）。',
        },
        budget: 1000,
        seed: 1,
      },
    },
    {
      claims: ['C29', 'C01'],
      scenario: { patch: pauseFound },
      at: ev('resource.use', 'C:1'),
      question: {
        // before the key expires: A paused holding it, B and C waiting (not yet B holding it too)
        decides: { kind: 'key.expired', key: 'stock' },
        prompt: {
          en: 'The search’s smallest counterexample adds one fault: A’s JVM pauses at 8 ms, inside its sale, for exactly 30 000 ms. What happens to the sales counter?',
          zh: '搜索给出的最小反例只加了一个故障：A 的 JVM 在第 8 毫秒、也就是它的销售进行到一半时，停顿整整 30 000 毫秒。销量计数器会怎样？',
        },
        choices: [
          choice(
            'three',
            3,
            'It still ends at 3: A holds the lock, so the others wait',
            '仍然是 3：A 持有锁，其他人只能等',
            why(
              'The watchdog would keep A’s lock alive, but it is a timer in A’s paused JVM: no renewal runs, the key expires at 30 s, B:1 takes the lock, and A:1, thawing at the same moment, writes the value it read 30 s ago. The counter ends at 2.',
              '看门狗本来会让 A 的锁一直有效，但它是 A 那个被停顿的 JVM 里的定时器：续期一次也没执行，键在 30 秒过期，B:1 拿到锁，同一时刻解冻的 A:1 写回了它 30 秒前读到的值。计数器最终是 2。',
            ),
          ),
          choice('two', 2, 'It ends at 2: one sale is lost', '最终是 2：丢了一笔销售'),
          choice(
            'four',
            4,
            'It ends at 4: a sale is counted twice',
            '最终是 4：一笔销售被算了两次',
            why(
              'Two writers at once sounds like a double count, but each writes back its own read plus one: the stale writer overwrites, it does not add. The run shows three accepted writes and a counter of 2.',
              '两个人同时写听起来像是多算，但每人写回的都是自己读到的值加一：过期的写入是覆盖而不是累加。运行里三次写入都被接受，计数器是 2。',
            ),
          ),
        ],
        answer: { from: 'field-of', selector: ev('resource.use', 'C:1'), field: 'value' },
        feedback: {
          en: 'A pause stops every thread of the JVM, the watchdog’s too. Redis saw a silent holder and let its key expire; A:1 never knew.',
          zh: '停顿会让 JVM 的所有线程都停下，看门狗的也不例外。Redis 看到的是一个不出声的持有者，于是让它的键过期；A:1 对此一无所知。',
        },
      },
      text: {
        en:
          'This is the schedule the search found and shrank, run as an ordinary scenario: the key expired at ' +
          '≈ 30 s, B:1 took the lock, and A:1 wrote the counter it had read before its pause: a `V3` (a stale ' +
          'holder’s write). Three writes were accepted, the counter ends at 2: a sale is lost, and with real ' +
          'stock, an item is sold twice. Its `unlock()` then throws `IllegalMonitorStateException`.',
        zh:
          '这就是搜索找到并缩减后的调度，当作普通场景运行：键在约 30 秒过期，B:1 拿到锁，A:1 写回了它停顿前读到的计数器：' +
          '`V3`（过期持有者的写入）。三次写入都被接受，计数器最终是 2：丢了一笔销售，换成真实库存，就是一件商品卖了两次。' +
          '随后它的 `unlock()` 抛出 `IllegalMonitorStateException`。',
      },
      highlight: { lanes: ['A:1', 'B:1'] },
      teacher: {
        en: 'Point out that the search shrank its first hit to one fault and a round 30 000 ms: the smallest schedule that still breaks is the explanation. Ask why exactly 30 s: it is the watchdog’s lease: the shrinker checked that the same pause 1 ms shorter is survived.',
        zh: '指出搜索把第一次命中缩减成了一个故障、一个整数 30 000 毫秒：仍能攻破的最小调度本身就是解释。问大家为什么恰好是 30 秒：那是看门狗的租期：缩减器验证过，同样的停顿只要短 1 毫秒就能熬过去。',
      },
      checks: [
        { violation: 'V3', lock: 'stock', holders: ['A:1', 'B:1'] },
        { resource: { value: 2, accepted: 3 } },
        none({ kind: 'watchdog.renew', actor: 'A:1', before: violationStart('V3', 'stock') }),
      ],
    },
    {
      claims: ['C39', 'C29', 'C34'],
      scenario: { inline: stockService },
      text: {
        en:
          'Now make the service safe, graded not by one run but by the search: a thousand schedules (search ' +
          'seed 1) of every fault it can add but one. It fails the task on a lost or stale write (`V3`), on two live ' +
          'leases on two masters (`V2`), and on anything **Stuck** (`L1`–`L7`). It does not count `V1`, two ' +
          'threads that each believe they hold the lock: under a pause longer than any lease no Redis lock ' +
          'can prevent that, as the last step showed. What the stock needs is that no sale is lost and ' +
          'nobody waits for ever. The three buyers must all still sell, and still queue for the lock. The one ' +
          'fault left out is an interrupt: a thread interrupted while `lock()` runs gets an exception, yet its ' +
          'script still takes the lock and, from Redisson 3.20.1, the watchdog renews it for ever ' +
          '([the incident](#scenario=incident-interrupted-acquire-renewed)). No setting here fixes that; the ' +
          'cure is in the code that interrupts.',
        zh:
          '现在让服务变安全，评判的不是一次运行，而是搜索：一千种调度（搜索种子 1），用上它能加的几乎每一种故障（只除去一种）。' +
          '只要出现丢失或过期的写入（`V3`）、两个主节点上同时有两份有效租期（`V2`），或任何**卡死**（`L1`–`L7`），任务就不通过。' +
          '它不计 `V1`，即两个线程各自以为持有锁：停顿一旦长于租期，任何 Redis 锁都无法阻止，上一步已经演示过。' +
          '库存真正需要的是：不丢任何一笔销售，也没有人永远等下去。三个买家都必须照常卖出，并且照常排队等锁。' +
          '唯一没加的故障是中断：线程在 `lock()` 执行期间被中断会收到异常，但它的脚本照样拿到了锁，' +
          '而且从 Redisson 3.20.1 起看门狗会永远为它续期（[这个事故](#scenario=incident-interrupted-acquire-renewed)）。' +
          '这里的任何设置都修不好它，要改的是发出中断的代码。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'] },
      checks: [{ verdict: 'safe' }, { resource: { value: 3, accepted: 3 } }],
      teacher: {
        en: 'Let pairs try the watchdog, a short lease, a long lease and FairLock first, and read each counterexample aloud: the search is the argument. Many expect a longer lease to win; the search finds a longer pause.',
        zh: '先让两人一组试试看门狗、短租期、长租期和 FairLock，并把每个反例念出来：搜索本身就是论证。很多人以为更长的租期能赢，搜索会找到更长的停顿。',
      },
      task: {
        prompt: yourTurn(
          'make the stock service safe under everything the search can throw at it. Use the controls (lock ' +
            'type, lease, a resource that checks tokens) or edit the JSON; each change runs the search again.',
          '让库存服务在搜索能施加的一切故障下都安全。用下面的控件（锁类型、租期、检查防护令牌的资源）或直接改 JSON；' +
            '每次修改都会重新运行搜索。',
        ),
        hint: {
          en: 'Lesson {lesson:pauses-fencing}: a lock cannot stop a paused holder from waking up and writing. Something else has to refuse its write.',
          zh: '第 {lesson:pauses-fencing} 课：锁无法阻止一个停顿过的持有者醒来后写入。得由别的东西拒绝它的写入。',
        },
        controls: [
          lockTypeControl(['RLock', 'FencedLock', 'FairLock', 'SpinLock'], allBuyers),
          msControl(
            'Lease (`leaseMs`; empty: the watchdog)',
            '租期（`leaseMs`；留空：看门狗）',
            firstOpPaths('leaseMs', allBuyers),
          ),
          toggleControl(
            'The stock refuses a token lower than one it has seen (`fenced`)',
            '库存拒绝比见过的更小的防护令牌（`fenced`）',
            ['/resource'],
            { kind: 'fenced', initial: 0 },
            { kind: 'counter', initial: 0 },
          ),
          toggleControl(
            'Redis keeps its data across a restart (`persistence: aof-always`)',
            'Redis 重启后保留数据（`persistence: aof-always`）',
            ['/redis/persistence'],
            'aof-always',
            'none',
          ),
        ],
        search,
        goalText: {
          en:
            'Your run is Safe with all three sales counted, each under the lock and each with a fencing token the ' +
            'stock checked; and the search finds no `V2`, `V3` or `L1`–`L7` in its 1000 schedules.',
          zh:
            '你的运行是安全的，三笔销售都被计入，每笔都在锁内、都带着库存检查过的防护令牌；' +
            '并且搜索在 1000 种调度里找不到任何 `V2`、`V3` 或 `L1`–`L7`。',
        },
        goal: { all: [{ verdict: 'safe' }, everyBuyerSold, theyContend, fencedSales, wholeRun] },
        dodges: [
          dodge(
            { not: everyBuyerSold },
            'That works, but not every buyer sold under the lock: with fewer buyers (or a `tryLock` that gives up) ' +
              'there is nobody to overwrite. Keep all three buying, each under the lock.',
            '这样确实行，但并不是每个买家都在锁内卖出了：买家少了（或者 `tryLock` 放弃了），自然没人可被覆盖。' +
              '请让三个人都照常购买，并且每次都在锁内。',
            [
              { op: 'remove', path: '/clients/2' },
              { op: 'remove', path: '/clients/1' },
            ],
          ),
          dodge(
            { resource: { accepted: 0 } },
            'That works, but nothing is sold any more: without the read-modify-write there is no stock to ' +
              'protect. Keep the `use` step inside the lock.',
            '这样确实行，但什么都卖不出去了：没有“读-改-写”，也就没有要保护的库存。请把 `use` 这一步留在锁内。',
            allBuyers.map((c) => ({ op: 'remove' as const, path: `/clients/${c}/threads/0/program/1` })),
          ),
          dodge(
            { not: theyContend },
            'That works, but the buyers no longer meet: spread apart in time, nobody queues behind anybody. ' +
              'A stock service serves a rush; keep them arriving together.',
            '这样确实行，但买家之间不再相遇：时间上错开以后，谁也不用排在谁后面。库存服务要应付的是抢购；请让他们一起到达。',
            [
              { op: 'replace', path: '/clients/1/threads/0/start', value: 200_000 },
              { op: 'replace', path: '/clients/2/threads/0/start', value: 400_000 },
            ],
          ),
          dodge(
            { not: wholeRun },
            'That works, but you cut the run short with `until`: the search’s schedules stop before a late ' +
              'write can land, so it is not the faults that were beaten but the clock. Remove `until`.',
            '这样确实行，但你用 `until` 把运行截短了：搜索的调度在迟到的写入落地之前就停了，被打败的不是故障，而是时钟。请删掉 `until`。',
            [{ op: 'add', path: '/until', value: 1000 }],
          ),
        ],
        solution: [
          { op: 'replace', path: '/resource', value: { kind: 'fenced', initial: 0 } },
          // the token counter is a Redis key: a restart without persistence starts it over, and the
          // stock then refuses the honest holder's lower token (the search finds that schedule)
          { op: 'replace', path: '/redis/persistence', value: 'aof-always' },
          ...allBuyers.map((c) => ({
            op: 'add' as const,
            path: `/clients/${c}/threads/0/program/0/type`,
            value: 'FencedLock',
          })),
        ],
        success: {
          en:
            'All three sales counted, each with a token the stock checked, and the search found nothing in 1000 ' +
            'schedules. A pause longer than the lease can still leave two threads believing they hold the lock; ' +
            'what kept the sales is the stock refusing the older token, and a token counter that survives a ' +
            'restart (without persistence it starts over, and the stock refuses the honest holder). This is not ' +
            'a proof: other seeds and ' +
            'budgets may still find something.',
          zh:
            '三笔销售都被计入，每笔都带着库存检查过的防护令牌，搜索在 1000 种调度里一无所获。长于租期的停顿仍可能让两个线程都以为自己持有锁；' +
            '保住销售的是库存拒绝更小的防护令牌，以及在重启后依然保留的令牌计数（没有持久化时它会从头计数，库存就会拒绝诚实的持有者）。这不是证明：换个种子或预算仍可能找到问题。',
        },
      },
    },
  ],
};

export default lesson;
