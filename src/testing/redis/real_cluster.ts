/**
 * A real three-master Redis Cluster on loopback for the cluster conformance test: one
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

export interface RealCluster {
  readonly ports: readonly number[];
  /** node ids in port order (so in slot order: the first port serves 0-5460) */
  readonly ids: readonly string[];
  stop(): Promise<void>;
}

const OK_TIMEOUT_MS = 15_000;

async function clusterCall(port: number, argv: string[]): Promise<string> {
  const client = await RespClient.connect(port);
  try {
    const r = await client.call(argv);
    return String(r.v);
  } finally {
    client.close();
  }
}

async function untilAllOk(ports: readonly number[]): Promise<void> {
  const deadline = Date.now() + OK_TIMEOUT_MS;
  for (;;) {
    const infos = await Promise.all(ports.map((p) => clusterCall(p, ['CLUSTER', 'INFO'])));
    if (infos.every((i) => i.includes('cluster_state:ok'))) return;
    if (Date.now() > deadline) throw new Error(`cluster never reached state ok:\n${infos.join('\n')}`);
    await new Promise((r) => globalThis.setTimeout(r, 100));
  }
}

export async function startRealCluster(
  server: string,
  cli: string,
  ports: readonly number[] = CLUSTER_PORTS,
): Promise<RealCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'lockscope-cluster-'));
  const nodes: RealRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const args = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
      nodes.push(await startRealRedisOn(server, port, args, dir));
    }
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    await promisify(execFile)(cli, ['--cluster', 'create', ...addresses, '--cluster-yes']);
    await untilAllOk(ports);
    const ids = await Promise.all(ports.map((p) => clusterCall(p, ['CLUSTER', 'MYID'])));
    return { ports, ids, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
