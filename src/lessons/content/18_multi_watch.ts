import {
  atLeast,
  choice,
  dodge,
  exactly,
  gap,
  lockTypeControl,
  none,
  onFirstOps,
  openV1,
  replyOf,
  threadHolds,
  v1,
  why,
  yourTurn,
} from './common';
import { acquired, cmd, ev, violationStart } from './events';
import type { EventSelector, Lesson } from '../types';

/** A:1's release, from its unlock call: WATCH, GET, MULTI, DEL, EXEC. */
const aRelease = ev('unlock.request', 'A:1');
const aWatch = cmd('A:1', 'WATCH');
const aExec = cmd('A:1', 'EXEC');
/** every command A:1 sent for its release */
const aReleaseCmd: EventSelector = { kind: 'cmd', actor: 'A:1', after: aRelease };

const lesson: Lesson = {
  id: 'multi-watch',
  title: { en: 'The other atomic release: WATCH, MULTI, EXEC', zh: '另一种原子释放：WATCH、MULTI、EXEC' },
  minutes: 7,
  part: 1,
  objective: {
    en: 'Release a lock with an optimistic transaction (WATCH, GET, MULTI, DEL, EXEC), read its nil EXEC, and weigh its round trips against one Lua script.',
    zh: '用乐观事务（WATCH、GET、MULTI、DEL、EXEC）释放锁，读懂 `EXEC` 的 nil 回复，并把它的往返次数和一个 Lua 脚本作比较。',
  },
  steps: [
    {
      claims: ['C08', 'C09'],
      scenario: { builtin: 'naive-watch-multi-release' },
      at: cmd('A:1', 'GET', { after: aWatch }),
      text: {
        en:
          'Lua is not the only way to make the check and the delete one step. Redis has an older one, the ' +
          '**optimistic transaction** of its docs: `WATCH lock:job` first, then `GET lock:job` and compare, then ' +
          '`MULTI`, `DEL lock:job`, `EXEC`. `WATCH` asks the server to remember the key: if anything writes it ' +
          'before this connection’s `EXEC` (another client’s `SET`, a `DEL`, even its expiry), the `EXEC` runs ' +
          'nothing. Same threads as lesson {lesson:atomic-release}’s race: A:1’s `GET` has just returned its own value.',
        zh:
          'Lua 并不是让判断和删除成为一步的唯一办法。Redis 还有一种更早的办法，就是文档里的**乐观事务**：先 `WATCH lock:job`，' +
          '再 `GET lock:job` 并比较，然后 `MULTI`、`DEL lock:job`、`EXEC`。`WATCH` 让服务器记住这个键：在这个连接的 `EXEC` 之前，' +
          '只要有任何写入碰过它（别的客户端的 `SET`、一次 `DEL`，甚至它过期），`EXEC` 就什么也不执行。线程和第 {lesson:atomic-release} 课的竞态相同：' +
          'A:1 的 `GET` 刚刚返回了它自己的值。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['lock:job'] },
      checks: [
        { key: 'lock:job', is: 'string', ownedBy: 'A:1' },
        { reply: { status: 'OK' }, of: aWatch },
        exactly(2, aReleaseCmd),
      ],
      teacher: {
        en: 'Ask what `WATCH` itself returns and changes (OK; nothing in the keyspace). People think WATCH locks the key; it only marks it, and nobody else is slowed down.',
        zh: '问大家：`WATCH` 本身返回什么、改变了什么？（OK；键空间里什么都没变。）很多人以为 WATCH 会锁住键；它只是做个记号，别人一点也不受影响。',
      },
    },
    {
      claims: ['C08'],
      at: acquired('B:1'),
      text: {
        en:
          'Then, as in lesson {lesson:atomic-release}, A:1 is paused for 500 ms, this time between its `GET` and its `MULTI`. Its key ' +
          'expires and B:1’s poll takes the lock with B:1’s own value. A:1 has already decided “it is mine”, ' +
          'exactly as before. The difference is on the server: the key A:1 watches has been written since.',
        zh:
          '接着和第 {lesson:atomic-release} 课一样，A:1 停顿了 500 毫秒，这次停在 `GET` 和 `MULTI` 之间。它的键过期了，B:1 的轮询用 B:1 自己的值拿到了锁。' +
          'A:1 早已判定“这是我的锁”，和之前一模一样。不同之处在服务器上：A:1 监视的键在这之后被写过了。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['lock:job'] },
      checks: [
        { key: 'lock:job', ownedBy: 'B:1' },
        { thread: 'A:1', state: 'paused' },
        none(cmd('A:1', 'MULTI')),
      ],
      teacher: {
        en: 'Ask the room to predict before moving on: A:1 will now send MULTI, DEL, EXEC. Which of them could notice that the key changed?',
        zh: '先让大家预测：A:1 接下来会发 MULTI、DEL、EXEC。其中哪一条能发现键已经变了？',
      },
    },
    {
      claims: ['C08', 'C09'],
      at: aExec,
      question: {
        prompt: {
          en: 'A:1 resumes and sends `MULTI`, `DEL lock:job`, `EXEC`. What does its `EXEC` return?',
          zh: 'A:1 恢复运行，发出 `MULTI`、`DEL lock:job`、`EXEC`。它的 `EXEC` 返回什么？',
        },
        choices: [
          choice(
            'one',
            [1],
            '`[1]`: the queued `DEL` deleted the key',
            '`[1]`：排队的 `DEL` 删掉了键',
            why(
              'That is what lesson {lesson:atomic-release}’s late `DEL` did, and a `MULTI` alone would do it too: queued commands compare nothing. But the key was written after A:1’s `WATCH`, so the server discards the queue: the run shows `EXEC` answering nil and B:1’s key untouched.',
              '第 {lesson:atomic-release} 课里迟到的 `DEL` 就是这样，单用 `MULTI` 也会这样：排队的命令什么都不比较。但键在 A:1 的 `WATCH` 之后被写过，服务器丢弃了整个队列：运行里 `EXEC` 回复 nil，B:1 的键完好无损。',
            ),
          ),
          choice(
            'zero',
            [0],
            '`[0]`: the `DEL` ran but found nothing to delete',
            '`[0]`：`DEL` 执行了，但没有可删的键',
            why(
              'Tempting if you think the expiry is what matters. But the key exists again, B:1’s, and a `DEL` that ran would have removed it. The run shows the `DEL` never ran: `EXEC` answers nil.',
              '如果你以为关键在于过期，就会这样想。可是键又存在了，是 B:1 的；真执行了的 `DEL` 会把它删掉。运行显示 `DEL` 根本没有执行：`EXEC` 回复 nil。',
            ),
          ),
          choice('nil', null, 'nil: the transaction is discarded', 'nil：事务被丢弃'),
          choice(
            'error',
            'error',
            'an error: `EXECABORT`',
            '一个错误：`EXECABORT`',
            why(
              '`EXECABORT` is for a transaction with a command refused while queueing (a wrong argument count, an unknown command). `DEL lock:job` was accepted (`QUEUED`); a changed watched key gives a nil reply, not an error.',
              '`EXECABORT` 用于排队时有命令被拒绝的事务（参数个数不对、命令不存在）。`DEL lock:job` 已被接受（`QUEUED`）；被监视的键变了，得到的是 nil 回复，不是错误。',
            ),
          ),
        ],
        answer: replyOf(aExec),
        feedback: {
          en:
            'The `DEL` was only queued (`QUEUED`). At `EXEC` the server checks whether a watched key was written ' +
            'since the `WATCH`; B:1’s `SET` wrote it, so nothing in the queue runs and the reply is a nil array.',
          zh:
            '`DEL` 只是进了队列（`QUEUED`）。到 `EXEC` 时，服务器检查被监视的键在 `WATCH` 之后有没有被写过；B:1 的 `SET` 写过它，' +
            '所以队列里什么都不执行，回复是一个 nil 数组。',
        },
      },
      text: {
        en:
          'A:1’s `EXEC` answers nil: the queued `DEL` never ran and `lock:job` is still B:1’s. A:1 reads nil as ' +
          '“not mine any more” and its `unlock` returns false, like the Lua release’s `0`. The check happened ' +
          'twice: once by A:1 (`GET`), once by the server at `EXEC`, and the second one is atomic with the delete.',
        zh:
          'A:1 的 `EXEC` 回复 nil：排队的 `DEL` 从未执行，`lock:job` 仍然是 B:1 的。A:1 把 nil 理解为“已经不是我的了”，' +
          '它的 `unlock` 返回 false，就像 Lua 释放返回 `0` 一样。检查做了两次：一次是 A:1 自己（`GET`），一次是服务器在 `EXEC` 时，' +
          '而第二次和删除是原子的。',
      },
      highlight: { lanes: ['A:1', 'B:1'], keys: ['lock:job'] },
      checks: [
        { reply: null },
        { reply: { status: 'QUEUED' }, of: cmd('A:1', 'DEL') },
        { key: 'lock:job', ownedBy: 'B:1' },
        threadHolds('B:1', 'lock:job', 1),
      ],
      teacher: {
        en: 'Ask why the GET is still needed when WATCH catches the change (WATCH only sees changes after it; the GET is what tells A:1 whether the key was its own to begin with). Common mistake: "MULTI makes it atomic". MULTI alone would have deleted B:1’s key.',
        zh: '问大家：既然 WATCH 能发现改动，为什么还要 GET？（WATCH 只看得到它之后的改动；GET 才告诉 A:1 这个键一开始是不是它的。）常见错误：“MULTI 就让它原子了”。单用 MULTI 照样会删掉 B:1 的键。',
      },
    },
    {
      claims: ['C09'],
      text: {
        en:
          'So C:1 waits for B:1: no overlap, as with the Lua script. What it costs: the release took **five** ' +
          'round trips (`WATCH`, `GET`, `MULTI`, `DEL`, `EXEC`) where lesson {lesson:atomic-release}’s `EVAL` takes one, and each is a ' +
          'gap for a pause or a slow network to widen. A nil `EXEC` in general means “try again” (the Redis docs ' +
          'loop until it succeeds); for a lock release it means “you lost the lock”, so there is nothing to retry. ' +
          'Redisson uses Lua for every lock operation: one round trip, no retry loop.',
        zh:
          '所以 C:1 等着 B:1：没有重叠，和 Lua 脚本一样。代价是：这次释放用了**五次**往返（`WATCH`、`GET`、`MULTI`、`DEL`、`EXEC`），' +
          '而第 {lesson:atomic-release} 课的 `EVAL` 只要一次；每一次往返都是一个让停顿或慢网络钻进来的空隙。一般来说 `EXEC` 回复 nil 意味着“再试一次”' +
          '（Redis 文档里会循环直到成功）；对释放锁来说它意味着“你已经失去了锁”，没有什么可重试的。Redisson 的每个锁操作都用 Lua：一次往返，没有重试循环。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['lock:job'] },
      checks: [
        exactly(5, { kind: 'cmd', actor: 'A:1', after: aRelease }),
        none(cmd('A:1', 'EVAL')),
        { thread: 'A:1', lastResult: false },
        { not: v1('lock:job', 'B:1', 'C:1') },
        { noViolation: 'any' },
        gap(ev('lock.released', 'B:1'), acquired('C:1'), { min: 0 }),
      ],
      teacher: {
        en: 'Ask: when would a nil EXEC be worth retrying in a lock? (Only when your own writes touch the key, e.g. a renewal PEXPIRE between your WATCH and EXEC: then the abort is spurious and costs another five round trips.)',
        zh: '问大家：对一把锁来说，什么时候 EXEC 回复 nil 值得重试？（只有自己的写入碰了这个键时，例如在 WATCH 和 EXEC 之间的续期 PEXPIRE：那次中止是误报，还要再花五次往返。）',
      },
    },
    {
      claims: ['C08', 'C09'],
      scenario: { builtin: 'naive-get-del-race' },
      at: violationStart('V1', 'lock:job'),
      hideIntro: true,
      text: {
        en:
          'Back to lesson {lesson:atomic-release}’s race itself: `GET`, compare, `DEL`, A:1 paused between its `GET` and its `DEL`. ' +
          'Its late `DEL` removed B:1’s key and C:1 got in beside B:1 (`V1`).',
        zh:
          '回到第 {lesson:atomic-release} 课的竞态本身：`GET`、比较、`DEL`，A:1 在 `GET` 和 `DEL` 之间停顿。' +
          '它迟到的 `DEL` 删掉了 B:1 的键，C:1 和 B:1 同时持有锁（`V1`）。',
      },
      highlight: { lanes: ['A:1', 'B:1', 'C:1'], keys: ['lock:job'] },
      checks: [openV1('lock:job', 'B:1', 'C:1'), { reply: 1, of: cmd('A:1', 'DEL') }],
      task: {
        prompt: yourTurn(
          'keep the pause, and release with the optimistic transaction instead of Lua: switch all three threads’ ' +
            '`lock` ops to type `set-nx-px-watch`.',
          '保留停顿，用乐观事务而不是 Lua 来释放：把三个线程的 `lock` 操作都改成类型 `set-nx-px-watch`。',
        ),
        goalText: {
          en: 'A:1 is still paused during its release, it releases with `WATCH` first (no `EVAL`), its `unlock` deletes nothing (returns false), and no `V1` between B:1 and C:1.',
          zh: 'A:1 释放时照样停顿，它先 `WATCH` 再释放（没有 `EVAL`），它的 `unlock` 什么也没删（返回 false），B:1 和 C:1 之间没有 `V1`。',
        },
        controls: [lockTypeControl(['set-nx-px-get-del', 'set-nx-px-watch', 'set-nx-px-lua'], [0, 1, 2])],
        goal: {
          all: [
            { not: v1('lock:job', 'B:1', 'C:1') },
            atLeast(1, { kind: 'client.pause' }),
            atLeast(1, aWatch),
            none(cmd('A:1', 'EVAL')),
            { thread: 'A:1', lastResult: false },
          ],
        },
        solution: onFirstOps('replace', 'type', 'set-nx-px-watch', [0, 1, 2]),
        dodges: [
          dodge(
            { all: [{ not: v1('lock:job', 'B:1', 'C:1') }, none({ kind: 'client.pause' })] },
            'That works, but only because A:1 is no longer paused during its release. Keep the pause and let ' +
              '`WATCH` catch the change.',
            '这样确实行，但只是因为 A:1 释放时不再停顿了。保留停顿，让 `WATCH` 去发现改动。',
            [{ op: 'remove', path: '/faults/0' }],
          ),
          dodge(
            { all: [{ not: v1('lock:job', 'B:1', 'C:1') }, atLeast(1, cmd('A:1', 'EVAL'))] },
            'That works: the Lua release of lesson {lesson:atomic-release} is atomic too, in one round trip. This task is about the ' +
              'other way: release with `set-nx-px-watch` and watch its `EXEC` answer nil.',
            '这样确实行：第 {lesson:atomic-release} 课的 Lua 释放也是原子的，而且只要一次往返。这个任务要的是另一种办法：用 `set-nx-px-watch` 释放，看它的 `EXEC` 回复 nil。',
            onFirstOps('replace', 'type', 'set-nx-px-lua', [0, 1, 2]),
          ),
          dodge(
            { all: [{ not: v1('lock:job', 'B:1', 'C:1') }, none(aWatch)] },
            'That works, but A:1 still releases with `GET` then `DEL`: its late `DEL` can still remove someone ' +
              'else’s key, it just did not let a third thread in this time. Make the release a watched transaction.',
            '这样确实行，但 A:1 释放时仍然是先 `GET` 再 `DEL`：它迟到的 `DEL` 仍可能删掉别人的键，只是这次没让第三个线程进来。请把释放改成被监视的事务。',
            [{ op: 'replace', path: '/clients/2/threads/0/start', value: 20_000 }],
          ),
        ],
        success: {
          en:
            'A:1 watched `lock:job` before checking it and, though paused in the middle of its release, deleted ' +
            'nothing (`unlock` returned false): C:1 did not get in beside B:1. Here the pause fell just after the ' +
            '`WATCH`, so A:1’s own `GET` already saw B:1’s value; had it fallen after the `GET`, the `EXEC` would ' +
            'have answered nil, as in step 3.',
          zh:
            'A:1 在检查 `lock:job` 之前先监视了它，虽然在释放中途停顿，却什么也没删（`unlock` 返回 false）：C:1 没有和 B:1 同时持有锁。' +
            '这里停顿正好落在 `WATCH` 之后，所以 A:1 自己的 `GET` 已经看到了 B:1 的值；如果停顿落在 `GET` 之后，`EXEC` 就会回复 nil，就像第 3 步那样。',
        },
      },
      teacher: {
        en: 'Ask someone to pick set-nx-px-lua and see the task answer “that works, but…”: both are atomic; the point here is to see the nil EXEC. Good moment to ask which one they would ship (Lua: one round trip).',
        zh: '请一位同学选 set-nx-px-lua，看看任务回答“这样确实行，但……”：两种都是原子的；这里要看的是 nil 的 EXEC。正好问问大家会上线哪一种（Lua：一次往返）。',
      },
    },
  ],
};

export default lesson;
