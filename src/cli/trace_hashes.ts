/**
 * `npm run -s trace-hashes [-- --check FILE]`: the SHA-256 of every built-in's trace, plain and
 * verbose, as JSON. A refactor that must not change behaviour keeps every hash: save the output
 * before, then `--check` it after. Exit 1 lists the ids whose traces changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function hashes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of builtins) {
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(`${b.id}: ${JSON.stringify(v.issues)}`);
    out[b.id] = sha256(JSON.stringify(runScenario(v.scenario).trace));
    out[`${b.id} --verbose`] = sha256(JSON.stringify(runScenario(v.scenario, { verbose: true }).trace));
  }
  return out;
}

const argv = process.argv.slice(2);
const now = hashes();
if (argv[0] === '--check' && argv[1] !== undefined) {
  const before = JSON.parse(readFileSync(argv[1], 'utf8')) as Record<string, string>;
  const changed = Object.keys({ ...before, ...now }).filter((k) => before[k] !== now[k]);
  for (const k of changed) process.stdout.write(`changed: ${k}\n`);
  process.stdout.write(`${Object.keys(now).length - changed.length} same, ${changed.length} changed\n`);
  process.exitCode = changed.length === 0 ? 0 : 1;
} else {
  process.stdout.write(`${JSON.stringify(now, null, 2)}\n`);
}
