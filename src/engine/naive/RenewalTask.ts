/**
 * The renewal thread of `set-nx-px-renew`: the tutorials' "续时", a task that keeps a
 * plain SET NX PX lock alive while the work is unfinished. One per acquisition, started once SET
 * NX PX succeeded, stopped by unlock():
 *
 *   every lease/3:  GET key          still our token?  no: stop (the lock is gone or someone else's)
 *                   PEXPIRE key lease                  push the expiry back to the full lease
 *
 * The check and the PEXPIRE are two commands, as in the tutorial's `get` then `expire`: between
 * them the lease can run out and another client take the key, and the PEXPIRE then extends that
 * client's lock. Redisson's renew script does both in one Lua call. A pause of the client pauses
 * this thread with the rest of its JVM, and a crash ends it.
 *
 * A failed command (an error reply, a response timeout) does not end it: the tutorial wraps the
 * round in try-catch because "报错后定时任务将不会再执行" (an exception would end the scheduled task);
 * the next round tries again.
 *
 * Trace: the commands carry the process ("<client>/renewal") as actor; each round is told as a
 * `watchdog.renew` on the lane of the thread that holds the lock (timer "<client>/renewal"; result
 * 1 renewed, 0 not ours any more, "error"), and the end as `watchdog.cancel` (reason "unlock" or
 * "lost"), the kinds and fields Redisson's watchdog uses.
 */
import type { SimContext } from '../sim/api';
import { sleep, type Process } from '../sim/effects';
import type { CommandSender, Renewal } from './NaiveLock';

/** Trace actor (process name) of a client's naive renewal threads. */
export function renewalActor(client: string): string {
  return `${client}/renewal`;
}

export class RenewalTask implements Renewal {
  /** the acquisition being renewed; null when none (replaced on every start, so a late wake-up of an old one sees it is stale) */
  private current: { readonly token: string } | null = null;

  constructor(
    private readonly ctx: SimContext,
    private readonly client: string,
    private readonly sender: CommandSender,
    /** the thread whose lock this is: the lane its renewals are drawn on */
    private readonly actor: string,
    private readonly lock: string,
  ) {}

  start(token: string, leaseMs: number): void {
    const entry = { token };
    this.current = entry;
    this.ctx.spawn(this.client, renewalActor(this.client), this.rounds(entry, leaseMs));
  }

  stop(): void {
    if (this.current === null) return;
    this.current = null;
    this.cancel('unlock');
  }

  private *rounds(entry: { readonly token: string }, leaseMs: number): Process<void> {
    const period = Math.max(1, Math.floor(leaseMs / 3));
    for (;;) {
      yield* sleep(period);
      if (this.current !== entry) return;
      const value = yield* this.sender.command(['GET', this.lock]);
      if (this.current !== entry) return;
      if (value.t === 'error') {
        this.renew({ result: 'error', error: value.v });
        continue;
      }
      if (value.t !== 'bulk' || value.v !== entry.token) return this.lost();
      const r = yield* this.sender.command(['PEXPIRE', this.lock, String(leaseMs)]);
      if (r.t === 'error') {
        this.renew({ result: 'error', error: r.v });
        continue;
      }
      const result = r.t === 'int' && Number(r.v) === 1 ? 1 : 0;
      if (result === 0 && this.current === entry) return this.lost();
      // told even when unlock came meanwhile: the PEXPIRE did run
      this.renew({ result });
      if (this.current !== entry) return;
    }
  }

  /** the key is gone or holds another token: nothing left to renew */
  private lost(): void {
    this.renew({ result: 0 });
    this.current = null;
    this.cancel('lost');
  }

  private renew(fields: { result: number | 'error'; error?: string }): void {
    this.ctx.emit('watchdog.renew', { ...this.where(), ...fields });
  }

  private cancel(reason: 'unlock' | 'lost'): void {
    this.ctx.emit('watchdog.cancel', { ...this.where(), reason });
  }

  private where() {
    return { actor: this.actor, lock: this.lock, timer: renewalActor(this.client) };
  }
}
