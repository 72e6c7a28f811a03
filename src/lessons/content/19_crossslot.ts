import { absent, atLeast, choice, dodge, exactly, none, replyOf, why, yourTurn } from './common';
import { cmd, LATCH } from './events';
import type { Lesson, PatchOp, ScenarioJson, TaskControl } from '../types';

/** The sale: decrement the stock only while the lock key exists, in one script (both keys declared). */
const SELL =
  '-- sell one, but only while the lock is still there\n' +
  "if redis.call('exists', KEYS[1]) == 1 then\n" +
  "  return redis.call('decr', KEYS[2])\n" +
  'end\n' +
  'return -1';

const LOCK = 'order:1:lock';
const STOCK = 'order:1:stock';
const TAGGED_LOCK = '{order:1}:lock';
const TAGGED_STOCK = '{order:1}:stock';
/** the server's reply, word for word (Redis 7.0 cluster.c getNodeByQuery) */
const CROSSSLOT = { error: "CROSSSLOT Keys in request don't hash to the same slot" };

const buyer = (lock: string, stock: string) => [
  { op: 'lock', lock, type: 'set-nx-px-lua', leaseMs: 10_000 },
  { op: 'eval', script: SELL, keys: [lock, stock] },
  { op: 'unlock', lock },
];

/**
 * A looks both names up (the console's `CLUSTER KEYSLOT`), stocks 10 and sells one; B sells one
 * after it. Op indexes: A 0–1 KEYSLOT, 2 SET, 3 lock, 4 eval, 5 unlock; B 0 lock, 1 eval, 2 unlock.
 */
const shop: ScenarioJson = {
  format: 'lockscope/1',
  title: 'A sale script over the lock and the stock',
  titleZh: '同时操作锁和库存的销售脚本',
  redis: { topology: 'cluster' },
  clients: [
    {
      id: 'A',
      threads: [
        {
          id: 1,
          program: [
            { op: 'redis', argv: ['CLUSTER', 'KEYSLOT', LOCK] },
            { op: 'redis', argv: ['CLUSTER', 'KEYSLOT', STOCK] },
            { op: 'redis', argv: ['SET', STOCK, '10'] },
            ...buyer(LOCK, STOCK),
          ],
        },
      ],
    },
    { id: 'B', threads: [{ id: 1, start: 50, program: buyer(LOCK, STOCK) }] },
  ],
};

const A = '/clients/0/threads/0/program';
const B = '/clients/1/threads/0/program';
const lockPaths = [
  `${A}/0/argv/2`,
  `${A}/3/lock`,
  `${A}/4/keys/0`,
  `${A}/5/lock`,
  `${B}/0/lock`,
  `${B}/1/keys/0`,
  `${B}/2/lock`,
];
const stockPaths = [`${A}/1/argv/2`, `${A}/2/argv/1`, `${A}/4/keys/1`, `${B}/1/keys/1`];
const rename = (paths: string[], value: string): PatchOp[] =>
  paths.map((path) => ({ op: 'replace', path, value }));
const tagged: PatchOp[] = [...rename(lockPaths, TAGGED_LOCK), ...rename(stockPaths, TAGGED_STOCK)];
const nameControl = (en: string, zh: string, paths: string[], options: string[]): TaskControl => ({
  kind: 'select',
  label: { en, zh },
  paths,
  options,
});

const aSell = cmd('A:1', 'EVAL', { nth: 1 });
const bSell = cmd('B:1', 'EVAL', { nth: 1 });

const lesson: Lesson = {
  id: 'crossslot',
  title: { en: 'CROSSSLOT: one script, one slot', zh: 'CROSSSLOT：一个脚本，一个槽' },
  minutes: 7,
  part: 3,
  objective: {
    en: 'Predict the `CROSSSLOT` error of a script whose keys hash to different slots, find the slots with `CLUSTER KEYSLOT`, and fix it with a hash tag as Redisson’s own key names do.',
    zh: '预测键落在不同槽的脚本会得到的 `CROSSSLOT` 错误，用 `CLUSTER KEYSLOT` 找出槽，再像 Redisson 自己的键名那样用哈希标签修好它。',
  },
  steps: [
    {
      claims: ['C30'],
      scenario: { inline: shop },
      at: cmd('A:1', 'CLUSTER', { nth: 2 }),
      text: {
        en:
          'A shop on the three-master cluster of the last lesson. Each buyer takes `order:1:lock` and then runs ' +
          'one script that sells only while the lock key still exists: `if exists(KEYS[1]) then decr(KEYS[2])`, ' +
          'with `KEYS = [order:1:lock, order:1:stock]`. Before anything else A:1 asks where the two names live, ' +
          'as you can in the **console** (`CLUSTER KEYSLOT <name>`, any node answers): `order:1:lock` is slot ' +
          '1506 (master-1), `order:1:stock` slot 16255 (master-3).',
        zh:
          '上一课那个三主节点集群上的一家小店。每个买家先拿 `order:1:lock`，再执行一个脚本，只在锁键还存在时卖出：' +
          '`if exists(KEYS[1]) then decr(KEYS[2])`，其中 `KEYS = [order:1:lock, order:1:stock]`。A:1 先问了问这两个名字在哪，' +
          '你也可以在**命令行**里这样问（`CLUSTER KEYSLOT <name>`，任何节点都会回答）：`order:1:lock` 在槽 1506（master-1），' +
          '`order:1:stock` 在槽 16255（master-3）。',
      },
      highlight: { lanes: ['A:1', 'master-1', 'master-3'] },
      checks: [
        { reply: 16255 },
        { reply: 1506, of: cmd('A:1', 'CLUSTER', { nth: 1 }) },
        { slot: LOCK, is: 1506, min: 0, max: 5460 },
        { slot: STOCK, is: 16255, min: 10923, max: 16383 },
      ],
      teacher: {
        en: 'Have someone type `CLUSTER KEYSLOT order:1:lock` in the console before you move on. People assume keys that share a prefix share a slot; the whole name is hashed.',
        zh: '先请一位同学在命令行里输入 `CLUSTER KEYSLOT order:1:lock`。很多人以为前缀相同的键在同一个槽；其实整个名字都参与哈希。',
      },
    },
    {
      claims: ['C30', 'C31'],
      at: aSell,
      question: {
        prompt: {
          en: 'A:1 holds `order:1:lock` and sends its sale script with both keys. What does the cluster answer?',
          zh: 'A:1 持有 `order:1:lock`，发出带两个键的销售脚本。集群回复什么？',
        },
        choices: [
          choice(
            'nine',
            9,
            '`9`: the lock exists, the stock goes from 10 to 9',
            '`9`：锁存在，库存从 10 变成 9',
            why(
              'That is what a single Redis answers. In a cluster a node runs a command only when all its keys are in one slot; these two are in 1506 and 16255, so the run shows an error instead, and the stock stays 10.',
              '单机 Redis 会这样回答。集群节点只在一条命令的所有键都在同一个槽时才执行它；这两个键在 1506 和 16255，所以运行里得到的是错误，库存还是 10。',
            ),
          ),
          choice(
            'moved',
            'moved',
            'a `MOVED` error: the stock lives on master-3',
            '`MOVED` 错误：库存在 master-3 上',
            why(
              '`MOVED` sends a client to the right node for **one** slot. Here no node is right: the keys are in two slots, and the server says so before it thinks of redirecting. The run shows `CROSSSLOT`.',
              '`MOVED` 是为**一个**槽把客户端指到正确的节点。这里没有哪个节点是对的：键在两个槽里，服务器在考虑重定向之前就这样说了。运行里是 `CROSSSLOT`。',
            ),
          ),
          choice(
            'crossslot',
            CROSSSLOT,
            'a `CROSSSLOT` error: the keys are in two slots',
            '`CROSSSLOT` 错误：两个键在两个槽里',
          ),
          choice(
            'minus',
            -1,
            '`-1`: master-1 cannot see the stock, so the check fails',
            '`-1`：master-1 看不到库存，所以检查失败',
            why(
              'A script never runs half on one node: it runs whole on one node or not at all. Before running it the node checks the declared keys’ slots; the run shows `CROSSSLOT`, and the script never ran.',
              '一个脚本从来不会一半在这个节点上执行：要么整个在一个节点上执行，要么根本不执行。执行前节点先检查声明的键的槽；运行里是 `CROSSSLOT`，脚本根本没有执行。',
            ),
          ),
        ],
        answer: replyOf(aSell),
        feedback: {
          en:
            'A cluster node checks the slots of every key a command declares (a script’s `KEYS` included) before ' +
            'it runs anything. Two slots, even on the same node, give `CROSSSLOT`: the script does not run, nothing ' +
            'is decremented.',
          zh:
            '集群节点在执行任何东西之前，先检查一条命令声明的每个键的槽（脚本的 `KEYS` 也算）。两个槽，哪怕在同一个节点上，' +
            '也会得到 `CROSSSLOT`：脚本不执行，什么也没有扣减。',
        },
      },
      text: {
        en:
          'Word for word the reply of a real Redis 7.0: `CROSSSLOT Keys in request don’t hash to the same slot`. ' +
          'The `eval` op records it as the call’s result; in Java, Redisson’s `RScript.eval` throws it as a ' +
          '`RedisException`. The lock itself worked (A:1 took it on master-1); only the script over two slots ' +
          'failed.',
        zh:
          '和真实 Redis 7.0 的回复一字不差：`CROSSSLOT Keys in request don’t hash to the same slot`。`eval` 操作把它记为调用结果；' +
          '在 Java 里，Redisson 的 `RScript.eval` 会把它作为 `RedisException` 抛出。锁本身没问题（A:1 在 master-1 上拿到了它）；' +
          '失败的只是跨两个槽的脚本。',
      },
      highlight: { lanes: ['A:1', 'master-1', 'master-3'], keys: [LOCK, STOCK] },
      checks: [
        { reply: CROSSSLOT },
        { key: STOCK, node: 'master-3', is: 'string', value: '10' },
        { key: LOCK, node: 'master-1', ownedBy: 'A:1' },
      ],
      teacher: {
        en: 'Most of the room will answer MOVED or 9. Ask where the script would run if it did run: there is no node that has both keys, so there is no right place to send it.',
        zh: '大多数人会答 MOVED 或 9。问大家：如果脚本真要执行，它该在哪里执行？没有哪个节点同时有这两个键，所以无处可发。',
      },
    },
    {
      claims: ['C30'],
      text: {
        en:
          'B:1 took the lock after A:1 and hit the same error: two buyers, two locks taken and released cleanly, ' +
          'two `CROSSSLOT` replies and not one sale. The stock still reads 10. The verdict is Safe, because ' +
          'nobody wrote outside the lock: nobody wrote at all.',
        zh:
          'B:1 在 A:1 之后拿到了锁，遇到了同样的错误：两个买家，两次干净地加锁和解锁，两次 `CROSSSLOT` 回复，一单也没卖出去。' +
          '库存仍是 10。结论是“安全”，因为没人在锁外写入：根本没人写入。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: [STOCK] },
      checks: [
        { reply: CROSSSLOT, of: bSell },
        { key: STOCK, node: 'master-3', value: '10' },
        exactly(2, { kind: 'lock.released' }),
        { verdict: 'safe' },
      ],
      task: {
        prompt: yourTurn(
          'keep the cluster and the script, and give both names a **hash tag**: `{order:1}:lock` and ' +
            '`{order:1}:stock`. Only the part between the first `{` and the next `}` is hashed, so both land in ' +
            'the slot of `order:1`.',
          '保留集群和脚本，给两个名字都加上**哈希标签**：`{order:1}:lock` 和 `{order:1}:stock`。只有第一个 `{` 和其后第一个 `}` ' +
            '之间的部分参与哈希，所以两个名字都落在 `order:1` 的槽里。',
        ),
        controls: [
          nameControl('Lock name', '锁名', lockPaths, [LOCK, TAGGED_LOCK]),
          nameControl('Stock key', '库存键', stockPaths, [STOCK, TAGGED_STOCK]),
        ],
        goalText: {
          en: 'Still a three-master cluster, both sale scripts run (A:1’s answers 9, B:1’s 8) on master-3, with the lock checked in the same script.',
          zh: '仍是三主节点集群，两个销售脚本都执行了（A:1 的返回 9，B:1 的返回 8），都在 master-3 上，锁在同一个脚本里检查。',
        },
        goal: {
          all: [
            { reply: 9, of: aSell },
            { reply: 8, of: bSell },
            atLeast(1, cmd('A:1', 'EVAL', { node: 'master-3', nth: 1 })),
          ],
        },
        solution: tagged,
        dodges: [
          dodge(
            { all: [{ reply: 9, of: aSell }, none({ kind: 'cmd', node: 'master-3' })] },
            'That works, but only because a single Redis has no slots. The shop runs on a cluster; keep it and ' +
              'put the names in one slot.',
            '这样确实行，但只是因为单机 Redis 没有槽。这家店跑在集群上：保留集群，把名字放进同一个槽。',
            [{ op: 'remove', path: '/redis' }],
          ),
        ],
        success: {
          en:
            'Both names now hash only `order:1`: one slot on master-3. Each buyer’s lock and sale ran there, the ' +
            'sale scripts answered 9 and 8, and each still checked the lock in the same script.',
          zh:
            '两个名字现在都只对 `order:1` 求哈希：master-3 上的同一个槽。每个买家的锁和销售都在那里执行，销售脚本分别返回 9 和 8，' +
            '而且每次仍在同一个脚本里检查锁。',
        },
      },
      teacher: {
        en: 'Ask why the verdict says Safe when nothing was sold. Safety is about two holders or stale writes; a failing sale is a bug the verdict does not judge. Someone will suggest dropping the cluster: that is the refused dodge.',
        zh: '问大家：一单都没卖出去，为什么结论是“安全”？安全说的是两个持有者或过期写入；卖不出去是结论不评判的缺陷。会有人建议去掉集群：那正是被拒绝的绕路。',
      },
    },
    {
      claims: ['C31'],
      scenario: { patch: tagged },
      at: aSell,
      text: {
        en:
          'With the hash tag both names are slot 14374 (`CLUSTER KEYSLOT {order:1}:lock`), on master-3: the lock ' +
          'script, the sale and the release all go there, and the sale answers 9. The tag is what stands ' +
          'between the first `{` and the next `}`; when that is empty (`{}{order:1}:lock`) the whole name is ' +
          'hashed, later braces or not. Tag what must be used together, and no more: every key with the same ' +
          'tag sits on one master.',
        zh:
          '加上哈希标签后，两个名字都在槽 14374（`CLUSTER KEYSLOT {order:1}:lock`），在 master-3 上：加锁、销售和释放都发往那里，' +
          '销售返回 9。标签是第一个 `{` 和其后第一个 `}` 之间的部分；如果这部分为空（`{}{order:1}:lock`），就对整个名字求哈希，不管后面还有没有花括号。' +
          '只给必须一起使用的键加同一个标签，别多加：' +
          '同一个标签的所有键都在同一个主节点上。',
      },
      highlight: { lanes: ['A:1', 'master-3'], keys: [TAGGED_LOCK, TAGGED_STOCK] },
      checks: [
        { reply: 9 },
        { reply: 14374, of: cmd('A:1', 'CLUSTER', { nth: 1 }) },
        { slot: TAGGED_LOCK, is: 14374, sameAs: TAGGED_STOCK },
        { slot: 'order:1', is: 14374 },
        { not: { slot: '{}{order:1}:lock', sameAs: TAGGED_LOCK } },
        { key: TAGGED_STOCK, node: 'master-3', value: '9' },
        atLeast(1, cmd('A:1', 'SET', { node: 'master-3', key: TAGGED_LOCK })),
        none({ kind: 'cmd', cmd: 'EVAL', node: 'master-1' }),
      ],
      teacher: {
        en: 'Ask what happens to load if every key in the shop got the tag `{shop}` (one master takes everything). Tags are per thing that must be atomic, e.g. per order.',
        zh: '问大家：如果店里每个键都用 `{shop}` 这个标签，负载会怎样？（一个主节点承担一切。）标签应按必须原子操作的对象来加，比如每个订单一个。',
      },
    },
    {
      claims: ['C31', 'C30'],
      scenario: { builtin: 'cluster-which-node' },
      hideIntro: true,
      at: cmd('A:1', 'EVALSHA', { key: 'redisson_lock__channel:{myLock}', nth: -1 }),
      text: {
        en:
          'Redisson meets the same rule in its own scripts. A:1’s unlock is one `EVALSHA` that declares three ' +
          'keys: `myLock`, the channel `redisson_lock__channel:{myLock}` it publishes to, and the latch ' +
          '`redisson_unlock_latch:{myLock}:…` that remembers the unlock’s answer (marked in master-3’s keyspace, where ' +
          '`myLock` itself is now gone). Redisson builds the derived names ' +
          'with the lock name in braces, so all three hash only `myLock`: slot 12769, and the script runs. A lock ' +
          'name that already has a tag (`{order:1}:lock`) is used as it is.',
        zh:
          'Redisson 在自己的脚本里也遵守同样的规则。A:1 的解锁是一条 `EVALSHA`，声明了三个键：`myLock`、它要发布消息的频道 ' +
          '`redisson_lock__channel:{myLock}`，以及记住解锁回复的 `redisson_unlock_latch:{myLock}:…`（master-3 的键空间里已标出它，`myLock` 本身此时已被删掉）。Redisson 生成这些派生名字时把锁名放进花括号，' +
          '所以三个名字都只对 `myLock` 求哈希：槽 12769，脚本得以执行。已经带标签的锁名（`{order:1}:lock`）则原样使用。',
      },
      highlight: { lanes: ['A:1', 'master-3'], keys: [LATCH] },
      checks: [
        { reply: 1 },
        // the latch the text points at, on master-3 at this moment; myLock is deleted
        { key: LATCH, node: 'master-3', is: 'string' },
        absent('myLock'),
        { slot: 'redisson_lock__channel:{myLock}', is: 12769, sameAs: 'myLock' },
        { slot: 'redisson_unlock_latch:{myLock}:0', sameAs: 'myLock' },
        { slot: 'redisson_lock__channel:{order:1}:lock', sameAs: TAGGED_LOCK },
      ],
      teacher: {
        en: 'Ask why Redisson does not put the channel name plainly, `redisson_lock__channel:myLock`: it would hash to another slot and every unlock would answer CROSSSLOT. People think the braces are decoration.',
        zh: '问大家：为什么 Redisson 不直接用 `redisson_lock__channel:myLock` 作频道名？它会落到另一个槽，每次解锁都会得到 CROSSSLOT。很多人以为花括号只是装饰。',
      },
    },
  ],
};

export default lesson;
