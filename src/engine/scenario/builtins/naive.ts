/** The hand-rolled SETNX locks, each showing one mistake (the lock types of naive/NaiveLock.ts). */
import { aThenB, client, hold } from '../build';
import { defineBuiltin } from './types';

export const naiveSetnxDeadlock = defineBuiltin('naive-setnx-deadlock', {
  group: 'naive',
  title: 'SETNX without expiry: a crashed holder locks everyone out',
  titleZh: '不带过期时间的 SETNX：持有者崩溃，所有人被锁死',
  description:
    'A:1 takes the lock with `SETNX lock:job 1` and crashes at 200 ms before its DEL. The key has no TTL ' +
    '(PTTL -1), so B:1 polls every 100 ms forever. Nothing unsafe happens, but nothing happens at all: the ' +
    'verdict is “Stuck” (L1, a liveness failure: the owner is gone and the key never expires). A lock needs ' +
    'a lease.',
  descriptionZh:
    'A:1 用 `SETNX lock:job 1` 加锁，在 200 毫秒时崩溃，没来得及 DEL。键没有 TTL（PTTL 为 -1），B:1 每 100 毫秒轮询一次，永远拿不到锁。' +
    '没有发生不安全的事，但什么也做不成了：结论是“卡死”（L1，活性失败：持有者已不在，键永不过期）。锁必须有租期。',
  scenario: {
    title: 'SETNX without expiry',
    until: 3000,
    clients: aThenB('lock:job', { a: 5000, b: 100, bStart: 100 }, { type: 'setnx' }),
    faults: [{ at: 200, kind: 'crash', client: 'A' }],
  },
});

export const naiveDeleteOthersLock = defineBuiltin('naive-delete-others-lock', {
  group: 'naive',
  title: "SET NX PX with a plain DEL deletes someone else's lock",
  titleZh: 'SET NX PX 配合直接 DEL：删掉了别人的锁',
  description:
    'Everyone writes the same value `1` with a 10 s lease. A:1 works 14 s, so its key expires at 10 s and ' +
    "B:1 gets the lock (first overlap). At 14 s A:1's DEL removes B's key, and C:1 gets in while B:1 is still " +
    'working (second overlap, caused only by the release). The fix: a unique value and compare-and-delete.',
  descriptionZh:
    '所有人都写入同一个值 `1`，租期 10 秒。A:1 工作 14 秒，它的键在第 10 秒过期，B:1 拿到锁（第一次重叠）。第 14 秒 A:1 的 DEL 删掉了 B 的键，' +
    'B:1 还在工作时 C:1 又拿到了锁（第二次重叠，完全由释放方式造成）。修复：唯一的值加上比较后删除。',
  scenario: {
    title: "Plain DEL deletes someone else's lock",
    clients: threeClients('set-nx-px', { a: 14000, b: 8000, c: 8000, cStart: 12000 }),
  },
});

/**
 * A's work ends at 9992 and its release starts; a 500 ms pause from 9993 falls between the GET
 * (already answered by the server) and the DEL. The key, set at 1 with PX 10000, expires at 10001;
 * B's poll takes it at 10097.
 */
const raceClients = (type: string) => threeClients(type, { a: 9990, b: 3000, c: 1000, cStart: 10200 });
const racePause = [{ at: 9993, kind: 'pause', client: 'A', ms: 500 }];
const WATCH_PAUSE_AT = 9995;

export const naiveGetDelRace = defineBuiltin('naive-get-del-race', {
  group: 'naive',
  title: 'GET, compare, DEL: the owner check is not atomic',
  titleZh: 'GET、比较、DEL：归属检查不是原子的',
  description:
    'Each acquisition writes a random token, and A:1 checks it before deleting. A finishes its work and ' +
    "calls unlock at 9.99 s: GET returns A's token, then A pauses for 500 ms before its DEL. A's critical " +
    'section is already over (its hold bar turns pale: unlock sent, reply pending), so the pause alone hurts ' +
    "nobody. But meanwhile the key expires and B:1 takes the lock; A's late DEL removes B's key, and C:1 gets " +
    'in while B is working: the V1 between B and C is caused by the release alone. Two round trips leave a ' +
    'gap for the lock to change hands; compare “Compare-and-delete in one Lua script”.',
  descriptionZh:
    '每次加锁写入一个随机令牌，A:1 删除前先检查。A 在 9.99 秒做完工作并调用 unlock：GET 返回 A 的令牌，随后 A 在 DEL 之前停顿了 500 毫秒。' +
    'A 的临界区此时已经结束（它的持有条变浅：unlock 已发出，等待回复），所以停顿本身不伤害任何人。但这期间键过期，B:1 拿到锁；' +
    'A 迟到的 DEL 删掉了 B 的键，B 还在工作时 C:1 又拿到了锁：B 与 C 之间的 V1 完全由释放造成。' +
    '两次往返之间留下了锁易主的空隙；请与“用一个 Lua 脚本比较并删除”对比。',
  scenario: {
    title: 'GET, compare, DEL',
    clients: raceClients('set-nx-px-get-del'),
    faults: racePause,
  },
});

/**
 * The release is one EVAL, so the pause has to come before it is sent to delay it: from 9991, 1 ms
 * before A's work ends, to 10491. The EVAL reaches the server at 10492, after B took the key.
 */
const luaPause = [{ at: 9991, kind: 'pause', client: 'A', ms: 500 }];

export const naiveLuaDelSafe = defineBuiltin('naive-lua-del-safe', {
  group: 'naive',
  title: 'Compare-and-delete in one Lua script',
  titleZh: '用一个 Lua 脚本比较并删除',
  description:
    'The same threads as the GET-compare-DEL race, but the release is one EVAL: `if get == token then del`. ' +
    'A single EVAL leaves no gap to pause in, so here the 500 ms pause has to come 1 ms earlier, while A:1 is ' +
    'still in its critical section, to delay the release at all. Meanwhile its key expires and B:1 takes the ' +
    "lock. A's release arrives at 10.49 s, finds B's token instead of its own and returns 0: B keeps its lock " +
    'and C:1 waits for B, so the release causes no overlap (no V1 between B and C, unlike the race). The one ' +
    'V1 left, A and B, is the pause inside A’s critical section outliving its lease: a lease problem no ' +
    'release can fix. That takes a longer lease or the watchdog, and fencing.',
  descriptionZh:
    '线程与 GET-比较-DEL 的例子相同，但释放是一个 EVAL：`if get == token then del`。单个 EVAL 中间没有可以停顿的空隙，' +
    '所以这里 500 毫秒的停顿必须提前 1 毫秒、在 A:1 还处于临界区时发生，才能推迟释放。这期间它的键过期，B:1 拿到锁。' +
    'A 的释放在 10.49 秒到达，发现的是 B 的令牌而不是自己的，于是返回 0：B 保住了锁，C:1 等 B 释放，' +
    '释放本身不再造成重叠（B 与 C 之间没有 V1，与竞态版本不同）。剩下的那个 V1（A 和 B）是 A 临界区内的停顿超过了租期：' +
    '这是租期的问题，任何释放方式都解决不了。这需要更长的租期或看门狗，以及防护令牌。',
  scenario: {
    title: 'Compare-and-delete in Lua',
    clients: raceClients('set-nx-px-lua'),
    faults: luaPause,
  },
});

/**
 * The release is WATCH, GET, MULTI, DEL, EXEC; the pause falls after the GET's reply (A has seen
 * its own token) and before MULTI, as racePause falls between the GET and the DEL.
 */
const watchPause = [{ at: WATCH_PAUSE_AT, kind: 'pause', client: 'A', ms: 500 }];

export const naiveWatchMultiRelease = defineBuiltin('naive-watch-multi-release', {
  group: 'naive',
  title: 'WATCH, GET, MULTI, DEL, EXEC: the optimistic release',
  titleZh: 'WATCH、GET、MULTI、DEL、EXEC：乐观的释放',
  description:
    'The same threads and the same pause as the GET-compare-DEL race, but A:1 releases with the optimistic ' +
    'transaction of the Redis docs: WATCH lock:job, GET lock:job (its own token), then MULTI, DEL, ' +
    'EXEC. A pauses for 500 ms after the GET; meanwhile its key expires and B:1 takes the lock. The WATCH ' +
    'noticed the change, so A’s EXEC answers nil and the queued DEL never runs: B keeps its lock and C:1 ' +
    'waits for B (no V1 between B and C). Atomic like the Lua release, but five round trips instead of one.',
  descriptionZh:
    '线程和停顿都与 GET、比较、DEL 的竞态相同，但 A:1 用 Redis 文档里的乐观事务释放锁：WATCH lock:job、GET lock:job' +
    '（它自己的令牌），然后 MULTI、DEL、EXEC。A 在 GET 之后停顿 500 毫秒；这期间它的键过期，B:1 拿到锁。WATCH 记下了这次改动，' +
    '所以 A 的 EXEC 回复 nil，排队的 DEL 根本没有执行：B 保住了锁，C:1 等 B 释放（B 与 C 之间没有 V1）。' +
    '和 Lua 释放一样是原子的，但要五次往返而不是一次。',
  scenario: {
    title: 'WATCH, GET, MULTI, DEL, EXEC',
    clients: raceClients('set-nx-px-watch'),
    faults: watchPause,
  },
});

/**
 * A from 0, B from 100 ms and C from `t.cStart` each run one naive critical section (10 s lease) of
 * `t.a`, `t.b`, `t.c` ms of work.
 */
function threeClients(type: string, t: { a: number; b: number; c: number; cStart: number }) {
  const section = (workMs: number) => hold('lock:job', workMs, { type, leaseMs: 10000 });
  return [
    client('A', section(t.a)),
    client('B', section(t.b), { start: 100 }),
    client('C', section(t.c), { start: t.cStart }),
  ];
}
