/**
 * The built app's JavaScript for `npm run bench` (issue 23's size targets), read from `dist/`
 * (build it first: `npx vite build`): every JS file gzip'd as the perf spec does (`gzipSync`,
 * level 6), all of them together, and the first screen as the build declares it: the entry
 * script of index.html, the chunks it imports statically, and the engine worker's chunk with its
 * static imports. The page's own count (e2e/perf.spec.ts, the files a load actually fetches before
 * the first run is shown) is the figure of record; this one needs no browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const FIRST_SCREEN_TARGET_KB = 260;
export const ALL_JS_TARGET_KB = 400;

export interface BundleBench {
  /** every JS file of dist/assets, gzip'd, KB */
  allKb: number;
  firstScreenKb: number;
  firstScreenFiles: string[];
  files: Record<string, number>;
  withinTarget: { firstScreen: boolean; all: boolean };
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Static imports (`from"./x.js"`, `import"./x.js"`) and worker chunks a built file names. */
function staticDeps(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) out.add(m[1]);
  for (const m of code.matchAll(/["`/](worker-[\w-]+\.js)/g)) out.add(m[1]);
  return [...out];
}

export function benchBundle(dist: string): BundleBench | string {
  const assets = join(dist, 'assets');
  if (!existsSync(join(dist, 'index.html')) || !existsSync(assets))
    return `n/a (no build in ${dist}: run npx vite build)`;
  const files: Record<string, number> = {};
  for (const f of readdirSync(assets).filter((f) => f.endsWith('.js')))
    files[f] = gzipSync(readFileSync(join(assets, f))).length;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/(?:src|href)="\.\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]);
  const first = new Set<string>();
  const visit = (f: string) => {
    if (first.has(f) || files[f] === undefined) return;
    first.add(f);
    for (const d of staticDeps(readFileSync(join(assets, f), 'utf8'))) visit(d);
  };
  entries.forEach(visit);
  const all = Object.values(files).reduce((n, b) => n + b, 0);
  const firstBytes = [...first].reduce((n, f) => n + files[f], 0);
  return {
    allKb: kb(all),
    firstScreenKb: kb(firstBytes),
    firstScreenFiles: [...first].sort(),
    files: Object.fromEntries(Object.entries(files).map(([f, b]) => [f, kb(b)])),
    withinTarget: { firstScreen: kb(firstBytes) <= FIRST_SCREEN_TARGET_KB, all: kb(all) <= ALL_JS_TARGET_KB },
  };
}

/** The `bundle` section of npm run bench (shape of bench.ts's Section). */
export const bundleSection = {
  name: 'bundle',
  async run(opts: { dist: string }, log: (line: string) => void): Promise<BundleBench | string> {
    const r = benchBundle(opts.dist);
    log('');
    if (typeof r === 'string') {
      log(`Built JavaScript: ${r}`);
      return r;
    }
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    log(
      `Built JavaScript, gzip: ${r.allKb} KB in all (target <= ${ALL_JS_TARGET_KB} KB: ${met(r.withinTarget.all)}), ` +
        `first screen ${r.firstScreenKb} KB = ${r.firstScreenFiles.map((f) => `${f} ${r.files[f]}`).join(' + ')} ` +
        `(target <= ${FIRST_SCREEN_TARGET_KB} KB: ${met(r.withinTarget.firstScreen)})`,
    );
    return r;
  },
};
