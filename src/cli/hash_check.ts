/**
 * The output of the hash scripts (trace_hashes.ts, lane_hashes.ts): with `--check FILE`, the ids
 * whose hash differs from FILE's and exit 1 if any; otherwise the hashes as JSON.
 */
import { readFileSync } from 'node:fs';

export function printOrCheck(now: Record<string, string>, argv: readonly string[]): void {
  if (argv[0] === '--check' && argv[1] !== undefined) {
    const before = JSON.parse(readFileSync(argv[1], 'utf8')) as Record<string, string>;
    const changed = Object.keys({ ...before, ...now }).filter((k) => before[k] !== now[k]);
    for (const k of changed) process.stdout.write(`changed: ${k}\n`);
    process.stdout.write(`${Object.keys(now).length - changed.length} same, ${changed.length} changed\n`);
    process.exitCode = changed.length === 0 ? 0 : 1;
  } else {
    process.stdout.write(`${JSON.stringify(now, null, 2)}\n`);
  }
}
