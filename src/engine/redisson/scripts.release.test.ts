/**
 * The client sends, for every lock type and operation, the text of its own release, with the KEYS
 * and ARGV that text reads: each side of every boundary where Redisson changed a script (the
 * `since` of each variant in scripts/*.ts, read from the release tags) or what it is passed
 * (the publish command from 3.22.0, the unlock latch from 3.24.0, the read renewal's names from
 * 4.4.0).
 */
import { describe, expect, it } from 'vitest';
import { lockOps, run, work } from './testing/family';
import { redissonScriptOf, type RedissonScript } from './scripts/index';
import { allRedissonScripts } from './scripts/family';
import { compareVersions } from './versions';

const rlock = lockOps('r', 'RLock');
const fair = lockOps('f', 'FairLock');
const read = lockOps('rw', 'ReadLock');
const write = lockOps('rw', 'WriteLock');
const spin = lockOps('s', 'SpinLock');
const fenced = lockOps('fe', 'FencedLock');

/** every script op of every lock type the release has; A holds past a renewal, B waits and gives up */
function scenario(release: string) {
  const a = [
    rlock('lock'),
    fair('lock'),
    read('lock'),
    work(12_000),
    read('unlock'),
    write('lock'),
    write('unlock'),
    fair('unlock'),
    rlock('unlock'),
    rlock('lock'),
    rlock('forceUnlock'),
    fair('lock'),
    fair('forceUnlock'),
    read('lock'),
    read('forceUnlock'),
    write('lock'),
    write('forceUnlock'),
    ...(compareVersions(release, '3.15.0') >= 0 ? [spin('lock'), spin('unlock'), spin('lock'), spin('forceUnlock')] : []),
    ...(compareVersions(release, '3.19.0') >= 0 ? [fenced('lock'), fenced('unlock')] : []),
  ];
  const b = [fair('tryLock', { waitMs: 300 }), fair('tryLock')];
  return run(
    { A: [{ id: 1, program: a }], B: [{ id: 1, start: 100, program: b }] },
    { redisson: { version: release }, until: 30_000 },
  );
}

/** the highest KEYS[n] / ARGV[n] a text reads (a loop over #KEYS / #ARGV reads them all) */
function reads(text: string, what: 'KEYS' | 'ARGV'): number {
  let n = 0;
  for (const m of text.matchAll(new RegExp(`${what}\\[(\\d+)\\]`, 'g'))) n = Math.max(n, Number(m[1]));
  return n;
}

/** the variant of family `id` that `release` sends */
function variantAt(id: string, release: string): RedissonScript {
  const family = allRedissonScripts().filter((v) => v.id === id);
  return family.reduce((best, v) => (compareVersions(release, v.since) >= 0 ? v : best), family[0]);
}

/** the releases each side of every boundary */
const RELEASES = (() => {
  const set = new Set(['3.11.6', '4.7.0']);
  for (const s of allRedissonScripts()) {
    set.add(s.since);
    const [maj, min, patch] = s.since.split('.').map(Number);
    if (patch > 0) set.add(`${maj}.${min}.${patch - 1}`);
    else if (min > 0) set.add(`${maj}.${min - 1}.9`);
  }
  for (const r of ['3.21.9', '3.22.0', '3.23.9', '3.24.0', '4.3.9', '4.4.0']) set.add(r);
  return [...set].filter((r) => compareVersions(r, '3.11.6') >= 0).sort(compareVersions);
})();

describe('each release sends its own scripts, with what they read', () => {
  for (const release of RELEASES)
    it(`${release}: every EVAL / SCRIPT LOAD text is that release's variant, KEYS and ARGV as it reads them`, () => {
      const s = scenario(release);
      const texts = new Map<string, RedissonScript>();
      const sent: { script: RedissonScript; keys: number; args: number; argv: string[] }[] = [];
      for (const e of s.of('cmd')) {
        const argv = e.argv as string[];
        const op = argv[0].toUpperCase();
        if (op === 'SCRIPT' && argv[1].toUpperCase() === 'LOAD') {
          const script = redissonScriptOf(argv[2]);
          expect(script, `SCRIPT LOAD of an unknown text at ${release}`).toBeDefined();
          texts.set(String(e.reply), script!);
        } else if (op === 'EVAL' || op === 'EVALSHA') {
          const script = op === 'EVAL' ? redissonScriptOf(argv[1]) : texts.get(argv[1]);
          if (op === 'EVALSHA' && script === undefined) continue; // answered NOSCRIPT, loaded next
          expect(script, `${op} of an unknown text at ${release}`).toBeDefined();
          const keys = Number(argv[2]);
          sent.push({ script: script!, keys, args: argv.length - 3 - keys, argv: argv.slice(3 + keys) });
        }
      }
      const families = new Set(sent.map((x) => x.script.id));
      expect(families.size).toBeGreaterThanOrEqual(12);
      for (const { script, keys, args, argv } of sent) {
        // a text two families share (3.12.3's RLock acquire is SpinLock's) must be current in one
        const current = allRedissonScripts()
          .filter((v) => v.text === script.text)
          .map((v) => variantAt(v.id, release));
        expect(current.map((v) => v.text).includes(script.text), `${script.id}@${script.since} at ${release}`).toBe(
          true,
        );
        if (!/#KEYS/.test(script.text)) expect(keys, `${script.method} KEYS at ${release}`).toBe(reads(script.text, 'KEYS'));
        if (script.id === 'renewBatch') expect(args, `LockTask ARGV at ${release}`).toBe(keys + 1);
        else if (script.id === 'readRenewBatch')
          // per lock (KEYS pair): its first thread's name; from 4.4.0 a count, then that many names
          expect(args, `ReadLockTask ARGV at ${release}`).toBe(
            script.since === '4.4.0' ? 2 + Number(argv[1]) : 1 + keys / 2,
          );
        else if (!/#KEYS/.test(script.text))
          expect(args, `${script.method} ARGV at ${release}`).toBe(reads(script.text, 'ARGV'));
      }
    });
});
