/**
 * The glossary's entries, in both languages (glossary.ts has their titles and how they are found in
 * running text). Loaded when the glossary opens, so the first screen does not carry them.
 */
import type { Lang } from '.';
import type { TermId } from './glossary';

export const GLOSSARY_TEXT: Readonly<Record<TermId, Record<Lang, string>>> = {
  lease: {
    en: 'How long the lock key lives in Redis unless it is renewed. Redisson sets it with PEXPIRE on the lock’s hash: lockWatchdogTimeout (30 s by default) when you lock without a leaseTime, otherwise the leaseTime you passed. When it runs out, Redis deletes the key and another client can take the lock, even if the old holder is still working and still believes it holds it.',
    zh: '锁的键在 Redis 中存活多久（除非被续期）。Redisson 用 PEXPIRE 给锁的 hash 设置它：不传 leaseTime 加锁时为 lockWatchdogTimeout（默认 30 秒），否则为你传入的 leaseTime。到期后 Redis 删除这个键，别的客户端就能拿到锁，即使原持有者还在执行并且仍以为自己持有锁。',
  },
  watchdog: {
    en: 'A timer inside the Redisson client that keeps a lock taken without a leaseTime alive. Every lockWatchdogTimeout / 3 (10 s by default) it runs a script that, if this owner’s field is still in the lock’s hash, resets the TTL to lockWatchdogTimeout (30 s). It stops at unlock, or when the script finds the lock no longer belongs to the owner. It lives in the client process: if that process crashes or pauses (a long GC), nothing renews the lease and the key expires. A lock taken with an explicit leaseTime has no watchdog.',
    zh: 'Redisson 客户端里的一个定时器，让不带 leaseTime 获取的锁一直有效。每隔 lockWatchdogTimeout / 3（默认 10 秒）它执行一段脚本：如果锁的 hash 里还有这个持有者的字段，就把 TTL 重置为 lockWatchdogTimeout（30 秒）。unlock 时，或脚本发现锁已不属于该持有者时，它就停止。它运行在客户端进程里：进程崩溃或停顿（长时间 GC）时，没有人续期，键就会过期。显式传入 leaseTime 的锁没有看门狗。',
  },
  wait: {
    en: 'A Redis command: block until the writes this connection made before it have been acknowledged by at least numreplicas replicas, or until timeout ms pass, and reply with how many acknowledged. It does not roll anything back: the write stays on the master even if no replica has it, so a failover can still lose it. Since 3.12.5, when the master has replicas, Redisson sends a lock’s write scripts followed by WAIT <connected replicas> <slavesSyncTimeout, 1 s>; with checkLockSyncedSlaves (default true, since 3.17) an acquire that no replica acknowledged fails.',
    zh: 'Redis 命令：阻塞直到本连接之前的写入被至少 numreplicas 个从节点确认，或等满 timeout 毫秒，返回确认的从节点个数。它不会回滚任何东西：即使没有从节点收到，写入仍留在主节点上，故障转移仍可能丢失它。Redisson 从 3.12.5 起，在主节点有从节点时，于锁的写脚本之后发送 WAIT <已连接从节点数> <slavesSyncTimeout，1 秒>；开启 checkLockSyncedSlaves（3.17 起，默认开启）时，没有任何从节点确认的加锁会失败。',
  },
  fencing: {
    en: 'A number that grows with every successful acquire (Redisson’s RFencedLock increments a counter key in the same script). The holder sends it with each write, and the protected resource refuses a write whose token is lower than one it has already accepted. A holder whose lease expired during a pause then cannot overwrite the newer holder’s work: the lock alone cannot stop that, the resource has to check.',
    zh: '每次成功加锁都会增长的数字（Redisson 的 RFencedLock 在同一段脚本里对一个计数器键加一）。持有者每次写入时带上它，受保护资源拒绝令牌小于已接受过的令牌的写入。这样，在停顿期间租期过期的持有者就无法覆盖新持有者的工作：单靠锁做不到这一点，必须由资源来检查。',
  },
  v1: {
    en: 'A safety violation checked on every run: two threads each believe, at the same moment, that they hold the same lock (both are between their acquire and their unlock). It is what a lock exists to prevent; it happens when a lease expires under a paused or slow holder, or when a failover loses the lock key.',
    zh: '每次运行都会检查的安全性违规：同一时刻两个线程都认为自己持有同一把锁（都处在加锁之后、解锁之前）。锁存在的意义就是防止这种情况；持有者停顿或变慢时租期过期，或故障转移丢失了锁的键时，就会发生。',
  },
  v2: {
    en: 'A safety violation seen from the server side: two different owners hold an unexpired copy of the same lock key on two nodes that some client treats as master (for example the old master cut off by a partition and the replica promoted in its place). Clients talking to different masters can then both acquire.',
    zh: '从服务端看到的安全性违规：两个不同的持有者在两个被某些客户端当作主节点的节点上，各自持有同一把锁的键的未过期副本（例如被网络分区隔离的旧主节点和顶替它的新主节点）。连到不同主节点的客户端于是都能加锁成功。',
  },
  v3: {
    en: 'A safety violation at the protected resource: it accepted a write from a holder whose lock was no longer valid (a newer holder had already written), or a write without a lock that lost someone else’s update. Fencing tokens turn such writes into refusals.',
    zh: '受保护资源上的安全性违规：它接受了一个锁已失效的持有者的写入（更新的持有者已经写过），或者一次没有加锁、抹掉了别人更新的写入。防护令牌能让资源拒绝这类写入。',
  },
  l1: {
    en: 'Not a safety problem but a liveness one: the owner of a lock is gone (crashed) and the key has no expiry, so nobody can ever release it while other threads wait for it. A naive SETNX lock without a TTL does this; a lease prevents it.',
    zh: '不是安全性问题，而是活性问题：锁的持有者已经不在（崩溃），而键没有过期时间，因此再也没人能释放它，其他线程却一直在等。不带 TTL 的朴素 SETNX 锁就会这样；租期可以避免。',
  },
  liveness: {
    en: 'Beside L1, the checker marks six more ways a run stops making progress. L2: a waiter of a free lock that nothing scheduled will wake (or that waits behind a dead FairLock waiter). L3: a watchdog renewing a lock no live thread believes it holds. L4: the server counts more (or fewer) holds of a thread than the thread does. L5: threads waiting for each other’s holds, or a read lock holder waiting for the write lock. L6: threads that block each other (MultiLocks over the same locks in opposite order) retrying for 10 s or more without acquiring (livelock). L7: a FairLock waiter overtaken 3 times by later arrivals (starvation). “For ever” means nothing that is still scheduled can change it; L6 and L7 use the stated bounds. Any of them makes the verdict Stuck.',
    zh: '除了 L1，检查器还会标出另外六种运行不再推进的情况。L2：锁已空闲，却没有任何已安排的事件会唤醒的等待者（或排在已不在的 FairLock 等待者后面）。L3：看门狗在为一把没有任何存活线程认为自己持有的锁续期。L4：服务端记录的某线程持有次数比线程自己以为的多（或少）。L5：线程互相等待对方持有的锁，或读锁持有者去等写锁。L6：互相阻挡的线程（以相反顺序锁同一组锁的 MultiLock）重试 10 秒以上仍拿不到锁（活锁）。L7：FairLock 等待者被后来者插队 3 次（饥饿）。“永远”指任何还在计划中的事件都改变不了它；L6 和 L7 使用上述界限。出现任何一种，结论就是“卡死”。',
  },
  'down-after': {
    en: 'A Sentinel setting (30 000 ms by default). A Sentinel that gets no valid reply to its PINGs from a master for that long marks it subjectively down (SDOWN). When enough Sentinels agree (the quorum), the master is objectively down (ODOWN) and a failover can start. Until then clients keep writing to the old master.',
    zh: 'Sentinel 的配置项（默认 30000 毫秒）。Sentinel 在这么长时间内收不到主节点对 PING 的有效回复，就把它标记为主观下线（SDOWN）。足够多的 Sentinel（达到 quorum）同意后，主节点就是客观下线（ODOWN），可以开始故障转移。在此之前客户端仍然写旧主节点。',
  },
  quorum: {
    en: 'For Sentinel: how many Sentinels must agree that a master is down before it is objectively down. The quorum only detects the failure; to run the failover, one Sentinel must also be elected leader by a majority of all Sentinels. For Redlock: the majority of independent masters (3 of 5) on which an acquire must succeed.',
    zh: '对 Sentinel 而言：需要多少个 Sentinel 同意主节点下线，才算客观下线。quorum 只负责发现故障；要执行故障转移，还需要某个 Sentinel 被全部 Sentinel 中的多数选为领头者。对 Redlock 而言：加锁必须成功的独立主节点的多数（5 个中的 3 个）。',
  },
  failover: {
    en: 'Replacing a failed master: the leader Sentinel picks a replica, sends it REPLICAOF NO ONE to promote it, points the other replicas at it, and clients asking the Sentinels learn the new address. Replication is asynchronous, so writes the old master had not yet sent to that replica, such as a fresh lock key, are lost, and another client can take the same lock on the new master.',
    zh: '替换故障的主节点：领头的 Sentinel 选出一个从节点，向它发送 REPLICAOF NO ONE 将其提升为主节点，让其他从节点改为复制它，向 Sentinel 询问的客户端得知新地址。复制是异步的，旧主节点还没发给该从节点的写入（比如刚写的锁的键）会丢失，另一个客户端就能在新主节点上拿到同一把锁。',
  },
  reentrancy: {
    en: 'A Redisson lock is reentrant: the thread that holds it can lock it again without waiting. The lock’s hash has one field, named after the owner "<client id>:<thread id>", whose value is the hold count; each lock adds 1 and each unlock subtracts 1. The key is deleted (and waiters notified) only when the count reaches 0, so every lock needs its own unlock.',
    zh: 'Redisson 的锁是可重入的：持有锁的线程可以再次加锁而不必等待。锁的 hash 里有一个以持有者命名的字段 "<客户端 id>:<线程 id>"，值是持有次数；每次加锁加 1，每次解锁减 1。只有次数降到 0 时才删除键（并通知等待者），所以每次加锁都要对应一次解锁。',
  },
  pubsub: {
    en: 'How a waiting Redisson thread learns the lock is free without polling: before waiting it SUBSCRIBEs to the channel redisson_lock__channel:{name}; the unlock script PUBLISHes a message there when it deletes the key, and the message wakes a waiter, which tries again. The waiter also wakes when the holder’s TTL runs out, in case a message never comes (a crashed holder publishes nothing).',
    zh: '等待中的 Redisson 线程不用轮询就能得知锁已释放的方式：等待前它 SUBSCRIBE 频道 redisson_lock__channel:{name}；解锁脚本删除键时向该频道 PUBLISH 一条消息，消息唤醒等待者，后者再试一次。持有者的 TTL 到期时等待者也会醒来，以防消息永远不来（崩溃的持有者不会发布任何消息）。',
  },
  moved: {
    en: 'Redis Cluster splits keys into 16 384 slots, CRC16(key) mod 16384, hashing only the part inside the first {…} when it is not empty, so "{myLock}" and "redisson_lock__channel:{myLock}" share a slot. Each master serves some slots; a node asked about a key of a slot it does not serve replies -MOVED <slot> <host:port>, and the client retries there and updates its slot map.',
    zh: 'Redis Cluster 把键分到 16384 个槽位：CRC16(键) mod 16384，如果键含非空的 {…}，只对第一对括号里的部分求哈希，所以 "{myLock}" 和 "redisson_lock__channel:{myLock}" 在同一个槽位。每个主节点负责一部分槽位；被问到不归自己负责的槽位的键时，节点回复 -MOVED <槽位> <host:port>，客户端到那里重试并更新自己的槽位表。',
  },
  'unlock-latch': {
    en: 'A short-lived key, redisson_unlock_latch:{name}:<request id>, that the unlock script (since 3.24) sets with its own answer, so an unlock the client re-sends after a timeout gets the same answer instead of releasing a second hold. The client deletes it as soon as the unlock has returned (the <client>/unlock actor in the captions). The tutorials show the older unlock script, without it.',
    zh: '一个短命的键 redisson_unlock_latch:{name}:<请求 id>：解锁脚本（3.24 起）把自己的答复存在里面，这样客户端在超时后重发的解锁会拿到同一个答复，而不会再释放一次持有。解锁一返回，客户端就把它删掉（说明栏里的 <客户端>/unlock）。教程里展示的是较早的解锁脚本，没有这个键。',
  },
};
