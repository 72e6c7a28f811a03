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

// Vite needs each glob's options written out literally.
const sources = import.meta.glob<string>('../../oracle/recordings/*.json', { eager: true, import: 'source' });
const releases = import.meta.glob<string>('../../oracle/recordings/*.json', { eager: true, import: 'release' });
const servers = import.meta.glob<string>('../../oracle/recordings/*.json', { eager: true, import: 'redisServer' });
const levels = import.meta.glob<'exact' | 'invariants'>('../../oracle/recordings/*.json', { eager: true, import: 'level' });
const differences = import.meta.glob<string[] | undefined>('../../oracle/recordings/*.json', {
  eager: true,
  import: 'differences',
});

/** The recordings of built-in `id` in which real and model agree, newest release first. */
export function oracleChecks(id: string): OracleCheck[] {
  const out: OracleCheck[] = [];
  for (const file of Object.keys(sources)) {
    if (sources[file] !== id || (differences[file]?.length ?? 0) > 0) continue;
    out.push({ release: releases[file], redisServer: servers[file], level: levels[file] });
  }
  return out.sort((a, b) => b.release.localeCompare(a.release, 'en', { numeric: true }));
}
