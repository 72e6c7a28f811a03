import {
  absent,
  atLeast,
  choice,
  fieldOf,
  holds,
  none,
  openV1,
  threadHolds,
  turnedAway,
  why,
} from './common';
import { acquired, bLockScript, cmd, ev, violationStart } from './events';
import type { Check, Highlights, Lesson } from '../types';

/** master-3 serves slots 10923–16383 in a three-master cluster. */
const MASTER3 = { min: 10923, max: 16383 };

/** A:1 holds `key`, in `slot` (one of master-3's), on master-3 and not on `elsewhere`; then `more`. */
const aHoldsOnMaster3 = (
  key: string,
  slot: number,
  elsewhere: string[],
  more: Check[],
): { highlight: Highlights; checks: Check[] } => ({
  highlight: { lanes: ['A:1', 'master-3'], keys: [key] },
  checks: [
    { slot: key, is: slot, ...MASTER3 },
    holds(key, 'A:1', 1, { node: 'master-3' }),
    ...elsewhere.map((node) => absent(key, node)),
    ...more,
  ],
});

/** `actor` sent nothing to `nodes` so far: the other masters never hear of the lock. */
const noCommandsOn = (actor: string, nodes: string[]): Check[] =>
  nodes.map((node) => none(ev('cmd', actor, { node })));

const lesson: Lesson = {
  id: 'cluster',
  title: { en: 'Cluster: which node holds the lock', zh: '集群：锁在哪个节点上' },
  minutes: 8,
  part: 3,
  objective: {
    en: 'Find the node a lock lives on in Redis Cluster (slots, hash tags, `MOVED`).',
    zh: '在 Redis Cluster 中找到锁所在的节点（槽、哈希标签、`MOVED`）。',
  },
  steps: [
    {
      claims: ['C30'],
      teacher: {
        en: 'Point at the slot ranges on the lane labels and ask where `myLock` lives before the text says it. A common belief is that a cluster copies every key to every master; it splits them. Ask what master-1 knows about `myLock` (nothing).',
        zh: '指给大家看泳道标签上的槽范围，在正文揭晓之前问大家 `myLock` 在哪个节点上。一个常见的误解是集群会把每个键复制到每个主节点；其实它是把键分开的。问大家 master-1 对 `myLock` 知道些什么（什么都不知道）。',
      },
      scenario: { builtin: 'cluster-which-node' },
      at: acquired('A:1'),
      text: {
        en:
          'The demo’s `config.useClusterServers()` with three Redis nodes: three masters. A Redis Cluster ' +
          'splits its keys into 16,384 **slots**, and each slot belongs to one master: here 0–5460 to ' +
          'master-1, 5461–10922 to master-2, 10923–16383 to master-3 (the lane labels show them; in presenter ' +
          'mode a click on a folded shard unfolds it). A key’s slot is `CRC16(key) mod 16384`; for `myLock` ' +
          'that is 12769, so master-3. A:1’s `lock()` sent its lock script there, and only master-3 has ' +
          '`myLock`. master-1 and master-2 never see it.',
        zh:
          '示例里的 `config.useClusterServers()` 配了三个 Redis 节点：三个主节点。Redis 集群把键分到 16384 个**槽**里，' +
          '每个槽属于一个主节点：这里 0–5460 归 master-1，5461–10922 归 master-2，10923–16383 归 master-3（泳道标签上写着；演示模式下点一下折叠的分片就会展开）。' +
          '键的槽是 `CRC16(key) mod 16384`；`myLock` 的槽是 12769，所以在 master-3。A:1 的 `lock()` 把加锁脚本发到了那里，' +
          '只有 master-3 上有 `myLock`，master-1 和 master-2 根本看不到它。',
      },
      ...aHoldsOnMaster3(
        'myLock',
        12769,
        ['master-1', 'master-2'],
        [
          atLeast(1, ev('cmd', 'A:1', { node: 'master-3', key: 'myLock' })),
          ...noCommandsOn('A:1', ['master-1', 'master-2']),
        ],
      ),
    },
    {
      claims: ['C30'],
      teacher: {
        en: 'Let the room vote among the three nodes. Those who pick “the first in its config” think of a connection list; those who pick “at random” think of load balancing. The slot decides, computed by the client from the key’s name alone.',
        zh: '让大家在三个节点中投票。选“配置里的第一个”的人想的是连接列表；选“随机”的人想的是负载均衡。决定去向的是槽，由客户端仅凭键名算出。',
      },
      at: bLockScript,
      question: {
        prompt: {
          en: 'At 500 ms client B calls `lock()` on `myLock` too. Which node does its lock script go to?',
          zh: '第 500 毫秒，客户端 B 也对 `myLock` 调用 `lock()`。它的加锁脚本发往哪个节点？',
        },
        choices: [
          choice(
            'm1',
            'master-1',
            'master-1, the first node in its config',
            'master-1，配置里的第一个节点',
            why(
              'A client does start from the nodes in its config, but only to read the slot map. The run shows B:1’s `EVALSHA` going straight to master-3, the master of `myLock`’s slot.',
              '客户端确实从配置里的节点起步，但那只是为了读取槽映射。运行里 B:1 的 `EVALSHA` 直接发往 master-3，即 `myLock` 所在槽的主节点。',
            ),
          ),
          choice('m3', 'master-3', 'master-3, the master of slot 12769', '槽 12769 的主节点 master-3'),
          choice(
            'any',
            'any',
            'Any of the three, at random',
            '三个里随便一个',
            why(
              'Spreading load at random sounds fair, but then two clients could lock `myLock` on two nodes. The run shows B:1’s script going to master-3, the same node A:1 used.',
              '随机分摊负载听起来很公平，但那样两个客户端就可能在两个节点上各锁一次 `myLock`。运行里 B:1 的脚本发往 master-3，正是 A:1 用的那个节点。',
            ),
          ),
        ],
        answer: fieldOf(bLockScript, 'node'),
        feedback: {
          en:
            'master-3. Redisson keeps the cluster’s slot map (read at start, rescanned every 5 s), computes ' +
            'the slot of `myLock` itself and sends the script to that slot’s master. Every client reaches the ' +
            'same node for the same lock, so the lock script stays one atomic check on one node.',
          zh:
            'master-3。Redisson 保存着集群的槽映射（启动时读取，每 5 秒重新扫描），自己算出 `myLock` 的槽，' +
            '把脚本发给这个槽的主节点。对同一把锁，每个客户端都会找到同一个节点，所以加锁脚本仍是一个节点上的一次原子检查。',
        },
      },
      text: {
        en:
          'B:1’s script ran on master-3, found A:1’s `myLock` and returned its TTL instead of `nil`, so B:1 ' +
          'will wait, exactly as on a single Redis. The cluster spreads different locks over the masters; one lock still lives on ' +
          'one master.',
        zh:
          'B:1 的脚本在 master-3 上执行，发现了 A:1 的 `myLock`，返回的是它的 TTL 而不是 `nil`，所以 B:1 将会等待，和单机 Redis 一模一样。' +
          '集群把不同的锁分散到各个主节点上；一把锁仍然只在一个主节点上。',
      },
      checks: [
        atLeast(1, { ...bLockScript, node: 'master-3' }),
        ...turnedAway('B:1'),
        ...noCommandsOn('B:1', ['master-1', 'master-2']),
        holds('myLock', 'A:1', 1, { node: 'master-3' }),
      ],
    },
    {
      claims: ['C31'],
      teacher: {
        en: 'Ask why the channel name has braces around `myLock`. Most read them as decoration; they are the hash tag that puts the channel in the lock’s slot. Skip the 3.22–3.27 probe detail unless someone runs those releases in production.',
        zh: '问大家频道名里 `myLock` 两边为什么有花括号。多数人以为只是装饰；其实它们是哈希标签，让频道和锁落在同一个槽里。除非有人在生产中用 3.22–3.27 这几个版本，否则探测那段细节可以跳过。',
      },
      at: ev('pubsub.subscribe', 'B:1'),
      text: {
        en:
          'To be woken when the lock is freed, B:1 subscribes to `redisson_lock__channel:{myLock}`. The braces ' +
          'are a **hash tag**: only `myLock` is hashed, so the channel is in slot 12769 too, on master-3. ' +
          'Here (4.7.0) Redisson subscribes with `SSUBSCRIBE` (sharded pub/sub): the subscription lives on the ' +
          'slot’s own shard. Releases 3.22–3.27 use it only when a probe at start says the cluster supports it, ' +
          'which 3.27 gets wrong two times in three with three masters; from 3.28 the probe is reliable.',
        zh:
          '为了在锁释放时被唤醒，B:1 订阅了 `redisson_lock__channel:{myLock}`。花括号是**哈希标签**：只有 `myLock` 参与哈希，' +
          '所以这个频道也在槽 12769，在 master-3 上。这里（4.7.0）Redisson 用 `SSUBSCRIBE`（分片发布订阅）订阅：订阅就在这个槽自己的分片上。' +
          '3.22–3.27 只有在启动时的探测认为集群支持时才用它，在三个主节点的集群中 3.27 的探测三次里有两次判断错；从 3.28 起探测可靠。',
      },
      highlight: { lanes: ['B:1', 'master-3'] },
      checks: [
        { slot: 'redisson_lock__channel:{myLock}', is: 12769, sameAs: 'myLock' },
        atLeast(1, cmd('B:1', 'SSUBSCRIBE', { node: 'master-3' })),
        atLeast(1, ev('pubsub.subscribe', 'B:1', { node: 'master-3' })),
      ],
    },
    {
      claims: ['C31'],
      teacher: {
        en: 'The classic wrong idea is that one node can run a script over any keys it holds. Stress “one slot”, not “one node”: even two slots on the same master give `CROSSSLOT`. Ask the room which two names the unlock script declares (the lock and its channel).',
        zh: '经典的错误想法是：一个节点可以对它持有的任意键执行脚本。强调是“一个槽”，而不是“一个节点”：即使两个槽在同一个主节点上，也会得到 `CROSSSLOT`。问大家解锁脚本声明了哪两个名字（锁和它的频道）。',
      },
      at: acquired('B:1'),
      text: {
        en:
          'At 2 s A:1 unlocks. One script on master-3 deletes `myLock` and publishes to the channel ' +
          '(`SPUBLISH`). A cluster node runs a script only when all the keys it declares are in **one** slot, ' +
          'even when two slots live on the same node; otherwise it answers `CROSSSLOT`. Without the hash tag ' +
          'the channel would hash to another slot and the unlock would fail. Here both names are in slot ' +
          '12769; the message wakes B:1, which takes the lock.',
        zh:
          '第 2 秒 A:1 解锁。master-3 上的一个脚本删除 `myLock`，并向频道发布消息（`SPUBLISH`）。集群节点只执行声明的键全在**同一个**槽里的脚本，' +
          '哪怕两个槽在同一个节点上也不行，否则回复 `CROSSSLOT`。没有哈希标签，频道会落到另一个槽，解锁就会失败。这里两个名字都在槽 12769；消息唤醒了 B:1，它拿到了锁。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master-3'] },
      checks: [
        atLeast(1, { kind: 'pubsub.publish', node: 'master-3', where: { receivers: 1 } }),
        ...['master-1', 'master-2'].map((node) => none({ kind: 'pubsub.publish', node })),
        { reply: 1, of: cmd('A:1', 'EVALSHA', { key: 'redisson_lock__channel:{myLock}', nth: -1 }) },
        atLeast(1, ev('waiter.wakeup', 'B:1', { where: { cause: 'message' } })),
        holds('myLock', 'B:1', 1, { node: 'master-3' }),
        { verdict: 'safe' },
      ],
    },
    {
      claims: ['C31', 'C30'],
      teacher: {
        en: 'Write `order:lock`, `{order}:lock` and `{order}:stock` on the board and ask which share a slot before playing. People expect the braces to be part of the hashed name; only what is inside them is hashed.',
        zh: '把 `order:lock`、`{order}:lock` 和 `{order}:stock` 写在黑板上，播放之前问大家哪几个在同一个槽。人们以为花括号也参与哈希；其实只有括号里的部分参与。',
      },
      scenario: { builtin: 'cluster-hash-tags' },
      at: acquired('A:1'),
      text: {
        en:
          'You can use hash tags yourself. Without one, `order:lock` is slot 7904, on master-2. The lock ' +
          '`{order}:lock` hashes only `order`: slot 16025, master-3. Its channel ' +
          '`redisson_lock__channel:{order}:lock` gets no extra braces and is slot 16025 as well, and so would be ' +
          'your `{order}:stock`: keys that must be used together go in one slot on one master.',
        zh:
          '你也可以自己用哈希标签。没有标签时，`order:lock` 在槽 7904，在 master-2 上。锁 `{order}:lock` 只对 `order` 求哈希：' +
          '槽 16025，master-3。它的频道 `redisson_lock__channel:{order}:lock` 不再加花括号，也在槽 16025，你的 `{order}:stock` 也一样：' +
          '必须一起使用的键，放在同一个主节点的同一个槽里。',
      },
      ...aHoldsOnMaster3(
        '{order}:lock',
        16025,
        ['master-2'],
        [
          { slot: 'order:lock', is: 7904, min: 5461, max: 10922 },
          { slot: 'redisson_lock__channel:{order}:lock', sameAs: '{order}:lock' },
          { slot: '{order}:stock', sameAs: '{order}:lock' },
        ],
      ),
    },
    {
      claims: ['C30'],
      teacher: {
        en: 'Ask what `MOVED` means in one sentence (“that slot is served over there”) and whether the client fails: it re-sends. Then ask why the lock still takes a second: the re-send does not update the slot map, so each round loads the script on the old node again. Point at the rounds of `MOVED` and `NOSCRIPT` before the scan at 5 s.',
        zh: '请大家用一句话说出 `MOVED` 的意思（“这个槽由那边负责”），以及客户端会不会失败：它会重新发送。再问：为什么加锁还是花了一秒？重新发送不会更新槽映射，所以每一轮都把脚本又加载到旧节点上。指给大家看 5 秒扫描之前一轮又一轮的 `MOVED` 和 `NOSCRIPT`。',
      },
      scenario: { builtin: 'cluster-moved-stale-map' },
      at: acquired('B:1'),
      text: {
        en:
          'Slots can change owner. Here master-3 crashed, replica-3 was promoted and took slots 10923–16383, and ' +
          'master-3 came back as its replica. B’s slot map is older, so at 4 s its lock script still goes to ' +
          'master-3, which answers `MOVED 12769 127.0.0.1:30006`: “that slot is served over there”. Redisson ' +
          're-sends that one script to replica-3 and leaves its slot map as it was until the next scan at 5 s. ' +
          'replica-3 has never loaded the script (`NOSCRIPT`), and Redisson loads it where its map says, on ' +
          'master-3 again: the call goes round, `MOVED` then `NOSCRIPT`, until the scan. Only then does B:1 ' +
          'take the lock, on replica-3.',
        zh:
          '槽可以换主人。这里 master-3 崩溃了，replica-3 被提升，接管了槽 10923–16383，master-3 回来后成了它的从节点。' +
          'B 的槽映射是旧的，所以第 4 秒它的加锁脚本仍然发往 master-3，后者回复 `MOVED 12769 127.0.0.1:30006`：“这个槽由那边负责”。' +
          'Redisson 只把这一条脚本重新发到 replica-3，槽映射保持不变，直到 5 秒的下一次扫描。replica-3 从没加载过这个脚本（`NOSCRIPT`），' +
          'Redisson 按自己的映射把它加载到 master-3 上：这次调用就这样绕圈，先 `MOVED` 再 `NOSCRIPT`，直到扫描。' +
          '直到那时 B:1 才在 replica-3 上拿到锁。',
      },
      highlight: { lanes: ['B:1', 'master-3', 'replica-3'] },
      checks: [
        { reply: { error: 'MOVED 12769 127.0.0.1:30006' }, of: { ...bLockScript, node: 'master-3' } },
        {
          reply: { error: 'NOSCRIPT No matching script. Please use EVAL.' },
          of: { ...bLockScript, node: 'replica-3' },
        },
        atLeast(1, { kind: 'cluster.promoted', node: 'replica-3', where: { slots: '10923-16383' } }),
        atLeast(1, ev('client.master', 'B')),
        holds('myLock', 'B:1', 1, { node: 'replica-3' }),
        { verdict: 'safe' },
      ],
    },
    {
      claims: ['C30', 'C33'],
      teacher: {
        en: 'Ask whether a cluster is safer than one master for a lock. Many assume “more nodes, more safety”; each slot still has one master and asynchronous replicas. This step sets up lesson {lesson:replication}.',
        zh: '问大家：对锁来说，集群比单个主节点更安全吗？很多人以为“节点越多越安全”；可每个槽仍然只有一个主节点和异步复制的从节点。这一步为第 {lesson:replication} 课做铺垫。',
      },
      scenario: { builtin: 'cluster-failover-lost-lock' },
      at: violationStart('V1', 'myLock'),
      text: {
        en:
          'A cluster does not make the lock safer than one master: each shard replicates asynchronously, like ' +
          'Sentinel (lesson {lesson:replication}). A:1 locks on master-3, which crashes before the write reaches replica-3. The ' +
          'cluster promotes replica-3, without the lock; at 7 s B:1 locks there while A:1 still works: two ' +
          'holders.',
        zh:
          '集群并不比单个主节点让锁更安全：每个分片都是异步复制，和哨兵一样（第 {lesson:replication} 课）。A:1 在 master-3 上加锁，' +
          'master-3 在写入到达 replica-3 之前崩溃。集群提升了没有这把锁的 replica-3；第 7 秒 B:1 在那里加锁，而 A:1 还在干活：两个持有者。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'master-3', 'replica-3'], keys: ['myLock'] },
      checks: [
        none({ kind: 'repl.apply', node: 'replica-3' }),
        atLeast(1, { kind: 'cluster.promoted', node: 'replica-3', where: { from: 'master-3' } }),
        holds('myLock', 'B:1', 1, { node: 'replica-3' }),
        threadHolds('A:1', 'myLock', 1),
        openV1('myLock', 'A:1', 'B:1'),
        { verdict: 'unsafe' },
      ],
    },
  ],
};

export default lesson;
