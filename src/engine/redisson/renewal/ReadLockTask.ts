/**
 * ReadLockTask: the watchdog for read locks. A read lock's lease is not one TTL but one per hold
 * (`{name}:<lock name>:rwlock_timeout:<n>`) plus the hash's, so renewing it takes its own script:
 * for each read-locked key it sends every local lock name still registered, and the script
 * renews each hold's timeout key and then the hash. An answer of 0 (none of them holds it any
 * more) cancels the key. Like LockTask it runs lockWatchdogTimeout/3 after the previous round.
 *
 * Redisson has this task since 3.44. Before, RedissonReadLock renewed through the per-lock timer
 * with a different script: it checks only the renewing thread's hold and then extends the
 * timeout keys of every reader in the hash, other clients' (crashed ones) included. The model
 * sends that script for ≤ 3.43 but keeps the task's timing (docs/redisson-differences.md).
 * Before 3.8.1 RedissonReadLock had no renewal script of its own and used RedissonLock's: the
 * hash was renewed, the holds' timeout keys were not.
 */
import { JavaHashOrder, javaStringHash } from '../java_hash_order';
import { sleep, type Process } from '../../sim/effects';
import type { CommandExecutor, ServiceManager } from '../executor';
import type { RenewalService } from './RenewalService';
import { emitWatchdog, watchdogActor, type CancelReason } from './watchdog';
import { READ_RENEW, READ_RENEW_BATCH } from '../scripts/RedissonReadWriteLock';
import { scriptText } from '../scripts';
import type { Reply } from '../../redis/reply';

interface ReadEntry {
  /** the `{name}` prefix of the hold timeout keys */
  readonly keyPrefix: string;
  /** thread -> [lock name, registrations], in registration order */
  readonly threads: Map<number, [string, number]>;
}

/** `{name}`: where the hold timeout keys of every reader of `name` start. */
export function readKeyPrefix(name: string): string {
  return name.includes('{') ? name : `{${name}}`;
}

type Client = CommandExecutor & ServiceManager;

const tasks = new WeakMap<Client, ReadLockTask>();

/** The client's one ReadLockTask (LockRenewalScheduler keeps it in an AtomicReference). */
export function readLockTaskOf(client: Client): ReadLockTask {
  let t = tasks.get(client);
  if (!t) {
    t = new ReadLockTask(client);
    tasks.set(client, t);
  }
  return t;
}

export class ReadLockTask implements RenewalService {
  private running = false;
  private readonly name2entry = new Map<string, ReadEntry>();
  /** the order RenewalTask's ConcurrentHashMap hands the names out in (LockRenewalScheduler) */
  private readonly names = new JavaHashOrder<string>(javaStringHash);

  constructor(private readonly client: Client) {}

  renewLock(name: string, threadId: number, lockName: string): void {
    let entry = this.name2entry.get(name);
    if (!entry) {
      entry = { keyPrefix: readKeyPrefix(name), threads: new Map() };
      this.name2entry.set(name, entry);
      this.names.add(name);
    }
    const cur = entry.threads.get(threadId);
    entry.threads.set(threadId, [lockName, (cur?.[1] ?? 0) + 1]);
    if (!this.running) {
      this.running = true;
      this.client.ctx.spawn(this.client.name, watchdogActor(this.client), this.timerChain());
    }
  }

  cancelLockRenewal(name: string, threadId: number | null, reason: CancelReason): void {
    this.cancel(name, threadId, reason);
  }

  private cancel(name: string, threadId: number | null, reason: CancelReason): void {
    const entry = this.name2entry.get(name);
    if (!entry) return;
    const [first] = entry.threads.keys();
    const whose = threadId ?? first ?? null;
    if (threadId !== null) {
      const cur = entry.threads.get(threadId);
      if (cur && cur[1] > 1) cur[1]--;
      else entry.threads.delete(threadId);
      if (entry.threads.size > 0) return;
    }
    this.name2entry.delete(name);
    this.names.delete(name);
    emitWatchdog(this.client, 'watchdog.cancel', name, whose, { reason });
    if (this.name2entry.size === 0) this.running = false;
  }

  private *timerChain(): Process<void> {
    do {
      // Java divides longs
      yield* sleep(Math.trunc(this.client.config.lockWatchdogTimeout / 3));
      for (const name of this.names.keys()) yield* this.renew(name);
    } while (this.running);
  }

  private *renew(name: string): Process<void> {
    const { client } = this;
    const entry = this.name2entry.get(name);
    if (!entry) return;
    const lockNames = [...entry.threads.values()].map(([n]) => n);
    const [first] = entry.threads.keys();
    const lease = client.config.lockWatchdogTimeout;
    const { traits } = client.config;
    const keys = [name, entry.keyPrefix];
    // ≤ 3.43 RedissonReadLock.renewExpirationAsync: the first thread's name, 1/0. 3.44+ ReadLockTask:
    // a list with one 1/0 per lock; from 4.4.0 each lock's ARGV is a count and that many names.
    const args: (string | number)[] =
      traits.renewal !== 'batched-task'
        ? [lease, lockNames[0]]
        : traits.readRenewOwnOnly
          ? [lease, lockNames.length, ...lockNames]
          : [lease, lockNames[0]];
    const script = scriptText(traits.renewal === 'batched-task' ? READ_RENEW_BATCH : READ_RENEW, traits);
    const reply = unwrapOne(
      yield* client.retrying((attempts) => {
        // before 3.8.1 RedissonReadLock inherited RedissonLock.renewExpirationAsync: the hash only
        if (!traits.readRenewTimeoutKeys)
          return client.syncedEval(client.scripts.renew, [name], [lease, lockNames[0]], undefined, attempts);
        return client.syncedEval(script, keys, args, undefined, attempts);
      }, 'resend'),
    );
    if (reply.t !== 'int') {
      const error = reply.t === 'error' ? reply.v : 'unexpected reply';
      emitWatchdog(client, 'watchdog.renew', name, first, { result: 'error', error });
      return;
    }
    const own = traits.renewal === 'batched-task';
    const result = Number(reply.v);
    emitWatchdog(client, 'watchdog.renew', name, first, { result, lockName: lockNames.join(',') });
    if (result !== 0) return;
    // 3.44+ (ReadLockTask.buildChunk) drops one registration of each thread, so a reentrant
    // reader is tried again next round; the ≤ 3.43 per-lock timer stopped for good.
    if (own) for (const t of [...entry.threads.keys()]) this.cancel(name, t, 'lost');
    else this.cancel(name, null, 'lost');
  }
}

/** A one-lock batch's list reply ({1} or {0}) as that one answer. */
function unwrapOne(r: Reply): Reply {
  return r.t === 'array' && r.v !== null && r.v.length === 1 ? r.v[0] : r;
}
