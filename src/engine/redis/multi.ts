/**
 * Transactions (Redis multi.c): MULTI queues, EXEC runs the queue atomically (the simulation is
 * single-threaded, so running it in one go is atomic), DISCARD drops it, WATCH makes EXEC fail
 * with a nil array when a watched key was modified or expired in between.
 */
import type { Connection } from './connection';
import type { Reply } from './reply';
import { error, NIL_ARRAY, OK } from './reply';
import type { RedisServer } from './server';

const EXEC_ABORT = error('EXECABORT Transaction discarded because of previous errors.');

/** What a connection carries for MULTI / WATCH. */
export class TxState {
  /** Queued argv while in MULTI, null otherwise. */
  queue: string[][] | null = null;
  /** A command was refused while queueing (CLIENT_DIRTY_EXEC). */
  queueError = false;
  /** A watched key was touched (CLIENT_DIRTY_CAS). */
  casDirty = false;
  /** key → whether it was already logically expired when WATCHed */
  readonly watched = new Map<string, boolean>();
}

/** The server-wide index of who watches which key (db->watched_keys). */
export class Watches {
  private readonly byKey = new Map<string, Set<Connection>>();

  get active(): boolean {
    return this.byKey.size !== 0;
  }

  watch(c: Connection, key: string, alreadyExpired: boolean): void {
    const tx = c.tx;
    if (tx.watched.has(key)) return;
    tx.watched.set(key, alreadyExpired);
    let set = this.byKey.get(key);
    if (set === undefined) this.byKey.set(key, (set = new Set()));
    set.add(c);
  }

  unwatchAll(c: Connection): void {
    for (const key of c.tx.watched.keys()) {
      const set = this.byKey.get(key);
      if (set === undefined) continue;
      set.delete(c);
      if (set.size === 0) this.byKey.delete(key);
    }
    c.tx.watched.clear();
  }

  /**
   * multi.c touchWatchedKey. `stillExists` tells whether the key is in the keyspace after the
   * change: deleting a key that was already expired at WATCH time is not a change.
   */
  touch(key: string, stillExists: boolean): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    for (const c of [...set]) {
      if (c.tx.watched.get(key) === true && !stillExists) {
        c.tx.watched.set(key, false);
        continue;
      }
      c.tx.casDirty = true;
      this.unwatchAll(c);
    }
  }

  /** FLUSHALL / FLUSHDB: every watched key that existed counts as touched. */
  touchAll(existed: (key: string) => boolean): void {
    for (const key of [...this.byKey.keys()]) if (existed(key)) this.touch(key, false);
  }
}

export function multiCommand(_s: RedisServer, c: Connection): Reply {
  if (c.tx.queue !== null) return error('ERR MULTI calls can not be nested');
  c.tx.queue = [];
  c.tx.queueError = false;
  return OK;
}

export function discardCommand(s: RedisServer, c: Connection): Reply {
  if (c.tx.queue === null) return error('ERR DISCARD without MULTI');
  discardTransaction(s, c);
  return OK;
}

export function discardTransaction(s: RedisServer, c: Connection): void {
  c.tx.queue = null;
  c.tx.queueError = false;
  c.tx.casDirty = false;
  s.watches.unwatchAll(c);
}

export function watchCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  if (c.tx.queue !== null) return error('ERR WATCH inside MULTI is not allowed');
  // A client already marked dirty need not watch more keys (multi.c watchCommand).
  if (c.tx.casDirty) return OK;
  for (let j = 1; j < argv.length; j++) s.watches.watch(c, argv[j], s.db.isExpired(argv[j]));
  return OK;
}

export function unwatchCommand(s: RedisServer, c: Connection): Reply {
  s.watches.unwatchAll(c);
  c.tx.casDirty = false;
  return OK;
}

/** EXEC: EXECABORT after a queueing error, nil if a watched key changed, else every reply. */
export function execCommand(s: RedisServer, c: Connection): Reply {
  const tx = c.tx;
  const queue = tx.queue;
  if (queue === null) return error('ERR EXEC without MULTI');
  for (const [key, expiredAtWatch] of tx.watched) {
    if (!expiredAtWatch && s.db.isExpired(key)) tx.casDirty = true;
  }
  if (tx.queueError || tx.casDirty) {
    const reply = tx.queueError ? EXEC_ABORT : NIL_ARRAY;
    discardTransaction(s, c);
    return reply;
  }
  s.watches.unwatchAll(c);
  tx.queue = null;
  const replies: Reply[] = [];
  for (const argv of queue) replies.push(s.execQueued(c, argv));
  return { t: 'array', v: replies };
}
