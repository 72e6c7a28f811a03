/**
 * The scenario format v1 (docs/scenario-format.md) as a valibot schema, plus the checks a
 * schema cannot express (unique ids, references from faults, sizes after `repeat` expansion).
 *
 * `validateScenario` is the only door into the engine for user data (editor, URL, CLI, lessons):
 * it never throws, and every issue names a JSON path and what was expected.
 */
import * as v from 'valibot';
import type { SchemaIssue, ValidationResult } from './api';
import {
  LIMITS,
  NETWORK_DEFAULTS,
  REDIS_DEFAULTS,
  REDISSON_LATEST,
  REPLICA_DEFAULTS,
  SENTINEL_DEFAULTS,
  CLUSTER_DEFAULTS,
} from './defaults';
import { compareVersions, lockTypeSince, resolveRelease } from '../redisson/versions';
import { withRedissonDefaults as resolveRedisson, type RedissonSettingsResolved } from '../redisson/config';

import { LOCK_TYPES, type LockType } from '../lock_types';
import { nodeIds } from '../topology/nodes';
export { LOCK_TYPES, type LockType };

/** Lock types made of several locks, one per master (`locks` names them). */
export const MULTI_LOCK_TYPES: readonly LockType[] = ['MultiLock', 'RedLock'];

export interface LockOp {
  op: 'lock';
  lock: string;
  /** absent: no lease, the watchdog renews (lock()) */
  leaseMs?: number;
  type: LockType;
  locks?: string[];
  /** the owner id passed as lockAsync(threadId) / unlockAsync(threadId); absent: the current thread's id */
  owner?: number;
}
export interface TryLockOp {
  op: 'tryLock';
  lock: string;
  /** absent: a single attempt (tryLock()) */
  waitMs?: number;
  leaseMs?: number;
  type: LockType;
  locks?: string[];
  /** the owner id passed as lockAsync(threadId) / unlockAsync(threadId); absent: the current thread's id */
  owner?: number;
}
export interface LockInterruptiblyOp {
  op: 'lockInterruptibly';
  lock: string;
  leaseMs?: number;
  type: LockType;
  locks?: string[];
  /** the owner id passed as lockAsync(threadId) / unlockAsync(threadId); absent: the current thread's id */
  owner?: number;
}
export interface UnlockOp {
  op: 'unlock';
  lock: string;
  /** absent: the type this thread last locked `lock` with */
  type?: LockType;
  locks?: string[];
  /** the owner id passed as lockAsync(threadId) / unlockAsync(threadId); absent: the current thread's id */
  owner?: number;
}
export interface ForceUnlockOp {
  op: 'forceUnlock';
  lock: string;
  type?: LockType;
}
/**
 * The code after it runs on another thread of the same client (a coroutine or a future callback
 * resuming elsewhere): Redisson calls without `owner` use `thread` as the current thread's id.
 */
export interface ContinueOnOp {
  op: 'continueOn';
  thread: number;
}
export interface WorkOp {
  op: 'work';
  ms: number;
}
export interface SleepOp {
  op: 'sleep';
  ms: number;
}
export interface UseOp {
  op: 'use';
  ms: number;
}
/** The thread's transaction commits (a transactional resource): its writes become visible after `ms`. */
export interface CommitOp {
  op: 'commit';
  ms: number;
}
export interface RedisOp {
  op: 'redis';
  argv: string[];
}
export interface EvalOp {
  op: 'eval';
  script: string;
  keys: string[];
  args: string[];
}
export interface RepeatOp {
  op: 'repeat';
  times: number;
  body: Op[];
}
/**
 * Java's try statement. `catch` (or `catchClass` alone, an empty handler) makes it catch: every
 * exception (`catch (Exception e)`) or, with `catchClass`, those of that class and its subclasses.
 */
export interface TryOp {
  op: 'try';
  body: Op[];
  catch?: Op[];
  /** simple ("RedisException") or qualified ("org.redisson.client.RedisException") Java class name */
  catchClass?: string;
  finally?: Op[];
}
/** The read-only calls of RLock; `type` absent: the type this thread last locked `lock` with. */
export interface QueryOp {
  op: 'isLocked' | 'getHoldCount' | 'remainTimeToLive';
  lock: string;
  type?: LockType;
  locks?: string[];
}
export interface IsHeldByThreadOp {
  op: 'isHeldByThread';
  lock: string;
  type?: LockType;
  locks?: string[];
  /** thread id in the same client; absent: the calling thread (isHeldByCurrentThread) */
  thread?: number;
}
export interface GetTokenOp {
  op: 'getToken';
  lock: string;
  type: 'FencedLock';
}
export type ReadOp = QueryOp | IsHeldByThreadOp | GetTokenOp;
/** Ops that contain other ops (not program steps themselves). */
export type BlockOp = RepeatOp | TryOp;
export type Op =
  | LockOp
  | TryLockOp
  | LockInterruptiblyOp
  | UnlockOp
  | ForceUnlockOp
  | WorkOp
  | SleepOp
  | UseOp
  | CommitOp
  | RedisOp
  | EvalOp
  | RepeatOp
  | TryOp
  | QueryOp
  | IsHeldByThreadOp
  | GetTokenOp
  | ContinueOnOp;

export interface ThreadSpec {
  id: number;
  start: number;
  program: Op[];
}
export interface ClientSpec {
  id: string;
  threads: ThreadSpec[];
}

export type Fault =
  | { kind: 'crash'; at: number; node?: string; client?: string }
  | { kind: 'restart'; at: number; node: string }
  | { kind: 'pause'; at: number; client: string; ms: number }
  | { kind: 'partition'; at: number; groups: string[][]; healAt?: number; reset?: boolean }
  | { kind: 'clock'; at: number; node: string; jumpMs: number }
  | { kind: 'interrupt'; at: number; client: string; thread: number }
  /** from `at` until `endAt`, links touching `endpoints` (all when absent) take `ms` longer one way */
  | { kind: 'latency'; at: number; ms: number; endAt: number; endpoints?: string[] }
  /** the node is busy for `ms` (a slow script, a fork, DEBUG SLEEP): commands queue up */
  | { kind: 'stall'; at: number; node: string; ms: number }
  /** the client's event loop gets no CPU for `ms` while its threads and timers run */
  | { kind: 'starve'; at: number; client: string; ms: number }
  /** Future.cancel() on the acquire the thread waits for (as if it were lockAsync(...).get()) */
  | { kind: 'cancel'; at: number; client: string; thread: number };

export interface Scenario {
  format: 'lockscope/1';
  title?: string;
  /** the title in Chinese (a lesson's own scenario); the page shows it to a Chinese reader */
  titleZh?: string;
  description?: string;
  seed: number;
  /** null: until every program ended, capped at DEFAULT_RUN_CAP_MS */
  until: number | null;
  redis: {
    topology: 'single' | 'sentinel' | 'independent' | 'cluster';
    /** default 1, 3 in `cluster` */
    masters: number;
    /** priority: replica-priority (lower is promoted first, 0 never; default 100) */
    replicas: { lagMs: number; priority?: number }[];
    /** cluster (filled in only there): replicas of each master (replica k follows master ((k-1) mod masters)+1) */
    replicasPerMaster?: number;
    /** cluster (filled in only there): cluster-node-timeout (PFAIL after this long without a pong) */
    clusterNodeTimeoutMs?: number;
    sentinel: { count: number; quorum: number; downAfterMs: number; failoverMs: number };
    persistence: 'none' | 'aof-always';
    minReplicasToWrite: number;
    scriptBudget: number;
  };
  network: { latencyMs: number };
  redisson: RedissonSettingsResolved;
  resource: { kind: 'counter' | 'fenced'; initial: number; transactional?: boolean };
  clients: ClientSpec[];
  faults: Fault[];
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const int = (lo: number, hi: number, what = 'an integer') =>
  v.pipe(
    v.number(`expected ${what}`),
    v.integer(`expected ${what}`),
    v.minValue(lo, `expected ${what} >= ${lo}`),
    v.maxValue(hi, `expected ${what} <= ${hi}`),
  );
const ms = () => int(0, LIMITS.ms, 'a whole number of ms');
/**
 * A lock op's lease: whole ms, or -1, which Redisson's own API takes for "no lease, use the
 * watchdog" (`tryLock(wait, -1, unit)`): read as if `leaseMs` were left out.
 */
const lease = () =>
  v.pipe(
    v.union([v.literal(-1), ms()], 'expected a whole number of ms >= 0, or -1 for the watchdog'),
    v.transform((x): number | undefined => (x === -1 ? undefined : x)),
  );
/** A string of at most `max` characters (`what` names it in the message when it is longer). */
const text = (expected: string, max: number, what: string) =>
  v.pipe(v.string(expected), v.maxLength(max, `${what} longer than ${max} characters`));
const luaText = () => text('expected the Lua source as a string', LIMITS.scriptLength, 'script');
const name = (what: string) =>
  v.pipe(
    text(`expected ${what} (a string)`, LIMITS.nameLength, what),
    v.minLength(1, `expected a non-empty ${what}`),
  );
const arg = () => text('expected a string', LIMITS.argLength, 'argument');
const args = (min: number) =>
  v.pipe(
    v.array(arg(), 'expected an array of strings'),
    v.minLength(min, `expected at least ${min} item(s)`),
    v.maxLength(LIMITS.argvItems, `more than ${LIMITS.argvItems} items`),
  );
const lockType = () =>
  v.picklist(LOCK_TYPES, `expected one of ${LOCK_TYPES.map((t) => `"${t}"`).join(', ')}`);
const lockList = () =>
  v.pipe(
    v.array(name('lock name'), 'expected an array of lock names'),
    v.minLength(1, 'expected at least one lock'),
    v.maxLength(LIMITS.masters, `more than ${LIMITS.masters} locks`),
  );

const OP_NAMES = [
  'lock',
  'tryLock',
  'lockInterruptibly',
  'unlock',
  'forceUnlock',
  'work',
  'sleep',
  'use',
  'redis',
  'eval',
  'repeat',
  'try',
  'isLocked',
  'isHeldByThread',
  'getHoldCount',
  'remainTimeToLive',
  'getToken',
  'commit',
  'continueOn',
] as const;

const opList = () =>
  v.array(
    v.lazy(() => OpSchema),
    'expected an array of ops',
  );
const javaClassName = () =>
  v.pipe(
    v.string('expected a Java class name (a string)'),
    v.maxLength(LIMITS.nameLength, `class name longer than ${LIMITS.nameLength} characters`),
    v.regex(
      /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/,
      'expected a Java class name such as "RedisException" or "java.lang.IllegalStateException"',
    ),
  );
const queryOp = <const N extends QueryOp['op']>(op: N) =>
  v.strictObject({
    op: v.literal(op),
    lock: name('lock name'),
    type: v.optional(lockType()),
    locks: v.optional(lockList()),
  });

/** An acquiring op: the lock, `extra` (tryLock's waitMs), then the lease, the type and a MultiLock's locks. */
function acquireOp<O extends string, E extends v.ObjectEntries>(op: O, extra: E) {
  return v.strictObject({
    op: v.literal(op),
    lock: name('lock name'),
    ...extra,
    leaseMs: v.optional(lease()),
    type: v.optional(lockType(), 'RLock'),
    locks: v.optional(lockList()),
    owner: v.optional(ownerId()),
  });
}

/** A Java thread id as lockAsync(threadId) takes it: any positive id, not only a thread of the scenario. */
const ownerId = () => int(1, LIMITS.ownerId, 'an owner id (a positive integer, the threadId of lockAsync)');

const OpSchema: v.GenericSchema<unknown, Op> = v.variant(
  'op',
  [
    acquireOp('lock', {}),
    acquireOp('tryLock', { waitMs: v.optional(ms()) }),
    acquireOp('lockInterruptibly', {}),
    v.strictObject({
      op: v.literal('unlock'),
      lock: name('lock name'),
      type: v.optional(lockType()),
      locks: v.optional(lockList()),
      owner: v.optional(ownerId()),
    }),
    v.strictObject({ op: v.literal('continueOn'), thread: int(1, 9999, 'a thread id (integer)') }),
    v.strictObject({ op: v.literal('forceUnlock'), lock: name('lock name'), type: v.optional(lockType()) }),
    v.strictObject({ op: v.literal('work'), ms: ms() }),
    v.strictObject({ op: v.literal('sleep'), ms: ms() }),
    v.strictObject({ op: v.literal('use'), ms: v.optional(ms(), 1) }),
    v.strictObject({ op: v.literal('commit'), ms: v.optional(ms(), 1) }),
    v.strictObject({ op: v.literal('redis'), argv: args(1) }),
    v.strictObject({
      op: v.literal('eval'),
      script: luaText(),
      keys: v.optional(args(0), () => []),
      args: v.optional(args(0), () => []),
    }),
    v.strictObject({
      op: v.literal('repeat'),
      times: int(0, LIMITS.repeatTimes),
      body: opList(),
    }),
    v.strictObject({
      op: v.literal('try'),
      body: opList(),
      catch: v.optional(opList()),
      catchClass: v.optional(javaClassName()),
      finally: v.optional(opList()),
    }),
    queryOp('isLocked'),
    queryOp('getHoldCount'),
    queryOp('remainTimeToLive'),
    v.strictObject({
      op: v.literal('isHeldByThread'),
      lock: name('lock name'),
      type: v.optional(lockType()),
      locks: v.optional(lockList()),
      thread: v.optional(int(1, 9999, 'a thread id (integer)')),
    }),
    v.strictObject({
      op: v.literal('getToken'),
      lock: name('lock name'),
      type: v.optional(
        v.literal('FencedLock', 'expected "FencedLock" (only a FencedLock has a token)'),
        'FencedLock',
      ),
    }),
  ],
  (issue) =>
    issue.input === undefined
      ? `missing "op" (one of ${OP_NAMES.join(', ')})`
      : `unknown op ${JSON.stringify(issue.input)} (expected one of ${OP_NAMES.join(', ')})`,
);

const ClientId = v.pipe(
  v.string('expected a client id (a string)'),
  v.regex(
    /^[A-Za-z][A-Za-z0-9_-]{0,15}$/,
    'expected a client id: a letter, then up to 15 letters, digits, "_" or "-"',
  ),
);

const ThreadSchema = v.strictObject({
  id: int(1, 9999, 'a thread id (integer)'),
  start: v.optional(ms(), 0),
  program: v.array(OpSchema, 'expected an array of ops'),
});

const ClientSchema = v.strictObject({
  id: ClientId,
  threads: v.pipe(
    v.array(ThreadSchema, 'expected an array of threads'),
    v.minLength(1, 'expected at least one thread'),
    v.maxLength(LIMITS.threadsPerClient, `more than ${LIMITS.threadsPerClient} threads`),
  ),
});

const FaultSchema = v.variant(
  'kind',
  [
    v.strictObject({
      kind: v.literal('crash'),
      at: ms(),
      node: v.optional(name('node id')),
      client: v.optional(ClientId),
    }),
    v.strictObject({ kind: v.literal('restart'), at: ms(), node: name('node id') }),
    v.strictObject({ kind: v.literal('pause'), at: ms(), client: ClientId, ms: ms() }),
    v.strictObject({
      kind: v.literal('stall'),
      at: ms(),
      node: name('node id'),
      ms: int(1, LIMITS.ms, 'a whole number of ms (how long the node is busy)'),
    }),
    v.strictObject({
      kind: v.literal('starve'),
      at: ms(),
      client: ClientId,
      ms: int(1, LIMITS.ms, 'a whole number of ms (how long its event loop gets no CPU)'),
    }),
    v.strictObject({
      kind: v.literal('partition'),
      at: ms(),
      groups: v.pipe(
        v.array(
          v.pipe(v.array(name('node or client id')), v.minLength(1, 'expected a non-empty group')),
          'expected an array of groups',
        ),
        v.minLength(2, 'expected at least two groups'),
      ),
      healAt: v.optional(ms()),
      reset: v.optional(v.boolean('expected true or false')),
    }),
    v.strictObject({
      kind: v.literal('clock'),
      at: ms(),
      node: name('node id'),
      jumpMs: int(-LIMITS.ms, LIMITS.ms, 'a whole number of ms'),
    }),
    v.strictObject({
      kind: v.literal('interrupt'),
      at: ms(),
      client: ClientId,
      thread: int(1, 9999, 'a thread id (integer)'),
    }),
    v.strictObject({
      kind: v.literal('cancel'),
      at: ms(),
      client: ClientId,
      thread: int(1, 9999, 'a thread id (integer)'),
    }),
    v.strictObject({
      kind: v.literal('latency'),
      at: ms(),
      ms: int(1, LIMITS.ms, 'a whole number of ms (the extra one-way delay)'),
      endAt: ms(),
      endpoints: v.optional(
        v.pipe(
          v.array(name('node or client id'), 'expected an array of node or client ids'),
          v.minLength(1, 'expected at least one id (leave "endpoints" out to slow every link)'),
        ),
      ),
    }),
  ],
  (issue) =>
    `unknown fault kind ${JSON.stringify(issue.input)} (expected one of crash, restart, pause, partition, clock, interrupt, latency, stall, starve, cancel)`,
);

const RedissonSchema = v.strictObject({
  version: v.optional(
    v.pipe(
      v.string('expected a version string'),
      v.regex(
        /^(latest|[2-4]\.\d{1,2}(\.\d{1,2})?)$/,
        'expected "latest" or a Redisson version like "3.27" or "3.12.3"',
      ),
    ),
    REDISSON_LATEST,
  ),
  lockWatchdogTimeout: v.optional(int(1, LIMITS.ms, 'a whole number of ms')),
  checkLockSyncedSlaves: v.optional(v.boolean('expected true or false')),
  slavesSyncTimeout: v.optional(ms()),
  retryAttempts: v.optional(int(0, 100)),
  retryDelayMs: v.optional(ms()),
  timeoutMs: v.optional(int(1, LIMITS.ms, 'a whole number of ms')),
  subscriptionTimeoutMs: v.optional(int(1, LIMITS.ms, 'a whole number of ms')),
  subscriptionConnectionPoolSize: v.optional(int(1, LIMITS.pubSubPool)),
  subscriptionsPerConnection: v.optional(int(1, LIMITS.pubSubPool)),
  scripts: v.optional(
    v.strictObject({
      lock: v.optional(luaText()),
      unlock: v.optional(luaText()),
      renew: v.optional(luaText()),
    }),
  ),
});

const ScenarioSchema = v.strictObject({
  format: v.literal('lockscope/1', 'expected "lockscope/1"'),
  title: v.optional(
    v.pipe(v.string('expected a string'), v.maxLength(200, 'title longer than 200 characters')),
  ),
  titleZh: v.optional(
    v.pipe(v.string('expected a string'), v.maxLength(200, 'titleZh longer than 200 characters')),
  ),
  description: v.optional(
    v.pipe(v.string('expected a string'), v.maxLength(20_000, 'description longer than 20000 characters')),
  ),
  seed: v.optional(int(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer'), 1),
  until: v.optional(v.nullable(int(1, LIMITS.ms, 'a whole number of ms')), null),
  redis: v.optional(
    v.strictObject({
      topology: v.optional(
        v.picklist(
          ['single', 'sentinel', 'independent', 'cluster'],
          'expected "single", "sentinel", "independent" or "cluster"',
        ),
        REDIS_DEFAULTS.topology,
      ),
      // No default here: it depends on the topology (withDeploymentDefaults).
      masters: v.optional(int(1, LIMITS.masters)),
      replicasPerMaster: v.optional(int(0, LIMITS.replicasPerMaster)),
      clusterNodeTimeoutMs: v.optional(int(1, LIMITS.ms, 'a whole number of ms')),
      replicas: v.optional(
        v.pipe(
          v.array(
            v.strictObject({
              lagMs: v.optional(ms(), REPLICA_DEFAULTS.lagMs),
              priority: v.optional(int(0, 1000)),
            }),
            'expected an array of replicas',
          ),
          v.maxLength(LIMITS.replicas, `more than ${LIMITS.replicas} replicas`),
        ),
        () => [],
      ),
      sentinel: v.optional(
        v.strictObject({
          count: v.optional(int(1, LIMITS.sentinels), SENTINEL_DEFAULTS.count),
          quorum: v.optional(int(1, LIMITS.sentinels), SENTINEL_DEFAULTS.quorum),
          downAfterMs: v.optional(ms(), SENTINEL_DEFAULTS.downAfterMs),
          failoverMs: v.optional(ms(), SENTINEL_DEFAULTS.failoverMs),
        }),
        () => ({ ...SENTINEL_DEFAULTS }),
      ),
      persistence: v.optional(
        v.picklist(['none', 'aof-always'], 'expected "none" or "aof-always"'),
        REDIS_DEFAULTS.persistence,
      ),
      minReplicasToWrite: v.optional(int(0, LIMITS.replicas), REDIS_DEFAULTS.minReplicasToWrite),
      scriptBudget: v.optional(int(1000, LIMITS.scriptBudget), REDIS_DEFAULTS.scriptBudget),
    }),
    () => ({}),
  ),
  network: v.optional(
    v.strictObject({
      latencyMs: v.optional(int(0, LIMITS.latencyMs, 'a whole number of ms'), NETWORK_DEFAULTS.latencyMs),
    }),
    () => ({}),
  ),
  redisson: v.optional(RedissonSchema, () => ({})),
  resource: v.optional(
    v.strictObject({
      kind: v.optional(v.picklist(['counter', 'fenced'], 'expected "counter" or "fenced"'), 'counter'),
      initial: v.optional(int(-1e12, 1e12), 0),
      transactional: v.optional(v.boolean('expected true or false')),
    }),
    () => ({}),
  ),
  clients: v.pipe(
    v.array(ClientSchema, 'expected an array of clients'),
    v.minLength(1, 'expected at least one client'),
    v.maxLength(LIMITS.clients, `more than ${LIMITS.clients} clients`),
  ),
  faults: v.optional(
    v.pipe(
      v.array(FaultSchema, 'expected an array of faults'),
      v.maxLength(LIMITS.faults, `more than ${LIMITS.faults} faults`),
    ),
    () => [],
  ),
});

// ---------------------------------------------------------------------------------------------
// Validation

/**
 * Program steps once every `repeat` is expanded and every `try` laid out as its body, then its
 * catch, then its finally (what the limits count, and what a thread's `step` indexes).
 */
export function expandedLength(program: readonly Op[]): number {
  let n = 0;
  for (const op of program) n += opLength(op);
  return n;
}

/** Steps of one op in the expanded program (0 for an empty block). */
export function opLength(op: Op): number {
  if (op.op === 'repeat') return op.times * expandedLength(op.body);
  if (op.op === 'try')
    return expandedLength(op.body) + expandedLength(op.catch ?? []) + expandedLength(op.finally ?? []);
  return 1;
}

export function formatPath(path: readonly (string | number)[]): string {
  let s = '';
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s === '' ? k : `.${k}`;
  return s || '(root)';
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return `unknown field ${issue.received}`;
  if (issue.input === undefined && issue.kind === 'schema' && issue.type !== 'variant')
    return 'missing required field';
  return issue.message.replace(/^Invalid (\w+): E/, 'e');
}

/**
 * Hostile input is normal input: a scenario nested thousands of levels deep would overflow the
 * stack of any recursive validator, so the shape is measured first, without recursion.
 */
function shapeIssue(json: unknown): SchemaIssue | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: json, path: [] }];
  let count = 0;
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (++count > LIMITS.values)
      return { path: '(root)', segments: [], message: `more than ${LIMITS.values} JSON values` };
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= LIMITS.nesting)
      return {
        path: formatPath(path),
        segments: path,
        message: `nested more than ${LIMITS.nesting} levels deep`,
      };
    if (Array.isArray(value)) value.forEach((x, i) => stack.push({ value: x, path: [...path, i] }));
    else
      for (const k of Object.keys(value))
        stack.push({ value: (value as Record<string, unknown>)[k], path: [...path, k] });
  }
  return null;
}

export function validateScenario(json: unknown): ValidationResult<Scenario> {
  const shape = shapeIssue(json);
  if (shape !== null) return { ok: false, issues: [shape] };
  const parsed = v.safeParse(ScenarioSchema, json, { abortPipeEarly: true });
  if (!parsed.success) {
    const issues = parsed.issues.map((i) => {
      const segments = (i.path ?? []).map((p) => p.key as string | number);
      return { path: formatPath(segments), segments, message: issueMessage(i) };
    });
    return { ok: false, issues };
  }
  const scenario = withRedissonDefaults(parsed.output);
  const issues = crossCheck(scenario);
  return issues.length ? { ok: false, issues } : { ok: true, scenario };
}

type Parsed = v.InferOutput<typeof ScenarioSchema>;

function withRedissonDefaults(p: Parsed): Scenario {
  const redisson: Scenario['redisson'] = resolveRedisson(p.redisson);
  const out: Scenario = {
    ...p,
    redis: withDeploymentDefaults(p.redis as Scenario['redis']),
    redisson,
  } as Scenario;
  return out;
}

/**
 * `masters` defaults by topology (3 in a cluster, as seed 002's demo); the cluster fields are
 * filled in only for a cluster, so other scenarios validate to the same object as before.
 */
function withDeploymentDefaults(
  r: Omit<Scenario['redis'], 'masters'> & { masters?: number },
): Scenario['redis'] {
  const cluster = r.topology === 'cluster';
  const out = { ...r, masters: r.masters ?? (cluster ? CLUSTER_DEFAULTS.masters : REDIS_DEFAULTS.masters) };
  if (!cluster) return out;
  return {
    ...out,
    replicasPerMaster: r.replicasPerMaster ?? CLUSTER_DEFAULTS.replicasPerMaster,
    clusterNodeTimeoutMs: r.clusterNodeTimeoutMs ?? CLUSTER_DEFAULTS.nodeTimeoutMs,
  };
}

function crossCheck(s: Scenario): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const add = (path: (string | number)[], message: string) =>
    issues.push({ path: formatPath(path), segments: path, message });
  const { redis } = s;
  const cluster = redis.topology === 'cluster';
  if (redis.masters > 1 && redis.topology !== 'independent' && !cluster)
    add(['redis', 'masters'], `more than one master needs topology "independent" or "cluster"`);
  if (!cluster && redis.replicasPerMaster !== undefined)
    add(['redis', 'replicasPerMaster'], `only read by topology "cluster" (use "replicas")`);
  if (!cluster && redis.clusterNodeTimeoutMs !== undefined)
    add(['redis', 'clusterNodeTimeoutMs'], `only read by topology "cluster"`);
  const clusterReplicas = redis.masters * (redis.replicasPerMaster ?? 0);
  if (cluster && redis.replicas.length > 0 && redis.replicas.length !== clusterReplicas)
    add(
      ['redis', 'replicas'],
      `expected ${clusterReplicas} entries (masters × replicasPerMaster) or none in topology "cluster"`,
    );
  if (redis.topology === 'sentinel' && redis.sentinel.quorum > redis.sentinel.count)
    add(
      ['redis', 'sentinel', 'quorum'],
      `quorum ${redis.sentinel.quorum} is larger than count ${redis.sentinel.count}`,
    );
  const perMaster = cluster ? (redis.replicasPerMaster ?? 0) : redis.replicas.length;
  if (redis.minReplicasToWrite > perMaster)
    add(
      ['redis', 'minReplicasToWrite'],
      `expected at most ${perMaster} (the number of replicas${cluster ? ' per master' : ''})`,
    );

  const nodes = new Set(nodeIds(redis));
  const threads = new Map<string, Set<number>>();
  let totalThreads = 0;
  let totalSteps = 0;
  s.clients.forEach((c, ci) => {
    if (threads.has(c.id)) add(['clients', ci, 'id'], `duplicate client id "${c.id}"`);
    if (nodes.has(c.id) || /^(master|replica|sentinel)(-\d+)?s?$/.test(c.id))
      add(['clients', ci, 'id'], `"${c.id}" is reserved for nodes`);
    const ids = new Set<number>();
    c.threads.forEach((t, ti) => {
      if (ids.has(t.id))
        add(['clients', ci, 'threads', ti, 'id'], `duplicate thread id ${t.id} in client "${c.id}"`);
      ids.add(t.id);
      const steps = expandedLength(t.program);
      if (steps > LIMITS.stepsPerThread)
        add(
          ['clients', ci, 'threads', ti, 'program'],
          `${steps} steps after expanding repeat (at most ${LIMITS.stepsPerThread})`,
        );
      totalSteps += steps;
      checkOps(t.program, ['clients', ci, 'threads', ti, 'program'], redis, add);
      checkLockTypesExist(t.program, ['clients', ci, 'threads', ti, 'program'], s.redisson.version, add);
    });
    threads.set(c.id, ids);
    totalThreads += c.threads.length;
  });
  if (totalThreads > LIMITS.threadsTotal)
    add(['clients'], `${totalThreads} threads in all (at most ${LIMITS.threadsTotal})`);
  if (totalSteps > LIMITS.stepsTotal)
    add(
      ['clients'],
      `${totalSteps} program steps in all after expanding repeat (at most ${LIMITS.stepsTotal})`,
    );

  const checkNode = (path: (string | number)[], id: string) => {
    if (!nodes.has(id)) add(path, `unknown node "${id}" (this topology has ${[...nodes].join(', ')})`);
  };
  const checkClient = (path: (string | number)[], id: string) => {
    if (!threads.has(id)) add(path, `unknown client "${id}"`);
  };
  const checkEndpoint = (path: (string | number)[], id: string) => {
    if (!(nodes.has(id) || threads.has(id) || (id === 'sentinels' && redis.topology === 'sentinel')))
      add(path, `unknown node or client "${id}"`);
  };
  s.faults.forEach((f, fi) => {
    const at = ['faults', fi];
    if (s.until !== null && f.at > s.until) add([...at, 'at'], `after the end of the run (until ${s.until})`);
    switch (f.kind) {
      case 'crash':
        if ((f.node === undefined) === (f.client === undefined))
          add(at, 'expected exactly one of "node" or "client"');
        else if (f.node !== undefined) checkNode([...at, 'node'], f.node);
        else if (f.client !== undefined) checkClient([...at, 'client'], f.client);
        break;
      case 'restart':
      case 'clock':
      case 'stall':
        checkNode([...at, 'node'], f.node);
        break;
      case 'pause':
      case 'starve':
        checkClient([...at, 'client'], f.client);
        break;
      case 'interrupt':
      case 'cancel':
        checkClient([...at, 'client'], f.client);
        if (threads.has(f.client) && !threads.get(f.client)!.has(f.thread))
          add([...at, 'thread'], `client "${f.client}" has no thread ${f.thread}`);
        break;
      case 'partition': {
        const seen = new Set<string>();
        f.groups.forEach((g, gi) =>
          g.forEach((id, ii) => {
            const p = [...at, 'groups', gi, ii];
            if (seen.has(id)) add(p, `"${id}" is in more than one group`);
            seen.add(id);
            checkEndpoint(p, id);
          }),
        );
        if (f.healAt !== undefined && f.healAt <= f.at)
          add([...at, 'healAt'], `expected a time after "at" (${f.at})`);
        break;
      }
      case 'latency':
        f.endpoints?.forEach((id, ii) => checkEndpoint([...at, 'endpoints', ii], id));
        if (f.endAt <= f.at) add([...at, 'endAt'], `expected a time after "at" (${f.at})`);
        break;
    }
  });
  return issues;
}

/** A lock type the scenario's Redisson release does not have yet (SpinLock 3.15.0, FencedLock 3.19.0). */
function checkLockTypesExist(
  ops: readonly Op[],
  path: (string | number)[],
  version: string,
  add: (path: (string | number)[], message: string) => void,
): void {
  const release = resolveRelease(version);
  ops.forEach((op, i) => {
    if (op.op === 'repeat') {
      checkLockTypesExist(op.body, [...path, i, 'body'], version, add);
      return;
    }
    if (!('type' in op) || op.type === undefined) return;
    const since = lockTypeSince(op.type);
    if (since !== undefined && compareVersions(release, since) < 0)
      add(
        [...path, i, 'type'],
        `${op.type} first appeared in Redisson ${since}; redisson.version "${version}" (${release}) does not have it`,
      );
  });
}

function checkOps(
  ops: readonly Op[],
  path: (string | number)[],
  redis: Scenario['redis'],
  add: (path: (string | number)[], message: string) => void,
): void {
  ops.forEach((op, i) => {
    if (op.op === 'repeat') {
      checkOps(op.body, [...path, i, 'body'], redis, add);
      return;
    }
    if (op.op === 'try') {
      checkOps(op.body, [...path, i, 'body'], redis, add);
      if (op.catch) checkOps(op.catch, [...path, i, 'catch'], redis, add);
      if (op.finally) checkOps(op.finally, [...path, i, 'finally'], redis, add);
      return;
    }
    if (!('type' in op) || op.type === undefined) return;
    const multi = MULTI_LOCK_TYPES.includes(op.type);
    const locks = 'locks' in op ? op.locks : undefined;
    if (multi && op.op !== 'forceUnlock' && locks === undefined)
      add([...path, i, 'locks'], `required for type "${op.type}" (one lock name per master)`);
    if (!multi && locks !== undefined)
      add([...path, i, 'locks'], `only allowed with type "MultiLock" or "RedLock"`);
    // in `independent` the i-th lock lives on master-i
    if (multi && locks !== undefined && redis.topology === 'independent' && locks.length > redis.masters)
      add(
        [...path, i, 'locks'],
        `${locks.length} locks but ${redis.masters} masters (one lock per master in "independent")`,
      );
  });
}
