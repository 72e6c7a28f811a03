/**
 * Differential test: every corpus file goes through the real redis-cli against a real
 * redis-server 7 and through the simulator, and the two outputs must be identical entry by entry
 * (up to each entry's own markers; see corpus.ts and known_differences.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputsMatch } from './compare';
import type { CorpusEntry, CorpusFile } from './corpus';
import { KNOWN_DIFFERENCES } from './known_differences';
import { loadCorpus } from './load_corpus';
import { runRealCli, type CliMode } from './real_cli';
import { runSimCli } from './sim_cli';
import { findRedisBinaries, missingBinaries, startRealRedis, type RealRedis } from '../testing/real_redis';

const binaries = findRedisBinaries();
const missing = missingBinaries(binaries, ['server', 'cli']);
const files = loadCorpus();

interface Mismatch {
  entry: CorpusEntry;
  real: string;
  sim: string;
}

function report(file: string, mode: CliMode, mismatches: Mismatch[]): string {
  const parts = mismatches.map(
    (m) =>
      `--- ${m.entry.id} (${mode})\n> ${m.entry.command.slice(0, 300)}\n` +
      `real redis-cli:\n${indent(m.real)}simulator:\n${indent(m.sim)}`,
  );
  return `${mismatches.length} entr${mismatches.length === 1 ? 'y differs' : 'ies differ'} in ${file}:\n${parts.join('\n')}`;
}

function indent(text: string): string {
  return text === '' ? '    <nothing>\n' : text.replace(/^/gm, '    ').replace(/ {4}$/, '');
}

async function compareFile(server: RealRedis, file: CorpusFile, mode: CliMode): Promise<void> {
  const clockStart = Date.now();
  const real = await runRealCli(binaries.cli!, server.port, file.entries, mode);
  const sim = runSimCli(file.entries, mode, clockStart);
  const mismatches: Mismatch[] = [];
  const staleKnown: string[] = [];
  file.entries.forEach((entry, i) => {
    const same = outputsMatch(real[i], sim[i], entry.markers);
    if (entry.markers.known && KNOWN_DIFFERENCES[entry.markers.known]) {
      // an allow-listed entry that matches again must leave the list
      if (same) staleKnown.push(`${entry.id} (known: ${entry.markers.known})`);
    } else if (!same) mismatches.push({ entry, real: real[i], sim: sim[i] });
  });
  if (mismatches.length > 0) throw new Error(report(file.name, mode, mismatches));
  expect(staleKnown, 'these entries match real Redis now: drop their `known:` marker').toEqual([]);
}

if (missing.length > 0) {
  const message =
    `Conformance suite needs ${missing.join(' and ')} (Redis 7.0) on PATH to compare the simulator ` +
    `with a real server; run \`npm run setup\` or install the redis-server package.`;
  if (process.env.CI === 'true') {
    describe('conformance corpus', () => {
      it('has a real redis-server and redis-cli to compare against', () => {
        throw new Error(message);
      });
    });
  } else {
    console.warn(`\n*** SKIPPED: ${message}\n`);
    describe.skip('conformance corpus (skipped: ' + missing.join(', ') + ' missing)', () => {
      it('compares the simulator with real Redis', () => {});
    });
  }
} else {
  describe('conformance corpus: simulator vs real redis-cli + redis-server', () => {
    let server: RealRedis;
    beforeAll(async () => {
      server = await startRealRedis(binaries.server!);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('runs against Redis 7.x', () => {
      expect(server.version).toMatch(/^7\./);
    });

    for (const file of files) {
      it(`${file.name} (${file.entries.length} entries, tty)`, () => compareFile(server, file, 'tty'));
      if (file.rawPass) it(`${file.name} (raw)`, () => compareFile(server, file, 'raw'));
    }
  });
}
