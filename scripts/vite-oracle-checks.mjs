/**
 * `virtual:oracle-checks`: the few fields of the committed recordings (oracle/recordings/*.json)
 * that the intro's "checked against" line needs (src/ui/oracle_checks.ts), worked out when the app
 * is built. Reading them with import.meta.glob put every recording's path in the first screen five
 * times over (56 KB of the page's 549); this is one small array of the recordings in which real
 * and model agree. Plain .mjs so that Vite's config loader takes it as it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ID = 'virtual:oracle-checks';
const RESOLVED = '\0' + ID;
// beside this script, whatever the working directory of the build or the test run
const DIR = fileURLToPath(new URL('../oracle/recordings', import.meta.url));

/** [built-in id, release, redis-server, level] of each recording without differences, by file name. */
export function agreeingRecordings(dir = DIR) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((rec) => (rec.differences ?? []).length === 0)
    .map((rec) => [rec.source, rec.release, rec.redisServer, rec.level]);
}

export function oracleChecksPlugin() {
  return {
    name: 'lockscope:oracle-checks',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      // a changed recording rebuilds the summary in dev and watch mode
      for (const f of readdirSync(DIR)) if (f.endsWith('.json')) this.addWatchFile(join(DIR, f));
      return `export default ${JSON.stringify(agreeingRecordings())};`;
    },
  };
}
