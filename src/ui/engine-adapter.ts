/**
 * The one module that knows where the engine's entry points live. Everything else in src/ui
 * talks to the engine through these functions (via the worker, see engine-client.ts), so a
 * change of engine API is a change to this file only. The hand-written fixtures in ./fixtures
 * stay for component tests.
 *
 * Runs in the Web Worker (worker.ts) or inline; never imported by the main bundle directly.
 */
import { ManualClock } from '../engine/clock';
import { formatReply } from '../engine/redis/cli_format';
import { splitArgs } from '../engine/redis/redis_argv';
import type { Connection } from '../engine/redis/connection';
import type { Reply } from '../engine/redis/reply';
import type { RedisServer } from '../engine/redis/server';
import { serverFromKeyViews } from '../engine/sim/snapshot';
import { gcPauseLeaseExpiry } from '../engine/scenario/builtins/lease_gc_pause';
import type { BuiltinScenario } from '../engine/scenario/builtins/types';
import type { IncidentInfo } from '../engine/scenario/builtins/types';
// the runner without Redis Cluster and Sentinel: worker.ts loads those for a scenario that has one
import { runScenario } from '../engine/scenario/run_scenario';
import { validateScenario, type Scenario } from '../engine/scenario/schema';
import type { RunResult, ValidationResult } from '../engine/scenario/api';
import type { NodeView } from '../engine/trace/types';

export interface BuiltinInfo {
  id: string;
  title: string;
  description: string;
  titleZh?: string;
  descriptionZh?: string;
  group?: string;
  /** a real incident's card (the gallery's built-ins) */
  incident?: IncidentInfo;
  scenario: unknown;
}

/** false while the UI runs on a stand-in instead of the simulator. */
export const engineReady = true;

/**
 * The built-in the first screen opens, alone: the others (their stories and bodies, about 18 KB gzip
 * of the worker's first chunk) come after it with the incidents (engine-adapter-incidents.ts).
 */
export function listBuiltins(): BuiltinInfo[] {
  return [builtinInfo(gcPauseLeaseExpiry)];
}

export function builtinInfo(b: BuiltinScenario): BuiltinInfo {
  return {
    id: b.id,
    title: b.title,
    description: b.description,
    titleZh: b.titleZh,
    descriptionZh: b.descriptionZh,
    ...(b.incident ? { incident: b.incident } : {}),
    scenario: b.scenario,
  };
}

export const defaultBuiltinId = gcPauseLeaseExpiry.id;

export function validate(json: unknown): ValidationResult<Scenario> {
  return validateScenario(json);
}

export function run(scenario: Scenario, opts: { verbose: boolean }): RunResult {
  return runScenario(scenario, { verbose: opts.verbose });
}

/** Script lines are recorded only for runs small enough that the extra events stay cheap. */
const VERBOSE_MAX_THREADS = 16;

export function verboseByDefault(scenario: Scenario): boolean {
  return scenario.clients.reduce((n, c) => n + c.threads.length, 0) <= VERBOSE_MAX_THREADS;
}

export type ConsoleAnswer =
  | { kind: 'read'; text: string }
  | { kind: 'write'; argv: string[] }
  | { kind: 'error'; text: string }
  /** the page words these two in its language (Console.tsx) */
  | { kind: 'refused'; command: string }
  | { kind: 'down' }
  | { kind: 'unavailable' };

/** Commands that change data or reach other clients go into the scenario instead of a snapshot. */
const SCENARIO_COMMANDS = new Set(['publish', 'spublish', 'eval', 'evalsha', 'fcall']);
const REFUSED = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'monitor']);

/**
 * One console line against a node as it is at the cursor: a throwaway server is built from the
 * node's keyspace snapshot, so reads answer exactly as the simulated Redis would at that moment.
 */
export function consoleCommand(node: NodeView, line: string, now: number): ConsoleAnswer {
  const argv = splitArgs(line);
  if (argv === null) return { kind: 'error', text: 'Invalid argument(s)' };
  if (argv.length === 0) return { kind: 'read', text: '' };
  const name = argv[0].toLowerCase();
  if (REFUSED.has(name)) return { kind: 'refused', command: argv[0] };
  if (!node.up) return { kind: 'down' };
  const server = serverFromKeyViews(Object.values(node.keys), new ManualClock(now));
  const spec = server.commandSpec(name);
  if (spec && (spec.flags.has('write') || SCENARIO_COMMANDS.has(name))) return { kind: 'write', argv };
  if (name === 'pubsub') subscribeAsAtCursor(server, node);
  const reply: Reply = server.exec(server.connect(), argv);
  return { kind: 'read', text: formatReply(reply, 'tty').replace(/\n$/, '') };
}

/**
 * The node's subscribers at the cursor, each on a connection of its own label, subscribed the way
 * they were (SUBSCRIBE, SSUBSCRIBE or PSUBSCRIBE): `PUBSUB NUMSUB` and the rest then answer from
 * the server's own pub/sub tables, as the simulated Redis would at that moment.
 */
function subscribeAsAtCursor(server: RedisServer, node: NodeView): void {
  const conns = new Map<string, Connection>();
  const shard = new Set(node.shardChannels);
  const patterns = new Set(node.patterns);
  for (const [name, labels] of Object.entries(node.subscriptions ?? {})) {
    const cmd = shard.has(name) ? 'SSUBSCRIBE' : patterns.has(name) ? 'PSUBSCRIBE' : 'SUBSCRIBE';
    for (const label of labels) {
      let c = conns.get(label);
      if (c === undefined) conns.set(label, (c = server.connect()));
      server.exec(c, [cmd, name]);
    }
  }
}

// The search (issue 12): its kinds here; its entry points in engine-adapter-search.ts, which
// loads with the first search request (the worker's first screen does not carry the search).
export { EXPLORE_FAULT_KINDS, type ExploreFaultKind } from '../engine/explore/kinds';

// The version picker's choices and its table of what a release does: the page asks for them, so
// the table (about 4 KB gzip of text in two languages) is not also in the page's first screen.
export { BEHAVIOUR_CHANGES, traitsFor } from '../engine/redisson/versions';
