/**
 * One corpus file through the real redis-cli and through the simulator, compared chunk by chunk
 * (up to each entry's own markers; see corpus.ts and known_differences.ts). Shared by the
 * standalone corpus and the cluster corpus, which differ only in who answers and in what output
 * is normalised first.
 */
import { describe, expect, it } from 'vitest';
import type { CliMode } from '../../engine/redis/cli_format';
import { outputsMatch } from '../../engine/redis/conformance/compare';
import {
  chunkEntries,
  type CorpusEntry,
  type CorpusFile,
  type EntryMarkers,
} from '../../engine/redis/conformance/corpus';
import { KNOWN_DIFFERENCES } from '../../engine/redis/conformance/known_differences';
import { findRedisBinaries, missingBinaries, type RedisBinaries } from './real_redis';

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

export interface RealBinaries {
  server: string;
  cli: string;
}

export interface CorpusSides {
  /** the real redis-cli's output per chunk */
  real(chunks: readonly (readonly CorpusEntry[])[]): Promise<string[]>;
  /** the simulator's output per entry */
  sim(entries: readonly CorpusEntry[]): string[];
  /** rewrites one chunk's outputs before they are compared (ids, ports, orders Redis leaves open) */
  normalise?(chunk: readonly CorpusEntry[], output: string, side: 'real' | 'sim'): string;
}

export async function compareCorpusFile(file: CorpusFile, mode: CliMode, sides: CorpusSides): Promise<void> {
  const chunks = chunkEntries(file.entries);
  const real = await sides.real(chunks);
  const simByEntry = sides.sim(file.entries);
  let next = 0;
  const sim = chunks.map((c) => simByEntry.slice(next, (next += c.length)).join(''));
  const norm = sides.normalise ?? ((_c, out: string) => out);
  const mismatches: Mismatch[] = [];
  const staleKnown: string[] = [];
  chunks.forEach((chunk, i) => {
    const markers = chunkMarkers(chunk);
    const same = outputsMatch(norm(chunk, real[i], 'real'), norm(chunk, sim[i], 'sim'), markers);
    if (markers.known && KNOWN_DIFFERENCES[markers.known]) {
      // an allow-listed entry that matches again must leave the list
      if (same) staleKnown.push(`${chunk[0].id} (known: ${markers.known})`);
    } else if (!same) mismatches.push({ chunk, real: real[i], sim: sim[i] });
  });
  if (mismatches.length > 0) throw new Error(report(file.name, mode, mismatches));
  expect(staleKnown, 'these entries match real Redis now: drop their `known:` marker').toEqual([]);
}

/**
 * `body` with the real binaries found on PATH; without them a failing test under CI=true (the
 * comparison must run there) and a skipped suite elsewhere.
 */
export function describeWithRealRedis(title: string, body: (binaries: RealBinaries) => void): void {
  const binaries: RedisBinaries = findRedisBinaries();
  const missing = missingBinaries(binaries, ['server', 'cli']);
  if (binaries.server !== null && binaries.cli !== null) {
    const found = { server: binaries.server, cli: binaries.cli };
    describe(title, () => body(found));
    return;
  }
  const message =
    `Conformance suite needs ${missing.join(' and ')} (Redis 7.0) on PATH to compare the simulator ` +
    `with a real server; run \`npm run setup\` or install the redis-server package.`;
  if (process.env.CI === 'true') {
    describe(title, () => {
      it('has a real redis-server and redis-cli to compare against', () => {
        throw new Error(message);
      });
    });
  } else {
    console.warn(`\n*** SKIPPED: ${message}\n`);
    describe.skip(`${title} (skipped: ${missing.join(', ')} missing)`, () => {
      it('compares the simulator with real Redis', () => {});
    });
  }
}
