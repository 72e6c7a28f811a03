/**
 * One of Redisson's scripts across releases. The text a release sends is the concatenation of its
 * lines (the Java string literals), byte for byte, so its SHA1 is the real client's EVALSHA id.
 */
import { compareVersions } from '../release_names';

export interface RedissonScript {
  /** the family's id, e.g. `unlock`, `fairLock` */
  readonly id: string;
  /** the Java method that sends it, e.g. `RedissonLock.unlockInnerAsync` */
  readonly method: string;
  /** the first release tag with this text */
  readonly since: string;
  /** SHA1 of `text`, as the release's own client computes it */
  readonly sha1: string;
  /** the Java source's string literals in order; '' stands for a blank or comment line between them */
  readonly lines: readonly string[];
  /** what Redis receives: the lines joined with nothing */
  readonly text: string;
}

export interface ScriptFamily {
  readonly id: string;
  readonly method: string;
  /** oldest first */
  readonly variants: readonly RedissonScript[];
  /** the text `release` sends (the oldest variant for anything older than it) */
  at(release: string): RedissonScript;
}

const byText = new Map<string, RedissonScript>();

export function family(
  id: string,
  method: string,
  variants: readonly { since: string; sha1: string; lines: readonly string[] }[],
): ScriptFamily {
  const vs = variants.map((v): RedissonScript => {
    const s = { id, method, since: v.since, sha1: v.sha1, lines: v.lines, text: v.lines.join('') };
    // the same text under two methods (3.12.3's RLock acquire is SpinLock's): the first keeps it
    if (!byText.has(s.text)) byText.set(s.text, s);
    all.push(s);
    return s;
  });
  return {
    id,
    method,
    variants: vs,
    at(release: string): RedissonScript {
      let found = vs[0];
      for (const v of vs) if (compareVersions(release, v.since) >= 0) found = v;
      return found;
    },
  };
}

/** The Redisson script with exactly this text, if it is one (an edited script is not). */
export function redissonScriptOf(text: string): RedissonScript | undefined {
  return byText.get(text);
}

const all: RedissonScript[] = [];

/** Every variant of every family registered so far. */
export function allRedissonScripts(): readonly RedissonScript[] {
  return all;
}
