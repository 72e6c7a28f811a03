/**
 * A real Redis Cluster on loopback for the cluster conformance tests: one
 * `redis-server --cluster-enabled yes` per port (no persistence, nodes.conf in a temp dir), joined
 * by `redis-cli --cluster create` as a user would, then awaited until every node says
 * cluster_state:ok. The ports are fixed so MOVED texts are predictable; the standalone tests use
 * random ports from 20000 up, the cluster buses sit at port + 10000.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startRealRedisOn, type RealRedis } from './real_redis';
import { RespClient } from './resp_client';

export const CLUSTER_PORTS = [7411, 7412, 7413] as const;

export interface RealClusterOptions {
  /** `--cluster-replicas`: the first ports/(1+r) ports become the masters */
  replicasPerMaster?: number;
  /** `--cluster-node-timeout` (Redis's default 15000 when left out) */
  nodeTimeoutMs?: number;
}

export interface RealCluster {
  readonly ports: readonly number[];
  /** node ids in port order (so in slot order: the first port serves 0-5460) */
  readonly ids: readonly string[];
  /** SIGKILL the node on `port` (a crash: nodes.conf stays, as the kernel leaves it) */
  kill(port: number): Promise<void>;
  /** starts the killed node again with its nodes.conf */
  restart(port: number): Promise<void>;
  /** SIGSTOP / SIGCONT the node on `port` (a frozen process: its peers stop hearing it) */
  signal(port: number, signal: 'SIGSTOP' | 'SIGCONT'): void;
  stop(): Promise<void>;
}

const OK_TIMEOUT_MS = 15_000;

/** One command on a fresh connection; the reply as text (an error reply's message included). */
export async function clusterCall(port: number, argv: string[]): Promise<string> {
  const client = await RespClient.connect(port);
  try {
    const r = await client.call(argv);
    return String(r.v);
  } finally {
    client.close();
  }
}

/**
 * Every node knows every other and says cluster_state:ok, every replica's link to its master is
 * up (a replica that never synced may not stand for election: its data is too old), and no node
 * still sees a replica as a master without slots (gossip has told everyone who follows whom).
 */
async function untilAllOk(ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + OK_TIMEOUT_MS;
  const ask = (p: number) =>
    Promise.all(
      ['CLUSTER INFO', 'INFO replication', 'CLUSTER NODES'].map((c) => clusterCall(p, c.split(' '))),
    );
  const settled = (nodes: string) =>
    nodes
      .trim()
      .split('\n')
      .every((l) => l.includes('slave') || l.trim().split(' ').length > 8);
  const ready = ([cluster, repl, nodes]: string[]) =>
    cluster.includes('cluster_state:ok') &&
    cluster.includes(`cluster_known_nodes:${ports.length}\r\n`) &&
    (repl.includes('role:master') || repl.includes('master_link_status:up')) &&
    settled(nodes);
  for (;;) {
    const answers = await Promise.all(ports.map(ask));
    if (answers.every(ready)) return;
    const infos = answers.map((a) => a.join(''));
    if (Date.now() > deadline) throw new Error(`cluster never reached state ok:\n${infos.join('\n')}`);
    await new Promise((r) => globalThis.setTimeout(r, 100));
  }
}

export async function startRealCluster(
  server: string,
  cli: string,
  ports: readonly number[] = CLUSTER_PORTS,
  options: RealClusterOptions = {},
): Promise<RealCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'lockscope-cluster-'));
  const nodes = new Map<number, RealRedis>();
  const argsOf = (port: number) => [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `nodes-${port}.conf`,
    // 7.0 waits 5 s for more replicas before a diskless full sync: a failover test cannot wait
    '--repl-diskless-sync-delay',
    '0',
    ...(options.nodeTimeoutMs !== undefined ? ['--cluster-node-timeout', String(options.nodeTimeoutMs)] : []),
  ];
  const start = async (port: number) => {
    nodes.set(port, await startRealRedisOn(server, port, argsOf(port), dir));
  };
  const stop = async () => {
    await Promise.all([...nodes.values()].map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await start(port);
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    const replicas = options.replicasPerMaster ?? 0;
    const replicaArgs = replicas > 0 ? ['--cluster-replicas', String(replicas)] : [];
    await promisify(execFile)(cli, ['--cluster', 'create', ...addresses, ...replicaArgs, '--cluster-yes']);
    await untilAllOk(ports);
    const ids = await Promise.all(ports.map((p) => clusterCall(p, ['CLUSTER', 'MYID'])));
    return {
      ports,
      ids,
      kill: async (port) => {
        const node = nodes.get(port)!;
        process.kill(node.pid, 'SIGKILL');
        await node.stop();
      },
      restart: (port) => start(port),
      signal: (port, signal) => process.kill(nodes.get(port)!.pid, signal),
      stop: async () => {
        // a frozen node would never answer its SIGTERM
        for (const n of nodes.values())
          try {
            process.kill(n.pid, 'SIGCONT');
          } catch {
            // already gone (killed)
          }
        await stop();
      },
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
