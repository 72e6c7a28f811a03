/**
 * Test fixture: a fresh server on a manual clock, with `run` returning the reply as redis-cli
 * --no-raw prints it (one home for that rendering: cli_format.ts). Test-only module.
 */
import { ManualClock } from '../clock';
import { formatReply } from './cli_format';
import type { Reply } from './reply';
import { RedisServer, type ServerEvents } from './server';

export interface Fixture {
  server: RedisServer;
  clock: ManualClock;
  /** runs on the fixture's default connection and renders the reply like redis-cli --no-raw */
  run(...argv: string[]): string;
  exec(...argv: string[]): Reply;
  expired: [string, 'lazy' | 'active'][];
  published: [string, string, number][];
}

export function fixture(start = 1_000_000): Fixture {
  const clock = new ManualClock(start);
  const expired: [string, 'lazy' | 'active'][] = [];
  const published: [string, string, number][] = [];
  const events: ServerEvents = {
    keyExpired: (key, how) => expired.push([key, how]),
    publish: (ch, msg, n) => published.push([ch, msg, n]),
  };
  const server = new RedisServer({ clock, events, onSleep: (ms) => clock.advance(ms) });
  const conn = server.connect();
  return {
    server,
    clock,
    expired,
    published,
    exec: (...argv) => server.exec(conn, argv),
    run: (...argv) => formatReply(server.exec(conn, argv), 'tty').replace(/\n$/, ''),
  };
}
