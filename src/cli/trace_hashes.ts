/**
 * `npm run -s trace-hashes [-- --check FILE]`: the SHA-256 of every built-in's trace, plain and
 * verbose, as JSON. A refactor that must not change behaviour keeps every hash: save the output
 * before, then `--check` it after. Exit 1 lists the ids whose traces changed.
 */
import { createHash } from 'node:crypto';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { printOrCheck } from './hash_check';

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

printOrCheck(hashes(), process.argv.slice(2));
