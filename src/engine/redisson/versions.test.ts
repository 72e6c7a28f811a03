import { describe, expect, it } from 'vitest';
import { presetFor, versionTraits } from './versions';
import { simulate, type Simulation } from './testing/simulate';
import { client, hold, scenario } from '../scenario/build';

describe('version presets', () => {
  it.each([
    [undefined, 'latest'],
    ['latest', 'latest'],
    ['3.11', '3.11'],
    ['3.12.2', '3.11'],
    ['2.15', '3.11'],
    ['3.12.3', '3.27'],
    ['3.27', '3.27'],
    ['3.43.9', '3.27'],
    ['3.44', 'latest'],
    ['4.7', 'latest'],
  ] as const)('maps %s to the nearest preset, %s', (version, preset) => {
    expect(presetFor(version)).toBe(preset);
  });

  // The documented differences, and that each preset still matches the release it stands for.
  it.each([
    [
      '3.11',
      {
        preset: '3.11',
        hsetFirstAcquire: true,
        syncedEval: false,
        unlockLatch: false,
        renewal: 'per-lock-timer',
      },
    ],
    ['3.27', { preset: '3.27', hsetFirstAcquire: false, unlockLatch: true, renewal: 'per-lock-timer' }],
    ['latest', { preset: 'latest', hsetFirstAcquire: false, unlockLatch: true, renewal: 'batched-task' }],
    ['latest', { useScriptCache: true, equalJitterRetryDelay: true }],
    ['3.47', { equalJitterRetryDelay: false }],
    ['3.48', { equalJitterRetryDelay: true }],
  ] as const)('%s has %o', (version, traits) => {
    expect(versionTraits(version)).toMatchObject(traits);
  });
});

function run(version: string, threads: unknown[], faults: unknown[] = []): Simulation {
  return simulate({ format: 'lockscope/1', redisson: { version }, clients: [{ id: 'A', threads }], faults });
}

const evals = (s: Simulation, actor: string) =>
  s
    .of('cmd', actor)
    .filter((e) => /^EVAL/.test((e.argv as string[])[0]) && (e.argv as string[])[0] !== 'EVAL_RO');

describe('Redisson 3.11 vs latest on the wire', () => {
  const program = [
    { op: 'lock', lock: 'a' },
    { op: 'lock', lock: 'b' },
    { op: 'work', ms: 10_500 },
    { op: 'unlock', lock: 'b' },
    { op: 'unlock', lock: 'a' },
  ];

  it('3.11 sends plain EVAL with the HSET script, the two-key unlock and one renewal per lock', () => {
    const s = run('3.11', [{ id: 1, program }]);
    const thread = evals(s, 'A:1').map((e) => e.argv as string[]);
    expect(thread.every((a) => a[0] === 'EVAL')).toBe(true);
    expect(thread[0][1]).toContain("redis.call('hset', KEYS[1], ARGV[2], 1)");
    const unlock = thread.find((a) => a[1].includes("'hincrby', KEYS[1], ARGV[3], -1"))!;
    expect(unlock[2]).toBe('2'); // lock key and channel, no latch key
    const renewals = evals(s, 'A/watchdog').map((e) => e.argv as string[]);
    expect(renewals.map((a) => [a[2], a[3]])).toEqual([
      ['1', 'a'],
      ['1', 'b'],
    ]);
  });

  it('latest uses EVALSHA (loading on NOSCRIPT), the latch-key unlock and one batched renewal', () => {
    const s = run('latest', [{ id: 1, program }]);
    const thread = evals(s, 'A:1').map((e) => e.argv as string[]);
    expect(thread.every((a) => a[0] === 'EVALSHA')).toBe(true);
    expect(s.of('cmd', 'A:1').some((e) => (e.argv as string[]).join(' ').startsWith('SCRIPT LOAD'))).toBe(
      true,
    );
    const unlocks = thread.filter((a) => a[2] === '3');
    expect(unlocks.length).toBeGreaterThan(0);
    expect(unlocks[0][5]).toMatch(/^redisson_unlock_latch:\{[ab]\}:[0-9a-f]{32}$/);
    const renewals = evals(s, 'A/watchdog')
      .filter((e) => e.reply !== null && typeof e.reply === 'object' && !('error' in (e.reply as object)))
      .map((e) => e.argv as string[]);
    expect(renewals).toHaveLength(1);
    expect(renewals[0].slice(2, 5)).toEqual(['2', 'a', 'b']);
    expect(s.of('watchdog.renew').map((e) => [e.lock, e.result])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('leaseTime 0 expires at once before 3.17.1 and means "use the watchdog" after', () => {
    const program0 = [
      { op: 'lock', lock: 'z', leaseMs: 0 },
      { op: 'redis', argv: ['EXISTS', 'z'] },
    ];
    expect(run('3.11', [{ id: 1, program: program0 }]).results('A:1')).toEqual([0]);
    expect(run('latest', [{ id: 1, program: program0 }]).results('A:1')).toEqual([1]);
  });

  it('stops renewing after a renewal error in 3.11 but keeps going in latest', () => {
    // B's forceUnlock removes A's lock and B writes a string in its place: A's renewal script
    // then fails with WRONGTYPE on HEXISTS.
    const threads = [
      {
        id: 1,
        program: [
          { op: 'lock', lock: 'k' },
          { op: 'work', ms: 45_000 },
        ],
      },
      {
        id: 2,
        start: 1000,
        program: [
          { op: 'redis', argv: ['DEL', 'k'] },
          { op: 'redis', argv: ['SET', 'k', 'not-a-hash'] },
        ],
      },
    ];
    const old = run('3.11', threads);
    expect(old.of('watchdog.renew').map((e) => e.result)).toEqual(['error']);
    expect(old.of('watchdog.cancel').map((e) => e.reason)).toEqual(['error']);
    const latest = run('latest', threads);
    const results = latest.of('watchdog.renew').map((e) => e.result);
    expect(results).toEqual(['error', 'error', 'error', 'error']);
    expect(latest.of('watchdog.cancel')).toHaveLength(0);
  });

  it('3.11 keeps a stopped renewal entry after a failed unlock, so the next lock() is never renewed', () => {
    // A loses its lease in a GC pause; its unlock fails; it locks again and works 45 s.
    const pausedA = (version: string) =>
      simulate(
        scenario(
          [
            client('A', [
              { op: 'lock', lock: 'L' },
              { op: 'work', ms: 2000 },
              // the failed unlock's IllegalMonitorStateException is caught, so A goes on
              { op: 'try', body: [{ op: 'unlock', lock: 'L' }], catch: [] },
              ...hold('L', 45_000),
            ]),
            client('B', hold('L', 100), { start: 500 }),
            client('C', hold('L', 100), { start: 42_000 }),
          ],
          { redisson: { version }, faults: [{ at: 1000, kind: 'pause', client: 'A', ms: 40_000 }] },
        ),
      );
    const old = pausedA('3.11');
    const [, second] = old.of('lock.acquired', 'A:1');
    expect(old.of('watchdog.renew', 'A:1').map((e) => e.result)).toEqual([0]); // the one at resume
    const c = old.of('lock.acquired', 'C:1')[0];
    expect(c.t).toBeGreaterThanOrEqual(second.t + 30_000 - 2); // A's second lock simply expired
    expect(c.t).toBeLessThan(second.t + 30_010);
    expect(old.violations.map((v) => `${v.kind} ${v.holders.join('+')}`)).toContain('V1 A:1+C:1');

    const latest = pausedA('latest');
    // renewed all along (the timer chain of the first lock and the new one both run: see
    // LockRenewalScheduler on RenewalTask.stop())
    expect(latest.of('watchdog.renew', 'A:1').filter((e) => e.result === 1).length).toBeGreaterThanOrEqual(4);
    const lastUnlock = latest.of('lock.released', 'A:1').at(-1)!;
    expect(latest.of('lock.acquired', 'C:1')[0].t).toBeGreaterThan(lastUnlock.t);
    expect(latest.violations.map((v) => `${v.kind} ${v.holders.join('+')}`)).not.toContain('V1 A:1+C:1');
  });
});
