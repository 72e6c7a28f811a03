/**
 * The thing the lock is supposed to protect, outside Redis: a number that threads read, think
 * about for a while, and write back plus one. The write goes through whatever the thread saw,
 * so when two threads overlap, one increment is lost and `value` falls behind `accepted`.
 *
 *   counter  accepts every write (a plain database row).
 *   fenced   remembers the highest fencing token it has seen and refuses writes that carry a
 *            lower one (Kleppmann's storage). A write without a token cannot be checked: RLock
 *            and the naive locks hand out none, so the fenced resource accepts such writes and
 *            behaves like `counter` for them; only a FencedLock's token lets it refuse stale work.
 */
import { sleep, type Process } from '../sim/effects';
import type { SimContext } from '../sim/api';
import type { ResourceView } from '../trace';

export type ResourceKind = 'counter' | 'fenced';

export interface ResourceSettings {
  kind?: ResourceKind;
  initial?: number;
}

export interface UseRequest {
  /** trace actor, e.g. "A:1" */
  actor: string;
  /** the lock this thread believes it holds, if any */
  lock?: string;
  /** the fencing token of that lock, if it has one */
  token?: number;
  /** time between the read and the write; at least 1 ms */
  ms?: number;
}

export class ProtectedResource {
  readonly kind: ResourceKind;
  private value: number;
  private accepted = 0;
  private rejected = 0;
  private lastToken: number | undefined;

  constructor(
    private readonly ctx: SimContext,
    settings: ResourceSettings = {},
  ) {
    this.kind = settings.kind ?? 'counter';
    this.value = settings.initial ?? 0;
  }

  /** Read, wait `ms`, write back read + 1 (or be refused). Returns whether the write was accepted. */
  *use(req: UseRequest): Process<boolean> {
    const read = this.value;
    const readAt = this.ctx.now();
    // A fenced store checks the token on the read as well as on the write (card 6, Jepsen).
    if (this.kind === 'fenced' && req.token !== undefined) this.observe(req.token);
    yield* sleep(Math.max(1, req.ms ?? 1));
    const accepted = this.kind !== 'fenced' || req.token === undefined || this.observe(req.token);
    // Someone else wrote between our read and our write: accepting ours erases theirs.
    const lostUpdate = accepted && this.value !== read;
    if (accepted) {
      this.value = read + 1;
      this.accepted++;
    } else {
      this.rejected++;
    }
    this.ctx.emit('resource.use', {
      actor: req.actor,
      lock: req.lock,
      accepted,
      token: req.token ?? null,
      read,
      readAt,
      lostUpdate,
      value: this.value,
    });
    return accepted;
  }

  /** true if the token is not older than any seen before; remembers the newest. */
  private observe(token: number): boolean {
    if (this.lastToken !== undefined && token < this.lastToken) return false;
    this.lastToken = token;
    return true;
  }

  view(): ResourceView {
    const v: ResourceView = { value: this.value, accepted: this.accepted, rejected: this.rejected };
    if (this.lastToken !== undefined) v.lastToken = this.lastToken;
    return v;
  }
}
