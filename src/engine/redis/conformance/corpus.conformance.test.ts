/**
 * Differential test: every corpus file goes through the real redis-cli against a real
 * redis-server 7 and through the simulator, and the two outputs must be identical entry by entry
 * (up to each entry's own markers; see corpus.ts and known_differences.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliMode } from '../cli_format';
import type { CorpusFile } from './corpus';
import { loadCorpus } from './testing/load_corpus';
import { runRealCli } from './real_cli';
import { compareCorpusFile, describeWithRealRedis } from '../../../testing/redis/run_corpus';
import { runSimCli } from './sim_cli';
import { startRealRedis, type RealRedis } from '../../../testing/redis/real_redis';

const files = loadCorpus();

describeWithRealRedis('conformance corpus: simulator vs real redis-cli + redis-server', (binaries) => {
  let server: RealRedis;
  beforeAll(async () => {
    server = await startRealRedis(binaries.server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function compareFile(file: CorpusFile, mode: CliMode): Promise<void> {
    const clockStart = Date.now();
    return compareCorpusFile(file, mode, {
      real: (chunks) => runRealCli(binaries.cli, server.port, chunks, mode),
      sim: (entries) => runSimCli(entries, mode, clockStart),
    });
  }

  it('runs against Redis 7.x', () => {
    expect(server.version).toMatch(/^7\./);
  });

  for (const file of files) {
    it(`${file.name} (${file.entries.length} entries, tty)`, () => compareFile(file, 'tty'));
    if (file.rawPass) it(`${file.name} (raw)`, () => compareFile(file, 'raw'));
  }
});
