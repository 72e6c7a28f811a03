/**
 * A laid-out script (script_layout.ts) reports its layout's lines to a tracer, and nothing else
 * changes: the reply, an error's `@user_script:1` (Redis compiles one line), the instruction
 * budget's stop. The script here is written on one line the way Redisson's are.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { RedisServer } from './server';
import { registerScriptLayout } from './script_layout';
import type { Reply } from './reply';

const PIECES = [
  "local n = redis.call('incr', KEYS[1]); ",
  'for i = 1, tonumber(ARGV[1]) do ',
  "redis.call('incr', KEYS[1]); ",
  'end; ',
  "return redis.call('get', KEYS[1]);",
];
const TEXT = PIECES.join('');
registerScriptLayout(TEXT, PIECES);

function run(args: string[], traced: boolean, budget?: number): { reply: Reply; lines: number[]; after: Reply } {
  const server = new RedisServer({ clock: new ManualClock(0), scriptBudget: budget });
  const conn = server.connect();
  const lines: number[] = [];
  if (traced) server.scripts.setTracer({ begin() {}, line: (l) => lines.push(l), call() {}, end() {} });
  const reply = server.exec(conn, ['EVAL', TEXT, '1', ...args]);
  return { reply, lines, after: server.exec(conn, ['GET', args[0]]) };
}

describe('laid-out scripts', () => {
  it('report the layout’s lines, a loop’s body each time round', () => {
    const { reply, lines } = run(['k', '2'], true);
    expect(reply).toEqual(run(['k', '2'], false).reply);
    expect(lines).toEqual([1, 2, 3, 2, 3, 2, 5]);
  });

  it('keep Redis’s own line in errors: the text is one line', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const conn = server.connect();
    server.exec(conn, ['SET', 'k', 'x']);
    server.scripts.setTracer({ begin() {}, line() {}, call() {}, end() {} });
    const r = server.exec(conn, ['EVAL', TEXT, '1', 'k', '1']);
    expect(r.t).toBe('error');
    expect(String(r.v)).toContain('@user_script:1.');
  });

  it('stop at the same instruction budget traced or not', () => {
    const quiet = run(['k', '100000'], false, 20_000);
    const traced = run(['k', '100000'], true, 20_000);
    expect(quiet.reply.t).toBe('error');
    expect(traced.reply).toEqual(quiet.reply);
    // the same number of INCRs ran before the stop
    expect(traced.after).toEqual(quiet.after);
    expect(Number(quiet.after.v)).toBeGreaterThan(100);
  });
});
