/**
 * The `npm run explore` command as a function (src/cli/explore.ts is its process entry):
 *   npm run -s explore -- <scenario.json | built-in id> [--budget N] [--seed S] [--faults k1,k2]
 *     [--violations V1,V2] [--collect N] [--json]
 *
 * Searches fault schedules for a violation and shrinks the first one found (docs/explore.md).
 * Prints what was tried, the violation and the faults of the minimal schedule, or with --json the
 * ExploreReport. Exit 0 whether or not something was found; 2 on bad input.
 */
import { performance } from 'node:perf_hooks';
import {
  EXPLORE_FAULT_KINDS,
  VIOLATION_KINDS,
  describeFault,
  explore,
  type ExploreFaultKind,
  type ExploreOptions,
  type ExploreReport,
} from '../engine/explore/index';
import type { ViolationKind } from '../engine/trace/types';
import { InputError, reportError, scenarioFromArg, type CliIo } from './sim_main';

const USAGE =
  'usage: npm run -s explore -- <scenario.json | built-in id> [--budget N] [--seed S] ' +
  `[--faults ${EXPLORE_FAULT_KINDS.join(',')}] [--violations ${VIOLATION_KINDS.join(',')}] [--collect N] [--json]`;

const VALUED = ['--budget', '--seed', '--faults', '--violations', '--collect'] as const;

function count(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min)
    throw new InputError(`${flag} expects a whole number >= ${min}, got "${value}"`);
  return n;
}

function listOf<T extends string>(flag: string, value: string, known: readonly T[]): T[] {
  const items = value.split(',').filter((x) => x !== '');
  for (const x of items)
    if (!known.includes(x as T))
      throw new InputError(`${flag}: unknown kind "${x}" (expected ${known.join(', ')})`);
  if (items.length === 0)
    throw new InputError(`${flag} expects a comma-separated list (${known.join(', ')})`);
  return items as T[];
}

interface Args {
  scenario: string;
  json: boolean;
  opts: ExploreOptions;
}

function parse(argv: string[]): Args {
  const opts: ExploreOptions = {};
  const rest: string[] = [];
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') {
      json = true;
      continue;
    }
    if (!a.startsWith('--')) {
      rest.push(a);
      continue;
    }
    if (!(VALUED as readonly string[]).includes(a)) throw new InputError(`unknown option ${a}\n${USAGE}`);
    const value = argv[++i];
    if (value === undefined) throw new InputError(`${a} expects a value\n${USAGE}`);
    if (a === '--budget') opts.budget = count(a, value, 0);
    else if (a === '--seed') opts.seed = count(a, value, 0);
    else if (a === '--collect') opts.collect = count(a, value, 1);
    else if (a === '--faults') opts.faults = listOf<ExploreFaultKind>(a, value, EXPLORE_FAULT_KINDS);
    else opts.violations = listOf<ViolationKind>(a, value, VIOLATION_KINDS);
  }
  if (rest.length !== 1) throw new InputError(USAGE);
  return { scenario: rest[0], json, opts };
}

function toText(name: string, r: ReportLike): string[] {
  const e = r.explored;
  const out = [
    `explore ${name}: ${r.tried} schedule(s) tried` +
      (r.perSec === null ? '' : ` (${r.perSec}/s)`) +
      `, search seed ${e.seed}, kinds: ${e.faultKinds.join(', ') || 'none'}` +
      (e.inapplicable.length > 0 ? ` (not applicable here: ${e.inapplicable.join(', ')})` : ''),
  ];
  for (const v of e.baseViolations)
    out.push(`the scenario already has ${v.kind} on ${v.lock} (${v.holders.join(', ')}): not counted`);
  if (r.violation === null || r.found === null) {
    out.push(e.summary);
    return out;
  }
  const v = r.violation;
  out.push(
    `FOUND ${v.kind} on ${v.lock} (${v.holders.join(', ')}${v.cause ? `, ${v.cause}` : ''}) from t=${v.from} ms, ` +
      `at schedule #${r.foundAt}` +
      (r.searchMs === null ? '' : ` after ${r.searchMs} ms`),
  );
  const n = r.added.length + r.moved.length + r.lags.length;
  out.push(
    `shrunk in ${r.shrinkSteps} step(s)${r.shrinkMs === null ? '' : ` (${r.shrinkMs} ms)`} to ${n} change(s):`,
  );
  for (const f of r.added) out.push(`  + ${describeFault(f)}`);
  for (const m of r.moved) out.push(`  ~ ${describeFault(r.base.faults[m.index])} moved to ${m.to} ms`);
  for (const l of r.lags) out.push(`  ~ replica-${l.replica} lag ${l.from} ms -> ${l.to} ms`);
  if (r.removed.length > 0) {
    out.push('shrinking:');
    for (const x of r.removed) out.push(`  - ${x}`);
  }
  for (const h of r.violations.slice(1))
    out.push(`also found: ${h.violation.kind} on ${h.violation.lock} at schedule #${h.index}`);
  out.push('(--json prints the report; its "found" is the minimal scenario, runnable with npm run sim)');
  return out;
}

type ReportLike = ExploreReport & { base: { faults: ExploreReport['added'] } };

/** The whole command, minus process plumbing: returns the exit code. */
export function exploreMain(argv: string[], io: CliIo): number {
  try {
    const args = parse(argv);
    const base = scenarioFromArg(args.scenario);
    const report = explore(base, { ...args.opts, clock: () => performance.now() });
    if (args.json) io.out(`${JSON.stringify(report)}\n`);
    else io.out(`${toText(args.scenario, { ...report, base }).join('\n')}\n`);
    return 0;
  } catch (e) {
    return reportError('explore', io, e);
  }
}
