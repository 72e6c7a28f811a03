/**
 * The Java side: oracle/java/*.java compiled with javac against the Redisson classpath the user
 * gives (LOCKSCOPE_REDISSON_CLASSPATH_<release with _>, else LOCKSCOPE_REDISSON_CLASSPATH), and
 * one JVM per scenario client speaking JSON lines (oracle/java/LockScopeOracle.java).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { start, type Proc } from './procs';

export const JAVA_DIR = resolve('oracle/java');

export interface JvmEvent {
  ev: string;
  actor?: string;
  t?: number;
  step?: number;
  [k: string]: unknown;
}

export interface Jvm {
  readonly client: string;
  readonly proc: Proc;
  readonly events: JvmEvent[];
  readonly stderr: string[];
  ready: Promise<void>;
  ended: Promise<void>;
  send(line: string): void;
}

export function classpathFor(release: string): { cp: string; from: string } | null {
  const specific = `LOCKSCOPE_REDISSON_CLASSPATH_${release.replace(/\./g, '_')}`;
  const v = process.env[specific];
  if (v) return { cp: v, from: specific };
  const g = process.env.LOCKSCOPE_REDISSON_CLASSPATH;
  return g ? { cp: g, from: 'LOCKSCOPE_REDISSON_CLASSPATH' } : null;
}

/** Compiles the harness once per (sources, classpath); returns the class directory. */
export function compileHarness(cp: string): string {
  const sources = readdirSync(JAVA_DIR).filter((f) => f.endsWith('.java')).map((f) => join(JAVA_DIR, f));
  const h = createHash('sha1');
  h.update(cp);
  for (const f of sources) h.update(readFileSync(f));
  const out = join(tmpdir(), `lockscope-oracle-${h.digest('hex').slice(0, 12)}`);
  if (existsSync(join(out, 'LockScopeOracle.class'))) return out;
  mkdirSync(out, { recursive: true });
  try {
    execFileSync('javac', ['-nowarn', '-encoding', 'UTF-8', '-cp', cp, '-d', out, ...sources], { stdio: 'pipe' });
  } catch (e) {
    const err = e as { stderr?: Buffer };
    throw new Error(`javac failed against the Redisson classpath:\n${err.stderr?.toString() ?? String(e)}`, { cause: e });
  }
  return out;
}

export function startJvm(
  client: string,
  cp: string,
  classes: string,
  config: unknown,
  workDir: string,
  /** runs it inside the client's network namespace (netns.ts) */
  wrap: (cmd: string, args: string[]) => { cmd: string; args: string[] } = (cmd, args) => ({ cmd, args }),
): Jvm {
  const cfgFile = join(workDir, `client-${client}.json`);
  writeFileSync(cfgFile, JSON.stringify(config));
  const run = wrap('java', ['-cp', `${cp}:${classes}`, 'LockScopeOracle', cfgFile]);
  const proc = start(`jvm ${client}`, run.cmd, run.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const events: JvmEvent[] = [];
  const stderr: string[] = [];
  let onReady!: () => void;
  let onEnd!: () => void;
  let fail!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    onReady = res;
    fail = rej;
  });
  const ended = new Promise<void>((res) => (onEnd = res));
  createInterface({ input: proc.child.stderr! }).on('line', (l) => stderr.push(l));
  createInterface({ input: proc.child.stdout! }).on('line', (l) => {
    let e: JvmEvent;
    try {
      e = JSON.parse(l) as JvmEvent;
    } catch {
      stderr.push(l);
      return;
    }
    events.push(e);
    if (e.ev === 'ready') onReady();
    else if (e.ev === 'end') onEnd();
    else if (e.ev === 'fatal') fail(new Error(`client ${client}: ${String(e.message)}`));
  });
  void proc.exited.then(() => {
    fail(new Error(`the JVM of client ${client} exited before it was ready:\n${stderr.slice(-15).join('\n')}`));
    onEnd();
  });
  return {
    client,
    proc,
    events,
    stderr,
    ready,
    ended,
    send(line) {
      if (proc.child.stdin && !proc.child.stdin.destroyed) proc.child.stdin.write(`${line}\n`);
    },
  };
}
