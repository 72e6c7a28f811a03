/**
 * A small RESP2 client over node:net for tests and the benchmark: it talks to a real redis-server
 * and hands back the same Reply values (reply.ts) the simulator produces, so the two can be compared
 * with a plain deep-equal. Strings cross the wire as byte strings (latin1 <-> bytes, one char per
 * byte), matching bytes.ts. Not for the browser bundle.
 */
import { connect, type Socket } from 'node:net';
import type { Reply } from '../../engine/redis/reply';
import { array, bulk, error, int, status } from '../../engine/redis/reply';

const CRLF = Buffer.from('\r\n', 'latin1');

/** Encodes one command as a RESP2 multi-bulk request, as a byte string (one char per byte). */
export function encodeCommand(argv: readonly string[]): string {
  let out = `*${argv.length}\r\n`;
  for (const a of argv) out += `$${a.length}\r\n${a}\r\n`;
  return out;
}

/** Thrown inside the parser when the buffer ends before the reply does. */
const INCOMPLETE = Symbol('incomplete');

function parseInteger(text: string): Reply {
  const n = Number(text);
  return Number.isSafeInteger(n) ? int(n) : int(BigInt(text));
}

/**
 * Parses one reply at `pos`. Returns the reply and the position after it, or throws INCOMPLETE.
 * Replies are re-parsed from their start when more data arrives; fine for test-sized replies.
 */
function parseReply(buf: Buffer, pos: number): [Reply, number] {
  const eol = buf.indexOf(CRLF, pos);
  if (eol < 0) throw INCOMPLETE;
  const kind = buf[pos];
  const line = buf.toString('latin1', pos + 1, eol);
  const next = eol + 2;
  switch (kind) {
    case 0x2b /* + */:
      return [status(line), next];
    case 0x2d /* - */:
      return [error(line), next];
    case 0x3a /* : */:
      return [parseInteger(line), next];
    case 0x24 /* $ */: {
      const len = Number(line);
      if (len < 0) return [bulk(null), next];
      if (buf.length < next + len + 2) throw INCOMPLETE;
      return [bulk(buf.toString('latin1', next, next + len)), next + len + 2];
    }
    case 0x2a /* * */: {
      const count = Number(line);
      if (count < 0) return [array(null), next];
      const items: Reply[] = [];
      let p = next;
      for (let i = 0; i < count; i++) {
        const [item, after] = parseReply(buf, p);
        items.push(item);
        p = after;
      }
      return [array(items), p];
    }
    default:
      throw new Error(
        `RESP protocol error: unexpected byte 0x${kind.toString(16)} in ${JSON.stringify(line)}`,
      );
  }
}

/** One pipeline waiting for its replies. */
interface Pending {
  readonly replies: Reply[];
  readonly expected: number;
  resolve(r: Reply[]): void;
  reject(e: Error): void;
}

export class RespClient {
  private buf: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  private closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.failAll(e));
    socket.on('close', () => this.failAll(new Error('connection closed')));
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host });
      socket.once('connect', () => {
        socket.removeListener('error', reject);
        resolve(new RespClient(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Sends one command and resolves with its reply (errors are replies, not rejections). */
  call(argv: readonly string[]): Promise<Reply> {
    return this.pipeline([argv]).then((r) => r[0]);
  }

  /** Writes all commands in one go and resolves with their replies in order. */
  pipeline(commands: readonly (readonly string[])[]): Promise<Reply[]> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    if (commands.length === 0) return Promise.resolve([]);
    let out = '';
    for (const argv of commands) out += encodeCommand(argv);
    return new Promise<Reply[]>((resolve, reject) => {
      this.pending.push({ replies: [], expected: commands.length, resolve, reject });
      this.socket.write(Buffer.from(out, 'latin1'));
    });
  }

  /** Resolves with the next `n` frames the server sends without being asked (pub/sub messages). */
  frames(n: number): Promise<Reply[]> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise<Reply[]>((resolve, reject) => {
      this.pending.push({ replies: [], expected: n, resolve, reject });
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    let pos = 0;
    while (pos < this.buf.length) {
      let parsed: [Reply, number];
      try {
        parsed = parseReply(this.buf, pos);
      } catch (e) {
        if (e === INCOMPLETE) break;
        this.failAll(e as Error);
        this.socket.destroy();
        return;
      }
      pos = parsed[1];
      const waiter = this.pending[0];
      if (!waiter) {
        this.failAll(new Error('RESP reply without a pending request'));
        return;
      }
      waiter.replies.push(parsed[0]);
      if (waiter.replies.length === waiter.expected) {
        this.pending.shift();
        waiter.resolve(waiter.replies);
      }
    }
    this.buf = pos === this.buf.length ? Buffer.alloc(0) : this.buf.subarray(pos);
  }

  private failAll(e: Error): void {
    this.closed = true;
    for (const p of this.pending.splice(0)) p.reject(e);
  }
}
