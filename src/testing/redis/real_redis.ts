/**
 * Starts a throw-away real redis-server on loopback for differential tests and the benchmark:
 * random high port, no persistence, killed by pid when the caller is done (or when Node exits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { randomInt } from 'node:crypto';

/** Absolute path of an executable found on PATH, or null. */
export function findExecutable(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export interface RedisBinaries {
  server: string | null;
  cli: string | null;
}

export function findRedisBinaries(): RedisBinaries {
  return { server: findExecutable('redis-server'), cli: findExecutable('redis-cli') };
}

/** Names of the binaries that are missing, e.g. ['redis-cli']. */
export function missingBinaries(b: RedisBinaries, need: readonly (keyof RedisBinaries)[]): string[] {
  return need.filter((k) => b[k] === null).map((k) => (k === 'server' ? 'redis-server' : 'redis-cli'));
}

export interface RealRedis {
  readonly port: number;
  /** the server's process id (the benchmark reads its CPU time) */
  readonly pid: number;
  readonly version: string;
  stop(): Promise<void>;
}

const READY = 'Ready to accept connections';
const START_TIMEOUT_MS = 10_000;

function startOnPort(
  binary: string,
  port: number,
  extraArgs: readonly string[] = [],
  cwd?: string,
): Promise<{ child: ChildProcess; version: string }> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--loglevel',
    'notice',
    ...extraArgs,
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = globalThis.setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(READY)) {
        clearTimeout(timer);
        child.stdout?.removeListener('data', onData);
        // Keep draining the pipe so the server never blocks on a full stdout.
        child.stdout?.resume();
        const version = /Redis version=([\d.]+)/.exec(log)?.[1] ?? 'unknown';
        resolve({ child, version });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (code ${code}, signal ${signal}) before it was ready:\n${log}`));
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * Starts redis-server on a given port with extra arguments (e.g. `--cluster-enabled yes`), in
 * `cwd` if given (where a cluster node writes its nodes.conf).
 */
export async function startRealRedisOn(
  binary: string,
  port: number,
  extraArgs: readonly string[] = [],
  cwd?: string,
): Promise<RealRedis> {
  const { child, version } = await startOnPort(binary, port, extraArgs, cwd);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    port,
    pid: child.pid!,
    version,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Starts redis-server on a random free port in 20000..59999 (retrying on a taken port). */
export async function startRealRedis(binary = findExecutable('redis-server')): Promise<RealRedis> {
  if (!binary) throw new Error('redis-server not found on PATH');
  let lastError: unknown;
  for (let attempt = 0; attempt < 8; attempt++) {
    const port = 20000 + randomInt(40000);
    try {
      return await startRealRedisOn(binary, port);
    } catch (e) {
      lastError = e;
      if (!String(e).includes('Address already in use')) throw e;
    }
  }
  throw lastError;
}
