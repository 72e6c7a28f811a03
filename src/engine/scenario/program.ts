/**
 * The program interpreter: runs every scenario thread's ops as a process of its client, against
 * the client models (Redisson's RLock, the naive locks) and the protected resource, and reports
 * what happened as trace events (their fields: TraceEventMap in trace/types.ts).
 *
 * A thread keeps its own belief of what it holds (`holds`), because that belief, not the server's
 * key, is what a critical section runs on: an RLock whose lease ran out is still "held" by its
 * thread until unlock tells it otherwise.
 *
 * A program is the body of a Java method, so it only reaches what Java would reach:
 *   - an op that throws (a lock call's exception, an unlock's IllegalMonitorStateException, an
 *     interrupted sleep) abandons the ops after it up to the nearest enclosing `try` that catches
 *     it (running `finally` blocks on the way, ending any `repeat` it is in); uncaught, it ends the
 *     thread, and `thread.done` names it;
 *   - a `tryLock` that returns false skips its guarded section, `if (lock.tryLock(..)) { ..;
 *     lock.unlock(); }`: every op after it up to and including its matching unlock, which is the
 *     first `unlock` of the same lock name in the same op list whose depth is 0, where depth counts
 *     the acquires (lock, tryLock, lockInterruptibly) of that name seen since the tryLock minus
 *     their unlocks; ops inside nested `repeat` / `try` blocks are skipped with their block and do
 *     not count. Without a matching unlock nothing is skipped: the call is a plain statement
 *     (`lock.tryLock();`) whose result the trace records.
 */
import type { ProcHandle, SimContext } from '../sim/api';
import type { AssembledEvent, EventKind } from '../trace/types';
import { acquire, sleep, type Process } from '../sim/effects';
import { replyToJson } from '../sim/reply_json';
import {
  expandedLength,
  opLength,
  type BlockOp,
  type LockType,
  type Op,
  type ReadOp,
  type ThreadSpec,
  type TryOp,
} from './schema';
import { RedissonClient } from '../redisson/RedissonClient';
import { NO_LEASE, RedissonLock } from '../redisson/RedissonLock';
import {
  acquiredFields,
  familyLock,
  fencingToken,
  isFamilyType,
  requestFields,
  type AcquiredFields,
  type FamilyLock,
} from '../redisson/family';
import {
  CancellationException,
  InterruptedException,
  JavaException,
  describeThrown,
  exceptionFor,
} from '../redisson/errors';
import { RedissonMultiLock, UnsupportedOperationException } from '../redisson/RedissonMultiLock';
import { RedissonFencedLock } from '../redisson/RedissonFencedLock';
import type { Reply } from '../redis/reply';
import { NaiveLock, RETRY_SLEEP_MS, isNaiveLockType } from '../naive/NaiveLock';
import { RenewalTask } from '../naive/RenewalTask';
import { ProtectedResource } from '../resource/ProtectedResource';
import { threadActor } from '../trace/actors';
import { catches, javaOnly, matchingUnlock } from './program_java';

/** 'rlock': any lock of Redisson's family (RLock, FairLock, ..., MultiLock, RedLock) */
type AnyLock = { kind: 'rlock'; lock: FamilyLock } | { kind: 'naive'; lock: NaiveLock };

export class ThreadRunner {
  readonly actor: string;
  /** lock name -> holds this thread believes it has, in acquisition order */
  private readonly holds = new Map<string, number>();
  /** lock name -> type it was last locked with (unlock without `type` uses it) */
  private readonly lastType = new Map<string, LockType>();
  private readonly locks = new Map<string, AnyLock>();
  private step = -1;
  /** Thread.currentThread().getId() for the code running now (`continueOn` changes it) */
  private tid: number;
  /** the Redisson lock whose acquire this thread is waiting for, if any */
  private acquiring: FamilyLock | null = null;

  constructor(
    private readonly ctx: SimContext,
    private readonly client: RedissonClient,
    private readonly resource: ProtectedResource,
    private readonly spec: ThreadSpec,
    private readonly topology = 'single',
  ) {
    this.actor = threadActor(client.name, spec.id);
    this.tid = spec.id;
  }

  /**
   * Future.cancel() on the acquire this thread waits for (a `cancel` fault): the wait ends with
   * CancellationException; false when it waits for no acquire of an RLock-family lock.
   */
  cancel(self: ProcHandle): boolean {
    const lock = this.acquiring;
    if (!(lock instanceof RedissonLock)) return false;
    lock.cancelled = true;
    this.ctx.throwInto(self, new CancellationException(''));
    return true;
  }

  /** The owner id a Redisson call of `op` uses: its explicit `owner`, else the current thread's id. */
  private ownerOf(op: { owner?: number }): number {
    const id = op.owner ?? this.tid;
    // events about that owner (watchdog, waits) are drawn on this program's lane
    this.client.bindLane(id, this.actor);
    return id;
  }

  *run(): Process<void> {
    if (this.spec.start > 0) yield* sleep(this.spec.start);
    this.record({ t: 0, seq: 0, kind: 'thread.start' });
    try {
      yield* this.runOps(this.spec.program, 0);
    } catch (e) {
      if (!(e instanceof JavaException)) throw e;
      // an exception leaving the method rolls its transaction back, a normal return commits it
      this.resource.rollback(this.actor);
      this.record({
        t: 0,
        seq: 0,
        kind: 'thread.done',
        outcome: 'exception',
        exception: e.javaClass,
        message: e.message,
      });
      return;
    }
    this.commit();
    this.record({ t: 0, seq: 0, kind: 'thread.done', outcome: 'normal' });
  }

  /**
   * Runs `ops`, whose first step has index `base` in the expanded program (schema.ts
   * expandedLength): `step` is that index, so skipped ops and blocks leave gaps rather than
   * shifting what follows.
   */
  private *runOps(ops: readonly Op[], base: number): Process<void> {
    let at = base;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op.op === 'repeat' || op.op === 'try') {
        yield* this.runBlock(op, at);
        at += opLength(op);
        continue;
      }
      this.step = at++;
      // a sub-process: the steps' own effects do not resume the blocks around them (effects.ts)
      const acquired = (yield this.runOp(op)) as boolean | undefined;
      if (acquired !== false) continue;
      const end = matchingUnlock(ops, i);
      for (let k = i + 1; k <= end; k++) at += opLength(ops[k]);
      if (end > i) i = end;
    }
  }

  private *runBlock(op: BlockOp, base: number): Process<void> {
    if (op.op === 'repeat') {
      const n = expandedLength(op.body);
      for (let k = 0; k < op.times; k++) yield* this.runOps(op.body, base + k * n);
      return;
    }
    yield* this.runTry(op, base);
  }

  /**
   * Java's try statement. Not a JS `finally`: a killed process (client crash) must not run the
   * program's finally block, and an exception from catch or finally has to replace the pending one.
   */
  private *runTry(op: TryOp, base: number): Process<void> {
    const catchAt = base + expandedLength(op.body);
    const finallyAt = catchAt + expandedLength(op.catch ?? []);
    let pending: JavaException | null = null;
    try {
      yield* this.runOps(op.body, base);
    } catch (e) {
      pending = javaOnly(e);
    }
    if (pending !== null && catches(op, pending)) {
      this.record({
        t: 0,
        seq: 0,
        kind: 'exception.caught',
        exception: pending.javaClass,
        message: pending.message,
      });
      pending = null;
      try {
        yield* this.runOps(op.catch ?? [], catchAt);
      } catch (e) {
        pending = javaOnly(e);
      }
    }
    if (op.finally) yield* this.runOps(op.finally, finallyAt);
    if (pending !== null) throw pending;
  }

  /** Runs one step; the result is the tryLock's answer, undefined for every other op. */
  private *runOp(op: Exclude<Op, BlockOp>): Process<boolean | undefined> {
    switch (op.op) {
      case 'lock':
      case 'lockInterruptibly':
      case 'tryLock':
        return yield* this.acquire(op);
      case 'unlock':
        yield* this.unlock(op.lock, op.type, op.locks, this.ownerOf(op));
        return;
      case 'continueOn':
        this.tid = op.thread;
        this.record({ t: 0, seq: 0, kind: 'thread.continue', thread: op.thread });
        return;
      case 'forceUnlock':
        yield* this.forceUnlock(op.lock, op.type);
        return;
      case 'work':
        this.workStart(op.ms, 'work', this.holds.size > 0);
        yield* sleep(op.ms);
        this.workEnd();
        return;
      case 'sleep': {
        // Thread.sleep: an interrupt ends it early with InterruptedException (business work,
        // `work`, runs on regardless and leaves the interrupt pending for the next wait).
        this.workStart(op.ms, 'sleep', this.holds.size > 0);
        const r = yield* acquire(this.ctx.semaphore(), op.ms, true);
        this.workEnd();
        if (r === 'interrupted') this.threw(new InterruptedException('sleep interrupted'));
        return;
      }
      case 'use': {
        const lock = this.believedLock();
        this.workStart(op.ms, 'use', lock !== undefined);
        const token = lock === undefined ? undefined : this.tokenFor(lock);
        yield this.resource.use({ actor: this.actor, lock, ms: op.ms, token });
        this.workEnd();
        return;
      }
      case 'commit':
        this.workStart(op.ms, 'commit', this.holds.size > 0);
        yield* sleep(op.ms);
        this.workEnd();
        this.commit();
        return;
      case 'redis':
        this.result(replyToJson(yield* this.client.command(op.argv)));
        return;
      case 'eval': {
        const argv = ['EVAL', op.script, String(op.keys.length), ...op.keys, ...op.args];
        this.result(replyToJson(yield* this.client.command(argv)));
        return;
      }
      case 'isLocked':
      case 'isHeldByThread':
      case 'getHoldCount':
      case 'remainTimeToLive':
      case 'getToken': {
        let value: unknown;
        try {
          value = yield* this.query(op);
        } catch (e) {
          this.threw(javaOnly(e));
        }
        this.result(value);
        return;
      }
    }
  }

  /** A transactional resource: this thread's writes become visible, under the lock it holds now (if any). */
  private commit(): void {
    const lock = this.believedLock();
    this.resource.commit(this.actor, lock, lock === undefined ? undefined : this.tokenFor(lock));
  }

  /** The acquire's outcome (a `lock` that returns has acquired); an acquire that throws ends the step. */
  private *acquire(op: Extract<Op, { op: 'lock' | 'lockInterruptibly' | 'tryLock' }>): Process<boolean> {
    const { lock: name, type } = op;
    const lock = this.lockFor(name, type, op.locks);
    const args: Record<string, unknown> = {};
    if (op.op === 'tryLock' && op.waitMs !== undefined) args.waitMs = op.waitMs;
    if (op.leaseMs !== undefined) args.leaseMs = op.leaseMs;
    const owner = this.ownerOf(op);
    const known = lock?.kind === 'rlock' ? requestFields(lock.lock, owner) : {};
    this.record({ t: 0, seq: 0, kind: 'lock.request', lock: name, type, op: op.op, ...args, ...known });
    this.lastType.set(name, type);
    if (!lock) return this.unsupported(op.op, name, type);
    let acquired: boolean;
    try {
      if (lock.kind === 'rlock') {
        if (lock.lock instanceof RedissonLock) lock.lock.cancelled = false;
        this.acquiring = lock.lock;
        acquired = yield* this.acquireRLock(lock.lock, op, owner);
      } else acquired = yield* this.acquireNaive(lock.lock, op);
    } catch (e) {
      return this.lockError(e, op.op, name);
    } finally {
      this.acquiring = null;
    }
    if (op.op === 'tryLock') this.result(acquired);
    if (!acquired) {
      this.ctx.record({ t: 0, seq: 0, kind: 'lock.failed', lock: name, actor: this.actor, step: this.step });
      return false;
    }
    const holdCount = lock.kind === 'rlock' ? (this.holds.get(name) ?? 0) + 1 : 1;
    this.holds.delete(name);
    this.holds.set(name, holdCount);
    const holder: AcquiredFields =
      lock.kind === 'naive' ? { owner: lock.lock.currentToken()! } : acquiredFields(lock.lock, owner);
    this.record({ t: 0, seq: 0, kind: 'lock.acquired', lock: name, holdCount, ...holder });
    return true;
  }

  private *acquireRLock(
    lock: FamilyLock,
    op: Extract<Op, { op: 'lock' | 'lockInterruptibly' | 'tryLock' }>,
    tid: number,
  ): Process<boolean> {
    const lease = op.leaseMs ?? NO_LEASE;
    if (op.op === 'lock') {
      if (lock instanceof RedissonFencedLock) yield lock.lockAndGetToken(tid, lease);
      else yield lock.lock(tid, lease);
      return true;
    }
    if (op.op === 'lockInterruptibly') {
      yield lock.lockInterruptibly(tid, lease);
      return true;
    }
    if (op.waitMs === undefined) return (yield lock.tryLockOnce(tid, lease)) as boolean;
    return (yield lock.tryLock(tid, op.waitMs, lease)) as boolean;
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
   * Unlock is two moments. `unlock.request` is emitted before the command goes out: the thread
   * leaves its critical section there (V1 ends). `lock.released` follows the script's reply, when
   * the lock is really free; a failed unlock emits `lock.error` instead. A thread that believes it
   * holds nothing emits neither, only the outcome.
   */
  private *unlock(
    name: string,
    explicitType: LockType | undefined,
    locks: readonly string[] | undefined,
    owner: number,
  ): Process<void> {
    const type = explicitType ?? this.lastType.get(name) ?? 'RLock';
    const lock = this.lockFor(name, type, locks);
    if (!lock) return this.unsupported('unlock', name, type);
    const held = this.holds.get(name);
    if (lock.kind === 'naive') {
      if (held !== undefined) this.requestUnlock(name, type, 0);
      const reply = yield* lock.lock.unlock();
      if (held !== undefined) this.release(name, 0);
      this.result(reply);
      return;
    }
    if (held !== undefined) this.requestUnlock(name, type, held - 1);
    try {
      yield lock.lock.unlock(owner);
    } catch (e) {
      // IllegalMonitorStateException: the thread learns it no longer holds the lock.
      this.holds.delete(name);
      this.lockError(e, 'unlock', name);
      return;
    }
    if (held !== undefined) this.release(name, held - 1);
  }

  private *forceUnlock(name: string, explicitType: LockType | undefined): Process<void> {
    const type = explicitType ?? this.lastType.get(name) ?? 'RLock';
    const lock = this.lockFor(name, type);
    if (!lock || lock.kind !== 'rlock') return this.unsupported('forceUnlock', name, type);
    const held = this.holds.has(name);
    if (held) this.requestUnlock(name, type, 0);
    let deleted: boolean;
    try {
      deleted = yield* lock.lock.forceUnlock();
    } catch (e) {
      this.holds.delete(name);
      return this.lockError(e, 'forceUnlock', name);
    }
    if (held) this.release(name, 0);
    this.result(deleted);
  }

  private requestUnlock(name: string, type: LockType, holdCount: number): void {
    const ev: AssembledEvent<'unlock.request'> = {
      t: 0,
      seq: 0,
      kind: 'unlock.request',
      lock: name,
      type,
      holdCount: Math.max(0, holdCount),
      actor: this.actor,
      step: this.step,
    };
    this.ctx.record(ev);
  }

  private release(name: string, holdCount: number): void {
    if (holdCount > 0) this.holds.set(name, holdCount);
    else this.holds.delete(name);
    this.ctx.record({
      t: 0,
      seq: 0,
      kind: 'lock.released',
      lock: name,
      holdCount,
      actor: this.actor,
      step: this.step,
    });
  }

  /** The fencing token of the thread's hold of `name` (a FencedLock's latest acquire). */
  private tokenFor(name: string): number | undefined {
    const type = this.lastType.get(name);
    const l = type === undefined ? undefined : this.locks.get(`${type}\u0000${name}`);
    return l?.kind === 'rlock' ? fencingToken(l.lock, this.tid) : undefined;
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
          () =>
            this.record({
              t: 0,
              seq: 0,
              kind: 'lock.wait',
              lock: name,
              ttl: null,
              waitMs: RETRY_SLEEP_MS,
              polling: true,
            }),
          type === 'set-nx-px-renew'
            ? new RenewalTask(this.ctx, this.client.name, this.client, this.actor, name)
            : undefined,
        ),
      };
    else return undefined;
    this.locks.set(key, l);
    return l;
  }

  private unsupported(op: string, name: string, type: string): never {
    return this.lockError(
      new UnsupportedOperationException(`lock type ${type} is not modelled yet`),
      op,
      name,
    );
  }

  /** A lock call threw: recorded as `lock.error` and as the step's result, then thrown on. */
  private lockError(e: unknown, op: string, name: string): never {
    const ex = javaOnly(e);
    this.record({ t: 0, seq: 0, kind: 'lock.error', lock: name, op, error: describeThrown(ex) });
    return this.threw(ex);
  }

  /** The step threw `e`: its result records it, and the program goes on at the enclosing try. */
  private threw(e: JavaException): never {
    this.result({ error: describeThrown(e) });
    throw e;
  }

  /**
   * RLock's read-only calls, each one command like Redisson's. A MultiLock / RedLock answers only
   * isHeldByThread (the AND over its locks); the naive locks only what their one key can tell.
   */
  private *query(op: ReadOp): Process<unknown> {
    const type = op.type ?? this.lastType.get(op.lock) ?? 'RLock';
    const lock = this.lockFor(op.lock, type, 'locks' in op ? op.locks : undefined);
    if (!lock) throw new UnsupportedOperationException(`lock type ${type} is not modelled yet`);
    const tid = op.op === 'isHeldByThread' ? (op.thread ?? this.tid) : this.tid;
    if (lock.kind === 'naive') {
      if (op.op === 'isLocked') return readInt(yield* this.client.command(['EXISTS', op.lock])) === 1;
      if (op.op === 'remainTimeToLive') return readInt(yield* this.client.command(['PTTL', op.lock]));
      throw new UnsupportedOperationException(`${op.op} on a ${type} lock`);
    }
    const l = lock.lock;
    if (l instanceof RedissonMultiLock) {
      if (op.op === 'isHeldByThread') return yield* l.isHeldByThread(tid);
      throw new UnsupportedOperationException('');
    }
    switch (op.op) {
      case 'isLocked':
        return yield* l.isLocked();
      case 'isHeldByThread':
        return yield* l.isHeldByThread(tid);
      case 'getHoldCount':
        return yield* l.getHoldCount(tid);
      case 'remainTimeToLive':
        return yield* l.remainTimeToLive();
      case 'getToken':
        if (!(l instanceof RedissonFencedLock)) throw new UnsupportedOperationException('');
        return yield* l.getToken();
    }
  }

  private result(result: unknown): void {
    this.record({ t: 0, seq: 0, kind: 'thread.result', result });
  }

  /**
   * The events of a step (work, unlock, lock.failed), written whole with their actor and step: a
   * field added after a literal moved its fields to a store of their own (contention-100 records
   * about 14,000 of them). These run only inside a step, so `step` is set.
   */
  private workStart(ms: number, op: 'work' | 'sleep' | 'use' | 'commit', critical: boolean): void {
    this.ctx.record({
      t: 0,
      seq: 0,
      kind: 'work.start',
      ms,
      op,
      critical,
      actor: this.actor,
      step: this.step,
    });
  }

  private workEnd(): void {
    this.ctx.record({ t: 0, seq: 0, kind: 'work.end', actor: this.actor, step: this.step });
  }

  /**
   * `ev` is always a fresh literal, head first, so it is completed in place rather than copied
   * (Recorder.record); actor and step go last in the JSON, after the kind's own fields.
   */
  private record<K extends EventKind>(ev: Omit<AssembledEvent<K>, 'actor' | 'step'>): void {
    const e = ev as Record<string, unknown>;
    e.actor = this.actor;
    if (this.step >= 0) e.step = this.step;
    this.ctx.record(e as AssembledEvent<K>);
  }
}

function readInt(r: Reply): number {
  if (r.t === 'error') throw exceptionFor(r);
  return r.t === 'int' ? Number(r.v) : 0;
}
