/**
 * Which built-ins the real client checked: read from the committed recordings
 * (oracle/recordings/*.json) that the recordings test runs the model against, so the intro's
 * "checked against" line can only say what that test holds. Only the small top-level fields are
 * imported, not the recorded runs.
 */
export interface OracleCheck {
  release: string;
  redisServer: string;
  level: 'exact' | 'invariants';
}

const glob = <T>(field: string) =>
  import.meta.glob<T>('../../oracle/recordings/*.json', { eager: true, import: field } as never) as Record<string, T>;

const sources = glob<string>('source');
const releases = glob<string>('release');
const servers = glob<string>('redisServer');
const levels = glob<'exact' | 'invariants'>('level');
const differences = glob<string[] | undefined>('differences');

/** The recordings of built-in `id` in which real and model agree, newest release first. */
export function oracleChecks(id: string): OracleCheck[] {
  const out: OracleCheck[] = [];
  for (const file of Object.keys(sources)) {
    if (sources[file] !== id || (differences[file]?.length ?? 0) > 0) continue;
    out.push({ release: releases[file], redisServer: servers[file], level: levels[file] });
  }
  return out.sort((a, b) => b.release.localeCompare(a.release, 'en', { numeric: true }));
}
