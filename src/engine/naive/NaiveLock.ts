/**
 * The teaching locks people write before they reach for Redisson, one per mistake:
 *
 *   setnx              SETNX key 1, DEL to release. No expiry: a crashed holder locks everyone out.
 *   setnx-expire       SETNX then EXPIRE as two commands: a crash in between leaves no expiry.
 *   set-nx-px          SET key 1 NX PX lease, DEL to release: after the lease ran out, DEL removes
 *                      whoever holds the lock now.
 *   set-nx-px-get-del  SET key <token> NX PX lease; release is GET, compare, DEL: two round trips,
 *                      so the lock can change hands between the check and the delete.
 *   set-nx-px-lua      as above, but the compare-and-delete is one Lua script: safe release.
 *   set-nx-px-renew    set-nx-px-lua plus the tutorial's hand-written renewal thread (RenewalTask.ts):
 *                      every third of the lease it checks the token with GET and PEXPIREs; unlock
 *                      stops it.
 *   set-nx-px-watch    as set-nx-px-get-del, but the release is the optimistic transaction of the
 *                      Redis docs: WATCH key, GET, compare, MULTI, DEL, EXEC. A change to the key
 *                      after the WATCH makes EXEC answer nil and delete nothing: safe, at the price
 *                      of five round trips instead of one EVAL.
 *
 * None is reentrant. Waiting is a plain poll: try, and if that failed sleep RETRY_SLEEP_MS.
 */
import { sleep, now, type Process } from '../sim/effects';
import type { Reply } from '../redis/reply';
import type { Prng } from '../sim/api';
import compareAndDeleteLua from './scripts/compare_and_delete.lua?raw';

import { NAIVE_LOCK_TYPES, type NaiveLockType } from '../lock_types';
export { NAIVE_LOCK_TYPES, type NaiveLockType };

export function isNaiveLockType(t: string | undefined): t is NaiveLockType {
  return (NAIVE_LOCK_TYPES as readonly string[]).includes(t ?? '');
}

/** The poll interval of the retry loop: the 100 ms that blog posts use. */
export const RETRY_SLEEP_MS = 100;
/** Lease when the op gives none: the 30 s of the Redis docs' `SET resource value NX PX 30000`. */
export const DEFAULT_LEASE_MS = 30_000;

/** What a naive lock needs from its client: raw commands on the client's connection. */
export interface CommandSender {
  /**
   * `routeKey` routes a command that names no key (MULTI, EXEC, UNWATCH) in a cluster: a
   * transaction has to stay on the connection of its key's master.
   */
  command(argv: readonly string[], routeKey?: string): Process<Reply>;
}

/** A renewal task for the lock: started on every acquisition, stopped by unlock. */
export interface Renewal {
  start(token: string, leaseMs: number): void;
  stop(): void;
}

export class NaiveLock {
  /** the value this acquisition wrote, null when we believe we do not hold it */
  private token: string | null = null;

  constructor(
    private readonly sender: CommandSender,
    readonly type: NaiveLockType,
    readonly name: string,
    /** draws the per-acquisition tokens of the token-checking variants */
    private readonly tokens: Prng,
    /** told once per lock()/tryLock() call, when its first attempt failed and polling begins */
    private readonly onPoll: () => void = () => {},
    /** set-nx-px-renew: its renewal thread */
    private readonly renewal?: Renewal,
  ) {
    if (type === 'set-nx-px-renew' && renewal === undefined)
      throw new Error('set-nx-px-renew needs a renewal task');
  }

  /** lock(): poll until acquired. One token per call, reused by every attempt, as such code does. */
  *lock(leaseMs = DEFAULT_LEASE_MS): Process<void> {
    const token = this.newToken();
    if (!(yield* this.tryAcquire(leaseMs, token))) {
      this.onPoll();
      do yield* sleep(RETRY_SLEEP_MS);
      while (!(yield* this.tryAcquire(leaseMs, token)));
    }
    this.startRenewal(leaseMs);
  }

  /** tryLock(wait): poll until acquired or waitMs has passed; one attempt when waitMs is 0. */
  *tryLock(waitMs = 0, leaseMs = DEFAULT_LEASE_MS): Process<boolean> {
    const deadline = (yield* now()) + waitMs;
    const token = this.newToken();
    for (let attempt = 0; ; attempt++) {
      if (yield* this.tryAcquire(leaseMs, token)) {
        this.startRenewal(leaseMs);
        return true;
      }
      const left = deadline - (yield* now());
      if (left <= 0) return false;
      if (attempt === 0) this.onPoll();
      yield* sleep(Math.min(RETRY_SLEEP_MS, left));
    }
  }

  private startRenewal(leaseMs: number): void {
    if (this.renewal !== undefined && this.token !== null) this.renewal.start(this.token, leaseMs);
  }

  /** The value the token-checking variants write; the others write the constant 1. */
  private newToken(): string {
    return this.type === 'set-nx-px-get-del' ||
      this.type === 'set-nx-px-lua' ||
      this.type === 'set-nx-px-renew' ||
      this.type === 'set-nx-px-watch'
      ? this.tokens.hex(10)
      : '1';
  }

  /** One acquire attempt. */
  private *tryAcquire(leaseMs: number, token: string): Process<boolean> {
    switch (this.type) {
      case 'setnx':
        return this.took(yield* this.sender.command(['SETNX', this.name, token]), token);
      case 'setnx-expire': {
        if (!this.took(yield* this.sender.command(['SETNX', this.name, token]), token)) return false;
        // EXPIRE takes seconds; a sub-second lease is rounded up rather than lost.
        yield* this.sender.command(['EXPIRE', this.name, String(Math.max(1, Math.ceil(leaseMs / 1000)))]);
        return true;
      }
      case 'set-nx-px':
        return this.took(
          yield* this.sender.command(['SET', this.name, '1', 'NX', 'PX', String(leaseMs)]),
          '1',
        );
      case 'set-nx-px-get-del':
      case 'set-nx-px-lua':
      case 'set-nx-px-renew':
      case 'set-nx-px-watch': {
        const token = this.tokens.hex(10);
        return this.took(
          yield* this.sender.command(['SET', this.name, token, 'NX', 'PX', String(leaseMs)]),
          token,
        );
      }
    }
  }

  private took(r: Reply, value: string): boolean {
    const ok = (r.t === 'int' && Number(r.v) === 1) || (r.t === 'status' && r.v === 'OK');
    if (ok) this.token = value;
    return ok;
  }

  /** unlock(): true if this call deleted the key (whoever's it was). */
  *unlock(): Process<boolean> {
    const token = this.token;
    this.token = null;
    // stopped before the delete goes out, so no round renews a lock being released
    this.renewal?.stop();
    switch (this.type) {
      case 'setnx':
      case 'setnx-expire':
      case 'set-nx-px':
        return deleted(yield* this.sender.command(['DEL', this.name]));
      case 'set-nx-px-get-del': {
        const current = yield* this.sender.command(['GET', this.name]);
        if (current.t !== 'bulk' || current.v === null || current.v !== token) return false;
        return deleted(yield* this.sender.command(['DEL', this.name]));
      }
      case 'set-nx-px-lua':
      case 'set-nx-px-renew':
        return deleted(
          yield* this.sender.command(['EVAL', compareAndDeleteLua, '1', this.name, token ?? '']),
        );
      case 'set-nx-px-watch':
        return yield* this.watchAndDelete(token);
    }
  }

  /**
   * The check-and-delete of the Redis docs' optimistic locking: WATCH before the GET, so any write
   * to the key after the check (its expiry, another client's SET) makes EXEC answer nil and the
   * queued DEL never runs (multi.c execCommand: CLIENT_DIRTY_CAS).
   */
  private *watchAndDelete(token: string | null): Process<boolean> {
    const send = (argv: string[]) => this.sender.command(argv, this.name);
    yield* send(['WATCH', this.name]);
    const current = yield* send(['GET', this.name]);
    if (current.t !== 'bulk' || current.v === null || current.v !== token) {
      yield* send(['UNWATCH']);
      return false;
    }
    yield* send(['MULTI']);
    yield* send(['DEL', this.name]);
    const exec = yield* send(['EXEC']);
    // nil: a watched key changed, the transaction was discarded; otherwise [DEL's reply]
    return exec.t === 'array' && exec.v !== null && exec.v.length === 1 && deleted(exec.v[0]);
  }

  /** The value this lock wrote when it was acquired (null if not held). */
  currentToken(): string | null {
    return this.token;
  }
}

function deleted(r: Reply): boolean {
  return r.t === 'int' && Number(r.v) === 1;
}
