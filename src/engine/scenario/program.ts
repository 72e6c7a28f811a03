/**
 * The program interpreter: runs every scenario thread's ops as a process of its client, against
 * the client models (Redisson's RLock, the naive locks) and the protected resource, and reports
 * what happened as trace events (their fields: TraceEventMap in trace/types.ts).
 *
 * A thread keeps its own belief of what it holds (`holds`), because that belief, not the server's
 * key, is what a critical section runs on: an RLock whose lease ran out is still "held" by its
 * thread until unlock tells it otherwise.
 */
import type { ProcHandle, SimContext } from '../sim/api';
import type { EventFields, EventKind } from '../trace/types';
import type { ClientsHandle } from './api';
import { acquire, sleep, type Process } from '../sim/effects';
import { replyToJson } from '../sim/reply_json';
import type { LockType, Op, Scenario, ThreadSpec } from './schema';
import { RedissonClient } from '../redisson/RedissonClient';
import { NO_LEASE } from '../redisson/RedissonLock';
import {
  acquiredFields,
  familyLock,
  fencingToken,
  isFamilyType,
  requestFields,
  type FamilyLock,
} from '../redisson/family';
import { JavaException, describeThrown } from '../redisson/errors';
import { NaiveLock, RETRY_SLEEP_MS, isNaiveLockType } from '../naive/NaiveLock';
import { ProtectedResource } from '../resource/ProtectedResource';
import { threadActor } from '../trace/actors';

/** What startClients hands back: the runner's ClientsHandle plus the resource for final state. */
export interface Clients extends ClientsHandle {
  readonly resource: ProtectedResource;
  client(id: string): RedissonClient | undefined;
  /** true once every thread's program has ended (finished or killed); cheap enough to call per step */
  allDone(): boolean;
}

export function startClients(ctx: SimContext, scenario: Scenario): Clients {
  const resource = new ProtectedResource(ctx, scenario.resource);
  const clients = new Map<string, RedissonClient>();
  const procs = new Map<string, ProcHandle>();
  const all: ProcHandle[] = [];
  let firstLive = 0;
  for (const spec of scenario.clients) {
    const client = new RedissonClient(ctx, spec.id, scenario.redisson);
    clients.set(spec.id, client);
    for (const thread of spec.threads) {
      const runner = new ThreadRunner(ctx, client, resource, thread, scenario.redis.topology);
      const handle = ctx.spawn(spec.id, runner.actor, runner.run());
      procs.set(runner.actor, handle);
      all.push(handle);
    }
  }
  return {
    resource,
    client: (id) => clients.get(id),
    allDone() {
      while (firstLive < all.length && all[firstLive].done) firstLive++;
      return firstLive === all.length;
    },
    threadProc(client, thread) {
      const p = procs.get(threadActor(client, thread));
      return p && !p.done ? p : undefined;
    },
    onCrash(client) {
      resource.forget(client);
    },
  };
}

/** 'rlock': any lock of Redisson's family (RLock, FairLock, ..., MultiLock, RedLock) */
type AnyLock = { kind: 'rlock'; lock: FamilyLock } | { kind: 'naive'; lock: NaiveLock };

class ThreadRunner {
  readonly actor: string;
  /** lock name -> holds this thread believes it has, in acquisition order */
  private readonly holds = new Map<string, number>();
  /** lock name -> type it was last locked with (unlock without `type` uses it) */
  private readonly lastType = new Map<string, LockType>();
  private readonly locks = new Map<string, AnyLock>();
  private step = -1;

  constructor(
    private readonly ctx: SimContext,
    private readonly client: RedissonClient,
    private readonly resource: ProtectedResource,
    private readonly spec: ThreadSpec,
    private readonly topology = 'single',
  ) {
    this.actor = threadActor(client.name, spec.id);
  }

  *run(): Process<void> {
    if (this.spec.start > 0) yield* sleep(this.spec.start);
    this.emit('thread.start', {});
    yield* this.runOps(this.spec.program);
    this.emit('thread.done', {});
  }

  /** `step` counts executed ops with every `repeat` unrolled (the flattened program). */
  private *runOps(ops: readonly Op[]): Process<void> {
    for (const op of ops) {
      if (op.op === 'repeat') {
        for (let i = 0; i < op.times; i++) yield* this.runOps(op.body);
        continue;
      }
      this.step++;
      yield* this.runOp(op);
    }
  }

  private *runOp(op: Exclude<Op, { op: 'repeat' }>): Process<void> {
    switch (op.op) {
      case 'lock':
      case 'lockInterruptibly':
      case 'tryLock':
        return yield* this.acquire(op);
      case 'unlock':
        return yield* this.unlock(op.lock, op.type, op.locks);
      case 'forceUnlock':
        return yield* this.forceUnlock(op.lock, op.type);
      case 'work':
        this.emit('work.start', { ms: op.ms, op: 'work' });
        yield* sleep(op.ms);
        this.emit('work.end', {});
        return;
      case 'sleep': {
        // Thread.sleep: an interrupt ends it early with InterruptedException (business work,
        // `work`, runs on regardless and leaves the interrupt pending for the next wait).
        this.emit('work.start', { ms: op.ms, op: 'sleep' });
        const r = yield* acquire(this.ctx.semaphore(), op.ms, true);
        this.emit('work.end', {});
        if (r === 'interrupted') this.result({ error: 'InterruptedException: sleep interrupted' });
        return;
      }
      case 'use': {
        this.emit('work.start', { ms: op.ms, op: 'use' });
        const lock = this.believedLock();
        const token = lock === undefined ? undefined : this.tokenFor(lock);
        yield* this.resource.use({ actor: this.actor, lock, ms: op.ms, token });
        this.emit('work.end', {});
        return;
      }
      case 'redis':
        return this.result(replyToJson(yield* this.client.command(op.argv)));
      case 'eval': {
        const argv = ['EVAL', op.script, String(op.keys.length), ...op.keys, ...op.args];
        return this.result(replyToJson(yield* this.client.command(argv)));
      }
    }
  }

  private *acquire(op: Extract<Op, { op: 'lock' | 'lockInterruptibly' | 'tryLock' }>): Process<void> {
    const { lock: name, type } = op;
    const lock = this.lockFor(name, type, op.locks);
    const known = lock?.kind === 'rlock' ? requestFields(lock.lock, this.spec.id) : {};
    this.emit('lock.request', { lock: name, type, op: op.op, ...known });
    this.lastType.set(name, type);
    if (!lock) return this.unsupported(op.op, name, type);
    let acquired: boolean;
    try {
      if (lock.kind === 'rlock') acquired = yield* this.acquireRLock(lock.lock, op);
      else acquired = yield* this.acquireNaive(lock.lock, op);
    } catch (e) {
      return this.javaError(e, op.op, name);
    }
    if (op.op === 'tryLock') this.result(acquired);
    if (!acquired) {
      this.emit('lock.failed', { lock: name });
      return;
    }
    const holdCount = lock.kind === 'rlock' ? (this.holds.get(name) ?? 0) + 1 : 1;
    this.holds.delete(name);
    this.holds.set(name, holdCount);
    if (lock.kind === 'naive') {
      this.emit('lock.acquired', { lock: name, holdCount, owner: lock.lock.currentToken()! });
      return;
    }
    this.emit('lock.acquired', { lock: name, holdCount, ...acquiredFields(lock.lock, this.spec.id) });
  }

  private *acquireRLock(
    lock: FamilyLock,
    op: Extract<Op, { op: 'lock' | 'lockInterruptibly' | 'tryLock' }>,
  ): Process<boolean> {
    const tid = this.spec.id;
    const lease = op.leaseMs ?? NO_LEASE;
    if (op.op === 'lock') {
      yield* lock.lock(tid, lease);
      return true;
    }
    if (op.op === 'lockInterruptibly') {
      yield* lock.lockInterruptibly(tid, lease);
      return true;
    }
    if (op.waitMs === undefined) return yield* lock.tryLockOnce(tid, lease);
    return yield* lock.tryLock(tid, op.waitMs, lease);
  }

  private *acquireNaive(
    lock: NaiveLock,
    op: Extract<Op, { op: 'lock' | 'lockInterruptibly' | 'tryLock' }>,
  ): Process<boolean> {
    if (op.op !== 'tryLock') {
      yield* lock.lock(op.leaseMs);
      return true;
    }
    return yield* lock.tryLock(op.waitMs ?? 0, op.leaseMs);
  }

  /**
   * The thread leaves its critical section when it calls unlock, so `lock.released` is emitted
   * before the command goes out (V1 ends there); a failed unlock then adds `lock.error`. A thread
   * that believes it holds nothing emits no `lock.released`, only the outcome.
   */
  private *unlock(
    name: string,
    explicitType: LockType | undefined,
    locks?: readonly string[],
  ): Process<void> {
    const type = explicitType ?? this.lastType.get(name) ?? 'RLock';
    const lock = this.lockFor(name, type, locks);
    if (!lock) return this.unsupported('unlock', name, type);
    const held = this.holds.get(name);
    if (lock.kind === 'naive') {
      if (held !== undefined) this.release(name, 0);
      this.result(yield* lock.lock.unlock());
      return;
    }
    if (held !== undefined) this.release(name, held - 1);
    try {
      yield* lock.lock.unlock(this.spec.id);
    } catch (e) {
      // IllegalMonitorStateException: the thread learns it no longer holds the lock.
      this.holds.delete(name);
      this.javaError(e, 'unlock', name);
    }
  }

  private *forceUnlock(name: string, explicitType: LockType | undefined): Process<void> {
    const type = explicitType ?? this.lastType.get(name) ?? 'RLock';
    const lock = this.lockFor(name, type);
    if (!lock || lock.kind !== 'rlock') return this.unsupported('forceUnlock', name, type);
    if (this.holds.has(name)) this.release(name, 0);
    let deleted: boolean;
    try {
      deleted = yield* lock.lock.forceUnlock();
    } catch (e) {
      return this.javaError(e, 'forceUnlock', name);
    }
    this.result(deleted);
  }

  private release(name: string, holdCount: number): void {
    if (holdCount > 0) this.holds.set(name, holdCount);
    else this.holds.delete(name);
    this.emit('lock.released', { lock: name, holdCount });
  }

  /** The fencing token of the thread's hold of `name` (a FencedLock's latest acquire). */
  private tokenFor(name: string): number | undefined {
    const type = this.lastType.get(name);
    const l = type === undefined ? undefined : this.locks.get(`${type}\u0000${name}`);
    return l?.kind === 'rlock' ? fencingToken(l.lock, this.spec.id) : undefined;
  }

  /** The lock a `use` runs under: the most recently acquired one this thread still believes it holds. */
  private believedLock(): string | undefined {
    let last: string | undefined;
    for (const name of this.holds.keys()) last = name;
    return last;
  }

  /**
   * One lock object per thread, name and type, as a thread that calls `redisson.getLock(name)` in
   * its own code: state such as RLock's internalLockLeaseTime is per thread.
   */
  private lockFor(name: string, type: LockType, locks?: readonly string[]): AnyLock | undefined {
    const key = `${type}\u0000${name}`;
    let l = this.locks.get(key);
    if (l) return l;
    if (isFamilyType(type))
      l = { kind: 'rlock', lock: familyLock(this.client, type, name, { locks, topology: this.topology }) };
    else if (isNaiveLockType(type))
      l = {
        kind: 'naive',
        lock: new NaiveLock(
          this.client,
          type,
          name,
          this.ctx.rng(`naive.token:${this.actor}:${type}:${name}`),
          // polling has no ttl to wait for: the thread sleeps RETRY_SLEEP_MS between tries
          () => this.emit('lock.wait', { lock: name, ttl: null, waitMs: RETRY_SLEEP_MS, polling: true }),
        ),
      };
    else return undefined;
    this.locks.set(key, l);
    return l;
  }

  private unsupported(op: string, name: string, type: string): void {
    const error = `UnsupportedOperationException: lock type ${type} is not modelled yet`;
    this.emit('lock.error', { lock: name, op, error });
    this.result({ error });
  }

  private javaError(e: unknown, op: string, name: string): void {
    if (!(e instanceof JavaException)) throw e;
    const error = describeThrown(e);
    this.emit('lock.error', { lock: name, op, error });
    this.result({ error });
  }

  private result(result: unknown): void {
    this.emit('thread.result', { result });
  }

  /** `fields` is always a fresh literal, so it is completed in place rather than copied. */
  private emit<K extends EventKind>(kind: K, fields: Omit<EventFields<K>, 'actor' | 'step'>): void {
    // actor and step go last in the JSON, after the kind's own fields.
    const f = fields as Record<string, unknown>;
    f.actor = this.actor;
    if (this.step >= 0) f.step = this.step;
    this.ctx.emit(kind, f as EventFields<K>);
  }
}
