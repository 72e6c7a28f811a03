/**
 * The unlock of a read/write lock whose key is gone (its lease ran out): from 3.24.0 the
 * `mode == false` branch also writes the unlock latch (RedissonWriteLock.unlockInnerAsync 3.24.0
 * and 3.43.0 :87-91, 4.7.0 :85-89; RedissonReadLock 3.43.0 :94-98, 3.44.0 :93-97), so a re-sent
 * unlock reads the latch and gets the same answer back.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../scenario/run';
import { validateScenario } from '../scenario/schema';

function scriptCalls(version: string, type: 'WriteLock' | 'ReadLock'): string[][] {
  const v = validateScenario({
    format: 'lockscope/1',
    redisson: { version },
    clients: [
      {
        id: 'A',
        threads: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'rw', type, leaseMs: 1000 },
              { op: 'work', ms: 2000 },
              { op: 'unlock', lock: 'rw', type },
            ],
          },
        ],
      },
    ],
  });
  if (!v.ok) throw new Error('invalid scenario');
  const { trace } = runScenario(v.scenario, { verbose: true });
  return trace.events
    .filter((e) => e.kind === 'script.call' && e.t >= 2000)
    .map((e) => (e.argv as string[]).slice(0, 2));
}

describe('RW unlock of a vanished lock: the unlock latch', () => {
  it.each([
    ['3.24.0', 'WriteLock'],
    ['3.43.0', 'WriteLock'],
    ['3.44.0', 'WriteLock'],
    ['3.43.0', 'ReadLock'],
    ['3.44.0', 'ReadLock'],
    ['4.7.0', 'ReadLock'],
  ] as const)('%s Redisson%s.unlockInnerAsync: publishes and sets the latch', (version, type) => {
    const calls = scriptCalls(version, type);
    expect(calls.map((c) => c[0].toLowerCase())).toEqual(['get', 'hget', 'publish', 'set']);
    expect(calls[3][1]).toMatch(/^redisson_unlock_latch:\{rw\}:/);
  });

  it('3.23.x RedissonWriteLock.unlockInnerAsync: no latch at all, only the publish', () => {
    expect(scriptCalls('3.23.5', 'WriteLock').map((c) => c[0].toLowerCase())).toEqual(['hget', 'publish']);
  });
});
