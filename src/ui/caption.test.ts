import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS, type TraceEvent } from '../engine/trace/types';
import { UNLOCK } from '../engine/redisson/scripts/RedissonLock';
import { FAIR_LOCK } from '../engine/redisson/scripts/RedissonFairLock';
import { captionOf, captionText, duration, scriptName } from './caption';
import { loadLang } from './i18n';

// Chinese loads on demand in the page; these tests read it.
beforeAll(() => loadLang('zh'));

const ev = (e: Record<string, unknown>, seq = 0) => ({ t: 0, seq, ...e }) as TraceEvent;

const OWNER = '8b0f8b81-2984-4fb8-ad08-c33276a1e0a8:1';
const LOCK_SCRIPT = '-- RedissonLock.tryLockInnerAsync (Redisson 3.19+): take the lock\nreturn nil';
const SHA = 'aaaa1111';
const loaded = ev({
  kind: 'cmd',
  actor: 'A:1',
  node: 'master',
  conn: 'A/cmd',
  argv: ['SCRIPT', 'LOAD', LOCK_SCRIPT],
  reply: SHA,
});
const evalsha = (reply: unknown) =>
  ev(
    {
      kind: 'cmd',
      actor: 'A:1',
      node: 'master',
      conn: 'A/cmd',
      argv: ['EVALSHA', SHA, '1', 'myLock', '30000', OWNER],
      reply,
    },
    1,
  );

/** A value for every field any kind reads, so each kind's formatter can run on one fake event. */
const EVERY_FIELD = {
  actor: 'A:1',
  node: 'master',
  lock: 'myLock',
  conn: 'A/cmd',
  argv: ['GET', 'k'],
  reply: null,
  sha: '0123456789abcdef',
  keys: ['k'],
  args: [],
  line: 3,
  level: 'notice',
  message: 'm',
  acked: 1,
  channel: 'ch',
  receivers: 1,
  key: 'k',
  how: 'active',
  jumpMs: 1000,
  offset: 1000,
  groups: [['A'], ['master']],
  endpoints: ['A'],
  client: 'A',
  ms: 100,
  replica: 'replica-1',
  master: 'master',
  sentinel: 'sentinel-1',
  observer: 'master-2',
  reports: 2,
  rank: 0,
  delayMs: 700,
  slots: '10923-16383',
  state: 'fail',
  agree: 2,
  quorum: 2,
  epoch: 1,
  votes: 2,
  from: 'master',
  role: 'master',
  by: 'sentinel-1',
  outcome: 'normal',
  command: 'EVALSHA',
  timeoutMs: 3000,
  until: 5100,
  thread: 2,
  acquiring: true,
  result: true,
  exception: 'java.lang.IllegalStateException',
  op: 'work',
  critical: true,
  type: 'RLock',
  ttl: 100,
  waitMs: 100,
  waitedMs: 6000,
  used: 250,
  capacity: 250,
  cause: 'message',
  holdCount: 1,
  owner: OWNER,
  error: 'ERR',
  timer: 'A/watchdog',
  reason: 'unlock',
  accepted: true,
  token: null,
  read: 1,
  readAt: 0,
  lostUpdate: false,
  value: 2,
  violation: 'V1',
  holders: ['A:1', 'B:1'],
};

describe('caption', () => {
  it.each([
    [
      'the lock script, acquired',
      [loaded, evalsha(null)],
      'A:1’s lock script ran on master: reply nil, so A:1 now holds myLock (taken, or re-entered) with a lease of 30 s.',
      'A:1 的加锁脚本在 master 上执行：回复 nil，A:1 现在持有 myLock（新获取或重入），租期为 30 秒。',
    ],
    [
      'the lock script, held by another',
      [loaded, evalsha(29904)],
      'A:1’s lock script ran on master: myLock is held by another owner; the reply is the TTL its lease has left, 29904 ms.',
      'A:1 的加锁脚本在 master 上执行：myLock 被另一个持有者占用；回复的是其租期剩余的 TTL：29904 毫秒。',
    ],
    [
      'the lock script, held by another on a key without an expiry',
      [loaded, evalsha(-1)],
      'A:1’s lock script ran on master: myLock is held by another owner and has no expiry; the reply is -1, what PTTL answers for a key without a TTL.',
      'A:1 的加锁脚本在 master 上执行：myLock 被另一个持有者占用，而且没有过期时间；回复为 -1，这是 PTTL 对没有 TTL 的键的回答。',
    ],
    [
      'an unknown script names no meaning for its reply',
      [evalsha(null)],
      'A:1’s script EVALSHA ran on master; the reply was (nil).',
      'A:1 的脚本 EVALSHA 在 master 上执行，回复为 (nil)。',
    ],
    [
      'a watchdog renewal',
      [ev({ kind: 'watchdog.renew', actor: 'A:1', lock: 'myLock', timer: 'A/watchdog', result: 1 })],
      'A/watchdog renewed the lease of myLock for A:1.',
      '看门狗 A/watchdog 为 A:1 续期了 myLock 的租期。',
    ],
    [
      // renewal-task 4's hand-made renewal thread is no watchdog: the caption names the timer only
      'a renewal by the naive lock’s own thread',
      [ev({ kind: 'watchdog.renew', actor: 'A:1', lock: 'lock:job', timer: 'A/renewal', result: 1 })],
      'A/renewal renewed the lease of lock:job for A:1.',
      'A/renewal 为 A:1 续期了 lock:job 的租期。',
    ],
    [
      'a wake-up by timeout is not a message',
      [ev({ kind: 'waiter.wakeup', actor: 'B:1', lock: 'myLock', cause: 'timeout' })],
      'B:1 wakes up because its wait timed out, not because of a message, and tries myLock again.',
      'B:1 因等待超时（而不是收到消息）醒来，再次尝试获取 myLock。',
    ],
    [
      'a refused fenced write',
      [
        ev({
          kind: 'resource.use',
          actor: 'A:1',
          accepted: false,
          token: 1,
          read: 7,
          readAt: 0,
          lostUpdate: false,
          value: 8,
        }),
      ],
      'The protected resource refuses A:1’s write: its fencing token 1 is older than one it already accepted.',
      '受保护资源拒绝了 A:1 的写入：它的防护令牌 1 比已接受过的令牌旧。',
    ],
    [
      'an accepted fenced write: the glossary’s term for the token, the number spaced',
      [
        ev({
          kind: 'resource.use',
          actor: 'B:1',
          accepted: true,
          token: 2,
          read: 7,
          readAt: 0,
          lostUpdate: false,
          value: 8,
        }),
      ],
      'B:1 writes the protected resource with token 2: 7 → 8.',
      'B:1 带着防护令牌 2 写入受保护资源：7 → 8。',
    ],
    [
      // setnx 3: a SETNX client has no watchdog to stop
      'a crash of a client without a watchdog',
      [ev({ kind: 'client.crash', actor: 'A', client: 'A' })],
      'Client A crashes: its threads stop.',
      '客户端 A 崩溃：它的线程都停止了。',
    ],
    [
      'a crash of a client whose watchdog renewed',
      [
        ev({ kind: 'watchdog.renew', actor: 'A:1', lock: 'myLock', timer: 'A/watchdog', result: 1 }),
        ev({ kind: 'client.crash', actor: 'A', client: 'A' }, 1),
      ],
      'Client A crashes: its threads and its watchdog stop.',
      '客户端 A 崩溃：它的线程和看门狗都停止了。',
    ],
    [
      'a pause of a client without a watchdog (another client’s does not count)',
      [
        ev({ kind: 'watchdog.renew', actor: 'B:1', lock: 'myLock', timer: 'B/watchdog', result: 1 }),
        ev({ kind: 'client.pause', actor: 'A', client: 'A', ms: 500 }, 1),
      ],
      'Client A pauses for 500 ms (like a long GC pause): its threads stop.',
      '客户端 A 停顿 500 毫秒（如同一次长时间 GC）：它的线程都停止了。',
    ],
    [
      'ODOWN with the quorum',
      [
        ev({
          kind: 'sentinel.odown',
          actor: 'sentinel-2',
          node: 'master',
          sentinel: 'sentinel-2',
          agree: 2,
          quorum: 2,
        }),
      ],
      'sentinel-2 marks master objectively down (ODOWN): 2 Sentinel(s) agree, the quorum is 2.',
      'sentinel-2 将 master 标记为客观下线（ODOWN）：2 个哨兵同意，quorum 为 2。',
    ],
    [
      'a partition, the Sentinels on one side',
      [
        ev({
          kind: 'net.partition',
          groups: [
            ['master', 'A'],
            ['sentinels', 'replica-1', 'B'],
          ],
        }),
      ],
      'The network splits: [master, A] | [sentinels, replica-1, B]. Only those in the same group can reach each other; what a connection sends across the split waits in TCP and arrives at its first retransmission after the heal.',
      '网络分区：[master, A] | [所有哨兵, replica-1, B]。只有同一组内的节点和客户端能互相连通；连接跨分区发送的数据留在 TCP 里，在分区恢复后的第一次重传时送达。',
    ],
    [
      'a partition that resets the connections it cuts',
      [ev({ kind: 'net.partition', groups: [['A'], ['master']], reset: true })],
      'The network splits and resets the connections it cuts: [A] | [master]. Only those in the same group can reach each other; what is sent across the split is lost.',
      '网络分区并重置被切断的连接：[A] | [master]。只有同一组内的节点和客户端能互相连通；跨分区发送的数据会丢失。',
    ],
    [
      'a response timeout',
      [
        ev({
          kind: 'call.timeout',
          actor: 'A:1',
          node: 'master',
          conn: 'A/cmd',
          command: 'EVALSHA',
          timeoutMs: 3000,
        }),
      ],
      'A:1: no reply to EVALSHA from master within 3 s: RedisResponseTimeoutException (the command may still run).',
      'A:1：3 秒内没有收到 master 对 EVALSHA 的应答：RedisResponseTimeoutException（命令可能仍会执行）。',
    ],
    [
      'a step that threw',
      [
        ev({
          kind: 'thread.result',
          actor: 'A:1',
          result: { error: 'IllegalMonitorStateException: not locked' },
        }),
      ],
      'A:1’s step fails: IllegalMonitorStateException: not locked',
      'A:1 这一步失败：IllegalMonitorStateException: not locked',
    ],
  ])('%s', (_, events, en, zh) => {
    const i = events.length - 1;
    expect(captionText(events, i, 'en')).toBe(en);
    expect(captionText(events, i, 'zh')).toBe(zh);
  });

  it('has its own sentence for every event kind, in both languages', () => {
    for (const kind of EVENT_KINDS) {
      const e = ev({ kind, ...EVERY_FIELD });
      for (const lang of ['en', 'zh'] as const) {
        const text = captionText([e], 0, lang);
        expect(text, kind).not.toMatch(/\{\w+\}|event of kind|类型的事件/);
        expect(text.length, kind).toBeGreaterThan(5);
      }
    }
  });

  it('links glossary terms to their entries, each once', () => {
    const parts = captionOf(
      [ev({ kind: 'watchdog.renew', actor: 'A:1', lock: 'myLock', timer: 'A/watchdog', result: 1 })],
      0,
      'en',
    );
    expect(parts?.filter((p) => p.term).map((p) => [p.term, p.text])).toEqual([
      ['watchdog', 'watchdog'],
      ['lease', 'lease'],
    ]);
  });

  it('says in plain words which messages a latency spike slows down', () => {
    const spike = (endpoints: string[] | null) => ev({ kind: 'net.latency', ms: 300, endpoints });
    expect(captionText([spike(['A'])], 0, 'en')).toBe(
      'Messages to and from A now take 300 ms longer (a latency spike).',
    );
    expect(captionText([spike(null)], 0, 'en')).toMatch(/^Every message now takes 300 ms longer/);
    expect(captionText([spike(['A'])], 0, 'zh')).toContain('300 毫秒');
    expect(captionText([ev({ kind: 'net.latency.end' })], 0, 'en')).toMatch(/usual time again/);
  });

  it('is null before the first event', () => {
    expect(captionOf([], -1, 'en')).toBeNull();
  });
});

describe('duration', () => {
  it.each([
    [30000, 'en', '30 s'],
    [29900, 'en', '29.9 s'],
    [29904, 'en', '29904 ms'],
    [500, 'zh', '500 毫秒'],
    [30000, 'zh', '30 秒'],
  ] as const)('%d ms in %s', (ms, lang, out) => {
    expect(duration(ms, lang)).toBe(out);
  });
});

describe('scriptName', () => {
  it.each([
    ['-- RedissonLock.unlockInnerAsync (Redisson 3.24+): release', 'RedissonLock.unlockInnerAsync'],
    ['-- LockTask (Redisson 3.44+ watchdog): renew', 'LockTask'],
    ["return redis.call('get', KEYS[1])", null],
    ['-- mode=read; each reader', null],
  ])('%s', (text, name) => {
    expect(scriptName(text)).toBe(name);
  });
  it('knows Redisson’s own scripts by their SHA1 (they carry no comment)', () => {
    expect(scriptName(UNLOCK.at('4.7.0').text)).toBe('RedissonLock.unlockInnerAsync');
    expect(scriptName(FAIR_LOCK.at('3.27.2').text)).toBe('RedissonFairLock.tryLockInnerAsync');
    expect(scriptName(`${UNLOCK.at('4.7.0').text} `)).toBeNull();
  });
});

describe('captions chosen by a cause or a reason', () => {
  it.each([
    [{ kind: 'waiter.wakeup', cause: 'message' }, 'is woken by the unlock message'],
    [{ kind: 'waiter.wakeup', cause: 'timeout' }, 'its wait timed out'],
    [{ kind: 'waiter.wakeup', cause: 'interrupt' }, 'is interrupted while waiting for myLock'],
    [{ kind: 'watchdog.cancel', reason: 'unlock' }, 'it was unlocked'],
    [{ kind: 'watchdog.cancel', reason: 'lost' }, 'the lock was lost'],
    [{ kind: 'watchdog.cancel', reason: 'error' }, 'after an error'],
  ])('%o', (fields, expected) => {
    const e = ev({ actor: 'A:1', lock: 'myLock', timer: 'watchdog', ...fields });
    expect(captionText([e], 0, 'en')).toContain(expected);
  });
});
