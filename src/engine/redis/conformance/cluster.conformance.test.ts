/**
 * The cluster corpus (corpus_cluster/*.redis) through real redis-cli against the first node of a
 * real three-master Redis Cluster and through the simulator's `redis-cli --cluster` (master-1 of
 * the static three-master layout), compared entry by entry. Before comparing, the real node ids
 * and ports become the simulated ones (MOVED addresses, NODES, SLOTS, SHARDS, MYID: slots are
 * never rewritten), and what Redis leaves to chance is taken out: the order of NODES lines and
 * SHARDS entries (hash-table order), NODES' ping/pong times, CLUSTER INFO's per-type bus-message
 * counters (the simulation has no gossip to count).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliMode } from '../cli_format';
import { staticClusterNodes, staticClusterView } from '../cluster_static';
import type { CorpusEntry, CorpusFile } from './corpus';
import { loadCorpus } from './testing/load_corpus';
import { runRealCli } from './real_cli';
import { startRealCluster, type RealCluster } from '../../../testing/redis/real_cluster';
import { compareCorpusFile, describeWithRealRedis } from '../../../testing/redis/run_corpus';
import { runSimCli } from './sim_cli';

const LAYOUT = { masters: 3 };
const SIM_NODES = staticClusterNodes(LAYOUT);

/** Real ids and ports (client and bus) become the simulated node's at the same position. */
export function mapNodes(output: string, real: RealCluster, withBarePorts: boolean): string {
  let out = output;
  real.ids.forEach((id, i) => (out = out.split(id).join(SIM_NODES[i].id)));
  const simPort = (p: string): number => SIM_NODES[real.ports.indexOf(Number(p))].port;
  const ports = real.ports.join('|');
  out = out.replace(
    new RegExp(`(127\\.0\\.0\\.1:)(${ports})\\b`, 'g'),
    (_m, h: string, p: string) => h + simPort(p),
  );
  out = out.replace(new RegExp(`@1(${ports})\\b`, 'g'), (_m, p: string) => `@${simPort(p) + 10000}`);
  if (withBarePorts)
    out = out.replace(new RegExp(`\\b(${ports})\\b`, 'g'), (_m, p: string) => String(simPort(p)));
  return out;
}

/** Top-level elements of a printed array, each without its "N) " index, sorted. */
function sortTopLevel(output: string, mode: CliMode): string {
  const lines = output.replace(/\n$/, '').split('\n');
  const blocks: string[][] = [];
  for (const line of lines) {
    const starts = mode === 'tty' ? /^\d+\) /.test(line) : line === 'slots';
    if (starts || blocks.length === 0) blocks.push([]);
    blocks[blocks.length - 1].push(mode === 'tty' ? line.replace(/^\d+\) /, '') : line);
  }
  return blocks
    .map((b) => b.join('\n'))
    .sort()
    .join('\n---\n');
}

export function normaliseClusterOutput(command: string, output: string, mode: CliMode): string {
  const sub = /^cluster\s+(\S+)\s*$/i.exec(command)?.[1].toLowerCase();
  if (sub === 'nodes')
    return output
      .split('\n')
      .map((l) => l.replace(/^((?:\S+ ){4})\d+ \d+ /, '$10 0 '))
      .sort()
      .join('\n');
  if (sub === 'shards') return sortTopLevel(output, mode);
  if (sub === 'info')
    return output
      .split('\n')
      .filter((l) => !l.startsWith('cluster_stats_messages_'))
      .join('\n');
  return output;
}

const files = loadCorpus('corpus_cluster');

describeWithRealRedis(
  'cluster conformance: simulated cluster node vs a real 3-master cluster',
  (binaries) => {
    let cluster: RealCluster;
    beforeAll(async () => {
      cluster = await startRealCluster(binaries.server, binaries.cli);
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    function compareFile(file: CorpusFile, mode: CliMode): Promise<void> {
      const clockStart = Date.now();
      const view = staticClusterView('master-1', LAYOUT);
      const command = (chunk: readonly CorpusEntry[]) => chunk[0].command;
      return compareCorpusFile(file, mode, {
        real: (chunks) => runRealCli(binaries.cli, cluster.ports[0], chunks, mode),
        sim: (entries) => runSimCli(entries, mode, clockStart, view),
        normalise: (chunk, output, side) => {
          const c = command(chunk);
          const mapped =
            side === 'real' ? mapNodes(output, cluster, /^cluster\s+(slots|shards)\s*$/i.test(c)) : output;
          return normaliseClusterOutput(c, mapped, mode);
        },
      });
    }

    it('a real cluster of three masters is up and its first node answers', async () => {
      expect(cluster.ids).toHaveLength(3);
      const out = await runRealCli(binaries.cli, cluster.ports[0], [[]], 'raw');
      expect(out).toEqual(['']);
    });

    for (const file of files) {
      it(`${file.name} (${file.entries.length} entries, tty)`, () => compareFile(file, 'tty'));
      if (file.rawPass) it(`${file.name} (raw)`, () => compareFile(file, 'raw'));
    }
  },
);
