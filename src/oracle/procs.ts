/**
 * Every process the oracle starts is registered here and stopped by its pid: at the end of a run,
 * when it fails, and on Ctrl-C / SIGTERM. Nothing is ever killed by name.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** resolves when the process has exited */
  readonly exited: Promise<void>;
}

const live = new Set<Proc>();
/** what else a run set up and must undo when it ends or is interrupted (network namespaces) */
const cleanups = new Set<() => void>();

/** Registers a synchronous clean-up run by stopAll and at exit; returns its unregistration. */
export function onCleanup(fn: () => void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

function runCleanups(): void {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // best effort: the next run removes what is left (netns.ts removeStale)
    }
  }
}

export function start(name: string, cmd: string, args: readonly string[], opts: SpawnOptions = {}): Proc {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  if (child.pid === undefined) throw new Error(`could not start ${name} (${cmd})`);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const p: Proc = { name, child, pid: child.pid, exited };
  live.add(p);
  void exited.then(() => live.delete(p));
  return p;
}

export function isRunning(p: Proc): boolean {
  return p.child.exitCode === null && p.child.signalCode === null;
}

export function signal(p: Proc, sig: NodeJS.Signals): void {
  if (!isRunning(p)) return;
  try {
    process.kill(p.pid, sig);
  } catch {
    // it exited between the check and the signal
  }
}

/** SIGCONT first (a stopped process ignores SIGTERM until resumed), then SIGKILL. */
export async function stop(p: Proc): Promise<void> {
  signal(p, 'SIGCONT');
  signal(p, 'SIGKILL');
  await Promise.race([p.exited, delay(2000)]);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => stop(p)));
  runCleanups();
}

/** Stops everything on Ctrl-C, SIGTERM and a normal exit of Node. */
export function stopAllOnExit(): void {
  const onSignal = (sig: NodeJS.Signals) => {
    process.stderr.write(`\noracle: ${sig}, stopping ${live.size} processes\n`);
    void stopAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', () => {
    for (const p of live) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    runCleanups();
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => globalThis.setTimeout(resolve, ms));
}

/** A loopback port nothing listens on now (and, for cluster nodes, whose bus port +10000 is free). */
export async function freePort(avoid: ReadonlySet<number>): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 30000);
    if (avoid.has(port)) continue;
    if ((await portFree(port)) && (await portFree(port + 10000))) return port;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
