/**
 * Both sides of a comparison in one shape (shape.ts): the real run from its MONITOR lines, JVM
 * events and keyspace dump; the model from its verbose trace.
 */
import type { Trace, TraceEvent } from '../engine/trace/types';
import type { Op, Scenario } from '../engine/scenario/schema';
import { Namer, clientOfActor, scriptName, sha1 } from './names';
import type { NormCall, NormCommand, NormKey, NormRun } from './shape';
import type { KeyDump, RealObservation } from './run_real';

/** The ops whose outcome the model records as the step's result (program.ts `result`). */
const RESULT_OPS = new Set([
  'tryLock',
  'forceUnlock',
  'isLocked',
  'isHeldByThread',
  'getHoldCount',
  'remainTimeToLive',
  'getToken',
  'redis',
  'eval',
]);

/**
 * Commands that are connection chatter, not the scenario's: dropped on both sides. QUIT is how
 * 3.27.2 closes each pooled connection to a master it leaves (seen when a healed partition shows
 * it the new master); the model closes them without a command.
 */
function chatter(argv: readonly string[]): boolean {
  const c = (argv[0] ?? '').toUpperCase();
  return c === 'PING' || c === 'CLIENT' || c === 'READONLY' || c === 'HELLO' || c === 'SELECT' || c === 'QUIT';
}

/** Every step of a thread's program in the expanded order the model numbers them (schema.ts expandedLength). */
export function flatten(ops: readonly Op[]): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    if (op.op === 'repeat') for (let k = 0; k < op.times; k++) out.push(...flatten(op.body));
    else if (op.op === 'try') out.push(...flatten(op.body), ...flatten(op.catch ?? []), ...flatten(op.finally ?? []));
    else out.push(op);
  }
  return out;
}

function stepOps(s: Scenario): Map<string, Op[]> {
  const m = new Map<string, Op[]>();
  for (const c of s.clients) for (const t of c.threads) m.set(`${c.id}:${t.id}`, flatten(t.program));
  return m;
}

interface ArgvContext {
  namer: Namer;
  client: string;
  /** the release draws the unlock latch's TTL at random (4.x) */
  randomLatchTtl: boolean;
  /** model side: the fair lock's currentTime arguments are virtual ms, shown as `@<ms>` */
  model: boolean;
}

/** The ARGV index (0-based) of the fair lock scripts' currentTime (RedissonFairLock.ts). */
const FAIR_NOW_ARG: Record<string, number> = {
  fairLock: 3,
  fairTryLock: 2,
  fairUnlock: 3,
  fairForceUnlock: 1,
};

export function normaliseArgv(argv: readonly string[], cx: ArgvContext): string[] {
  const cmd = (argv[0] ?? '').toUpperCase();
  const out = argv.map((a) => cx.namer.name(a, cx.client));
  let script: string | null = null;
  if (cmd === 'EVAL' && argv.length > 1) script = out[1] = scriptName(sha1(argv[1]));
  else if (cmd === 'EVALSHA' && argv.length > 1) script = out[1] = scriptName(argv[1]);
  else if (cmd === 'SCRIPT' && (argv[1] ?? '').toUpperCase() === 'LOAD' && argv.length > 2)
    out[2] = scriptName(sha1(argv[2]));
  if (cmd === 'SET' && argv.length >= 3 && argv[2] !== '1' && argv.some((a) => a.toUpperCase() === 'NX'))
    out[2] = cx.namer.token(argv[2], cx.client);
  if (script !== null) {
    const numKeys = Number(argv[2]);
    const argStart = 3 + numKeys;
    const family = script.split('@')[0];
    if (cx.model && FAIR_NOW_ARG[family] !== undefined) {
      const i = argStart + FAIR_NOW_ARG[family];
      if (i < out.length) out[i] = `@${argv[i]}`;
    }
    if (cx.randomLatchTtl && out.some((a) => a.startsWith('redisson_unlock_latch:')) && /^\d+$/.test(out[out.length - 1]))
      out[out.length - 1] = '<latch-ttl>';
  }
  return out;
}

function normaliseLua(argv: readonly string[], cx: ArgvContext): string[] {
  const out = argv.map((a) => cx.namer.name(a, cx.client));
  const c = (argv[0] ?? '').toLowerCase();
  if (cx.randomLatchTtl && c === 'set' && (argv[1] ?? '').startsWith('redisson_unlock_latch:') && out.length >= 5)
    out[4] = '<latch-ttl>';
  if (cx.model && c === 'zadd' && (argv[1] ?? '').startsWith('redisson_lock_timeout:') && out.length >= 3)
    out[2] = `@${argv[2]}`;
  // a TTL a script computed from other keys' remaining time (the read lock's unlock: the longest
  // PTTL of the other readers) moves with real time: `~` marks it for a tolerant comparison
  if (cx.model && c === 'pexpire' && out.length >= 3 && /^\d+$/.test(out[2])) out[2] = `~${argv[2]}`;
  return out;
}

function emptyRun(): NormRun {
  return { commands: {}, calls: {}, done: {}, keyspace: {}, resource: { value: 0, accepted: 0, rejected: 0 }, end: 0 };
}

function push<T>(m: Record<string, T[]>, k: string, v: T): void {
  (m[k] ??= []).push(v);
}

const round = (t: number) => Math.round(t * 10) / 10;

function errorClass(e: string): string {
  const i = e.indexOf(':');
  return i < 0 ? e : e.slice(0, i);
}

// ------------------------------------------------------------------------------------ real side

export function normaliseReal(obs: RealObservation, s: Scenario): NormRun {
  const run = emptyRun();
  run.end = obs.endT;
  const clients = new Set(s.clients.map((c) => c.id));
  const tids = new Map<string, string>();
  for (const [client, evs] of Object.entries(obs.jvm))
    for (const e of evs) if (e.ev === 'tid') tids.set(`${client}:${String(e.jtid)}`, String(e.thread));
  // an id that is no scenario thread's is an explicit owner (lockAsync(threadId)), named as the model names it
  const namer = new Namer((c, tid) => tids.get(`${c}:${tid}`) ?? tid, obs.t0Epoch);
  const randomLatchTtl = Number(obs.release.split('.')[0]) >= 4;

  // who is behind each connection: CLIENT SETNAME, seen by MONITOR at connect time
  const owner = new Map<string, string>();
  for (const l of obs.monitor)
    if (l.argv[0]?.toUpperCase() === 'CLIENT' && l.argv[1]?.toUpperCase() === 'SETNAME') owner.set(`${l.node}|${l.from}`, l.argv[2]);

  // in time order across nodes, so that names (latch ids, tokens) are given in the order of the run
  const lines = [...obs.monitor].sort((a, b) => a.epochMs - b.epochMs);
  const parents = new Map<string, { client: string; c: NormCommand } | null>();
  const all: { client: string; c: NormCommand }[] = [];
  for (const l of lines) {
    const node = l.node;
    if (l.from === 'lua') {
      const parent = parents.get(node);
      if (parent) (parent.c.lua ??= []).push(normaliseLua(l.argv, { namer, client: parent.client, randomLatchTtl, model: false }));
      continue;
    }
    parents.set(node, null);
    const client = owner.get(`${node}|${l.from}`);
    const t = round(l.epochMs - obs.t0Epoch);
    if (client === undefined || !clients.has(client) || t < 0 || chatter(l.argv)) continue;
    const c: NormCommand = { t, node, argv: normaliseArgv(l.argv, { namer, client, randomLatchTtl, model: false }) };
    parents.set(node, { client, c });
    all.push({ client, c });
  }
  all.sort((a, b) => a.c.t - b.c.t);
  for (const { client, c } of all) push(run.commands, client, c);

  const ops = stepOps(s);
  const uses: { t: number; kind: string; token?: number; actor: string }[] = [];
  for (const evs of Object.values(obs.jvm)) {
    for (const e of evs) {
      const actor = e.actor ?? '';
      if (e.ev === 'call') {
        const op = ops.get(actor)?.[e.step!];
        const call: NormCall = { step: e.step!, op: String(e.op), t0: e.t!, t1: null };
        if (op && 'lock' in op) call.lock = op.lock;
        push(run.calls, actor, call);
      } else if (e.ev === 'ret') {
        const call = [...(run.calls[actor] ?? [])].reverse().find((c) => c.step === e.step);
        if (!call) continue;
        call.t1 = e.t!;
        const op = ops.get(actor)?.[e.step!];
        if (typeof e.error === 'string') call.error = e.error;
        else if (RESULT_OPS.has(call.op) || (call.op === 'unlock' && e.result !== null && e.result !== undefined))
          call.result = normaliseResult(e.result, op, namer, clientOfActor(actor));
      } else if (e.ev === 'done') {
        run.done[actor] = e.outcome === 'normal' ? 'normal' : `exception ${String(e.exception)}`;
      } else if (e.ev === 'use-read' || e.ev === 'use-write') {
        uses.push({ t: e.t!, kind: e.ev, token: e.token as number | undefined, actor });
      }
    }
  }
  run.resource = replayResource(s, uses);
  for (const [node, keys] of Object.entries(obs.keyspace)) run.keyspace[node] = normaliseKeys(keys, namer, false);
  return run;
}

/** The protected resource of resource/ProtectedResource.ts, replayed from the uses' reads and writes in time order. */
function replayResource(
  s: Scenario,
  uses: { t: number; kind: string; token?: number; actor: string }[],
): NormRun['resource'] {
  uses.sort((a, b) => a.t - b.t);
  let value = s.resource.initial;
  let accepted = 0;
  let rejected = 0;
  let last: number | undefined;
  const observe = (token: number) => {
    if (last !== undefined && token < last) return false;
    last = token;
    return true;
  };
  const reads = new Map<string, number>();
  for (const u of uses) {
    if (u.kind === 'use-read') {
      reads.set(u.actor, value);
      if (s.resource.kind === 'fenced' && u.token !== undefined) observe(u.token);
      continue;
    }
    const ok = s.resource.kind !== 'fenced' || u.token === undefined || observe(u.token);
    if (ok) {
      value = (reads.get(u.actor) ?? value) + 1;
      accepted++;
    } else rejected++;
  }
  return { value, accepted, rejected, initial: s.resource.initial };
}

function normaliseResult(r: unknown, op: Op | undefined, namer: Namer, client: string): unknown {
  if (typeof r === 'string') return namer.name(r, client);
  if (Array.isArray(r)) return r.map((x) => normaliseResult(x, op, namer, client));
  return r;
}

function normaliseKeys(keys: readonly KeyDump[], namer: Namer, model: boolean): Record<string, NormKey> {
  const out: Record<string, NormKey> = {};
  for (const k of keys) {
    const name = namer.name(k.key, '?');
    const isLatch = k.key.startsWith('redisson_unlock_latch:');
    let value: unknown;
    if (typeof k.value === 'string') value = namer.knownToken(k.value) ?? namer.name(k.value, '?');
    else if (k.type === 'hash')
      value = (k.value as [string, string][]).map(([f, v]) => [namer.name(f, '?'), namer.name(v, '?')]).sort();
    else if (k.type === 'zset')
      value = (k.value as [string, string][]).map(([m, sc]) => [
        namer.name(m, '?'),
        model && k.key.startsWith('redisson_lock_timeout:') ? `@${sc}` : namer.name(sc, '?'),
      ]);
    else value = (k.value as string[]).map((x) => namer.name(x, '?'));
    out[name] = { type: k.type, value, expireAt: isLatch ? null : k.expireAt };
  }
  return out;
}

// ----------------------------------------------------------------------------------- model side

export function normaliseModel(trace: Trace, s: Scenario): NormRun {
  const run = emptyRun();
  run.end = trace.final.t;
  const namer = new Namer();
  const release = trace.redisson?.release ?? '';
  const randomLatchTtl = Number(release.split('.')[0]) >= 4;
  const pendingLua = new Map<string, string[][]>();
  const ops = stepOps(s);
  const fromBytes = (a: string) => Buffer.from(a, 'latin1').toString('utf8');
  for (const e of trace.events as (TraceEvent & Record<string, unknown>)[]) {
    if (e.kind === 'script.call') {
      const node = String(e.node);
      pendingLua.set(node, [...(pendingLua.get(node) ?? []), (e.argv as string[]).map(fromBytes)]);
      continue;
    }
    if (e.kind === 'cmd') {
      const node = String(e.node);
      const lua = pendingLua.get(node);
      pendingLua.delete(node);
      const argv = (e.argv as string[]).map(fromBytes);
      if (chatter(argv) || unknownToRedis(e.reply)) continue;
      const client = clientOfActor(String(e.actor));
      const cx = { namer, client, randomLatchTtl, model: true };
      const c: NormCommand = { t: e.t, node, argv: normaliseArgv(argv, cx) };
      if (lua && lua.length > 0) c.lua = lua.map((l) => normaliseLua(l, cx));
      push(run.commands, client, c);
      continue;
    }
    const actor = typeof e.actor === 'string' ? e.actor : '';
    if (!ops.has(actor)) continue;
    if (e.kind === 'thread.done') {
      run.done[actor] = e.outcome === 'normal' ? 'normal' : `exception ${String(e.exception)}`;
      continue;
    }
    if (typeof e.step !== 'number') continue;
    const list = (run.calls[actor] ??= []);
    let call = list[list.length - 1] as NormCall | undefined;
    if (!call || call.step !== e.step) {
      const op = ops.get(actor)![e.step];
      call = { step: e.step, op: op.op, t0: e.t, t1: e.t };
      if ('lock' in op) call.lock = op.lock;
      list.push(call);
    }
    call.t1 = e.t;
    if (e.kind === 'thread.result') {
      const r = e.result as unknown;
      if (r !== null && typeof r === 'object' && !Array.isArray(r) && 'error' in r && Object.keys(r).length === 1)
        call.error = errorClass(String((r as { error: string }).error));
      else call.result = normaliseResult(r, undefined, namer, clientOfActor(actor));
    }
  }
  // a call the trace shows no return for (its client crashed, the run ended) never returned
  for (const [actor, list] of Object.entries(run.calls)) {
    const last = list[list.length - 1];
    if (last && run.done[actor] === undefined && !returned(trace, actor, last.step)) last.t1 = null;
  }
  run.resource = {
    value: trace.final.resource.value,
    accepted: trace.final.resource.accepted,
    rejected: trace.final.resource.rejected,
    initial: s.resource.initial,
  };
  for (const [node, view] of Object.entries(trace.final.nodes)) {
    // as on the real side: the masters at the end (a replica may still be receiving the last writes)
    if (view.role !== 'master' || !view.up) continue;
    const keys: KeyDump[] = Object.values(view.keys).map((k) => ({
      key: fromBytes(k.key),
      type: k.type,
      value: typeof k.value === 'string' ? fromBytes(k.value) : (k.value as never),
      expireAt: k.expireAt,
    }));
    run.keyspace[node] = normaliseKeys(keys, namer, true);
  }
  return run;
}

/** Whether the op at `step` finished: a result, an acquire, a release, the end of work. */
function returned(trace: Trace, actor: string, step: number): boolean {
  const ends = new Set(['thread.result', 'lock.acquired', 'lock.released', 'lock.failed', 'lock.error', 'work.end']);
  return trace.events.some((e) => (e as { actor?: string }).actor === actor && (e as { step?: number }).step === step && ends.has(e.kind));
}

/**
 * MONITOR never shows a command the server rejects before call(), which feeds the monitors
 * (Redis 7.0 processCommand): one it does not know (4.7.0's probe `WAITAOF 0 0 0` on
 * redis-server 7.0), and in a cluster one it redirects or refuses (clusterRedirectClient:
 * MOVED, ASK, TRYAGAIN, CLUSTERDOWN; the real CLUSTERDOWN re-sends of a lock are invisible).
 */
function unknownToRedis(reply: unknown): boolean {
  const err = (reply as { error?: unknown } | null)?.error;
  return typeof err === 'string' && /^(ERR unknown command|MOVED |ASK |TRYAGAIN|CLUSTERDOWN)/.test(err);
}
