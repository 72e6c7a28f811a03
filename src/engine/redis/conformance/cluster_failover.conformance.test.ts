/**
 * Cluster failover, a real Redis 7.0 cluster against the simulated one (issue 11's failover
 * proof). Both run three masters with a replica each and cluster-node-timeout 1000 ms; the master
 * of 10923-16383 crashes (SIGKILL on the real side, a `crash` fault in the simulator) and later
 * comes back with its nodes.conf. Both sides are watched the same way: every POLL_MS each live
 * node is asked CLUSTER NODES, CLUSTER INFO and GET of a key of the dead shard, and one function
 * reads the failover's shape from those answers. Nodes are named by role and shard on both sides
 * (masters in slot order, replica-k follows master-k), so "the dead master's replica" is
 * replica-3 whatever ports `redis-cli --cluster create` paired.
 *
 * Compared exactly: who is promoted and with which slots, the epochs (currentEpoch before, the
 * new configEpoch, every node's currentEpoch after), the CLUSTERDOWN reply while the slots are
 * unserved, the order PFAIL → FAIL → CLUSTERDOWN → promoted → ok, and the old master rejoining as
 * the promoted node's replica. Timings are compared as ranges from cluster.c's rules (RANGES),
 * the simulator over several seeds since the election's random part comes from its seed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRealCluster, type RealCluster } from '../../../testing/redis/real_cluster';
import { RespClient } from '../../../testing/redis/resp_client';
import { describeWithRealRedis } from '../../../testing/redis/run_corpus';
import { client } from '../../scenario/build';
import { runScenario } from '../../scenario/run';
import { validateScenario } from '../../scenario/schema';
import type { Connection, RedisServer } from '../server';
import type { Reply } from '../reply';

const NODE_TIMEOUT_MS = 1000;
/** clear of 7411-7413 (cluster.conformance.test.ts); the buses take port + 10000 */
const PORTS = [7421, 7422, 7423, 7424, 7425, 7426];
const POLL_MS = 50;
/** slot 12769: served by master-3, the node that crashes */
const KEY = 'myLock';
const DEAD = 'master-3';
const DEAD_SLOTS = '10923-16383';
const PROBE = [
  ['CLUSTER', 'NODES'],
  ['CLUSTER', 'INFO'],
  ['GET', KEY],
];
/** the election's random part differs by seed; each run costs ~0.35 s on a loaded 2-core machine */
const SIM_SEEDS = [1, 2, 3, 4];
const SIM_CRASH_AT = 1000;
const SIM_RESTART_AT = 5000;

/**
 * Allowed ranges in ms, [min, max]. The rules (cluster.c, node timeout T = 1000): PFAIL once a
 * ping is unanswered for T, and pings go out at least every T/2, so T..1.5T after the crash;
 * FAIL when a second master's report arrives with its next ping (≤ T/2); the election waits
 * 500 + random(0..500) + rank × 1000 (rank 0: one replica) and then one vote round trip; state ok
 * at the first pong from the new master; the restarted node learns the newer configEpoch at its
 * first exchange. The slack on top (up to 400 ms) covers the polling period and a loaded machine;
 * the simulator's cron ticks every 100 ms, so its PFAIL can come up to 100 ms before T.
 */
const RANGES = {
  pfail: [NODE_TIMEOUT_MS - 100, 1.5 * NODE_TIMEOUT_MS + 400],
  failAfterPfail: [0, NODE_TIMEOUT_MS / 2 + 400],
  promotedAfterFail: [500 - POLL_MS, 1000 + 600],
  okAfterPromoted: [0, 500],
  rejoinAfterRestart: [0, 1500],
} as const;

interface NodeLine {
  role: 'master' | 'replica';
  master: string | null;
  flags: string[];
  epoch: number;
  slots: string;
}

/** What one node answered at one poll. */
interface View {
  nodes: Map<string, NodeLine>;
  state: string;
  currentEpoch: number;
  reply: string;
}

/** One poll of every live node, `t` ms after the start. */
interface Tick {
  t: number;
  views: Map<string, View>;
}

function text(r: Reply): string {
  if (r.t === 'error') return `(error) ${r.v}`;
  return String(r.v);
}

/** CLUSTER NODES lines, split: id, address, flags, master id, ping, pong, epoch, link, slots. */
function nodeLines(nodes: string): string[][] {
  return nodes
    .trim()
    .split('\n')
    .map((l) => l.trim().split(' '));
}

/** id → name by role and shard: masters in slot order, a replica named after its master's number. */
function namesOf(nodes: string): Map<string, string> {
  const lines = nodeLines(nodes);
  const masters = lines
    .filter((f) => f[3] === '-')
    .sort((a, b) => Number(a[8].split('-')[0]) - Number(b[8].split('-')[0]));
  const names = new Map<string, string>();
  masters.forEach((f, i) => names.set(f[0], `master-${i + 1}`));
  for (const f of lines) if (f[3] !== '-') names.set(f[0], names.get(f[3])!.replace('master', 'replica'));
  return names;
}

function viewOf(replies: readonly Reply[], names: Map<string, string>): View {
  const nodes = new Map<string, NodeLine>();
  for (const f of nodeLines(text(replies[0]))) {
    const flags = f[2].split(',').filter((x) => x !== 'myself');
    nodes.set(names.get(f[0])!, {
      role: flags.includes('master') ? 'master' : 'replica',
      master: f[3] === '-' ? null : names.get(f[3])!,
      flags: flags.filter((x) => x !== 'master' && x !== 'slave'),
      epoch: Number(f[6]),
      slots: f.slice(8).join(' '),
    });
  }
  const info = text(replies[1]);
  return {
    nodes,
    state: /cluster_state:(\w+)/.exec(info)![1],
    currentEpoch: Number(/cluster_current_epoch:(\d+)/.exec(info)![1]),
    reply: text(replies[2]),
  };
}

interface Shape {
  epochBefore: number;
  pfail: number;
  fail: number;
  /** CLUSTERDOWN answers for KEY: first and last tick, and the distinct replies */
  down: { from: number; until: number; replies: string[] };
  promoted: { node: string; at: number; epoch: number; slots: string };
  ok: number;
  /** after the rejoin: every node's currentEpoch, and what each says the old master is */
  epochsAfter: number[];
  oldMaster: string[];
  rejoin: number;
}

const views = (tick: Tick) => [...tick.views.values()];

function firstTick(ticks: readonly Tick[], what: string, pred: (t: Tick) => boolean): Tick {
  const found = ticks.find(pred);
  if (found === undefined) throw new Error(`never seen: ${what}\n${dump(ticks)}`);
  return found;
}

/** The failover read off the polls; `crashAt` and `restartAt` on the ticks' clock. */
function shapeOf(ticks: readonly Tick[], crashAt: number, restartAt: number): Shape {
  const before = ticks.filter((t) => t.t < crashAt);
  const during = ticks.filter((t) => t.t >= crashAt && t.t < restartAt);
  const after = ticks.filter((t) => t.t >= restartAt);
  const flagged = (flag: string) => (t: Tick) =>
    views(t).some((v) => v.nodes.get(DEAD)!.flags.includes(flag));
  // a poll may miss the PFAIL-only moment: FAIL implies it
  const pfail = firstTick(during, 'PFAIL', (t) => flagged('fail?')(t) || flagged('fail')(t)).t;
  const fail = firstTick(during, 'FAIL', flagged('fail')).t;
  const isDown = (reply: string) => reply.includes('CLUSTERDOWN');
  const downTicks = during.filter((t) => views(t).some((v) => isDown(v.reply)));
  const downReplies = new Set(downTicks.flatMap((t) => views(t).map((v) => v.reply)).filter(isDown));
  const heirOf = (v: View) =>
    [...v.nodes].find(([name, n]) => name !== DEAD && n.role === 'master' && n.slots === DEAD_SLOTS);
  const promotedTick = firstTick(during, 'a new master of the dead slots', (t) =>
    views(t).some((v) => heirOf(v) !== undefined),
  );
  const [heir, heirLine] = views(promotedTick)
    .map(heirOf)
    .find((h) => h !== undefined)!;
  const lastFail = Math.max(...during.filter((t) => views(t).some((v) => v.state !== 'ok')).map((t) => t.t));
  const ok = firstTick(during, 'cluster_state ok again', (t) => t.t > lastFail).t;
  const rejoined = firstTick(after, `${DEAD} a replica in every view`, (t) =>
    views(t).every((v) => v.nodes.get(DEAD)!.role === 'replica'),
  );
  const last = after[after.length - 1];
  return {
    epochBefore: Math.max(...views(before[before.length - 1]).map((v) => v.currentEpoch)),
    pfail: pfail - crashAt,
    fail: fail - crashAt,
    down: {
      from: downTicks.length > 0 ? downTicks[0].t - crashAt : NaN,
      until: downTicks.length > 0 ? downTicks[downTicks.length - 1].t - crashAt : NaN,
      replies: [...downReplies].sort(),
    },
    promoted: { node: heir, at: promotedTick.t - crashAt, epoch: heirLine.epoch, slots: heirLine.slots },
    ok: ok - crashAt,
    epochsAfter: views(last).map((v) => v.currentEpoch),
    oldMaster: [
      ...new Set(views(last).map((v) => `${v.nodes.get(DEAD)!.role} of ${v.nodes.get(DEAD)!.master}`)),
    ],
    rejoin: rejoined.t - restartAt,
  };
}

function dump(ticks: readonly Tick[]): string {
  return ticks
    .map(
      (t) =>
        `${t.t}: ` +
        [...t.views]
          .map(([name, v]) => {
            const d = v.nodes.get(DEAD)!;
            return `${name}[${v.state} e${v.currentEpoch} ${DEAD}=${d.role}${d.flags.join(',')}]`;
          })
          .join(' '),
    )
    .join('\n');
}

/** What must be the same on both sides (timings are checked against RANGES instead). */
function facts(s: Shape) {
  return {
    epochBefore: s.epochBefore,
    promoted: { node: s.promoted.node, epoch: s.promoted.epoch, slots: s.promoted.slots },
    downReplies: s.down.replies,
    epochsAfter: [...new Set(s.epochsAfter)],
    oldMaster: s.oldMaster,
  };
}

function within(value: number, [min, max]: readonly [number, number], what: string): void {
  expect(value, `${what}: ${value} ms, allowed ${min}..${max}`).toBeGreaterThanOrEqual(min);
  expect(value, `${what}: ${value} ms, allowed ${min}..${max}`).toBeLessThanOrEqual(max);
}

/** The rules both sides must follow; `side` names the run in messages. */
function expectFailoverRules(s: Shape, side: string): void {
  expect(s.promoted.node, side).toBe('replica-3');
  expect(s.promoted.slots, side).toBe(DEAD_SLOTS);
  // the election epoch is currentEpoch + 1, and every node adopts it
  expect(s.promoted.epoch, side).toBe(s.epochBefore + 1);
  expect(
    s.epochsAfter.every((e) => e === s.promoted.epoch),
    side,
  ).toBe(true);
  expect(s.down.replies, side).toEqual(['(error) CLUSTERDOWN The cluster is down']);
  expect(s.oldMaster, side).toEqual(['replica of replica-3']);
  // PFAIL, FAIL, CLUSTERDOWN while unserved, promoted, ok
  expect(s.pfail <= s.fail && s.fail <= s.down.from && s.down.until < s.ok, side).toBe(true);
  expect(s.promoted.at <= s.ok, side).toBe(true);
  within(s.pfail, RANGES.pfail, `${side} PFAIL after the crash`);
  within(s.fail - s.pfail, RANGES.failAfterPfail, `${side} FAIL after PFAIL`);
  within(s.promoted.at - s.fail, RANGES.promotedAfterFail, `${side} promotion after FAIL`);
  within(s.ok - s.promoted.at, RANGES.okAfterPromoted, `${side} state ok after the promotion`);
  within(s.rejoin, RANGES.rejoinAfterRestart, `${side} rejoin as replica after the restart`);
}

/** The simulator: the same layout, a crash of master-3 and its restart, polled every POLL_MS. */
function simulatedShape(seed: number): Shape {
  const v = validateScenario({
    format: 'lockscope/1',
    seed,
    until: SIM_RESTART_AT + 2000,
    redis: { topology: 'cluster', replicasPerMaster: 1, clusterNodeTimeoutMs: NODE_TIMEOUT_MS },
    clients: [client('A', [{ op: 'work', ms: 1 }])],
    faults: [
      { kind: 'crash', at: SIM_CRASH_AT, node: DEAD },
      { kind: 'restart', at: SIM_RESTART_AT, node: DEAD },
    ],
  });
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const ticks: Tick[] = [];
  const conns = new Map<RedisServer, Connection>();
  let names: Map<string, string> | null = null;
  let next = 0;
  runScenario(v.scenario, {
    probe: ({ kernel }) => {
      if (kernel.now() < next) return;
      next = kernel.now() + POLL_MS;
      const tick: Tick = { t: kernel.now(), views: new Map() };
      for (const id of kernel.nodeIds()) {
        const server = kernel.server(id);
        if (server === undefined || !kernel.isUp(id)) continue;
        if (!conns.has(server)) conns.set(server, server.connect());
        const replies = PROBE.map((argv) => server.exec(conns.get(server)!, argv.slice()));
        names ??= namesOf(text(replies[0]));
        tick.views.set(id, viewOf(replies, names));
      }
      ticks.push(tick);
    },
  });
  return shapeOf(ticks, SIM_CRASH_AT, SIM_RESTART_AT);
}

const sleep = (ms: number) => new Promise((r) => globalThis.setTimeout(r, ms));

describeWithRealRedis('cluster failover: a real 3+3 cluster vs the simulated one', (binaries) => {
  let cluster: RealCluster;
  const clients = new Map<number, RespClient>();
  beforeAll(async () => {
    cluster = await startRealCluster(binaries.server, binaries.cli, PORTS, {
      replicasPerMaster: 1,
      nodeTimeoutMs: NODE_TIMEOUT_MS,
    });
  });
  afterAll(async () => {
    for (const c of clients.values()) c.close();
    await cluster?.stop();
  });

  /** Polls every live node until `done` says so (or `limitMs` passes: an error with the polls). */
  async function poll(
    ticks: Tick[],
    start: number,
    nameOf: Map<number, string>,
    names: Map<string, string>,
    done: (ticks: readonly Tick[]) => boolean,
    limitMs: number,
  ): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!done(ticks)) {
      if (Date.now() > deadline) throw new Error(`cluster never settled:\n${dump(ticks)}`);
      const tick: Tick = { t: Date.now() - start, views: new Map() };
      const answers = await Promise.all(
        [...clients].map(async ([port, c]) => [port, await c.pipeline(PROBE)] as const),
      );
      for (const [port, replies] of answers) tick.views.set(nameOf.get(port)!, viewOf(replies, names));
      ticks.push(tick);
      await sleep(POLL_MS);
    }
  }

  it('replica-3 promoted with epoch currentEpoch+1, CLUSTERDOWN until then, master-3 back as its replica: as simulated', async () => {
    for (const p of PORTS) clients.set(p, await RespClient.connect(p));
    const names = namesOf(text(await clients.get(PORTS[0])!.call(['CLUSTER', 'NODES'])));
    const nameOf = new Map(PORTS.map((p, i) => [p, names.get(cluster.ids[i])!]));
    const deadPort = PORTS.find((p) => nameOf.get(p) === DEAD)!;

    const ticks: Tick[] = [];
    const start = Date.now();
    await poll(ticks, start, nameOf, names, (t) => t.length >= 2, 2000);
    const crashAt = Date.now() - start;
    clients.get(deadPort)!.close();
    clients.delete(deadPort);
    await cluster.kill(deadPort);
    // on until every survivor has said ok for 300 ms after a new master took the slots
    const settled = (ts: readonly Tick[]) => {
      const promoted = ts.findIndex(
        (t) => t.t > crashAt && views(t).some((v) => v.nodes.get('replica-3')!.role === 'master'),
      );
      if (promoted < 0) return false;
      const since = ts.slice(promoted);
      const okFrom = since.findIndex((t) => views(t).every((v) => v.state === 'ok'));
      return (
        okFrom >= 0 &&
        since[since.length - 1].t - since[okFrom].t >= 300 &&
        since.slice(okFrom).every((t) => views(t).every((v) => v.state === 'ok'))
      );
    };
    await poll(ticks, start, nameOf, names, settled, 8000);

    const restartAt = Date.now() - start;
    await cluster.restart(deadPort);
    clients.set(deadPort, await RespClient.connect(deadPort));
    const rejoined = (ts: readonly Tick[]) => {
      const last = ts[ts.length - 1];
      return (
        last.t >= restartAt &&
        views(last).every(
          (v) => v.nodes.get(DEAD)!.role === 'replica' && v.nodes.get(DEAD)!.master === 'replica-3',
        )
      );
    };
    await poll(ticks, start, nameOf, names, rejoined, 5000);

    const real = shapeOf(ticks, crashAt, restartAt);
    expectFailoverRules(real, 'real');
    for (const seed of SIM_SEEDS) {
      const sim = simulatedShape(seed);
      expectFailoverRules(sim, `simulated (seed ${seed})`);
      expect(facts(sim), `seed ${seed}`).toEqual(facts(real));
    }
  });
});
