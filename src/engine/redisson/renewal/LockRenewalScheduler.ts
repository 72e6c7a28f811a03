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
import { JavaHashOrder, javaStringHash } from '../java_hash_order';
import type { RenewalService } from './RenewalService';
import { emitWatchdog, watchdogActor, type CancelReason } from './watchdog';

/** Config.lockWatchdogBatchSize */
export const LOCK_WATCHDOG_BATCH_SIZE = 100;

export class LockRenewalScheduler implements RenewalService {
  private running = false;
  /** lock key -> entry */
  private readonly name2entry = new Map<string, LockEntry>();
  /**
   * The order RenewalTask's ConcurrentHashMaps hand the names out in, which is the order of the
   * keys in each renewal script: name2entry's, or in a cluster slot2names' (slots, then the names
   * of each slot, a set on a ConcurrentHashMap too). Seen on the real 4.7.0 client (oracle:
   * f1-renewal-per-slot, incident-subscribe-timeout).
   */
  private readonly names = new JavaHashOrder<string>(javaStringHash);
  private readonly slots = new JavaHashOrder<number>((slot) => slot);
  private readonly slotNames = new Map<number, JavaHashOrder<string>>();

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
    this.names.add(name);
    if (this.client.clusterMode) {
      const slot = keyHashSlot(name);
      let inSlot = this.slotNames.get(slot);
      if (inSlot === undefined) {
        inSlot = new JavaHashOrder<string>(javaStringHash);
        this.slotNames.set(slot, inSlot);
        this.slots.add(slot);
      }
      inSlot.add(name);
    }
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
    this.names.delete(name);
    const slot = this.client.clusterMode ? keyHashSlot(name) : -1;
    const inSlot = this.slotNames.get(slot);
    if (inSlot !== undefined) {
      inSlot.delete(name);
      if (inSlot.size === 0) {
        this.slotNames.delete(slot);
        this.slots.delete(slot);
      }
    }
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
    const groups = this.client.clusterMode
      ? this.slots.keys().map((slot) => this.slotNames.get(slot)!.keys())
      : [this.names.keys()];
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
