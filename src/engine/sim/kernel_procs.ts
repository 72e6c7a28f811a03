/**
 * The kernel's state and its processes: scheduling, dispatching a task, stepping a generator,
 * semaphore waits (the network and nodes are `KernelBase`'s, kernel_base.ts).
 */
import type { Network } from '../net/network';
import type { Reply } from '../redis/reply';
import { error } from '../redis/reply';
import type { NodeLifecycle, Prng } from './api';
import { CALL_INTERRUPTED, type AcquireResult, type ConnectionRef, type Process, type Step } from './effects';
import { CALL_TIMEOUT_PREFIX, EffectRecord } from './effects';
import { HorizonQueue } from './heap';
import {
  INTERRUPTED_GET_FINDS_REPLY,
  INTERRUPTED_GET_FINDS_REPLY_AFTER_ONE,
  INTERRUPTED_GET_MS,
  INTERRUPTED_GET_STREAK_MS,
  interruptedGetStream,
} from './interrupted_get';
import { prngFor } from './prng';
import { ChangeList } from './change_list';
import type { Recorder } from './recorder';
import { replyToJson } from './reply_json';
import {
  type KeyMirror,
  type KernelOptions,
  type CallMeta,
  RESUME,
  FN,
  ThrowInto,
  Task,
  Proc,
  Sem,
  Owner,
  type SimNode,
  type Push,
  type Conn,
} from './kernel_parts';

export abstract class KernelProcs {
  /** the processes (by name) and clients whose canWake may have changed (Kernel.wakeChanges) */
  protected wakeNames = new ChangeList();
  protected wakeClients = new ChangeList();
  protected t = 0;
  protected seq = 0;
  /** the tasks, by (at, seq); those more than a quarter second ahead wait outside the heap */
  protected readonly heap = new HorizonQueue<Task>(256);
  protected readonly owners = new Map<string, Owner>();
  protected readonly nodes = new Map<string, SimNode>();
  protected readonly conns = new Map<number, Conn>();
  protected readonly rngs = new Map<string, Prng>();
  protected nextProc = 1;
  protected nextSem = 1;
  protected nextConn = 1;
  /** frames pushed during the current exec, delivered after its reply */
  protected execPushes: Push[] | null = null;
  /** messages pushed by a PUBLISH the server has not reported yet */
  protected unpublished: Push[] = [];
  /** client -> pub/sub frames on their way to it (deliveries scheduled, not yet run) */
  protected readonly pushesInFlight = new Map<string, number>();
  protected readonly net: Network;
  protected readonly rec: Recorder;
  protected readonly mirror: KeyMirror;
  protected readonly lifecycle: NodeLifecycle[] = [];
  /** set when the run was stopped before its end (truncatedBy says why) */
  truncated = false;
  /** why: the event cap, the task cap (8 × the event cap), or a process resumed too often at one instant */
  truncatedBy: 'events' | 'tasks' | 'instant' | null = null;
  /** kernel tasks dispatched so far (a cost figure: tasks that record no event still take time) */
  tasksRun = 0;

  constructor(protected readonly opts: KernelOptions) {
    this.net = opts.network;
    this.rec = opts.recorder;
    this.mirror = opts.mirror;
  }

  /**
   * CommandAsyncService.get() interrupted: the thread stops waiting for the reply and keeps its
   * interrupt flag (get() sets it again); the command itself goes on.
   */
  protected abandonCall(p: Proc, costMs = 0): void {
    this.wakeNames.add(p.name);
    if (p.callOnAbandoned !== undefined) (p.abandoned ??= new Map()).set(p.callSeq, p.callOnAbandoned);
    if (p.callTimer) p.callTimer.cancelled = true;
    p.callTimer = null;
    p.callSeq++;
    p.inCall = false;
    p.pendingInterrupt = true;
    this.schedule(this.t + costMs, RESUME, p, error(CALL_INTERRUPTED), null, p.owner);
  }

  /** The seeded stream of one purpose (SimContext.rng). */
  rng(purpose: string): Prng {
    let r = this.rngs.get(purpose);
    if (r === undefined) {
      r = prngFor(this.opts.seed, purpose);
      this.rngs.set(purpose, r);
    }
    return r;
  }

  /**
   * Whether a get() made with the interrupt flag set finds its reply already there and returns it
   * (the flag stays set) instead of throwing: sim/interrupted_get.ts.
   */
  private getFindsReply(p: Proc, conn: ConnectionRef): boolean {
    const oneIn =
      this.t - p.getFoundReplyAt <= INTERRUPTED_GET_STREAK_MS
        ? INTERRUPTED_GET_FINDS_REPLY_AFTER_ONE
        : INTERRUPTED_GET_FINDS_REPLY;
    const found = this.rng(interruptedGetStream(p.name)).int(1, oneIn) === 1;
    // only the get right after one that found its reply is the likelier one: measured from when
    // that get returned, one round trip after it was sent
    p.getFoundReplyAt = found ? this.t + this.roundTrip(conn) : -Infinity;
    return found;
  }

  /**
   * A get() drawn to find its reply finds it only if the reply is back one round trip later: a
   * call whose reply cannot come by then (a partition, a stalled node, a starved client) throws
   * as every other interrupted get does.
   */
  private abandonUnlessAnswered(p: Proc, conn: ConnectionRef): void {
    const call = p.callSeq;
    this.later(
      this.t + this.roundTrip(conn) + 1,
      () => {
        if (p.done || !p.inCall || p.callSeq !== call) return;
        p.getFoundReplyAt = -Infinity;
        this.abandonCall(p);
      },
      p.owner,
    );
  }

  /** Virtual ms a reply takes over `conn` when nothing holds it up. */
  protected abstract roundTrip(conn: ConnectionRef): number;

  // ------------------------------------------------------------------------------------------
  // Processes

  protected owner(id: string): Owner {
    let o = this.owners.get(id);
    if (o === undefined) {
      o = new Owner();
      this.owners.set(id, o);
    }
    return o;
  }

  /** Runs `fn` at `at`; with an owner, only while that client lives (deferred while it is paused). */
  protected later(at: number, fn: () => void, owner: string | null = null): Task {
    return this.schedule(at, FN, null, undefined, fn, owner);
  }

  protected schedule(
    at: number,
    kind: Task['kind'],
    proc: Proc | null,
    value: unknown,
    fn: (() => void) | null,
    owner: string | null,
    call?: number,
  ): Task {
    const task = new Task(at, this.seq++, kind, proc, value, fn, owner, call);
    this.heap.push(task);
    return task;
  }

  protected dispatch(task: Task): void {
    if (task.cancelled) return;
    if (task.owner !== null) {
      const o = this.owners.get(task.owner);
      if (o !== undefined) {
        if (o.crashed) return;
        if (o.paused) {
          o.deferred.push(task);
          return;
        }
        if (task.io && o.starvedUntil > this.t) {
          o.starvedIo.push(task);
          return;
        }
      }
    }
    if (task.kind === RESUME) {
      const p = task.proc!;
      if (task.timer !== undefined && task.value === undefined) task.value = timerError(task.timer);
      if (task.call !== undefined && task.call !== p.callSeq) {
        this.unclaimedReply(p, task.call, task.value as Reply);
        return;
      }
      if (task.call !== undefined) {
        if (task.timer !== undefined) this.timedOut(p, task.call);
        else if (p.callTimer) p.callTimer.cancelled = true;
        p.callTimer = null;
      }
      if (!p.done) this.step(p, task.value);
    } else task.fn!();
  }

  /** The response timer won: the caller gets the timeout, a reply that still comes is discarded. */
  protected timedOut(p: Proc, call: number): void {
    const meta = p.callTimer === null ? undefined : p.callTimer.timer;
    if (meta !== undefined) {
      (p.timedOut ??= new Map()).set(call, meta);
      this.rec.emit('call.timeout', { actor: p.name, ...meta });
    }
    p.callSeq++;
  }

  /** A reply (or timer) for a call the caller no longer waits for. */
  protected unclaimedReply(p: Proc, call: number, reply: Reply): void {
    const late = p.abandoned?.get(call);
    if (late !== undefined) {
      p.abandoned!.delete(call);
      late(reply);
      return;
    }
    const timedOut = p.timedOut?.get(call);
    if (timedOut !== undefined) {
      p.timedOut!.delete(call);
      const { node, conn, command } = timedOut;
      this.rec.emit('reply.late', { actor: p.name, node, conn, command, reply: replyToJson(reply) });
    }
  }

  protected step(p: Proc, value: unknown): void {
    if (p.instantAt !== this.t) {
      p.instantAt = this.t;
      p.instantResumes = 0;
    } else if (++p.instantResumes > p.instantBudget) {
      // resumed at this instant more often than its program can account for: time stopped passing
      this.truncated = true;
      this.truncatedBy = 'instant';
      return;
    }
    this.wakeNames.add(p.name);
    p.started = true;
    p.inCall = false;
    p.granted = false;
    let v = value;
    if (p.pendingThrow !== null && !(v instanceof ThrowInto)) {
      v = p.pendingThrow;
    }
    p.pendingThrow = null;
    // an exception on its way up the process's stack of sub-processes (effects.ts Process)
    let thrown = false;
    let error: unknown;
    if (v instanceof ThrowInto) {
      thrown = true;
      error = v.error;
    }
    for (;;) {
      let r: IteratorResult<Step, unknown>;
      try {
        r = thrown ? GEN_THROW.call(p.top, error) : GEN_NEXT.call(p.top, v);
        thrown = false;
      } catch (e) {
        const caller = p.callers.pop();
        if (caller !== undefined) {
          // the sub-process threw: its caller gets the exception where it yielded it
          p.top = caller;
          thrown = true;
          error = e;
          continue;
        }
        p.done = true;
        this.owners.get(p.owner)?.procs.delete(p);
        const msg = e instanceof Error ? e.message : String(e);
        throw new Error(`process ${p.name} failed at t=${this.t}: ${msg}`, { cause: e });
      }
      if (r.done && !p.done) {
        const caller = p.callers.pop();
        if (caller !== undefined) {
          p.top = caller;
          v = r.value;
          continue;
        }
      }
      if (r.done || p.done) {
        p.done = true;
        this.owners.get(p.owner)?.procs.delete(p);
        return;
      }
      const step = r.value;
      if (isProcess(step)) {
        p.callers.push(p.top);
        p.top = step;
        v = undefined;
        continue;
      }
      const eff = step;
      switch (eff.type) {
        case 'now':
          v = this.t;
          continue;
        case 'sleep':
          this.schedule(this.t + Math.max(0, eff.ms), RESUME, p, undefined, null, p.owner);
          return;
        case 'call':
          p.inCall = true;
          p.callSeq++;
          p.callInterruptible = eff.interruptible === true;
          p.callOnAbandoned = eff.onAbandonedReply;
          this.send(p, eff.conn, eff.argv, eff.timeoutMs ?? this.opts.callTimeoutMs, eff.writeTimeoutMs);
          if (p.callInterruptible && p.pendingInterrupt && p.inCall) {
            if (!this.getFindsReply(p, eff.conn)) this.abandonCall(p, INTERRUPTED_GET_MS);
            else this.abandonUnlessAnswered(p, eff.conn);
          }
          return;
        case 'acquire': {
          const s = eff.sem as Sem;
          if (s.permits > 0) {
            s.permits--;
            v = 'acquired' satisfies AcquireResult;
            continue;
          }
          if (eff.interruptible && p.pendingInterrupt) {
            p.pendingInterrupt = false;
            v = 'interrupted' satisfies AcquireResult;
            continue;
          }
          if (eff.timeoutMs !== undefined && eff.timeoutMs <= 0) {
            v = 'timeout' satisfies AcquireResult;
            continue;
          }
          s.waiters.push(p);
          p.waitSem = s;
          p.waitInterruptible = eff.interruptible === true;
          if (eff.timeoutMs !== undefined)
            p.waitTimeout = this.later(
              this.t + eff.timeoutMs,
              () => {
                if (p.waitSem !== s || p.done) return;
                this.stopWaiting(p);
                this.step(p, 'timeout' satisfies AcquireResult);
              },
              p.owner,
            );
          return;
        }
        default:
          throw new Error(`process ${p.name}: unknown effect ${JSON.stringify(eff)}`);
      }
    }
  }

  protected stopWaiting(p: Proc): void {
    this.wakeNames.add(p.name);
    const s = p.waitSem;
    if (s !== null) {
      const i = s.waiters.indexOf(p);
      if (i >= 0) s.waiters.splice(i, 1);
    }
    if (p.waitTimeout) p.waitTimeout.cancelled = true;
    p.waitSem = null;
    p.waitTimeout = null;
  }

  /** A call leaves the process (KernelBase: the network). */
  protected abstract send(
    p: Proc,
    ref: ConnectionRef,
    argv: readonly string[],
    timeoutMs: number,
    writeTimeoutMs: number | undefined,
  ): void;
}

/**
 * %GeneratorPrototype%.next and .throw, called on the process's generator. `p.top.next` read the
 * method off each generator, whose map is its generator function's own: a load that sees every
 * process type of the run (megamorphic, looked up on each resume), and on the rarer throw path one
 * that saw few, so optimised code was thrown away whenever a new type was thrown into. Every
 * process is a generator object, so the method is always this one.
 */
const GENERATOR_PROTOTYPE = Object.getPrototypeOf(function* () {}.prototype) as Generator<
  Step,
  unknown,
  unknown
>;
const GEN_NEXT = GENERATOR_PROTOTYPE.next;
const GEN_THROW = GENERATOR_PROTOTYPE.throw;

/**
 * A yielded sub-process rather than an effect: a generator object. (Reading `type` off what was
 * yielded, as this did, was a load that saw every generator type of the run.)
 */
function isProcess(step: Step): step is Process<unknown> {
  return !(step instanceof EffectRecord) && IS_GENERATOR.call(GENERATOR_PROTOTYPE, step);
}

const IS_GENERATOR = Object.prototype.isPrototypeOf;

/** What a call whose response timer fired resumes with. */
function timerError(meta: CallMeta): Reply {
  return error(
    `${CALL_TIMEOUT_PREFIX}Redis server response timeout (${meta.timeoutMs} ms) for command: (${meta.command}) to ${meta.node}`,
  );
}
