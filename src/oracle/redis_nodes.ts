/**
 * Real redis-server processes for one scenario's topology, on free ports of loopback (or, for a
 * scenario with a partition, each in its own network namespace: netns.ts): a master (and
 * its replicas, replicating through a lag proxy when the scenario gives them a lag), independent
 * masters, Sentinels, or a Redis Cluster made with `redis-cli --cluster create`. Node ids are the
 * simulator's (`master`, `replica-1`, `master-2`, `sentinel-1`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Scenario } from '../engine/scenario/schema';
import { RespClient } from '../testing/redis/resp_client';
import type { Reply } from '../engine/redis/reply';
import { delay, freePort, start, stop, type Proc } from './procs';
import { startLagProxy, type LagProxy } from './lag_proxy';
import type { NetNs } from './netns';

const run = promisify(execFile);

export interface RedisNode {
  readonly id: string;
  /** the address it listens on: 127.0.0.1, or its namespace's address */
  readonly host: string;
  readonly port: number;
  readonly kind: 'data' | 'sentinel';
  proc: Proc | null;
  readonly args: string[];
  /** the namespace it runs in (netns.ts), null on loopback */
  readonly net: NetNs | null;
  readonly dir: string;
  /** proxies that carry this node's replication stream to its replicas */
  readonly proxies: LagProxy[];
}

export interface Deployment {
  readonly nodes: RedisNode[];
  readonly masterName: string;
  node(id: string): RedisNode;
  /** data nodes that are masters at start */
  readonly masters: RedisNode[];
  readonly redisVersion: string;
}

export const MASTER_NAME = 'mymaster';

/** A server's address; a bare port is on loopback. */
export type Addr = number | { readonly host: string; readonly port: number };

export async function call(addr: Addr, argv: readonly string[]): Promise<Reply> {
  const c = typeof addr === 'number' ? await RespClient.connect(addr) : await RespClient.connect(addr.port, addr.host);
  try {
    return await c.call(argv);
  } finally {
    c.close();
  }
}

export function text(r: Reply): string {
  return r.t === 'bulk' || r.t === 'status' ? (r.v ?? '') : r.t === 'error' ? r.v : '';
}

async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await delay(50);
  }
}

export async function startNode(node: RedisNode): Promise<void> {
  const run = node.net ? node.net.wrap(node.id, 'redis-server', node.args) : { cmd: 'redis-server', args: node.args };
  node.proc = start(node.id, run.cmd, run.args, { cwd: node.dir });
  node.proc.child.stdout?.resume();
  node.proc.child.stderr?.resume();
  await waitFor(`${node.id} on port ${node.port}`, 10_000, async () => text(await call(node, ['PING'])) === 'PONG');
}

export async function crashNode(node: RedisNode): Promise<void> {
  for (const p of node.proxies) p.dropAll();
  if (node.proc) await stop(node.proc);
}

export async function startDeployment(s: Scenario, root: string, net: NetNs | null = null): Promise<Deployment> {
  const r = s.redis;
  const used = new Set<number>();
  const port = async () => {
    const p = await freePort(used);
    used.add(p);
    return p;
  };
  const nodes: RedisNode[] = [];
  const persistence =
    r.persistence === 'aof-always' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const make = async (id: string, extra: string[], kind: 'data' | 'sentinel' = 'data'): Promise<RedisNode> => {
    const p = await port();
    const dir = join(root, id);
    mkdirSync(dir, { recursive: true });
    const host = net ? net.ip(id) : '127.0.0.1';
    // off loopback Redis 7 refuses clients without a password unless protected mode is off
    const reach = net ? ['--protected-mode', 'no'] : [];
    const base =
      kind === 'sentinel'
        ? []
        : ['--port', String(p), '--bind', host, ...reach, '--save', '', ...persistence, '--repl-diskless-sync-delay', '0'];
    const args = [...base, ...extra];
    const n: RedisNode = { id, host, port: p, kind, proc: null, args, net, dir, proxies: [] };
    if (r.minReplicasToWrite > 0 && kind === 'data')
      n.args.push('--min-replicas-to-write', String(r.minReplicasToWrite), '--min-replicas-max-lag', '10');
    // a `stall` is DEBUG SLEEP, which Redis 7 refuses unless enabled (local: loopback only)
    if (kind === 'data' && s.faults.some((f) => f.kind === 'stall')) n.args.push('--enable-debug-command', 'local');
    nodes.push(n);
    return n;
  };
  const withReplicas = async (master: RedisNode, replicas: readonly { lagMs: number; priority?: number }[], firstIndex: number) => {
    for (let i = 0; i < replicas.length; i++) {
      const spec = replicas[i];
      const id = `replica-${firstIndex + i}`;
      let upstream: { host: string; port: number } = master;
      if (spec.lagMs > 0) {
        // the proxy stands for the replica in partitions: it listens and connects from an address of the replica's side
        const proxy = await startLagProxy(master, spec.lagMs, net ? net.alias(id) : '127.0.0.1');
        master.proxies.push(proxy);
        upstream = { host: proxy.host, port: proxy.port };
      }
      const extra = ['--replicaof', upstream.host, String(upstream.port)];
      // the master sees the proxy's address: Sentinel and the clients must learn the replica's own
      if (net) extra.push('--replica-announce-ip', net.ip(id));
      if (spec.priority !== undefined) extra.push('--replica-priority', String(spec.priority));
      await make(id, extra);
    }
  };

  let masters: RedisNode[] = [];
  if (r.topology === 'single' || r.topology === 'sentinel') {
    const m = await make('master', []);
    masters = [m];
    await startNode(m);
    await withReplicas(m, r.replicas, 1);
  } else if (r.topology === 'independent') {
    for (let i = 1; i <= r.masters; i++) masters.push(await make(`master-${i}`, []));
  } else {
    const extra = ['--cluster-enabled', 'yes', '--cluster-node-timeout', String(r.clusterNodeTimeoutMs)];
    for (let i = 1; i <= r.masters; i++) masters.push(await make(`master-${i}`, extra));
    for (let k = 1; k <= r.masters * (r.replicasPerMaster ?? 0); k++) await make(`replica-${k}`, extra);
  }
  for (const n of nodes) if (n.proc === null) await startNode(n);

  if (r.topology === 'sentinel') {
    const m = masters[0];
    for (let i = 1; i <= r.sentinel.count; i++) {
      const n = await make(`sentinel-${i}`, [], 'sentinel');
      const conf = join(n.dir, 'sentinel.conf');
      writeFileSync(
        conf,
        [
          `port ${n.port}`,
          `bind ${n.host}`,
          ...(net ? ['protected-mode no'] : []),
          `dir ${n.dir}`,
          `sentinel monitor ${MASTER_NAME} ${m.host} ${m.port} ${r.sentinel.quorum}`,
          `sentinel down-after-milliseconds ${MASTER_NAME} ${r.sentinel.downAfterMs}`,
          // long enough that Sentinel never "fixes" a replica that replicates through a lag proxy
          `sentinel failover-timeout ${MASTER_NAME} 180000`,
          '',
        ].join('\n'),
      );
      n.args.push(conf, '--sentinel');
      await startNode(n);
    }
  }
  if (r.topology === 'cluster') await createCluster(nodes, masters, r.replicasPerMaster ?? 0);
  await waitForSync(nodes);
  const info = text(await call(masters[0], ['INFO', 'server']));
  const redisVersion = /redis_version:([\d.]+)/.exec(info)?.[1] ?? 'unknown';
  return {
    nodes,
    masters,
    masterName: MASTER_NAME,
    redisVersion,
    node(id) {
      const n = nodes.find((x) => x.id === id);
      if (!n) throw new Error(`no node ${id}`);
      return n;
    },
  };
}

async function createCluster(nodes: RedisNode[], masters: RedisNode[], perMaster: number): Promise<void> {
  const data = nodes.filter((n) => n.kind === 'data');
  // masters first: redis-cli gives the first M addresses the slots, in the simulator's split
  await run('redis-cli', [
    '--cluster',
    'create',
    ...data.map((n) => `127.0.0.1:${n.port}`),
    '--cluster-replicas',
    String(perMaster),
    '--cluster-yes',
  ]);
  await waitFor('cluster_state:ok on every node', 20_000, async () => {
    for (const n of data) if (!text(await call(n.port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok')) return false;
    return true;
  });
  // Name replicas as the simulator does: replica-k replicates master ((k-1) mod M)+1.
  const replicas = data.filter((n) => !masters.includes(n));
  const ofMaster = new Map<number, RedisNode[]>();
  for (const rn of replicas) {
    const info = text(await call(rn.port, ['INFO', 'replication']));
    const mp = Number(/master_port:(\d+)/.exec(info)?.[1]);
    ofMaster.set(mp, [...(ofMaster.get(mp) ?? []), rn]);
  }
  const assigned: { id: string; node: RedisNode }[] = [];
  let k = 1;
  for (let round = 0; round < perMaster; round++)
    for (const m of masters) {
      const rn = ofMaster.get(m.port)?.[round];
      if (rn) assigned.push({ id: `replica-${k}`, node: rn });
      k++;
    }
  for (const a of assigned) (a.node as { id: string }).id = a.id;
}

async function waitForSync(nodes: RedisNode[]): Promise<void> {
  for (const n of nodes) {
    if (n.kind !== 'data') continue;
    await waitFor(`${n.id} to finish its first sync`, 20_000, async () => {
      const info = text(await call(n, ['INFO', 'replication']));
      return info.includes('role:master') || info.includes('master_link_status:up');
    });
  }
}

export async function stopDeployment(d: Deployment | null): Promise<void> {
  if (!d) return;
  for (const n of d.nodes) for (const p of n.proxies) await p.close();
  await Promise.all(d.nodes.map((n) => (n.proc ? stop(n.proc) : Promise.resolve())));
}
