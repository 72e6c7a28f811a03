/**
 * Redis Cluster: which master holds a lock (its key's slot), hash tags, a cluster failover that
 * loses it, a stale slot map that MOVED does not correct, and a MultiLock whose locks live on three masters.
 */
import { aThenB, client, clientOf, hold, holdAs, lockOps, thread } from '../build';
import { defineBuiltin } from './types';

const seats = lockOps('seats', 'MultiLock', { locks: ['seat:1', 'seat:3', 'seat:4'] });

export const clusterWhichNode = defineBuiltin('cluster-which-node', {
  group: 'cluster',
  title: 'Cluster: which node holds the lock?',
  titleZh: '集群：锁在哪个节点上？',
  description:
    'Three masters, as in the useClusterServers() demo. The 16384 slots are split 0-5460, 5461-10922, ' +
    '10923-16383; CRC16("myLock") mod 16384 = 12769, so every command for myLock goes to master-3 and only ' +
    'master-3 ever holds the key. The channel redisson_lock__channel:{myLock} hashes only "myLock" (the hash ' +
    'tag), so it sits in the same slot: B:1 subscribes on master-3 with SSUBSCRIBE (sharded pub/sub, which ' +
    'this release, 4.7.0, finds the cluster supports; 3.22-3.27 probed for it less reliably) and the unlock ' +
    "script's SPUBLISH there wakes it.",
  descriptionZh:
    '三个主节点，与 useClusterServers() 示例相同。16384 个槽分为 0-5460、5461-10922、10923-16383；' +
    'CRC16("myLock") mod 16384 = 12769，所以 myLock 的每条命令都发往 master-3，只有 master-3 持有这个键。' +
    '频道 redisson_lock__channel:{myLock} 只对 "myLock"（哈希标签）求哈希，因此在同一个槽：B:1 在 master-3 上用 SSUBSCRIBE 订阅' +
    '（分片发布订阅，本版本 4.7.0 探测到集群支持它；3.22-3.27 的探测不够可靠），解锁脚本在那里的 SPUBLISH 唤醒它。',
  scenario: {
    redis: { topology: 'cluster' },
    clients: aThenB('myLock', { a: 2000, b: 500, bStart: 500 }),
  },
});

export const clusterFailoverLostLock = defineBuiltin('cluster-failover-lost-lock', {
  group: 'cluster',
  title: 'Cluster failover loses the lock',
  titleZh: '集群故障转移丢锁',
  description:
    'Redisson 3.11 (no WAIT), three masters with one replica each, cluster-node-timeout 2 s. A:1 locks myLock ' +
    '(slot 12769) on master-3, which crashes at t=10 ms before the write reaches replica-3. After the node ' +
    'timeout the masters flag master-3 PFAIL, then FAIL (a majority); replica-3 waits 500 ms + random + rank, ' +
    'wins the votes of master-1 and master-2 (a new configEpoch) and takes slots 10923-16383, without the ' +
    "lock. The clients' slot maps follow at the next scan (5 s). B:1 locks on replica-3 while A:1 still " +
    'works: two holders (V1).',
  descriptionZh:
    'Redisson 3.11（没有 WAIT），三个主节点各一个从节点，cluster-node-timeout 2 秒。A:1 在 master-3 上锁住 myLock' +
    '（槽 12769），master-3 在 t=10 毫秒崩溃，写入还没到达 replica-3。节点超时后各主节点把 master-3 标为 PFAIL，' +
    '多数同意后标为 FAIL；replica-3 等待 500 毫秒 + 随机 + 排名延迟，获得 master-1 和 master-2 的投票（新的 configEpoch），' +
    '接管槽 10923-16383，但没有这把锁。客户端的槽映射在下一次扫描（5 秒）时更新。A:1 仍在工作时 B:1 在 replica-3 上加锁：' +
    '两个持有者（V1）。',
  scenario: {
    redis: {
      topology: 'cluster',
      replicasPerMaster: 1,
      clusterNodeTimeoutMs: 2000,
      replicas: [{ lagMs: 40 }, { lagMs: 40 }, { lagMs: 40 }],
    },
    redisson: { version: '3.11' },
    clients: aThenB('myLock', { a: 20000, b: 5000, bStart: 7000 }),
    faults: [{ at: 10, kind: 'crash', node: 'master-3' }],
  },
});

export const clusterHashTags = defineBuiltin('cluster-hash-tags', {
  group: 'cluster',
  title: 'Cluster: hash tags keep the lock and its channel together',
  titleZh: '集群：哈希标签让锁和它的频道在一起',
  description:
    "A key's slot is CRC16 mod 16384 of its hash tag (the text between the first { and the first } after " +
    'it) or of the whole key. Without a tag, "order:lock" is slot 7904 (master-2), and Redisson names its ' +
    'channel redisson_lock__channel:{order:lock}, braces added so it lands in slot 7904 too. Here the lock is ' +
    '"{order}:lock": only "order" is hashed, slot 16025, master-3 (10923-16383); a name that already has a { ' +
    'gets no extra braces, so the channel redisson_lock__channel:{order}:lock is slot 16025 as well, and so ' +
    'would be {order}:stock. B:1 subscribes there with SSUBSCRIBE (sharded pub/sub, 4.7.0), and the SPUBLISH in ' +
    "A:1's unlock script, on the same shard, wakes it.",
  descriptionZh:
    '键的槽是它哈希标签（第一个 { 与其后第一个 } 之间的文本）或整个键的 CRC16 mod 16384。没有标签时，' +
    '"order:lock" 在槽 7904（master-2），Redisson 把它的频道命名为 redisson_lock__channel:{order:lock}，加上花括号，' +
    '因此也在槽 7904。这里锁名是 "{order}:lock"：只对 "order" 求哈希，槽 16025，master-3（10923-16383）；已经含 { 的名字' +
    '不再加花括号，所以频道 redisson_lock__channel:{order}:lock 也在槽 16025，{order}:stock 也一样。B:1 在那里用 SSUBSCRIBE' +
    '（分片发布订阅，4.7.0）订阅，A:1 解锁脚本在同一分片上的 SPUBLISH 唤醒它。',
  scenario: {
    redis: { topology: 'cluster' },
    clients: aThenB('{order}:lock', { a: 1000, b: 300, bStart: 300 }),
  },
});

export const clusterMovedStaleMap = defineBuiltin('cluster-moved-stale-map', {
  group: 'cluster',
  title: 'Cluster: a stale slot map, MOVED until the next scan',
  titleZh: '集群：过时的槽映射，MOVED 直到下一次扫描',
  description:
    'Three masters with one replica each, cluster-node-timeout 2 s. master-3 crashes at t=100 ms, holding no ' +
    'lock; the cluster marks it FAIL and promotes replica-3, which takes slots 10923-16383. master-3 restarts ' +
    "at 3.8 s and rejoins as replica-3's replica. B's slot map was read at start and the next scan is at " +
    "5 s, so at 4 s B:1 still sends myLock's lock script (slot 12769) to master-3. A replica serves no slots: " +
    'it answers MOVED 12769 127.0.0.1:30006, the address of replica-3. Redisson re-sends that one command ' +
    'there and leaves its slot map as it was. But replica-3 has never loaded the script: NOSCRIPT. Redisson ' +
    '4.7.0 loads it on the node its map gives for the key, master-3 again, and runs the call again: MOVED, ' +
    'NOSCRIPT, round after round, until the scan at 5 s gives the slot to replica-3, where B:1 takes the ' +
    'lock. The real client does the same for as long as its map stays stale: lock() took 0.3 s in one run ' +
    'and 5.8 s in another, whose first scan still read the old map. No lock is at risk, but lock() waits for ' +
    'the scan. (B:2 takes and gives back seat:4 on master-1 at the start, ' +
    "so B's client has already sent its one-time WAIT probe to a master; sent by the stale map to master-3, " +
    'a replica, it would be refused and lock() would throw.)',
  descriptionZh:
    '三个主节点各一个从节点，cluster-node-timeout 2 秒。master-3 在 t=100 毫秒崩溃，当时没有持有锁；集群把它标为 FAIL，' +
    '提升 replica-3，由它接管槽 10923-16383。master-3 在 3.8 秒重启，作为 replica-3 的从节点重新加入。B 的槽映射是启动时读取的，' +
    '下一次扫描在 5 秒，所以在 4 秒时 B:1 仍把 myLock（槽 12769）的加锁脚本发往 master-3。从节点不负责任何槽：' +
    '它回复 MOVED 12769 127.0.0.1:30006，即 replica-3 的地址。Redisson 只把这一条命令重新发到那里，槽映射保持不变。' +
    '可是 replica-3 从没加载过这个脚本：NOSCRIPT。Redisson 4.7.0 按自己的映射把脚本加载到这个键所在的节点，又是 master-3，' +
    '然后重新执行这次调用：MOVED、NOSCRIPT，一轮又一轮，直到 5 秒的扫描把这个槽交给 replica-3，B:1 才在那里拿到锁。' +
    '真实客户端也是这样，只要它的映射还是旧的就一直绕圈：一次运行里 lock() 用了 0.3 秒，另一次用了 5.8 秒（那次的第一次扫描读到的还是旧映射）。' +
    '没有锁受到威胁，但 lock() 要等到扫描。' +
    '（B:2 在开始时在 master-1 上拿起又放下 seat:4，所以 B 的客户端已经向一个主节点发过它唯一一次的 WAIT 探测；' +
    '若按过时的映射发往 master-3 这个从节点，会被拒绝，lock() 会抛出异常。）',
  scenario: {
    redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: 2000 },
    clients: [clientOf('B', thread(1, hold('myLock', 500), 4000), thread(2, hold('seat:4', 50)))],
    faults: [
      { at: 100, kind: 'crash', node: 'master-3' },
      { at: 3800, kind: 'restart', node: 'master-3' },
    ],
  },
});

export const clusterMultilockShards = defineBuiltin('cluster-multilock-shards', {
  group: 'cluster',
  title: 'Cluster: a MultiLock across three shards',
  titleZh: '集群：跨三个分片的 MultiLock',
  description:
    'A MultiLock over seat:1, seat:3 and seat:4. Without hash tags the three names hash to slots 5749 ' +
    '(master-2), 13879 (master-3) and 1744 (master-1): no single script could take them (CROSSSLOT), so ' +
    "RedissonMultiLock takes them one by one, each lock script sent to its own slot's master. B:1 asks at " +
    "300 ms, finds seat:1 held and waits on its channel on master-2; A:1's unlock releases the three in " +
    'turn, B:1 follows them shard by shard and holds all three only after A:1 has let go. One holder at a ' +
    'time: safe.',
  descriptionZh:
    'MultiLock 覆盖 seat:1、seat:3 和 seat:4。没有哈希标签，这三个名字分别落在槽 5749（master-2）、13879（master-3）' +
    '和 1744（master-1）：一个脚本无法同时拿到它们（CROSSSLOT），所以 RedissonMultiLock 逐个加锁，每个加锁脚本发往各自槽的主节点。' +
    'B:1 在 300 毫秒请求，发现 seat:1 被持有，在 master-2 上等待它的频道；A:1 解锁时依次释放三把锁，B:1 逐个分片跟进，' +
    '直到 A:1 全部放开后才持有全部三把。任何时刻只有一个持有者：安全。',
  scenario: {
    redis: { topology: 'cluster' },
    clients: [client('A', holdAs(seats, 1000)), client('B', holdAs(seats, 300), { start: 300 })],
  },
});
