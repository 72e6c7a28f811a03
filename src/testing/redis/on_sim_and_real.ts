/**
 * Runs one set of checks twice: on a fresh simulated node and on a real redis-server started on
 * loopback, so the same assertions prove the simulator and Redis 7.0 agree. Without redis-server
 * the real half fails under CI=true and is skipped loudly elsewhere. Test-only code.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ManualClock } from '../../engine/clock';
import type { Reply } from '../../engine/redis/reply';
import { RedisServer } from '../../engine/redis/server';
import { findRedisBinaries, missingBinaries, startRealRedis, type RealRedis } from './real_redis';
import { RespClient } from './resp_client';

export type Exec = (...argv: string[]) => Promise<Reply>;

/** `checks` registers its tests; each test calls `exec()` to reach the side under test. */
export function describeOnSimAndReal(subject: string, checks: (exec: () => Exec) => void): void {
  describe(`${subject} on the simulator`, () => {
    const server = new RedisServer({ clock: new ManualClock(0), seed: 0 });
    const conn = server.connect();
    checks(
      () =>
        async (...argv) =>
          server.exec(conn, argv),
    );
  });

  const missing = missingBinaries(findRedisBinaries(), ['server']);
  if (missing.length > 0) {
    const message = `${subject}: the real half needs redis-server (Redis 7.0) on PATH`;
    if (process.env.CI === 'true') {
      describe(`${subject} on a real redis-server`, () => {
        it('has a real redis-server to run on', () => {
          throw new Error(message);
        });
      });
    } else console.warn(`\n*** SKIPPED (real side only): ${message}\n`);
    return;
  }

  describe(`${subject} on a real redis-server`, () => {
    const client = realRedisClient();
    checks(
      () =>
        (...argv) =>
          client().call(argv),
    );
  });
}

/**
 * A redis-server of its own for the enclosing describe, started before its tests and stopped
 * after them; the answer reaches the client connected to it (from inside a test).
 */
export function realRedisClient(): () => RespClient {
  let real: RealRedis | undefined;
  let client: RespClient | undefined;
  beforeAll(async () => {
    real = await startRealRedis();
    client = await RespClient.connect(real.port);
  });
  afterAll(async () => {
    client?.close();
    await real?.stop();
  });
  return () => {
    if (!client) throw new Error('the real redis-server is not up (its beforeAll failed)');
    return client;
  };
}
