import { describe, expect, it } from 'vitest';
import { LIMITS } from './defaults';
import { expandedLength, formatPath, validateScenario } from './schema';

const minimal = (program: unknown[] = [{ op: 'lock', lock: 'myLock' }], extra: object = {}) => ({
  format: 'lockscope/1',
  clients: [{ id: 'A', threads: [{ id: 1, program }] }],
  ...extra,
});

function issues(json: unknown) {
  const r = validateScenario(json);
  if (r.ok) throw new Error('expected the scenario to be rejected');
  for (const i of r.issues) expect(formatPath(i.segments)).toBe(i.path);
  return r.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('validateScenario', () => {
  it.each([
    [{ op: 'lock', lock: '' }, 'expected a non-empty lock name'],
    [{ op: 'lock', lock: 7 }, 'expected lock name (a string)'],
    [
      { op: 'lock', lock: 'x'.repeat(LIMITS.nameLength + 1) },
      `lock name longer than ${LIMITS.nameLength} characters`,
    ],
    [
      { op: 'redis', argv: ['GET', 'x'.repeat(LIMITS.argLength + 1)] },
      `argument longer than ${LIMITS.argLength} characters`,
    ],
    [{ op: 'redis', argv: ['GET', 1] }, 'expected a string'],
  ])('names and arguments: %o is refused with "%s"', (op, message) => {
    expect(issues(minimal([op])).map((i) => i.slice(i.indexOf(': ') + 2))).toEqual([message]);
  });

  it('fills every default of a minimal scenario', () => {
    const r = validateScenario(minimal());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario).toEqual({
      format: 'lockscope/1',
      seed: 1,
      until: null,
      redis: {
        topology: 'single',
        masters: 1,
        replicas: [],
        sentinel: { count: 3, quorum: 2, downAfterMs: 5000, failoverMs: 1000 },
        persistence: 'none',
        minReplicasToWrite: 0,
        scriptBudget: 5_000_000,
      },
      network: { latencyMs: 1 },
      redisson: {
        version: 'latest',
        lockWatchdogTimeout: 30000,
        checkLockSyncedSlaves: true,
        slavesSyncTimeout: 1000,
        retryAttempts: 4,
        retryDelayMs: 1000,
        timeoutMs: 3000,
        subscriptionTimeoutMs: 7500,
        subscriptionConnectionPoolSize: 50,
        subscriptionsPerConnection: 5,
      },
      resource: { kind: 'counter', initial: 0 },
      clients: [
        { id: 'A', threads: [{ id: 1, start: 0, program: [{ op: 'lock', lock: 'myLock', type: 'RLock' }] }] },
      ],
      faults: [],
    });
  });

  it('takes version-dependent Redisson defaults and keeps explicit values', () => {
    const old = validateScenario(minimal(undefined, { redisson: { version: '3.11' } }));
    const set = validateScenario(minimal(undefined, { redisson: { version: '3.11', retryAttempts: 7 } }));
    expect(old.ok && old.scenario.redisson.retryAttempts).toBe(3);
    expect(old.ok && old.scenario.redisson.retryDelayMs).toBe(1500);
    expect(set.ok && set.scenario.redisson.retryAttempts).toBe(7);
    expect(issues(minimal(undefined, { redisson: { version: '3.x' } }))).toEqual([
      'redisson.version: expected "latest" or a Redisson version like "3.27" or "3.12.3"',
    ]);
  });

  it('takes edited lock, unlock and renew scripts as text, and names the path of a bad one', () => {
    const scripts = { lock: 'return nil', unlock: 'return 1', renew: 'return {1}' };
    const r = validateScenario(minimal(undefined, { redisson: { scripts } }));
    expect(r.ok && r.scenario.redisson.scripts).toEqual(scripts);
    expect(issues(minimal(undefined, { redisson: { scripts: { lokc: 'return nil' } } }))).toEqual([
      'redisson.scripts.lokc: unknown field "lokc"',
    ]);
    expect(issues(minimal(undefined, { redisson: { scripts: { unlock: 1 } } }))).toEqual([
      'redisson.scripts.unlock: expected the Lua source as a string',
    ]);
    expect(
      issues(minimal(undefined, { redisson: { scripts: { renew: 'x'.repeat(LIMITS.scriptLength + 1) } } })),
    ).toEqual([`redisson.scripts.renew: script longer than ${LIMITS.scriptLength} characters`]);
  });

  it('takes the pub/sub pool sizes and names the path of a bad one', () => {
    const r = validateScenario(
      minimal(undefined, { redisson: { subscriptionConnectionPoolSize: 2, subscriptionsPerConnection: 1 } }),
    );
    expect(
      r.ok && [
        r.scenario.redisson.subscriptionConnectionPoolSize,
        r.scenario.redisson.subscriptionsPerConnection,
      ],
    ).toEqual([2, 1]);
    expect(issues(minimal(undefined, { redisson: { subscriptionsPerConnection: 0 } }))).toEqual([
      'redisson.subscriptionsPerConnection: expected an integer >= 1',
    ]);
    expect(issues(minimal(undefined, { redisson: { subscriptionConnectionPoolSize: 1.5 } }))).toEqual([
      'redisson.subscriptionConnectionPoolSize: expected an integer',
    ]);
  });

  it('names the JSON path of an unknown op, a bad value and an unknown field', () => {
    const json = {
      format: 'lockscope/1',
      clients: [
        { id: 'A', threads: [{ id: 1, program: [] }] },
        {
          id: 'B',
          threads: [
            {
              id: 1,
              program: [
                { op: 'lock', lock: 'x' },
                { op: 'work', ms: -5 },
                { op: 'lokc' },
                { op: 'repeat', times: 2, body: [{ op: 'use', msx: 1 }] },
              ],
            },
          ],
        },
      ],
    };
    expect(issues(json)).toEqual([
      'clients[1].threads[0].program[1].ms: expected a whole number of ms >= 0',
      'clients[1].threads[0].program[2].op: unknown op "lokc" (expected one of lock, tryLock, lockInterruptibly, unlock, forceUnlock, work, sleep, use, redis, eval, repeat, try, isLocked, isHeldByThread, getHoldCount, remainTimeToLive, getToken, commit, continueOn)',
      'clients[1].threads[0].program[3].body[0].msx: unknown field "msx"',
    ]);
  });

  it('gives each issue its path as keys and indexes too', () => {
    const r = validateScenario(minimal([{ op: 'repeat', times: 2, body: [{ op: 'use', msx: 1 }] }]));
    expect(r.ok ? [] : r.issues.map((i) => i.segments)).toEqual([
      ['clients', 0, 'threads', 0, 'program', 0, 'body', 0, 'msx'],
    ]);
  });

  it('rejects non-objects and missing required fields without throwing', () => {
    expect(issues(null)).toEqual(['(root): expected Object but received null']);
    expect(issues({ format: 'lockscope/1' })).toEqual(['clients: missing required field']);
    expect(issues({ format: 'lockscope/2', clients: [] })).toEqual([
      'format: expected "lockscope/1"',
      'clients: expected at least one client',
    ]);
  });

  it('checks ids and references across the scenario', () => {
    const json = {
      format: 'lockscope/1',
      clients: [
        {
          id: 'A',
          threads: [
            { id: 1, program: [] },
            { id: 1, program: [] },
          ],
        },
        { id: 'A', threads: [{ id: 2, program: [] }] },
        { id: 'master', threads: [{ id: 1, program: [] }] },
      ],
      faults: [
        { at: 5, kind: 'crash', client: 'Z' },
        { at: 5, kind: 'crash', node: 'replica-1' },
        { at: 5, kind: 'interrupt', client: 'A', thread: 9 },
        { at: 5, kind: 'crash' },
        { at: 9, kind: 'partition', groups: [['master', 'A'], ['A']], healAt: 3 },
      ],
    };
    expect(issues(json)).toEqual([
      'clients[0].threads[1].id: duplicate thread id 1 in client "A"',
      'clients[1].id: duplicate client id "A"',
      'clients[2].id: "master" is reserved for nodes',
      'faults[0].client: unknown client "Z"',
      'faults[1].node: unknown node "replica-1" (this topology has master)',
      'faults[2].thread: client "A" has no thread 9',
      'faults[3]: expected exactly one of "node" or "client"',
      'faults[4].groups[1][0]: "A" is in more than one group',
      'faults[4].healAt: expected a time after "at" (9)',
    ]);
  });

  it('checks a latency spike: a positive delay, an end after its start, known endpoints', () => {
    const spike = (f: object) =>
      minimal([], { faults: [{ kind: 'latency', at: 100, ms: 300, endAt: 900, ...f }] });
    expect(validateScenario(spike({})).ok).toBe(true);
    expect(validateScenario(spike({ endpoints: ['A', 'master'] })).ok).toBe(true);
    expect(issues(spike({ ms: 0, endAt: 100, endpoints: ['A', 'Z', 'sentinels'] }))).toEqual([
      'faults[0].ms: expected a whole number of ms (the extra one-way delay) >= 1',
    ]);
    expect(issues(spike({ endAt: 100, endpoints: ['A', 'Z', 'sentinels'] }))).toEqual([
      'faults[0].endpoints[1]: unknown node or client "Z"',
      'faults[0].endpoints[2]: unknown node or client "sentinels"',
      'faults[0].endAt: expected a time after "at" (100)',
    ]);
    expect(issues(spike({ endpoints: [] }))).toEqual([
      'faults[0].endpoints: expected at least one id (leave "endpoints" out to slow every link)',
    ]);
    expect(issues(minimal([], { faults: [{ kind: 'slow', at: 1 }] }))[0]).toContain(
      'partition, clock, interrupt, latency, stall, starve, cancel)',
    );
  });

  it('accepts 1,000 threads in all (issue 23: the watchdog-cost scale) and refuses more', () => {
    const clients = (threads: number) =>
      Array.from({ length: Math.ceil(threads / 100) }, (_, c) => ({
        id: `C${c + 1}`,
        threads: Array.from({ length: Math.min(100, threads - c * 100) }, (_, t) => ({
          id: t + 1,
          program: [{ op: 'lock', lock: `l${c}:${t}` }],
        })),
      }));
    expect(LIMITS.threadsTotal).toBe(1000);
    expect(validateScenario({ format: 'lockscope/1', clients: clients(1000) }).ok).toBe(true);
    expect(issues({ format: 'lockscope/1', clients: clients(1001) })).toEqual([
      'clients: 1001 threads in all (at most 1000)',
    ]);
  });

  it('checks an explicit owner id and continueOn', () => {
    const prog = (ops: object[]) => minimal(ops as never);
    expect(
      validateScenario(
        prog([
          { op: 'lock', lock: 'l', owner: 77 },
          { op: 'continueOn', thread: 2 },
          { op: 'unlock', lock: 'l', owner: 77 },
        ]),
      ).ok,
    ).toBe(true);
    expect(issues(prog([{ op: 'lock', lock: 'l', owner: 0 }]))).toEqual([
      'clients[0].threads[0].program[0].owner: expected an owner id (a positive integer, the threadId of lockAsync) >= 1',
    ]);
    expect(issues(prog([{ op: 'continueOn', thread: 'x' }]))[0]).toMatch(
      /^clients\[0\]\.threads\[0\]\.program\[0\]\.thread: /,
    );
  });

  it('checks a node stall and a client starvation: a known node or client, at least 1 ms', () => {
    const one = (f: object) => minimal([], { faults: [f] });
    expect(validateScenario(one({ kind: 'stall', at: 10, node: 'master', ms: 5000 })).ok).toBe(true);
    expect(validateScenario(one({ kind: 'starve', at: 10, client: 'A', ms: 5000 })).ok).toBe(true);
    expect(issues(one({ kind: 'stall', at: 10, node: 'nope', ms: 5000 }))).toEqual([
      'faults[0].node: unknown node "nope" (this topology has master)',
    ]);
    expect(issues(one({ kind: 'starve', at: 10, client: 'A', ms: 0 }))).toEqual([
      'faults[0].ms: expected a whole number of ms (how long its event loop gets no CPU) >= 1',
    ]);
    expect(issues(one({ kind: 'starve', at: 10, client: 'Z', ms: 1 }))).toEqual([
      'faults[0].client: unknown client "Z"',
    ]);
    expect(issues(one({ kind: 'stall', at: 10, node: 'master' }))[0]).toMatch(/^faults\[0\]\.ms: /);
  });

  it('limits program length after expanding repeat, and type-specific fields', () => {
    const body = [{ op: 'work', ms: 1 }];
    const nested = [{ op: 'repeat', times: 200, body: [{ op: 'repeat', times: 100, body }] }];
    expect(expandedLength(nested as never)).toBe(20_000);
    expect(issues(minimal(nested))).toEqual([
      `clients[0].threads[0].program: 20000 steps after expanding repeat (at most ${LIMITS.stepsPerThread})`,
    ]);
    expect(
      issues(
        minimal([
          { op: 'lock', lock: 'x', type: 'RedLock' },
          { op: 'lock', lock: 'x', locks: ['a'] },
          { op: 'tryLock', lock: 'x', type: 'Spinlock' },
        ]),
      ),
    ).toEqual([
      'clients[0].threads[0].program[2].type: expected one of "RLock", "FairLock", "FencedLock", "SpinLock", "ReadLock", "WriteLock", "MultiLock", "RedLock", "setnx", "setnx-expire", "set-nx-px", "set-nx-px-get-del", "set-nx-px-lua", "set-nx-px-renew", "set-nx-px-watch"',
    ]);
    expect(
      issues(
        minimal([
          { op: 'lock', lock: 'x', type: 'RedLock' },
          { op: 'lock', lock: 'x', locks: ['a'] },
        ]),
      ),
    ).toEqual([
      'clients[0].threads[0].program[0].locks: required for type "RedLock" (one lock name per master)',
      'clients[0].threads[0].program[1].locks: only allowed with type "MultiLock" or "RedLock"',
    ]);
    expect(
      issues(
        minimal([{ op: 'lock', lock: 'x', type: 'RedLock', locks: ['a', 'b', 'c'] }], {
          redis: { topology: 'independent', masters: 2 },
        }),
      ),
    ).toEqual([
      'clients[0].threads[0].program[0].locks: 3 locks but 2 masters (one lock per master in "independent")',
    ]);
    expect(issues(minimal(undefined, { until: LIMITS.ms + 1 }))).toEqual([
      `until: expected a whole number of ms <= ${LIMITS.ms}`,
    ]);
  });

  it('validates try and the read-only ops, naming paths inside try blocks', () => {
    const ok = validateScenario(
      minimal([
        {
          op: 'try',
          body: [{ op: 'lock', lock: 'x' }],
          catch: [{ op: 'isLocked', lock: 'x' }],
          catchClass: 'org.redisson.client.RedisException',
          finally: [{ op: 'getHoldCount', lock: 'x' }],
        },
        { op: 'isHeldByThread', lock: 'x', thread: 2 },
        { op: 'remainTimeToLive', lock: 'x', type: 'FairLock' },
        { op: 'getToken', lock: 'f' },
      ]),
    );
    expect(ok.ok).toBe(true);
    if (ok.ok)
      expect(ok.scenario.clients[0].threads[0].program[3]).toEqual({
        op: 'getToken',
        lock: 'f',
        type: 'FencedLock',
      });
    expect(
      issues(
        minimal([
          {
            op: 'try',
            body: [{ op: 'work', ms: 1 }, { op: 'lokc' }],
            catch: [{ op: 'isLocked' }],
            catchClass: 'Not a class',
            finally: [{ op: 'lock', lock: 'x', type: 'RedLock' }],
          },
          { op: 'getToken', lock: 'f', type: 'RLock' },
          { op: 'isHeldByThread', lock: 'x', thread: 0 },
          { op: 'getHoldCount', lock: 'x', thread: 1 },
          { op: 'try', body: {} },
        ]),
      ),
    ).toEqual([
      expect.stringMatching(/^clients\[0\]\.threads\[0\]\.program\[0\]\.body\[1\]\.op: unknown op "lokc"/),
      'clients[0].threads[0].program[0].catch[0].lock: missing required field',
      'clients[0].threads[0].program[0].catchClass: expected a Java class name such as "RedisException" or "java.lang.IllegalStateException"',
      'clients[0].threads[0].program[1].type: expected "FencedLock" (only a FencedLock has a token)',
      'clients[0].threads[0].program[2].thread: expected a thread id (integer) >= 1',
      'clients[0].threads[0].program[3].thread: unknown field "thread"',
      'clients[0].threads[0].program[4].body: expected an array of ops',
    ]);
    expect(
      issues(minimal([{ op: 'try', body: [], finally: [{ op: 'lock', lock: 'x', type: 'RedLock' }] }])),
    ).toEqual([
      'clients[0].threads[0].program[0].finally[0].locks: required for type "RedLock" (one lock name per master)',
    ]);
  });

  it('counts every block of a try in the expanded length', () => {
    const work = { op: 'work', ms: 1 };
    const t = {
      op: 'try',
      body: [work, work],
      catch: [work],
      finally: [{ op: 'repeat', times: 3, body: [work] }],
    };
    expect(expandedLength([t, work] as never)).toBe(7);
    const big = [{ op: 'repeat', times: 5000, body: [{ op: 'try', body: [work], finally: [work] }] }, work];
    expect(issues(minimal(big))).toEqual([
      `clients[0].threads[0].program: 10001 steps after expanding repeat (at most ${LIMITS.stepsPerThread})`,
    ]);
  });

  it('refuses hostile shapes (deep nesting, huge documents) with an issue instead of a stack overflow', () => {
    let body: unknown[] = [{ op: 'work', ms: 1 }];
    for (let i = 0; i < 20_000; i++) body = [{ op: 'repeat', times: 1, body }];
    const deep = issues(minimal(body));
    expect(deep).toHaveLength(1);
    expect(deep[0]).toMatch(
      /^clients\[0\]\.threads\[0\]\.program\[0\](\.body\[0\])+: nested more than 64 levels deep$/,
    );
    const huge = minimal(Array.from({ length: 300_000 }, () => ({ op: 'work', ms: 1 })));
    expect(issues(huge)).toEqual([`(root): more than ${LIMITS.values} JSON values`]);
  });

  it('accepts topologies the runner does not run yet, with their node ids', () => {
    const r = validateScenario(
      minimal(undefined, {
        redis: { topology: 'sentinel', replicas: [{ lagMs: 40 }, {}] },
        faults: [
          {
            at: 1,
            kind: 'partition',
            groups: [
              ['master', 'A'],
              ['replica-1', 'sentinels'],
            ],
          },
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.scenario.redis.replicas).toEqual([{ lagMs: 40 }, { lagMs: 1 }]);
  });
});

describe('a lease of -1 (LA17)', () => {
  const withLease = (leaseMs: number) => ({
    format: 'lockscope/1',
    clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lock', lock: 'myLock', leaseMs }] }] }],
  });
  it('is Redisson’s “no lease”: read as the watchdog, as if leaseMs were left out (tryLock(wait, -1, unit))', () => {
    const r = validateScenario(withLease(-1));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.scenario.clients[0].threads[0].program[0]).not.toHaveProperty('leaseMs', -1);
    if (r.ok)
      expect((r.scenario.clients[0].threads[0].program[0] as { leaseMs?: number }).leaseMs).toBeUndefined();
  });
  it('other negative leases are still refused', () => {
    expect(validateScenario(withLease(-2)).ok).toBe(false);
  });
});
