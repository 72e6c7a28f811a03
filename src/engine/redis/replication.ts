/**
 * The master side of replication (Redis replication.c): the replication offset, what each replica
 * acknowledged, WAIT and min-replicas-to-write. Moving bytes to replicas (lag, links, resync) is
 * the topology's job (topology/replication_link.ts); this file only keeps the counts Redis keeps.
 *
 * Offsets count bytes of the replication stream as RESP, like `master_repl_offset`, so the numbers
 * match INFO replication of a real server fed the same commands.
 */
import type { Connection } from './connection';
import { NOT_INTEGER } from './errors';
import { parseLongLong } from './numbers';
import type { Reply } from './reply';
import { error, int } from './reply';
import type { RedisServer } from './server';

export const NOREPLICAS = error('NOREPLICAS Not enough good replicas to write.');
const WAIT_ON_REPLICA = error(
  'ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.',
);
const TIMEOUT_NOT_INTEGER = error('ERR timeout is not an integer or out of range');
const TIMEOUT_NEGATIVE = error('ERR timeout is negative');

/** Bytes one command takes in the stream: `*N\r\n` then `$len\r\n<arg>\r\n` per argument. */
export function commandBytes(argv: readonly string[]): number {
  let n = 3 + String(argv.length).length;
  for (const a of argv) n += 5 + String(a.length).length + a.length;
  return n;
}

export function streamBytes(commands: readonly (readonly string[])[]): number {
  let n = 0;
  for (const c of commands) n += commandBytes(c);
  return n;
}

interface ReplicaAck {
  /** the replica is attached and streaming (slave state ONLINE) */
  online: boolean;
  /** REPLCONF ACK offset */
  offset: number;
  /** when that ACK arrived, in whole seconds of the master's clock (repl_ack_time) */
  ackTime: number;
}

/** A client blocked in WAIT (c->bpop for BLOCKED_WAIT). */
export interface WaitBlock {
  numreplicas: number;
  /** the client's last write offset (c->woff) */
  offset: number;
  /** absolute master ms, 0: forever */
  timeoutAt: number;
}

export class ReplicationState {
  /** master_repl_offset */
  offset = 0;
  minReplicasToWrite = 0;
  /** min-replicas-max-lag, seconds */
  minReplicasMaxLag = 10;
  private readonly replicas = new Map<string, ReplicaAck>();

  /** A replica finished its sync and streams from `offset` (full or partial resync). */
  attach(replica: string, offset: number, nowMs: number): void {
    this.replicas.set(replica, { online: true, offset, ackTime: Math.floor(nowMs / 1000) });
  }

  detach(replica: string): void {
    this.replicas.delete(replica);
  }

  /** repl-timeout: a replica silent for longer is dropped (the master cannot tell a partition from a crash). */
  dropSilent(nowMs: number, timeoutSec = 60): void {
    const now = Math.floor(nowMs / 1000);
    for (const [id, r] of [...this.replicas]) if (now - r.ackTime > timeoutSec) this.replicas.delete(id);
  }

  /** REPLCONF ACK <offset> from a replica. */
  ack(replica: string, offset: number, nowMs: number): void {
    const r = this.replicas.get(replica);
    if (r === undefined) return;
    r.offset = Math.max(r.offset, offset);
    r.ackTime = Math.floor(nowMs / 1000);
  }

  /** connected_slaves of INFO replication */
  get connectedReplicas(): number {
    return this.replicas.size;
  }

  /** replicationCountAcksByOffset */
  countAcks(offset: number): number {
    let n = 0;
    for (const r of this.replicas.values()) if (r.online && r.offset >= offset) n++;
    return n;
  }

  /** checkGoodReplicasStatus (replicas whose last ACK is at most max-lag seconds old). */
  enoughGoodReplicas(nowMs: number): boolean {
    if (this.minReplicasToWrite === 0 || this.minReplicasMaxLag === 0) return true;
    const now = Math.floor(nowMs / 1000);
    let good = 0;
    for (const r of this.replicas.values()) if (r.online && now - r.ackTime <= this.minReplicasMaxLag) good++;
    return good >= this.minReplicasToWrite;
  }
}

/**
 * WAIT numreplicas timeout. Answers at once when enough replicas already acknowledged the
 * client's last write; otherwise sets `conn.waitBlock` and returns the count so far: a host that
 * can block (the kernel) holds the reply back until the count is reached or the timeout passes;
 * one that cannot (the console) shows what a timeout right now would answer.
 */
export function waitCommand(s: RedisServer, c: Connection, argv: string[]): Reply {
  if (s.role === 'replica') return WAIT_ON_REPLICA;
  const num = parseLongLong(argv[1]);
  if (num === null) return NOT_INTEGER;
  const timeout = parseLongLong(argv[2]);
  if (timeout === null) return TIMEOUT_NOT_INTEGER;
  if (timeout < 0) return TIMEOUT_NEGATIVE;
  const acked = s.repl.countAcks(c.woff);
  if (acked >= num) return int(acked);
  c.waitBlock = {
    numreplicas: Number(num),
    offset: c.woff,
    timeoutAt: timeout > 0 ? s.mstime() + Number(timeout) : 0,
  };
  return int(acked);
}
