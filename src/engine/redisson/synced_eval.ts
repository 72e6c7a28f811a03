/**
 * What CommandAsyncService.syncedEval sends besides the script and its WAIT, by release (read
 * from the release tags; the oracle's recordings at 3.27.2 and 4.7.0 show it):
 * - 3.21.0 moved the synced call into CommandAsyncService, which reads a master's replica count
 *   with `INFO REPLICATION` when MasterSlaveEntry.getAvailableSlaves() is -1 (at first, and after
 *   a WAIT answered fewer replicas than expected); 3.46.0 reads `INFO ALL` (it also wants
 *   aof_enabled) and also forgets the count after a WAIT answered more.
 * - 3.26.1 probes once whether the server knows WAIT (`WAIT 0 0`); 3.46.0 probes WAIT and WAITAOF
 *   in one batch (`WAITAOF 0 0 0`, unknown to Redis 7.0).
 * - The script and WAIT go as one batch (CommandBatchService). With useScriptCache (3.46+) the
 *   batch sends `SCRIPT LOAD` first for a script the client has not loaded on that node, then
 *   EVALSHA; from 3.48.0 a NOSCRIPT answer (the node lost its scripts) loads the script and runs
 *   the whole syncedEval again.
 */
import { isCallInterrupted, sleep, type Process } from '../sim/effects';
import { scriptSha } from '../redis/eval';
import { error, type Reply } from '../redis/reply';
import { NO_SYNCED_SLAVES, NO_SYNCED_SLAVES_OLD, noSyncedReply } from './errors';
import type { Attempts } from './executor';
import { isNoScript, type RedissonClient } from './RedissonClient';
import { compareVersions } from './versions';

export interface SyncedEvalRules {
  /** 3.21+: the batch path of CommandAsyncService.syncedEval; before, RedissonBaseLock's own */
  batch: boolean;
  /** the WAIT support probe, sent once per client (empty: none) */
  probe: string[][];
  /** how the replica count is read when it is unknown */
  info: string[];
  /** a WAIT that answered more replicas than expected also forgets the count */
  forgetOnMore: boolean;
  /** NOSCRIPT from the batch: load the script and run syncedEval again */
  reloadOnNoScript: boolean;
}

export function syncedEvalRules(release: string): SyncedEvalRules {
  const from = (v: string) => compareVersions(release, v) >= 0;
  const probe = !from('3.26.1')
    ? []
    : from('3.46.0')
      ? [
          ['WAIT', '0', '0'],
          ['WAITAOF', '0', '0', '0'],
        ]
      : [['WAIT', '0', '0']];
  return {
    batch: from('3.21.0'),
    probe,
    info: from('3.46.0') ? ['INFO', 'ALL'] : ['INFO', 'REPLICATION'],
    forgetOnMore: from('3.46.0'),
    reloadOnNoScript: from('3.48.0'),
  };
}

/** connected_slaves from an INFO reply (0 when it is missing, as Redisson's getOrDefault). */
export function connectedSlaves(info: Reply): number {
  if (info.t !== 'bulk' || info.v === null) return 0;
  const m = /(?:^|\n)connected_slaves:(\d+)/.exec(info.v);
  return m ? Number(m[1]) : 0;
}

/** What the WAIT paths use of their client: its calls and its routing. */
export type SyncedEvalClient = Pick<
  RedissonClient,
  'name' | 'ctx' | 'config' | 'clusterMode' | 'master' | 'connection' | 'call' | 'route' | 'evalOn' | 'syncedEval'
>;

/** A batch an interrupted get() left, for the client to finish (SyncedEval.finishBatch). */
interface BatchLeft {
  readonly node: string;
  readonly expected: number;
  readonly script: string;
  readonly keys: readonly string[];
  readonly args: readonly (string | number)[];
  readonly onAbandoned: ((reply: Reply) => void) | undefined;
}

/** One call's chain (CommandAsyncService.syncedEval, 3.21+), as its steps hand it on. */
interface Chain {
  readonly script: string;
  readonly keys: readonly string[];
  readonly args: readonly (string | number)[];
  readonly onAbandoned: ((reply: Reply) => void) | undefined;
  readonly attempts: Attempts | undefined;
  readonly rules: SyncedEvalRules;
  /** the key's master by the client's map when the call starts */
  readonly node: string;
}

/** What the batch hands back after a NOSCRIPT it reloaded: run the whole syncedEval again (`settled`). */
const AGAIN: Reply = error('NOSCRIPT reloaded: syncedEval again');
/** The least virtual time a NOSCRIPT round takes (settled). */
const ROUND_MS = 1;

/** A step's reply that ends the chain. */
// eslint-disable-next-line require-yield
function* answered(r: Reply): Process<Reply> {
  return r;
}

/** The MasterSlaveEntry the replica count belongs to (a Sentinel failover keeps it: changeMaster). */
function entryOf(c: SyncedEvalClient, node: string): string {
  return c.clusterMode ? node : 'master';
}

/** syncedEval's paths that WAIT for replicas, and what a client remembers between them. */
export class SyncedEval {
  /** MasterSlaveEntry's cached replica count per master (connected_slaves); absent: read it again */
  private readonly availableSlaves = new Map<string, number>();
  /** syncedEval's WAIT support probe ran (3.26.1+: once per client) */
  private waitProbed = false;
  /** ServiceManager.SCRIPT_SHA_CACHE: the scripts this client's batches loaded, per node (3.46+) */
  private readonly batchLoaded = new Map<string, Set<string>>();

  constructor(private readonly c: SyncedEvalClient) {}

  /** syncedEval where the release and config WAIT for replicas. */
  *withWait(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
  ): Process<Reply> {
    const rules = syncedEvalRules(this.c.config.traits.release);
    if (!rules.batch) return yield* this.syncedByEntry(script, keys, args, onAbandoned, attempts);
    const chain: Chain = { script, keys, args, onAbandoned, attempts, rules, node: this.c.master(keys[0]) };
    return yield* this.settled(chain, this.probe(chain, 0));
  }

  /**
   * A chain run to its outcome: after a NOSCRIPT reloaded (AGAIN) the whole syncedEval again, from
   * the key's master as the map has it then. A loop, not a nested call per round: with a stale map
   * the rounds go on until the scan, hundreds of them.
   */
  private *settled(chain: Chain, run: Process<Reply>): Process<Reply> {
    let round = this.c.ctx.now();
    let r = yield* run;
    while (r === AGAIN) {
      // a round is never free: the real client's took 3-8 ms at 0.1 ms a round trip, its own
      // work between the replies; at latencyMs 0 the model's would all fall on one instant
      if (this.c.ctx.now() === round) yield* sleep(ROUND_MS);
      round = this.c.ctx.now();
      const again: Chain = { ...chain, node: this.c.master(chain.keys[0]) };
      r = yield* this.probe(again, 0);
    }
    return r;
  }

  /**
   * One call of the chain before its batch, and what its reply leads to (`then`). The thread's
   * get() waits on the chain's last future, each step a thenCompose on the one before: an
   * interrupt leaves the chain going on without the thread, so the client takes it on from the
   * reply, and what is chained after the script gets the chain's outcome.
   */
  private *step(chain: Chain, argv: readonly string[], then: (reply: Reply) => Process<Reply>): Process<Reply> {
    const r = yield* this.c.call(this.c.connection(chain.node), argv, (late) => {
      this.c.ctx.spawn(this.c.name, `${this.c.name}/batch`, this.chainLeft(chain, then(late)));
    });
    return isCallInterrupted(r) ? r : yield* then(r);
  }

  /** The rest of a chain an interrupted get() left, on the client's own process. */
  private *chainLeft(chain: Chain, rest: Process<Reply>): Process<void> {
    const r = yield* this.settled(chain, rest);
    chain.onAbandoned?.(r);
  }

  /** The WAIT support probe: one batch, once per client (3.26.1+). */
  private *probe(chain: Chain, i: number): Process<Reply> {
    const { probe } = chain.rules;
    if ((i === 0 && this.waitProbed) || i === probe.length) {
      if (i > 0) this.waitProbed = true;
      return yield* this.replicaCount(chain);
    }
    return yield* this.step(chain, probe[i], (r) =>
      r.t === 'error' && !r.v.startsWith('ERR unknown command') ? answered(r) : this.probe(chain, i + 1),
    );
  }

  /** MasterSlaveEntry.getAvailableSlaves() == -1: read connected_slaves. */
  private *replicaCount(chain: Chain): Process<Reply> {
    const known = this.availableSlaves.get(entryOf(this.c, chain.node));
    if (known !== undefined) return yield* this.loadScript(chain, known);
    return yield* this.step(chain, chain.rules.info, (info) => {
      if (info.t === 'error') return answered(info);
      const expected = connectedSlaves(info);
      this.availableSlaves.set(entryOf(this.c, chain.node), expected);
      return this.loadScript(chain, expected);
    });
  }

  /**
   * CommandBatchService.loadScripts (useScriptCache, 3.46+): SCRIPT LOAD first for a script this
   * client has not loaded on that node, then the batch sends EVALSHA.
   */
  private *loadScript(chain: Chain, expected: number): Process<Reply> {
    if (!this.c.config.traits.useScriptCache) return yield* this.batch(chain, expected, false);
    const sha = scriptSha(chain.script);
    const loaded = this.batchLoaded.get(chain.node) ?? new Set<string>();
    if (loaded.has(sha)) return yield* this.batch(chain, expected, true);
    return yield* this.step(chain, ['SCRIPT', 'LOAD', chain.script], (r) => {
      if (r.t === 'error') return answered(r);
      loaded.add(sha);
      this.batchLoaded.set(chain.node, loaded);
      return this.batch(chain, expected, true);
    });
  }

  /** The script and its WAIT, and what their replies make of the call. */
  private *batch(chain: Chain, expected: number, cached: boolean): Process<Reply> {
    const { script, keys, args, onAbandoned, attempts, rules } = chain;
    const tail = [String(keys.length), ...keys, ...args.map(String)];
    const evalArgv = cached ? ['EVALSHA', scriptSha(script), ...tail] : ['EVAL', script, ...tail];
    // the batch goes on where the script was answered (after a MOVED, the node it led to)
    const abandoned = (r: Reply, at: string): void => {
      const left: BatchLeft = { node: at, expected, script, keys, args, onAbandoned };
      this.c.ctx.spawn(this.c.name, `${this.c.name}/batch`, this.finishBatch(left, r));
    };
    const [reply, at] = yield* this.c.route.send(chain.node, evalArgv, keys[0], abandoned, attempts);
    // an interrupted get() leaves the whole batch to go on without the thread (batchWhenAbandoned)
    if (isCallInterrupted(reply)) return reply;
    // 3.48+: loadScript, then the whole syncedEval again (settled); an interrupt during either
    // leaves that to the client too
    const reloads = reply.t === 'error' && reply.v.startsWith('NOSCRIPT') && rules.reloadOnNoScript;
    const reloadLeft = () => {
      this.c.ctx.spawn(this.c.name, `${this.c.name}/batch`, this.chainLeft(chain, this.reloaded(keys[0], script)));
    };
    // the batch sends WAIT behind the script whatever the script answers
    const w =
      expected === 0
        ? null
        : yield* this.waitFor(at, expected, reloads ? reloadLeft : this.outcomeLate(reply, expected, onAbandoned));
    if (w !== null && isCallInterrupted(w)) return w;
    if (reloads) {
      const r = yield* this.reload(keys[0], script, (late) => {
        this.c.ctx.spawn(this.c.name, `${this.c.name}/batch`, this.chainLeft(chain, answered(late.t === 'error' ? late : AGAIN)));
      });
      if (isCallInterrupted(r)) return r;
      return r.t === 'error' ? r : AGAIN;
    }
    if (reply.t === 'error' || w === null) return reply;
    const entry = entryOf(this.c, chain.node);
    if (w.t === 'int') {
      const synced = Number(w.v);
      if (synced < expected || (rules.forgetOnMore && synced > expected)) this.availableSlaves.delete(entry);
    } else if (w.t !== 'error') this.availableSlaves.delete(entry);
    return this.batchOutcome(reply, w, expected);
  }

  /**
   * The batch once an interrupted get() left it: its WAIT still goes out behind the script (a
   * NOSCRIPT answer loads the script and runs the whole syncedEval again), and what is chained on
   * the script's future gets the batch's outcome. One Java get(), so the thread draws once.
   */
  private *finishBatch(
    { node, expected, script, keys, args, onAbandoned }: BatchLeft,
    reply: Reply,
  ): Process<void> {
    const rules = syncedEvalRules(this.c.config.traits.release);
    if (isNoScript(reply) && rules.reloadOnNoScript) {
      // the batch's WAIT still goes out behind the script
      if (expected > 0) yield* this.waitFor(node, expected);
      const r = yield* this.reload(keys[0], script);
      onAbandoned?.(r.t === 'error' ? r : yield* this.c.syncedEval(script, keys, args));
      return;
    }
    if (expected === 0) {
      onAbandoned?.(reply);
      return;
    }
    const w = yield* this.waitFor(node, expected);
    onAbandoned?.(this.batchOutcome(reply, w, expected));
  }

  /**
   * 3.48+ after a NOSCRIPT from the batch: loadScript on the key's entry as the client's slot map
   * has it (connectionManager.getEntry(key)), not on the node that answered. After a MOVED from a
   * stale map these differ: the script is loaded on the old node again, the call runs again, is
   * redirected again and meets NOSCRIPT again, round after round until a scan of the map. The
   * oracle saw it (cluster-moved-stale-map@4.7.0: rounds for 0.3 s in one run, 5.8 s in another).
   */
  private reload(key: string, script: string, late?: (reply: Reply) => void): Process<Reply> {
    return this.c.call(this.c.connection(this.c.master(key)), ['SCRIPT', 'LOAD', script], late);
  }

  /** reload, then AGAIN (syncedEval again) unless it failed: the rest of a chain the WAIT's interrupt left. */
  private *reloaded(key: string, script: string): Process<Reply> {
    const r = yield* this.reload(key, script);
    return r.t === 'error' ? r : AGAIN;
  }

  /** What the EVAL+WAIT batch completes the script's future with: the script's reply, or the failure. */
  private batchOutcome(reply: Reply, w: Reply, expected: number): Reply {
    if (reply.t === 'error') return reply;
    if (w.t === 'error') return w;
    const failed = this.noSyncedFailure(w.t === 'int' ? Number(w.v) : 0, expected);
    return failed === null ? reply : error(failed);
  }

  /** The batch's WAIT: it completes the script's future once WAIT is answered too. */
  private *waitFor(node: string, expected: number, late?: (w: Reply) => void): Process<Reply> {
    return yield* this.c.call(
      this.c.connection(node),
      ['WAIT', String(expected), String(this.c.config.slavesSyncTimeout)],
      late,
      // the EVAL+WAIT batch's response timeout is timeout + slavesSyncTimeout
      this.c.config.timeoutMs + this.c.config.slavesSyncTimeout,
    );
  }

  /**
   * An abandoned WAIT's reply: what is chained on the script's future gets the batch's outcome (a
   * failed replica check completes it exceptionally, so a thenApply after it, an unlock's latch
   * DEL, does not run).
   */
  private outcomeLate(reply: Reply, expected: number, onAbandoned?: (reply: Reply) => void) {
    return onAbandoned && ((w: Reply) => onAbandoned(this.batchOutcome(reply, w, expected)));
  }

  /**
   * 3.12.5–3.20 RedissonBaseLock.evalWriteAsync: the script and WAIT for as many replicas as the
   * master's entry knows (here the master's connected replicas), WAIT after the script's reply;
   * a count other than expected makes the next call count again.
   */
  private *syncedByEntry(
    script: string,
    keys: readonly string[],
    args: readonly (string | number)[],
    onAbandoned?: (reply: Reply) => void,
    attempts?: Attempts,
  ): Process<Reply> {
    const ranOn = { node: '' };
    // the script and its WAIT are one batch: an interrupt that leaves the script leaves the WAIT to
    // go out behind it, and what is chained on the call gets the batch's outcome (where a MOVED
    // led, the node that answered)
    const late = (r: Reply, at?: string): void => {
      const node = at ?? ranOn.node;
      this.c.ctx.spawn(this.c.name, `${this.c.name}/batch`, this.entryLeft(node, r, onAbandoned));
    };
    const reply = yield* this.c.evalOn(script, keys, args, late, attempts, ranOn);
    return yield* this.afterEntryScript(ranOn.node, reply, onAbandoned);
  }

  /** syncedByEntry after the script's reply: WAIT for the entry's replicas, then the check. */
  private *afterEntryScript(node: string, reply: Reply, onAbandoned?: (reply: Reply) => void): Process<Reply> {
    if (reply.t === 'error') return reply;
    let expected = this.availableSlaves.get(node);
    if (expected === undefined) {
      expected = this.c.ctx.replicasOf?.(node) ?? 0;
      this.availableSlaves.set(node, expected);
    }
    if (expected === 0) return reply;
    const w = yield* this.waitFor(node, expected, this.outcomeLate(reply, expected, onAbandoned));
    if (w.t === 'error') return w;
    const synced = w.t === 'int' ? Number(w.v) : 0;
    if (synced !== expected) this.availableSlaves.delete(node);
    const failed = this.noSyncedFailure(synced, expected);
    return failed === null ? reply : error(failed);
  }

  /** syncedByEntry's batch once an interrupted get() left it, on the client's own process. */
  private *entryLeft(node: string, reply: Reply, onAbandoned?: (reply: Reply) => void): Process<void> {
    const r = yield* this.afterEntryScript(node, reply);
    onAbandoned?.(r);
  }

  /**
   * The replica check of the release: none before 3.16.7; "all must ack" (IllegalStateException
   * "Only x of y slaves were synced") 3.16.7–3.17.4; "0 acks fail" from 3.17.5, whose message
   * got longer in 3.25.0 and whose class became NoSyncedSlavesException in 3.47.0.
   */
  private noSyncedFailure(synced: number, expected: number): string | null {
    const { traits, checkLockSyncedSlaves } = this.c.config;
    if (traits.replicaCheck === 'none') return null;
    if (traits.replicaCheck === 'all')
      return synced < expected
        ? noSyncedReply('IllegalStateException', `Only ${synced} of ${expected} slaves were synced`)
        : null;
    if (!checkLockSyncedSlaves || synced !== 0) return null;
    if (compareVersions(traits.release, '3.25.0') < 0)
      return noSyncedReply('IllegalStateException', NO_SYNCED_SLAVES_OLD);
    if (compareVersions(traits.release, '3.47.0') < 0)
      return noSyncedReply('IllegalStateException', NO_SYNCED_SLAVES);
    return noSyncedReply('NoSyncedSlavesException', NO_SYNCED_SLAVES);
  }
}
