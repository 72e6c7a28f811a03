/**
 * Sharded pub/sub across a shard, a real 3+3 Redis 7.0 cluster against the simulated one:
 * SPUBLISH, sent directly or from inside a script, on the master of a channel's slot reaches a
 * subscriber on that master's replica over the cluster bus (pubsub.c:598-603 →
 * clusterPropagatePublish, cluster.c:3262-3281, PUBLISHSHARD to the nodes serving the slot), and
 * its reply counts only the master's own subscribers (0 here).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clusterCall, startRealCluster, type RealCluster } from '../../../testing/redis/real_cluster';
import { RespClient } from '../../../testing/redis/resp_client';
import { describeWithRealRedis } from '../../../testing/redis/run_corpus';
import { client } from '../../scenario/build';
import { runScenario } from '../../scenario/run';
import { validateScenario } from '../../scenario/schema';
import type { Connection } from '../server';
import type { Reply } from '../reply';

/** clear of the other cluster conformance files' ports */
const PORTS = [7451, 7452, 7453, 7454, 7455, 7456];
/** Redisson's lock channel for myLock: slot 12769, the third master's */
const CHANNEL = 'redisson_lock__channel:{myLock}';
const SCRIPT = "return redis.call('spublish', KEYS[1], ARGV[1])";

/** What each side showed: the publishers' replies and what the replica's subscriber received. */
interface Seen {
  subscribed: unknown;
  published: unknown[];
  received: unknown[];
}

const plain = (r: Reply): unknown =>
  r.t === 'array' ? (r.v ?? []).map(plain) : r.t === 'int' ? Number(r.v) : r.t === 'error' ? { error: r.v } : r.v;

const publishes = [
  ['SPUBLISH', CHANNEL, 'direct'],
  ['EVAL', SCRIPT, '1', CHANNEL, 'script'],
];

function simulated(): Seen {
  const v = validateScenario({
    format: 'lockscope/1',
    until: 500,
    redis: { topology: 'cluster', replicasPerMaster: 1 },
    clients: [client('A', [{ op: 'work', ms: 1 }])],
  });
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const seen: Seen = { subscribed: null, published: [], received: [] };
  let sub: Connection | null = null;
  let published = false;
  runScenario(v.scenario, {
    probe: ({ kernel }) => {
      const now = kernel.now();
      if (sub === null && now >= 100) {
        const replica = kernel.server('replica-3')!;
        sub = replica.connect((m) => seen.received.push(plain(m)));
        seen.subscribed = plain(replica.exec(sub, ['SSUBSCRIBE', CHANNEL]));
      } else if (sub !== null && !published && now >= 200) {
        published = true;
        const master = kernel.server('master-3')!;
        const conn = master.connect();
        for (const argv of publishes) seen.published.push(plain(master.exec(conn, argv.slice())));
      }
    },
  });
  return seen;
}

describeWithRealRedis('sharded pub/sub across a shard: a real 3+3 cluster vs the simulated one', (binaries) => {
  let cluster: RealCluster;
  beforeAll(async () => {
    cluster = await startRealCluster(binaries.server, binaries.cli, PORTS, { replicasPerMaster: 1 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('SPUBLISH on the master (direct and in EVAL) reaches the replica’s SSUBSCRIBE; the count is local: as simulated', async () => {
    // the master of slot 12769 is the third port (slot order); its replica is named in CLUSTER NODES
    const masterPort = PORTS[2];
    const masterId = cluster.ids[2];
    const nodes = await clusterCall(masterPort, ['CLUSTER', 'NODES']);
    const replicaLine = nodes
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
      .find((f) => f[3] === masterId)!;
    const replicaPort = Number(/:(\d+)@/.exec(replicaLine[1])![1]);

    const sub = await RespClient.connect(replicaPort);
    const pub = await RespClient.connect(masterPort);
    try {
      const real: Seen = { subscribed: plain(await sub.call(['SSUBSCRIBE', CHANNEL])), published: [], received: [] };
      const frames = sub.frames(2);
      for (const argv of publishes) real.published.push(plain(await pub.call(argv)));
      const timeout = new Promise<never>((_, reject) =>
        globalThis.setTimeout(() => reject(new Error('no smessage on the replica')), 3000),
      );
      real.received = (await Promise.race([frames, timeout])).map(plain);

      expect(real).toEqual({
        subscribed: ['ssubscribe', CHANNEL, 1],
        published: [0, 0],
        received: [
          ['smessage', CHANNEL, 'direct'],
          ['smessage', CHANNEL, 'script'],
        ],
      });
      expect(simulated()).toEqual(real);
    } finally {
      sub.close();
      pub.close();
    }
  });
});
