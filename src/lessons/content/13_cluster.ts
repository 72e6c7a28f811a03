import type { Lesson } from '../types';

/**
 * The simulator has no cluster topology yet, so this lesson is listed but not run ("coming"):
 * its steps cite C30 and C31 and will demonstrate them once `topology: "cluster"` exists.
 */
const lesson: Lesson = {
  id: 'cluster',
  title: { en: 'Cluster: which node holds the lock', zh: '集群：锁在哪个节点上' },
  minutes: 6,
  coming: true,
  steps: [
    {
      claims: ['C30'],
      // needs: a cluster topology (CRC16 slots, MOVED); then run `CLUSTER KEYSLOT myLock` and show the key on one master only
      text: {
        en:
          'In Redis Cluster every key hashes to one of 16,384 slots (`CRC16(key) mod 16384`), and each slot ' +
          'belongs to exactly one master. Seed 002 runs the demo on a six-node cluster: `myLock` lives on one ' +
          'master only; the other masters never see it. The lock script runs there, atomically, as on a single node.',
        zh:
          'Redis 集群里，每个键都被哈希到 16384 个槽中的一个（`CRC16(key) mod 16384`），每个槽只属于一个主节点。种子 002 ' +
          '在一个六节点集群上做演示：`myLock` 只存在于一个主节点上，其他主节点根本看不到它。加锁脚本就在那个节点上原子地执行，和单机一样。',
      },
    },
    {
      claims: ['C31'],
      // needs: a cluster topology; then compare `CLUSTER KEYSLOT` of the lock and of its channel
      text: {
        en:
          'The unlock script touches two names: the lock `myLock` and the channel ' +
          '`redisson_lock__channel:{myLock}`. Only the part inside `{…}`, the **hash tag**, is hashed, so both ' +
          'land in the same slot and the script may use them together.',
        zh:
          '解锁脚本涉及两个名字：锁 `myLock` 和频道 `redisson_lock__channel:{myLock}`。只有 `{…}` 里的部分，即**哈希标签**，' +
          '参与哈希，所以两者落在同一个槽里，脚本可以同时使用它们。',
      },
    },
  ],
};

export default lesson;
