import { describe, expect, it } from 'vitest';
import { listAllBuiltins } from './engine-adapter-incidents';
// the worker loads Redis Cluster's and Sentinel's models before a run that has them (worker.ts)
import '../engine/topology/deployments';
import { createEngineHost } from './engine-host';
import type { Response, RunOutcome, RunPayload } from './worker-protocol';
import type { TraceEvent } from '../engine/trace/types';

// The console the lessons send the learner to (LA7: `HGETALL`, `PTTL`, `PUBSUB NUMSUB` in lessons
// 7–10) answers as the simulated Redis would at the cursor, subscribers included.
const host = createEngineHost();
let id = 1;
const call = (req: Record<string, unknown>) => host({ ...req, id: id++ } as never) as Response;
const builtins = listAllBuiltins();

function run(builtinId: string): RunPayload {
  const b = builtins.find((x) => x.id === builtinId)!;
  const res = call({ type: 'run', scenario: b.scenario, verbose: true });
  return (res as { result: RunOutcome }).result as RunOutcome & RunPayload;
}

function consoleAt(r: RunPayload, index: number, node: string, line: string): string {
  const res = call({ type: 'console', runId: r.runId, index, node, line });
  const ans = (res as { result: { kind: string; text: string } }).result;
  expect(ans.kind, line).toBe('read');
  return ans.text;
}

const indexOf = (r: RunPayload, match: (e: TraceEvent) => boolean) => r.trace.events.findIndex(match);

describe('the console at the cursor', () => {
  it('counts the waiters subscribed to a lock’s channel (lesson 10, step 3: three clients)', () => {
    const r = run('contention-wakeup');
    const firstWait = indexOf(r, (e) => e.kind === 'lock.wait');
    const unlock = indexOf(r, (e) => e.kind === 'unlock.request' && e.actor === 'A:1');
    const channel = 'redisson_lock__channel:{myLock}';
    expect(consoleAt(r, 0, 'master', `PUBSUB NUMSUB ${channel}`)).toBe(`1) "${channel}"\n2) (integer) 0`);
    expect(consoleAt(r, firstWait, 'master', `PUBSUB NUMSUB ${channel}`)).toMatch(/2\) \(integer\) [12]$/);
    // one connection per client with a waiting thread (A:2 waits on A's): lesson 9 step 3, lesson 10 step 3
    const bWakes = indexOf(r, (e) => e.kind === 'waiter.wakeup' && e.actor === 'B:1');
    const script =
      unlock + r.trace.events.slice(unlock).findIndex((e) => e.kind === 'cmd' && e.actor === 'A:1');
    for (const at of [unlock, script, bWakes])
      expect(consoleAt(r, at, 'master', `PUBSUB NUMSUB ${channel}`), `event ${at}`).toBe(
        `1) "${channel}"\n2) (integer) 3`,
      );
    expect(consoleAt(r, unlock, 'master', 'PUBSUB CHANNELS')).toBe(`1) "${channel}"`);
    // ...and the lock's real field, the `<uuid>:<thread>` the keyspace view shortens to `A:1`
    expect(consoleAt(r, unlock, 'master', 'HGETALL myLock')).toMatch(
      /^1\) "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:1"\n2\) "1"$/,
    );
  });

  it('tells sharded subscribers (SSUBSCRIBE, 4.7.0 on a cluster) from classic ones', () => {
    const r = run('cluster-which-node');
    const sub = indexOf(r, (e) => e.kind === 'pubsub.subscribe' && e.actor === 'B:1');
    const channel = 'redisson_lock__channel:{myLock}';
    expect(consoleAt(r, sub, 'master-3', `PUBSUB SHARDNUMSUB ${channel}`)).toBe(
      `1) "${channel}"\n2) (integer) 1`,
    );
    expect(consoleAt(r, sub, 'master-3', `PUBSUB NUMSUB ${channel}`)).toBe(`1) "${channel}"\n2) (integer) 0`);
    expect(consoleAt(r, sub, 'master-1', `PUBSUB SHARDNUMSUB ${channel}`)).toBe(
      `1) "${channel}"\n2) (integer) 0`,
    );
  });
});
