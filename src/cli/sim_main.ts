/**
 * The `npm run sim` command as a function (src/cli/sim.ts is its process entry):
 *   npm run -s sim -- <scenario.json | built-in id> [--json] [--verbose]
 *
 * Runs a scenario and prints its timeline (one line per event, violations summarised at the end)
 * or, with --json, the trace. Bad input (missing file, bad JSON, schema errors, unknown id, a
 * scenario this runner cannot run yet) is reported on stderr with exit code 2.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario, unsupportedReason } from '../engine/scenario/run';
import { validateScenario, type Scenario } from '../engine/scenario/schema';
import { formatEvent, formatSummary } from './timeline_text';

const USAGE = 'usage: npm run -s sim -- <scenario.json | built-in id> [--json] [--verbose]';

/** Bad input: reported on stderr with exit code 2. */
export class InputError extends Error {}

function loadScenario(arg: string): unknown {
  const b = builtins.find((x) => x.id === arg);
  if (b !== undefined && !existsSync(arg)) return b.scenario;
  if (!existsSync(arg)) {
    const ids = builtins.map((x) => x.id).join(', ');
    throw new InputError(
      arg.endsWith('.json')
        ? `no such file: ${arg}`
        : `unknown scenario "${arg}": not a file nor a built-in id (${ids})`,
    );
  }
  let text: string;
  try {
    text = readFileSync(arg, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${arg}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new InputError(`${arg} is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * A file path or a built-in id to a scenario this runner can run; anything else is an InputError
 * naming the file, the JSON path of each schema issue, or the reason.
 */
export function scenarioFromArg(arg: string): Scenario {
  const v = validateScenario(loadScenario(arg));
  if (!v.ok) {
    const lines = v.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n');
    throw new InputError(`invalid scenario ${arg}:\n${lines}`);
  }
  const reason = unsupportedReason(v.scenario);
  if (reason !== null) throw new InputError(`cannot run ${arg}: ${reason}`);
  return v.scenario;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** The whole command, minus process plumbing: returns the exit code. */
export function simMain(argv: string[], io: CliIo): number {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const rest = argv.filter((a) => !a.startsWith('--'));
  for (const f of flags) {
    if (f !== '--json' && f !== '--verbose') {
      io.err(`unknown option ${f}\n${USAGE}\n`);
      return 2;
    }
  }
  if (rest.length !== 1) {
    io.err(`${USAGE}\n`);
    return 2;
  }
  try {
    const run = runScenario(scenarioFromArg(rest[0]), { verbose: flags.has('--verbose') });
    if (flags.has('--json')) {
      io.out(`${JSON.stringify(run.trace)}\n`);
      return 0;
    }
    const out: string[] = [];
    for (const ev of run.trace.events) {
      const line = formatEvent(ev);
      if (line !== null) out.push(line);
    }
    out.push('', ...formatSummary(run.trace, run.endedAt));
    io.out(`${out.join('\n')}\n`);
    return 0;
  } catch (e) {
    return reportError('sim', io, e);
  }
}

/** Exit code 2 and the message for bad input; 1 and the stack for anything else (a bug). */
export function reportError(command: string, io: CliIo, e: unknown): number {
  if (e instanceof InputError) {
    io.err(`${command}: ${e.message}\n`);
    return 2;
  }
  io.err(`${command}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return 1;
}
