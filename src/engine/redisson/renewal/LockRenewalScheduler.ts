/**
 * The watchdog since Redisson 3.44 (LockRenewalScheduler + LockTask): one task per client renews
 * all of its watchdog locks together, lockWatchdogTimeout/3 after the previous round finished,
 * in EVALs of up to lockWatchdogBatchSize (100) keys. A lock whose renewal answers 0 (gone, or
 * no longer ours) drops one registration of its first thread. The EVAL goes through the synced
 * path (WAIT) without ServiceManager.execute: a lost reply is re-sent, a failed replica check is
 * not; an error is logged and the task carries on with the next round.
 *
 * In a cluster (3.44.0 RenewalTask.execute → renewSlots) the names are grouped by hash slot
 * (`slot2names`) and each slot's group goes out in its own EVALs, one group after the other, so
 * no renewal spans two slots. A round that fails stops there: the rest of the groups (and chunks)
 * wait for the next round, as the thenCompose chain does.
 *
 * Like RenewalTask, `stop()` only clears `running`; a timer already scheduled still fires, and if
 * a lock was added again in between it keeps its own chain going. That is Redisson's behaviour,
 * so two chains can renew side by side.
 */
import { sleep, type Process } from '../../sim/effects';
import { keyHashSlot } from '../../redis/cluster_slots';
import type { CommandExecutor, ServiceManager } from '../executor';
import { LockEntry } from './LockEntry';
import type { RenewalService } from './RenewalService';
import { emitWatchdog, watchdogActor, type CancelReason } from './watchdog';

/** Config.lockWatchdogBatchSize */
export const LOCK_WATCHDOG_BATCH_SIZE = 100;

export class LockRenewalScheduler implements RenewalService {
  private running = false;
  /** lock key -> entry, in registration order (Redisson iterates a ConcurrentHashMap) */
  private readonly name2entry = new Map<string, LockEntry>();

  constructor(private readonly client: CommandExecutor & ServiceManager) {}

  renewLock(name: string, threadId: number, lockName: string): void {
    const old = this.name2entry.get(name);
    if (old) {
      old.addThreadId(threadId, lockName);
      return;
    }
    const entry = new LockEntry(this.client.config.traits.reentrantRenewalEntryLeaks);
    entry.addThreadId(threadId, lockName);
    this.name2entry.set(name, entry);
    if (!this.running) {
      this.running = true;
      this.schedule();
    }
  }

  cancelLockRenewal(name: string, threadId: number | null, reason: CancelReason): void {
    this.cancel(name, threadId, reason);
  }

  private cancel(name: string, threadId: number | null, reason: CancelReason): void {
    const entry = this.name2entry.get(name);
    if (!entry) return;
    const whose = threadId ?? entry.getFirstThreadId();
    if (threadId !== null) entry.removeThreadId(threadId);
    if (threadId !== null && !entry.hasNoThreads()) return;
    this.name2entry.delete(name);
    emitWatchdog(this.client, 'watchdog.cancel', name, whose, { reason });
    if (this.name2entry.size === 0) this.running = false;
  }

  private schedule(): void {
    this.client.ctx.spawn(this.client.name, watchdogActor(this.client), this.timerChain());
  }

  private *timerChain(): Process<void> {
    do {
      // Java divides longs
      yield* sleep(Math.trunc(this.client.config.lockWatchdogTimeout / 3));
      yield* this.execute();
    } while (this.running);
  }

  /** RenewalTask.execute: every name in one sequence of chunks, or (cluster) one per slot. */
  private *execute(): Process<void> {
    const names = [...this.name2entry.keys()];
    const groups = this.client.clusterMode ? slotGroups(names) : [names];
    for (const group of groups)
      for (let i = 0; i < group.length; i += LOCK_WATCHDOG_BATCH_SIZE)
        if (!(yield* this.renewChunk(group.slice(i, i + LOCK_WATCHDOG_BATCH_SIZE)))) return;
  }

  /**
   * LockTask.renew for one chunk: KEYS = lock keys, ARGV = lease, first thread's lock name per key.
   * False when the EVAL failed (the round ends there).
   */
  private *renewChunk(names: string[]): Process<boolean> {
    const { client } = this;
    const keys: string[] = [];
    const lockNames: string[] = [];
    const threads: number[] = [];
    let nameless: number | null = null;
    for (const name of names) {
      const entry = this.name2entry.get(name);
      const threadId = entry?.getFirstThreadId() ?? null;
      if (entry === undefined || threadId === null) continue;
      keys.push(name);
      const lockName = entry.getLockName(threadId);
      if (lockName === undefined) nameless ??= threadId;
      lockNames.push(lockName ?? '');
      threads.push(threadId);
    }
    if (keys.length === 0) return true;
    if (nameless !== null) {
      // 3.44.0–3.45.x (LockEntry): a thread left queued without a lock name puts a null into
      // ARGV; the codec cannot write it, so the chunk's EVAL never leaves the client, its future
      // fails (the round ends there) and the next round tries the same again.
      const error = `EncoderException: java.lang.NullPointerException (no lock name for thread ${nameless})`;
      keys.forEach((lock, i) =>
        emitWatchdog(client, 'watchdog.renew', lock, threads[i], { result: 'error', error }),
      );
      return false;
    }
    const lease = client.config.lockWatchdogTimeout;
    // LockTask uses syncedEval, not ServiceManager.execute: a failed replica check is not retried
    const reply = yield* client.retrying(
      (attempts) => client.syncedEval(client.scripts.renew, keys, [lease, ...lockNames], undefined, attempts),
      'resend',
    );
    if (reply.t !== 'array' || reply.v === null) {
      const error = reply.t === 'error' ? reply.v : 'unexpected reply';
      keys.forEach((lock, i) =>
        emitWatchdog(client, 'watchdog.renew', lock, threads[i], { result: 'error', error }),
      );
      return false;
    }
    reply.v.forEach((r, i) => {
      const result = r.t === 'int' ? Number(r.v) : 0;
      emitWatchdog(client, 'watchdog.renew', keys[i], threads[i], { result, lockName: lockNames[i] });
      if (result === 0) this.cancel(keys[i], threads[i], 'lost');
    });
    return true;
  }
}

/**
 * RenewalTask.slot2names (3.44.0+, cluster only): names grouped by hash slot, in the order a
 * ConcurrentHashMap<Integer, Set<String>> iterates them: by table bucket (slot mod the table size,
 * 16 doubling past 3/4 full), then by slot; names within a slot in the order they were added.
 */
export function slotGroups(names: readonly string[]): string[][] {
  const bySlot = new Map<number, string[]>();
  for (const name of names) {
    const slot = keyHashSlot(name);
    const group = bySlot.get(slot);
    if (group === undefined) bySlot.set(slot, [name]);
    else group.push(name);
  }
  let table = 16;
  while (bySlot.size > (table * 3) / 4) table *= 2;
  const mask = table - 1;
  return [...bySlot.entries()]
    .sort(([a], [b]) => (a & mask) - (b & mask) || a - b)
    .map(([, group]) => group);
}
