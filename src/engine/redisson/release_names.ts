/**
 * Redisson release names as a scenario writes them: "latest", the short forms, and their order.
 * What each release does is versions.ts's table; these few lines are all the page's version
 * picker needs on its first screen (the table comes from the engine worker when it is shown).
 */
/** The scenario's name for the newest release the model knows. */
export const REDISSON_LATEST = 'latest';

/**
 * Each version's numbers, split once: a run compares the same few releases thousands of times
 * (13 callers in the engine, some per lock call). Unbounded, but keyed by the version texts a
 * page meets: the releases the table knows and what scenarios name.
 */
const parsed = new Map<string, readonly number[]>();
function partsOf(v: string): readonly number[] {
  let p = parsed.get(v);
  if (p === undefined) {
    p = v.split('.').map(Number);
    parsed.set(v, p);
  }
  return p;
}

/** Orders "3.11" < "3.27.2" < "latest"; a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === REDISSON_LATEST) return 1;
  if (b === REDISSON_LATEST) return -1;
  const pa = partsOf(a);
  const pb = partsOf(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** The newest release the table knows: what "latest" means (audit: HEAD is 4.7.0 plus 62 commits). */
export const NEWEST_RELEASE = '4.7.0';

/** Short forms found in links in the wild, and the release each one means. */
const ALIASES: Readonly<Record<string, string>> = {
  latest: NEWEST_RELEASE,
  '3.11': '3.11.6',
  '3.27': '3.27.2',
};

/** The release a `redisson.version` stands for ("latest" → "4.7.0", "3.27" → "3.27.2"). */
export function resolveRelease(version: string | undefined): string {
  const v = version ?? REDISSON_LATEST;
  return ALIASES[v] ?? v;
}
