/**
 * The command table's arity, flags and key positions against a real redis-server's COMMAND INFO,
 * and `commandKeys` against its COMMAND GETKEYS. The simulator has no COMMAND command, so only
 * the real side runs; without redis-server the file fails under CI=true and is skipped otherwise.
 */
import { describe, expect, it } from 'vitest';
import { findRedisBinaries, missingBinaries, startRealRedis } from '../../../testing/redis/real_redis';
import { RespClient } from '../../../testing/redis/resp_client';
import type { Reply } from '../reply';
import { commandKeys, commandTable, type CommandEntry } from '../server';

/** Channels, not keys: Redis flags these key specs NOT_KEY and COMMAND GETKEYS skips them. */
const CHANNEL_SPECS = new Set(['spublish', 'ssubscribe', 'sunsubscribe']);

const SAMPLES: string[][] = [
  ['SET', 'k', 'v', 'EX', '10'],
  ['DEL', 'k1', 'k2'],
  ['UNLINK', 'a', 'b', 'c'],
  ['HSET', 'h', 'f', 'v', 'f2', 'v2'],
  ['EVAL', 'return 1', '2', 'a', 'b', 'c'],
  ['EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '1', 'k', 'arg'],
  ['RENAME', 'a', 'b'],
  ['MSET', 'a', '1', 'b', '2'],
  ['MGET', 'a', 'b', 'c'],
  ['WATCH', 'a', 'b'],
  ['ZADD', 'z', 'NX', '1', 'm'],
  ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'],
  ['PEXPIRE', 'k', '100', 'GT'],
  ['LPUSH', 'l', 'a', 'b'],
  ['GETEX', 'k', 'PERSIST'],
  ['HINCRBY', 'h', 'f', '1'],
  ['SPUBLISH', 'ch', 'm'],
];

/** COMMAND GETKEYS answers an error when a command has no keys; that is the empty list here. */
function keysOfReply(r: Reply): string[] {
  if (r.t === 'error') return [];
  if (r.t !== 'array' || r.v === null) throw new Error(`unexpected ${JSON.stringify(r)}`);
  return r.v.map((k) => String(k.v));
}

function infoRow(entry: CommandEntry): [string, number, string[], number, number, number] {
  const flags = [...entry.flags];
  if (entry.keys === null || entry.keys === 'numkeys' || CHANNEL_SPECS.has(entry.name))
    return [entry.name, entry.arity, flags, 0, 0, 0];
  return [entry.name, entry.arity, flags, ...entry.keys];
}

/** One redis-server for one test: started, handed over, always stopped. */
async function withRealRedis(check: (client: RespClient) => Promise<void>): Promise<void> {
  const server = await startRealRedis();
  const client = await RespClient.connect(server.port).catch(async (e: unknown) => {
    await server.stop();
    throw e;
  });
  try {
    await check(client);
  } finally {
    client.close();
    await server.stop();
  }
}

async function commandInfo(client: RespClient, name: string): Promise<unknown[]> {
  const reply = await client.call(['COMMAND', 'INFO', name]);
  const row = reply.t === 'array' ? reply.v?.[0] : undefined;
  if (row?.t !== 'array' || row.v === null) throw new Error(`${name}: ${JSON.stringify(reply)}`);
  const [cmd, arity, flags, first, last, step] = row.v;
  const range = CHANNEL_SPECS.has(name) ? [0, 0, 0] : [first.v, last.v, step.v];
  return [cmd.v, arity.v, flags.t === 'array' ? (flags.v ?? []).map((f) => f.v) : [], ...range];
}

const missing = missingBinaries(findRedisBinaries(), ['server']);
if (missing.length > 0 && process.env.CI !== 'true') {
  console.warn('\n*** SKIPPED: command_keys needs redis-server (Redis 7.0) on PATH\n');
} else {
  describe('command table against COMMAND INFO / COMMAND GETKEYS', () => {
    it('arity, flags and (first, last, step) agree for every command', () =>
      withRealRedis(async (client) => {
        for (const entry of commandTable())
          expect(await commandInfo(client, entry.name)).toEqual(infoRow(entry));
      }));

    it('commandKeys answers what COMMAND GETKEYS answers', () =>
      withRealRedis(async (client) => {
        for (const argv of SAMPLES) {
          const real = keysOfReply(await client.call(['COMMAND', 'GETKEYS', ...argv]));
          expect([argv, commandKeys(argv)]).toEqual([argv, real]);
        }
      }));
  });
}
