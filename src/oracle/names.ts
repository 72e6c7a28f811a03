/**
 * Stable names for what is random in a run, shared by both sides of a comparison: client UUIDs
 * (and the Java thread id after them), unlock latch ids, naive lock tokens, script texts/SHA1s.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import '../engine/redisson/scripts';
import { allRedissonScripts } from '../engine/redisson/scripts/family';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const UUID_THREAD = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\d+)/g;
/**
 * An unlock latch's key: `redisson_unlock_latch:` + the lock's name in braces (prefixName), or the
 * name itself when it has a hash tag (`{order}:lock`), then `:` and the request id: the id is the
 * last segment, whatever colons the name holds.
 */
const LATCH = /(redisson_unlock_latch:[^\s"']*:)([0-9a-zA-Z-]+)(?![0-9a-zA-Z:-])/g;

export function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

let catalogue: Map<string, string> | null = null;

/**
 * sha1 of each script text the model can send -> its name: Redisson's as `<family>@<since>`
 * (`unlock@3.24.0`), the naive locks' .lua files by path (`naive/scripts/compare_and_delete`).
 */
export function modelScripts(root = 'src/engine'): Map<string, string> {
  if (catalogue) return catalogue;
  const out = new Map<string, string>();
  for (const s of allRedissonScripts()) out.set(sha1(s.text), `${s.id}@${s.since}`);
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.lua'))
        out.set(sha1(readFileSync(p, 'utf8')), relative(root, p).replace(/\.lua$/, ''));
    }
  };
  walk(root);
  catalogue = out;
  return out;
}

export function scriptName(sha: string): string {
  return modelScripts().get(sha.toLowerCase()) ?? `script?${sha.slice(0, 8)}`;
}

/**
 * One side's namer. `threadOf(client, javaThreadId)` maps the thread id after a UUID to the
 * scenario thread (the model's are the scenario's already).
 */
export class Namer {
  private readonly uuids = new Map<string, string>();
  private readonly latches = new Map<string, string>();
  private readonly latchCount = new Map<string, number>();
  private readonly tokens = new Map<string, string>();
  private readonly tokenCount = new Map<string, number>();

  constructor(
    private readonly threadOf: (client: string, tid: string) => string = (_c, tid) => tid,
    /** epoch ms of time 0 on the real side: epoch times become `@<ms after 0>`; 0 on the model side */
    private readonly t0Epoch = 0,
  ) {}

  /** The client a UUID belongs to: the first client seen sending it. */
  private uuidClient(uuid: string, client: string): string {
    let c = this.uuids.get(uuid);
    if (c === undefined) {
      c = client;
      this.uuids.set(uuid, c);
    }
    return c;
  }

  /** A naive lock's random token: the first client that wrote it names it. */
  token(value: string, client: string): string {
    let n = this.tokens.get(value);
    if (n === undefined) {
      const k = (this.tokenCount.get(client) ?? 0) + 1;
      this.tokenCount.set(client, k);
      n = `<${client}-token${k}>`;
      this.tokens.set(value, n);
    }
    return n;
  }

  knownToken(value: string): string | undefined {
    return this.tokens.get(value);
  }

  /** Rewrites one string: UUIDs, latch ids, known tokens, epoch times. */
  name(s: string, client: string): string {
    let out = s.replace(UUID_THREAD, (_m, uuid: string, tid: string) => {
      const c = this.uuidClient(uuid, client);
      return `<${c}>:${this.threadOf(c, tid)}`;
    });
    out = out.replace(UUID, (uuid) => `<${this.uuidClient(uuid, client)}>`);
    out = out.replace(LATCH, (_m, prefix: string, id: string) => prefix + this.latch(id, client));
    const t = this.tokens.get(out);
    if (t !== undefined) return t;
    if (this.t0Epoch > 0 && /^\d{13}$/.test(out)) {
      const v = Number(out);
      if (Math.abs(v - this.t0Epoch) < 24 * 3600_000) return `@${v - this.t0Epoch}`;
    }
    return out;
  }

  private latch(id: string, client: string): string {
    let n = this.latches.get(id);
    if (n === undefined) {
      const k = (this.latchCount.get(client) ?? 0) + 1;
      this.latchCount.set(client, k);
      n = `<${client}-latch${k}>`;
      this.latches.set(id, n);
    }
    return n;
  }
}

/** The client of an actor: "A:1", "A/watchdog", "A/pubsub" -> "A". */
export function clientOfActor(actor: string): string {
  const m = /^[^:/]+/.exec(actor);
  return m ? m[0] : actor;
}
