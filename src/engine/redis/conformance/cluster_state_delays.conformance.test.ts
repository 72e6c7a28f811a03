/**
 * The two delays of clusterUpdateState (7.0.15 cluster.c:4437-4446 and 4492-4516), a real
 * three-master cluster against the simulated one (cluster-node-timeout 1000 ms, so the rejoin
 * delay, the node timeout clamped to 500..5000, is 1000 ms and unlike the writable delay):
 *
 * - a master restarted (SIGKILL, then started again with its nodes.conf, before any failover)
 *   answers CLUSTERDOWN to writes for CLUSTER_WRITABLE_DELAY, 2000 ms after its first call;
 * - a master cut off in a minority (here: the other two frozen with SIGSTOP for 2.5 s, which the
 *   simulator expresses as a partition) keeps answering CLUSTERDOWN for the rejoin delay after it
 *   last saw itself in the minority.
 *
 * Both sides are polled the same way: `SET myLock x` (slot 12769, master-3) every POLL_MS on
 * master-3, from the moment it is back (restarted, or its peers heard again) until it says OK.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRealCluster, type RealCluster } from '../../../testing/redis/real_cluster';
import { RespClient } from '../../../testing/redis/resp_client';
import { describeWithRealRedis } from '../../../testing/redis/run_corpus';
import { client } from '../../scenario/build';
import { runScenario } from '../../scenario/run';
import { validateScenario } from '../../scenario/schema';
import type { Connection } from '../server';

const NODE_TIMEOUT_MS = 1000;
/** clear of 7411-7413 and 7421-7426 (the other cluster conformance files) */
const PORTS = [7441, 7442, 7443];
const POLL_MS = 50;
const PROBE = ['SET', 'myLock', 'x'];
const DOWN = 'CLUSTERDOWN The cluster is down';
/** the simulator's fault times */
const SIM_CRASH_AT = 1000;
const SIM_BACK_AT = 1300;
const SIM_CUT_AT = 1000;
const SIM_HEAL_AT = 3500;

/** How long after `backAt` master-3 answered CLUSTERDOWN (the last such answer, in ms). */
interface Refusal {
  /** every distinct answer while refusing */
  replies: string[];
  /** ms from back to the first OK */
  okAfter: number;
}

function simulated(faults: Record<string, unknown>[], backAt: number): Refusal {
  const v = validateScenario({
    format: 'lockscope/1',
    until: backAt + 6000,
    redis: { topology: 'cluster', clusterNodeTimeoutMs: NODE_TIMEOUT_MS },
    clients: [client('A', [{ op: 'work', ms: 1 }])],
    faults,
  });
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const replies = new Set<string>();
  let okAfter = NaN;
  let next = backAt;
  let conn: Connection | null = null;
  runScenario(v.scenario, {
    probe: ({ kernel }) => {
      const now = kernel.now();
      if (now < next || !Number.isNaN(okAfter) || !kernel.isUp('master-3')) return;
      next = now + POLL_MS;
      const server = kernel.server('master-3')!;
      conn ??= server.connect();
      const r = server.exec(conn, PROBE.slice());
      if (r.t === 'error') replies.add(r.v);
      else okAfter = now - backAt;
    },
  });
  return { replies: [...replies], okAfter };
}

const sleep = (ms: number) => new Promise((r) => globalThis.setTimeout(r, ms));

describeWithRealRedis('clusterUpdateState delays: a real 3-master cluster vs the simulated one', (binaries) => {
  let cluster: RealCluster;
  beforeAll(async () => {
    cluster = await startRealCluster(binaries.server, binaries.cli, PORTS, { nodeTimeoutMs: NODE_TIMEOUT_MS });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Polls `SET` on `port` until OK (limit: an error); the time from `backAt` (Date.now()). */
  async function realRefusal(port: number, backAt: number): Promise<Refusal> {
    const c = await RespClient.connect(port);
    const replies = new Set<string>();
    try {
      for (;;) {
        const r = await c.call(PROBE);
        const now = Date.now();
        if (r.t !== 'error') return { replies: [...replies], okAfter: now - backAt };
        replies.add(String(r.v));
        if (now - backAt > 10_000) throw new Error(`still refusing: ${[...replies].join(', ')}`);
        await sleep(POLL_MS);
      }
    } finally {
      c.close();
    }
  }

  it('a restarted master refuses writes for CLUSTER_WRITABLE_DELAY (2000 ms): as simulated', async () => {
    const dead = PORTS[2];
    await cluster.kill(dead);
    await sleep(200);
    await cluster.restart(dead);
    const back = Date.now();
    const real = await realRefusal(dead, back);
    const sim = simulated(
      [
        { at: SIM_CRASH_AT, kind: 'crash', node: 'master-3' },
        { at: SIM_BACK_AT, kind: 'restart', node: 'master-3' },
      ],
      SIM_BACK_AT,
    );
    for (const [side, r] of [
      ['real', real],
      ['simulated', sim],
    ] as const) {
      expect(r.replies, side).toEqual([DOWN]);
      // 2000 ms from the first clusterUpdateState, plus a cron (100 ms) and the poll period
      expect(r.okAfter, side).toBeGreaterThanOrEqual(1800);
      expect(r.okAfter, side).toBeLessThanOrEqual(2600);
    }
    expect(Math.abs(real.okAfter - sim.okAfter)).toBeLessThanOrEqual(400);
    // let the cluster settle before the next case
    await sleep(1500);
  });

  it('a master back from a minority refuses writes for the rejoin delay (node timeout 1000 ms): as simulated', async () => {
    const [m1, m2, m3] = PORTS;
    cluster.signal(m1, 'SIGSTOP');
    cluster.signal(m2, 'SIGSTOP');
    // longer than the node timeout: master-3 flags both PFAIL and goes FAIL (a minority)
    await sleep(2500);
    cluster.signal(m1, 'SIGCONT');
    cluster.signal(m2, 'SIGCONT');
    const back = Date.now();
    const real = await realRefusal(m3, back);
    const sim = simulated(
      [{ at: SIM_CUT_AT, kind: 'partition', groups: [['master-3'], ['master-1', 'master-2', 'A']], healAt: SIM_HEAL_AT }],
      SIM_HEAL_AT,
    );
    for (const [side, r] of [
      ['real', real],
      ['simulated', sim],
    ] as const) {
      expect(r.replies, side).toEqual([DOWN]);
      // the minority ends at the first pong (≤ a cron), then rejoin_delay = 1000 ms, then a cron
      expect(r.okAfter, side).toBeGreaterThanOrEqual(900);
      expect(r.okAfter, side).toBeLessThanOrEqual(1700);
    }
    expect(Math.abs(real.okAfter - sim.okAfter)).toBeLessThanOrEqual(400);
  });
});
