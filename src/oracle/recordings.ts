/**
 * The committed recordings of the real client (oracle/recordings/<id>@<release>.json), read by the
 * recordings test and by the "checked against" badge data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Recording } from './shape';

export const RECORDINGS_DIR = 'oracle/recordings';

export function loadRecordings(dir = RECORDINGS_DIR): { file: string; rec: Recording }[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return files.map((f) => ({ file: f, rec: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Recording }));
}

/**
 * Built-ins the oracle can run but has no recording of, and why (the table shows it; each reason
 * is also in docs/redisson-differences.md).
 */
export const NOT_RECORDED: Record<string, string> = {
  'incident-reentrant-watchdog-leak':
    'not recorded: the leak is in 3.44.0–3.45.x only, and the kit ships 3.11.6, 3.27.2 and 4.7.0 (the fixed side is incident-reentrant-watchdog-leak-fixed)',
  'incident-read-lock-timeout-keys':
    'not recorded: the renewal that misses the timeout keys is before 3.8.1 only, and the kit ships 3.11.6, 3.27.2 and 4.7.0 (the fixed side is incident-read-lock-timeout-keys-fixed)',
  'incident-trylock-hangs-redis-down':
    'not recorded: the hang is in 3.12.5 only, and the kit ships 3.11.6, 3.27.2 and 4.7.0 (the fixed side is incident-trylock-hangs-redis-down-fixed)',
};

/** The release columns of the coverage table in docs/oracle.md. */
export const TABLE_RELEASES = ['4.7.0', '3.27.2'] as const;

/**
 * docs/oracle.md's coverage table: per built-in and release, the recording's level, or why there
 * is none. The recordings test checks that the page holds exactly this table.
 */
export function coverageTable(
  recs: readonly Recording[],
  ids: readonly string[],
  whyNone: (id: string, release: string) => string,
): string {
  const rows = ['| built-in | ' + TABLE_RELEASES.join(' | ') + ' |', '| --- |' + TABLE_RELEASES.map(() => ' --- |').join('')];
  for (const id of ids) {
    const cells = TABLE_RELEASES.map((release) => {
      const r = recs.find((x) => x.source === id && x.release === release);
      if (!r) return whyNone(id, release);
      return r.differences?.length ? `${r.level}, differs (see redisson-differences.md)` : r.level;
    });
    rows.push(`| \`${id}\` | ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}
