/**
 * The caption: one plain-language sentence for the event at the cursor, in the viewer's
 * language, with its glossary terms linked. One formatter per event kind, each saying only what
 * the event's own fields show (plus, for a script, what its known reply values mean); the raw
 * event stays in the details (describe-event.ts).
 */
import {
  LIVELOCK_MS,
  NO_LOCK,
  STARVATION_OVERTAKES,
  type EventKind,
  type TraceEvent,
  type TraceEventOf,
  type ViolationKind,
} from '../engine/trace/types';
import { clientOf, watchdogActor } from '../engine/trace/actors';
import { sha1hex } from '../engine/redis/sha1';
import { METHOD_BY_SHA1 } from '../engine/redisson/scripts/methods';
import { translate, type Lang, type MessageKey, type Params } from './i18n';
import { linkTerms, type Linked } from './i18n/glossary';
import { replyText } from './reply-view';

/** A duration in the viewer's language: whole and tenth seconds as s, the rest as ms. */
export function duration(ms: number, lang: Lang): string {
  return Math.abs(ms) >= 1000 && ms % 100 === 0
    ? translate(lang, 'unit.s', { n: ms / 1000 })
    : translate(lang, 'unit.ms', { n: ms });
}

interface Ctx {
  lang: Lang;
  /** sha → the script's name from its header comment (EVAL texts and SCRIPT LOAD replies) */
  scripts: Map<string, string>;
  /** the clients with a watchdog in this run (a SETNX client has none to stop) */
  watchdogs: Set<string>;
}

/** The message and its parameters (an event itself may be passed: only its scalar fields are used). */
/** The caption key `keys` gives `value`, `otherwise` for any other value. */
function keyFor(
  value: string | undefined,
  keys: Record<string, MessageKey>,
  otherwise: MessageKey,
): MessageKey {
  return value !== undefined && Object.hasOwn(keys, value) ? keys[value] : otherwise;
}

type Format<K extends EventKind> = (e: TraceEventOf<K>, c: Ctx) => [MessageKey, object?];

function scalars(o: object | undefined): Params | undefined {
  if (!o) return undefined;
  const out: Params = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  return out;
}

const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const reply = (r: unknown) => clip(replyText(r).replace(/\n\s*/g, ' '));
const list = (xs: readonly string[]) => xs.join(', ');

/**
 * The Redisson method that sends this script ("RedissonLock.tryLockInnerAsync"), known by its
 * SHA1; for any other text, the name its first comment starts with ("-- NaiveLock.unlock: …").
 */
export function scriptName(text: string): string | null {
  return (
    METHOD_BY_SHA1[sha1hex(text)] ?? /^\s*--\s*([A-Z][A-Za-z]*(?:\.[A-Za-z]+)?)[\s:(]/.exec(text)?.[1] ?? null
  );
}

/** What the scripts whose replies we can read mean, by the method in their header. */
type ScriptKind = 'acquire' | 'unlock' | 'renew';
function scriptKind(name: string | null): ScriptKind | null {
  if (name === null) return null;
  if (/^Redisson(Fenced)?Lock\.tryLockInnerAsync$/.test(name)) return 'acquire';
  if (name === 'RedissonLock.unlockInnerAsync') return 'unlock';
  if (name === 'RedissonBaseLock.renewExpirationAsync' || name === 'LockTask') return 'renew';
  return null;
}

function scriptOf(argv: readonly string[], c: Ctx): string | null {
  if (argv[0] === 'EVAL') return scriptName(argv[1] ?? '');
  return c.scripts.get(argv[1] ?? '') ?? null;
}

function errorOf(r: unknown): string | null {
  return typeof r === 'object' && r !== null && 'error' in r ? String((r as { error: unknown }).error) : null;
}

function evalCaption(e: TraceEventOf<'cmd'>, c: Ctx): [MessageKey, object?] {
  const name = scriptOf(e.argv, c);
  const keys = e.argv.slice(3, 3 + Number(e.argv[2] ?? 0));
  const args = e.argv.slice(3 + keys.length);
  const base = { who: e.actor, node: e.node, name: name ?? e.argv[0], lock: keys[0] ?? '' };
  const err = errorOf(e.reply);
  if (err?.startsWith('NOSCRIPT')) return ['caption.noscript', base];
  if (err !== null) return ['caption.scriptError', { ...base, error: clip(err, 80) }];
  const lease = duration(Number(args[0]), c.lang);
  switch (scriptKind(name)) {
    case 'acquire':
      if (e.reply === null || (Array.isArray(e.reply) && e.reply[0] === -1))
        return ['caption.acquireScript.ok', { ...base, lease }];
      if (typeof e.reply === 'number' || Array.isArray(e.reply)) {
        const ttl = Array.isArray(e.reply) ? Number(e.reply[0]) : e.reply;
        // -1 is PTTL's answer for a key without an expiry, not a time left (waiting-fails 5)
        if (ttl === -1) return ['caption.acquireScript.noTtl', base];
        return ['caption.acquireScript.held', { ...base, ttl: duration(ttl, c.lang) }];
      }
      break;
    case 'unlock':
      if (e.reply === 1) return ['caption.unlockScript.released', base];
      if (e.reply === 0) return ['caption.unlockScript.still', base];
      if (e.reply === null) return ['caption.unlockScript.notOwner', base];
      break;
    case 'renew': {
      // LockTask renews a batch and answers one 1/0 per key; the older script a single 1/0.
      const one = Array.isArray(e.reply) && e.reply.length === 1 ? e.reply[0] : e.reply;
      if (one === 1) return ['caption.renewScript.ok', { ...base, lease }];
      if (one === 0) return ['caption.renewScript.lost', base];
      break;
    }
  }
  return ['caption.script', { ...base, reply: reply(e.reply) }];
}

function cmdCaption(e: TraceEventOf<'cmd'>, c: Ctx): [MessageKey, object?] {
  const op = e.argv[0]?.toUpperCase() ?? '';
  if (op === 'EVAL' || op === 'EVALSHA') return evalCaption(e, c);
  const base = { who: e.actor, node: e.node, cmd: clip(e.argv.join(' ')) };
  const err = errorOf(e.reply);
  if (err !== null) return ['caption.cmdError', { ...base, error: clip(err, 80) }];
  if (op === 'SCRIPT' && e.argv[1]?.toUpperCase() === 'LOAD')
    return [
      'caption.scriptLoad',
      { ...base, name: scriptName(e.argv[2] ?? '') ?? translate(c.lang, 'caption.unnamedScript') },
    ];
  if (op === 'SUBSCRIBE' || op === 'UNSUBSCRIBE' || op === 'SSUBSCRIBE' || op === 'SUNSUBSCRIBE')
    return ['caption.cmdSent', base];
  if (op === 'WAIT')
    return [
      'caption.waitCmd',
      { ...base, acked: typeof e.reply === 'number' ? e.reply : reply(e.reply), n: e.argv[1] ?? '' },
    ];
  if (op === 'SETNX' && (e.reply === 1 || e.reply === 0))
    return [e.reply === 1 ? 'caption.setnx.set' : 'caption.setnx.exists', { ...base, key: e.argv[1] ?? '' }];
  return ['caption.cmd', { ...base, reply: reply(e.reply) }];
}

const FORMATS: { [K in EventKind]: Format<K> } = {
  cmd: cmdCaption,
  'script.begin': (e, c) => [
    'caption.scriptBegin',
    { node: e.node, name: (e.script ? scriptName(e.script) : c.scripts.get(e.sha)) ?? e.sha.slice(0, 8) },
  ],
  'script.end': (e) => ['caption.scriptEnd', { node: e.node, reply: reply(e.reply) }],
  'script.line': (e) => ['caption.scriptLine', { node: e.node, line: e.line }],
  'script.call': (e) => [
    'caption.scriptCall',
    { node: e.node, cmd: clip(e.argv.join(' ')), reply: reply(e.reply) },
  ],
  'script.log': (e) => ['caption.scriptLog', { node: e.node, message: clip(e.message, 80) }],
  'wait.result': (e) => ['caption.waitResult', { node: e.node, acked: e.acked }],
  'pubsub.publish': (e) => [
    'caption.publish',
    { node: e.node, channel: e.channel, message: e.message, receivers: e.receivers },
  ],
  'pubsub.deliver': (e) =>
    e.channel === null
      ? ['caption.deliverNone', { who: e.actor, node: e.node }]
      : ['caption.deliver', { who: e.actor, node: e.node, channel: e.channel, message: e.message ?? '' }],
  'pubsub.subscribe': (e) => [
    e.resubscribe ? 'caption.resubscribe' : 'caption.subscribe',
    { who: e.actor, node: e.node, channel: e.channel },
  ],
  'pubsub.unsubscribe': (e) => ['caption.unsubscribe', { who: e.actor, node: e.node, channel: e.channel }],
  'pubsub.wait': (e) => [
    'caption.subWait',
    { who: e.actor, node: e.node, channel: e.channel, used: e.used, capacity: e.capacity },
  ],
  'pubsub.timeout': (e) => [
    e.reason === 'attempts'
      ? 'caption.subGiveUpAttempts'
      : e.reason === 'lock'
        ? 'caption.subGiveUpLock'
        : 'caption.subGiveUp',
    { who: e.actor, node: e.node, channel: e.channel, waited: e.waitedMs },
  ],
  'key.expired': (e) => [e.how === 'lazy' ? 'caption.expiredLazy' : 'caption.expiredActive', e],
  'conn.close': (e) => ['caption.connClose', { node: e.node, conn: e.conn }],
  'node.crash': (e) => ['caption.nodeCrash', e],
  'node.restart': (e) => ['caption.nodeRestart', e],
  'node.clock': (e, c) => [
    e.jumpMs >= 0 ? 'caption.clockAhead' : 'caption.clockBack',
    { node: e.node, jump: duration(Math.abs(e.jumpMs), c.lang), offset: duration(e.offset, c.lang) },
  ],
  'net.partition': (e, c) => [
    e.reset === true ? 'caption.partitionReset' : 'caption.partition',
    {
      // the network's own name for every Sentinel at once
      groups: e.groups
        .map(
          (g) =>
            `[${list(g.map((id) => (id === 'sentinels' ? translate(c.lang, 'caption.sentinels') : id)))}]`,
        )
        .join(' | '),
    },
  ],
  'net.heal': () => ['caption.heal'],
  'net.latency': (e) =>
    e.endpoints === null
      ? ['caption.latencyAll', { ms: e.ms }]
      : ['caption.latency', { who: list(e.endpoints), ms: e.ms }],
  'net.latency.end': () => ['caption.latencyEnd'],
  'client.crash': (e, c) => [c.watchdogs.has(e.client) ? 'caption.clientCrash' : 'caption.clientCrashThreads', e],
  'client.pause': (e, c) => [
    c.watchdogs.has(e.client) ? 'caption.clientPause' : 'caption.clientPauseThreads',
    { client: e.client, ms: duration(e.ms, c.lang) },
  ],
  'client.resume': (e) => ['caption.clientResume', e],
  'thread.cancel': (e) => [
    e.acquiring ? 'caption.threadCancel' : 'caption.threadCancelNone',
    { who: e.actor },
  ],
  'thread.continue': (e) => ['caption.threadContinue', { who: e.actor, thread: e.thread }],
  'client.starve': (e, c) => ['caption.clientStarve', { client: e.client, ms: duration(e.ms, c.lang) }],
  'client.starve.end': (e) => ['caption.clientStarveEnd', e],
  'node.stall': (e, c) => ['caption.nodeStall', { node: e.node, ms: duration(e.ms, c.lang) }],
  'call.timeout': (e, c) => [
    e.notWritten ? 'caption.callNotWritten' : 'caption.callTimeout',
    { who: e.actor, command: e.command, node: e.node, timeout: duration(e.timeoutMs, c.lang) },
  ],
  'reply.late': (e) => [
    'caption.replyLate',
    { who: e.actor, command: e.command, node: e.node, reply: reply(e.reply) },
  ],
  'client.master': (e) =>
    e.slots !== undefined ? ['caption.clientSlots', { ...e, slots: e.slots }] : ['caption.clientMaster', e],
  'cluster.pfail': (e) => ['caption.clusterPfail', e],
  'cluster.fail': (e) => ['caption.clusterFail', e],
  'cluster.election': (e) => ['caption.clusterElection', e],
  'cluster.vote': (e) => ['caption.clusterVote', e],
  'cluster.promoted': (e) => ['caption.clusterPromoted', e],
  'cluster.state': (e) => [e.state === 'ok' ? 'caption.clusterOk' : 'caption.clusterDown', e],
  'repl.apply': (e) => ['caption.replApply', e],
  'repl.sync': (e) => ['caption.replSync', e],
  'sentinel.sdown': (e) => ['caption.sdown', e],
  'sentinel.odown': (e) => ['caption.odown', e],
  'sentinel.leader': (e) => ['caption.leader', e],
  'failover.promote': (e) => ['caption.promote', e],
  'node.role': (e) =>
    e.role === 'master'
      ? ['caption.roleMaster', { node: e.node, by: e.by }]
      : ['caption.roleReplica', { node: e.node, by: e.by, master: e.master ?? '?' }],
  'thread.start': (e) => ['caption.threadStart', { who: e.actor }],
  'thread.done': (e) =>
    e.outcome === 'exception'
      ? [
          'caption.threadThrew',
          { who: e.actor, exception: e.exception ?? '', message: clip(e.message ?? '', 80) },
        ]
      : ['caption.threadDone', { who: e.actor }],
  'thread.interrupt': (e) => ['caption.interrupt', { who: e.actor }],
  'thread.result': (e) => {
    const error = errorOf(e.result);
    return error === null
      ? ['caption.result', { who: e.actor, result: clip(JSON.stringify(e.result) ?? '', 80) }]
      : ['caption.resultError', { who: e.actor, error: clip(error, 80) }];
  },
  'exception.caught': (e) => [
    'caption.caught',
    { who: e.actor, exception: e.exception, message: clip(e.message, 80) },
  ],
  'work.start': (e, c) => {
    const ms = duration(e.ms, c.lang);
    if (e.op === 'sleep') return ['caption.sleep', { who: e.actor, ms }];
    if (e.op === 'commit') return ['caption.commit', { who: e.actor, ms }];
    if (e.op === 'use') return [e.critical ? 'caption.useLocked' : 'caption.use', { who: e.actor, ms }];
    return [e.critical ? 'caption.critical' : 'caption.work', { who: e.actor, ms }];
  },
  'work.end': (e) => ['caption.workEnd', { who: e.actor }],
  'lock.request': (e, c) => {
    const p = { who: e.actor, op: e.op, lock: e.lock, type: e.type };
    if (e.waitMs !== undefined && e.leaseMs !== undefined)
      return [
        'caption.requestWaitLease',
        { ...p, wait: duration(e.waitMs, c.lang), lease: duration(e.leaseMs, c.lang) },
      ];
    if (e.waitMs !== undefined) return ['caption.requestWait', { ...p, wait: duration(e.waitMs, c.lang) }];
    if (e.leaseMs !== undefined)
      return ['caption.requestLease', { ...p, lease: duration(e.leaseMs, c.lang) }];
    return ['caption.request', p];
  },
  'lock.wait': (e, c) => {
    const p = { who: e.actor, lock: e.lock };
    if (e.polling) return ['caption.poll', p];
    const ttl = e.ttl === null ? null : duration(e.ttl, c.lang);
    if (e.waitMs === null)
      return [ttl === null ? 'caption.waitForever' : 'caption.waitMessage', { ...p, ttl: ttl ?? '' }];
    return [
      ttl === null ? 'caption.waitNoTtl' : 'caption.waitLatch',
      { ...p, ttl: ttl ?? '', wait: duration(e.waitMs, c.lang) },
    ];
  },
  'waiter.wakeup': (e) => [
    keyFor(
      e.cause,
      { message: 'caption.wakeMessage', timeout: 'caption.wakeTimeout' },
      'caption.wakeInterrupt',
    ),
    { who: e.actor, lock: e.lock },
  ],
  'lock.acquired': (e, c) => {
    const p = { who: e.actor, lock: e.lock, n: e.holdCount };
    if (typeof e.token === 'number') return ['caption.acquiredToken', { ...p, token: e.token }];
    if (typeof e.validityMs === 'number')
      return ['caption.acquiredValidity', { ...p, validity: duration(e.validityMs, c.lang) }];
    return [e.holdCount > 1 ? 'caption.reacquired' : 'caption.acquired', p];
  },
  'lock.failed': (e) => ['caption.failed', { who: e.actor, lock: e.lock }],
  'unlock.request': (e) => ['caption.unlockRequest', { who: e.actor, lock: e.lock, n: e.holdCount }],
  'lock.released': (e) => [
    e.holdCount > 0 ? 'caption.releasedOne' : 'caption.released',
    { who: e.actor, lock: e.lock, n: e.holdCount },
  ],
  'lock.error': (e) => [
    'caption.lockError',
    { who: e.actor, op: e.op, lock: e.lock, error: clip(e.error, 90) },
  ],
  'watchdog.renew': (e) => {
    const p = { who: e.actor, lock: e.lock, timer: e.timer };
    // Redisson's watchdog timer; a naive lock's own renewal thread (renewal-task 4) is no watchdog
    const watchdog = e.timer === watchdogActor(clientOf(e.actor));
    if (e.result === 1) return [watchdog ? 'caption.renewedWatchdog' : 'caption.renewed', p];
    if (e.result === 0) return ['caption.renewLost', p];
    return ['caption.renewError', { ...p, error: clip(e.error ?? '', 80) }];
  },
  'watchdog.cancel': (e) => [
    keyFor(e.reason, { lost: 'caption.cancelLost', error: 'caption.cancelError' }, 'caption.cancel'),
    { who: e.actor, lock: e.lock, timer: e.timer },
  ],
  'resource.use': (e) => {
    const p = { who: e.actor, value: e.value, token: e.token ?? '', read: e.read };
    if (!e.accepted) return ['caption.refused', p];
    if (e.lostUpdate) return ['caption.lostUpdate', p];
    return [e.token === null ? 'caption.write' : 'caption.writeToken', p];
  },
  'violation.start': (e, c) => [
    'caption.violationStart',
    {
      what: translate(c.lang, violationKey(e.violation, e.lock, e.cause), {
        lock: e.lock,
        ms: LIVELOCK_MS,
        n: STARVATION_OVERTAKES,
        server: e.serverHolds ?? '?',
        client: e.clientHolds ?? '?',
      }),
      holders: list(e.holders),
    },
  ],
  'violation.end': (e) => [
    e.lock === NO_LOCK ? 'caption.violationEndNoLock' : 'caption.violationEnd',
    { kind: e.violation, lock: e.lock },
  ],
};

/** The violation list's wording for a violation, V3 by its cause. */
function violationKey(kind: ViolationKind, lock: string, cause: string | undefined): MessageKey {
  if (kind === 'L2' && cause === 'dead-ahead') return 'violation.L2deadAhead';
  if (kind === 'L2' && cause === 'hung') return 'violation.L2hung';
  if (kind === 'L5' && cause === 'upgrade') return 'violation.L5upgrade';
  if (kind !== 'V3') return `violation.${kind}`;
  if (cause === 'unlocked') return lock === NO_LOCK ? 'violation.V3noLock' : 'violation.V3readLock';
  return cause === 'lost-update' ? 'violation.V3lost' : 'violation.V3';
}

const scriptCache = new WeakMap<readonly TraceEvent[], Map<string, string>>();

/** sha → script name, from the SCRIPT LOAD replies and verbose script.begin texts of a trace. */
function scriptsOf(events: readonly TraceEvent[]): Map<string, string> {
  let map = scriptCache.get(events);
  if (map) return map;
  map = new Map();
  for (const e of events) {
    if (e.kind === 'cmd') {
      // the command's name upper-cased only when its length could match (most are EVALSHA): the
      // caption walks the whole run once per run, which is part of an edit's time in the page
      const cmd = e.argv[0] ?? '';
      if (cmd.length === 6 && cmd.toUpperCase() === 'SCRIPT') {
        if (typeof e.reply === 'string') {
          const name = scriptName(e.argv[2] ?? '');
          if (name) map.set(e.reply, name);
        }
      } else if (cmd.length === 4 && cmd.toUpperCase() === 'EVAL') {
        // A later EVALSHA of the same text names it by its SHA-1, as the server does.
        const name = scriptName(e.argv[1] ?? '');
        if (name) map.set(sha1hex(e.argv[1] ?? ''), name);
      }
    } else if (e.kind === 'script.begin' && e.script) {
      const name = scriptName(e.script);
      if (name) map.set(e.sha, name);
    }
  }
  scriptCache.set(events, map);
  return map;
}

const watchdogCache = new WeakMap<readonly TraceEvent[], Set<string>>();

/** The clients whose watchdog acts anywhere in a trace (its timer renews, cancels or sends). */
function watchdogsOf(events: readonly TraceEvent[]): Set<string> {
  const cached = watchdogCache.get(events);
  if (cached) return cached;
  const found = new Set<string>();
  // a watchdog's actor is its client's name, a slash and more: only such names are compared
  const note = (who: unknown) => {
    if (typeof who !== 'string') return;
    const slash = who.indexOf('/');
    if (slash >= 0 && who === watchdogActor(who.slice(0, slash))) found.add(who.slice(0, slash));
  };
  for (const e of events) {
    note(e.actor);
    if ('timer' in e) note(e.timer);
  }
  watchdogCache.set(events, found);
  return found;
}

/** The caption of events[i] as text runs, glossary terms marked; null before the first event. */
export function captionOf(events: readonly TraceEvent[], i: number, lang: Lang): Linked[] | null {
  const e = events[i];
  return e ? captionOfEvent(e, () => events, lang) : null;
}

/**
 * The caption of `e`, one of the run's events. The run's other events are read only by the few
 * captions that name a script by its SHA or tell a watchdog's client apart, so the caption of the
 * event at the cursor does not make the page parse a run's events before it is drawn
 * (worker-protocol.ts defers them; run-outline.ts brings the cursor's event).
 */
export function captionOfEvent(e: TraceEvent, events: () => readonly TraceEvent[], lang: Lang): Linked[] {
  const format = FORMATS[e.kind] as Format<EventKind> | undefined;
  if (!format) return [{ text: translate(lang, 'caption.unknown', { kind: e.kind }) }];
  const ctx: Ctx = {
    lang,
    get scripts() {
      return scriptsOf(events());
    },
    get watchdogs() {
      return watchdogsOf(events());
    },
  };
  const [key, params] = format(e as never, ctx);
  return linkTerms(translate(lang, key, scalars(params)), lang);
}

/** The caption as one string (tests, the accessible label). */
export function captionText(events: readonly TraceEvent[], i: number, lang: Lang): string {
  return (captionOf(events, i, lang) ?? []).map((p) => p.text).join('');
}
