/**
 * Differential test: every corpus file goes through the real redis-cli against a real
 * redis-server 7 and through the simulator, and the two outputs must be identical entry by entry
 * (up to each entry's own markers; see corpus.ts and known_differences.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputsMatch } from './compare';
import { chunkEntries, type CorpusEntry, type CorpusFile, type EntryMarkers } from './corpus';
import { KNOWN_DIFFERENCES } from './known_differences';
import { loadCorpus } from './load_corpus';
import type { CliMode } from '../cli_format';
import { runRealCli } from './real_cli';
import { runSimCli } from './sim_cli';
import {
  findRedisBinaries,
  missingBinaries,
  startRealRedis,
  type RealRedis,
} from '../../../testing/redis/real_redis';

const binaries = findRedisBinaries();
const missing = missingBinaries(binaries, ['server', 'cli']);
const files = loadCorpus();

interface Mismatch {
  chunk: readonly CorpusEntry[];
  real: string;
  sim: string;
}

function report(file: string, mode: CliMode, mismatches: Mismatch[]): string {
  const parts = mismatches.map(
    (m) =>
      `--- ${m.chunk.map((e) => e.id).join(', ')} (${mode})\n` +
      m.chunk.map((e) => `> ${e.command.slice(0, 300)}\n`).join('') +
      `real redis-cli:\n${indent(m.real)}simulator:\n${indent(m.sim)}`,
  );
  const n = mismatches.length;
  return `${n} entr${n === 1 ? 'y differs' : 'ies differ'} in ${file}:\n${parts.join('\n')}`;
}

function indent(text: string): string {
  return text === '' ? '    <nothing>\n' : text.replace(/^/gm, '    ').replace(/ {4}$/, '');
}

/** A transaction chunk is compared as one: its entries' markers all apply to it. */
function chunkMarkers(chunk: readonly CorpusEntry[]): EntryMarkers {
  return Object.assign({}, ...chunk.map((e) => e.markers)) as EntryMarkers;
}

async function compareFile(server: RealRedis, file: CorpusFile, mode: CliMode): Promise<void> {
  const clockStart = Date.now();
  const chunks = chunkEntries(file.entries);
  const real = await runRealCli(binaries.cli!, server.port, chunks, mode);
  const simByEntry = runSimCli(file.entries, mode, clockStart);
  let next = 0;
  const sim = chunks.map((c) => simByEntry.slice(next, (next += c.length)).join(''));
  const mismatches: Mismatch[] = [];
  const staleKnown: string[] = [];
  chunks.forEach((chunk, i) => {
    const markers = chunkMarkers(chunk);
    const same = outputsMatch(real[i], sim[i], markers);
    if (markers.known && KNOWN_DIFFERENCES[markers.known]) {
      // an allow-listed entry that matches again must leave the list
      if (same) staleKnown.push(`${chunk[0].id} (known: ${markers.known})`);
    } else if (!same) mismatches.push({ chunk, real: real[i], sim: sim[i] });
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
