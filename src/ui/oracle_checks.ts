/**
 * Which built-ins the real client checked: read from the committed recordings
 * (oracle/recordings/*.json) that the recordings test runs the model against, so the intro's
 * "checked against" line can only say what that test holds. The build reduces the recordings to
 * the few fields needed here (scripts/vite-oracle-checks.mjs), not the recorded runs.
 */
import agreeing from 'virtual:oracle-checks';

export interface OracleCheck {
  release: string;
  redisServer: string;
  level: 'exact' | 'invariants';
}

/** The recordings of built-in `id` in which real and model agree, newest release first. */
export function oracleChecks(id: string): OracleCheck[] {
  const out: OracleCheck[] = [];
  for (const [source, release, redisServer, level] of agreeing) {
    if (source === id) out.push({ release, redisServer, level: level as OracleCheck['level'] });
  }
  return out.sort((a, b) => b.release.localeCompare(a.release, 'en', { numeric: true }));
}
