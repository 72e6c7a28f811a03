/**
 * Reusing a Lua state for a new node (script_lua.ts luaScripting / release): only a state that
 * compiled nothing but trusted scripts is reused, and a reused one answers like a fresh one.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { bulk, int, type Reply } from './reply';
import { RedisServer } from './server';
import { LuaScripting, luaScripting, trustScriptBodies, type LuaBridge } from './script_lua';

const TRUSTED = "return {redis.call('incr', KEYS[1]), math.random(1000000), ARGV[1]}";
trustScriptBodies([TRUSTED]);

function bridge(): LuaBridge & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    call: (argv) => {
      calls.push(argv);
      return int(calls.length);
    },
    log: () => {},
    commandExists: () => true,
  };
}

const OPTS = { seed: 7, budget: 1_000_000 };

function runOnce(s: LuaScripting, body: string): Reply {
  const c = s.compile(body);
  if (!c.ok) throw new Error('does not compile');
  return s.run(c.fn, 'sha', ['k', 'v'], 0, 1);
}

describe('Lua states reused between nodes', () => {
  it('a state that ran only trusted scripts serves the next node, answering like a fresh state', () => {
    const first = luaScripting(bridge(), OPTS);
    const before = runOnce(first, TRUSTED);
    first.release();
    const b = bridge();
    const second = luaScripting(b, OPTS);
    expect(second).toBe(first);
    const fresh = runOnce(new LuaScripting(bridge(), OPTS), TRUSTED);
    const reused = runOnce(second, TRUSTED);
    // the new node's bridge, its own PRNG from the seed: the same answer as a fresh state
    expect(reused).toEqual(fresh);
    expect(reused).toEqual(before);
    expect(b.calls).toEqual([['incr', 'k']]);
    expect(reused).toEqual({ t: 'array', v: [int(1), expect.anything(), bulk('v')] });
  });

  it('a script prints the same addresses on a reused state as on a fresh one (fengari object ids)', () => {
    const PRINT = 'return tostring({}) .. " " .. tostring(function() end)';
    const fresh = new LuaScripting(bridge(), OPTS);
    runOnce(fresh, TRUSTED);
    const expected = runOnce(fresh, PRINT);
    // a state that served an earlier node: several runs, then the same history as the fresh one
    const old = luaScripting(bridge(), OPTS);
    for (let i = 0; i < 3; i++) runOnce(old, TRUSTED);
    old.release();
    const reused = luaScripting(bridge(), OPTS);
    expect(reused).toBe(old);
    runOnce(reused, TRUSTED);
    expect(runOnce(reused, PRINT)).toEqual(expected);
    expect(expected).toEqual(bulk(expect.stringMatching(/^table: 0x[0-9a-f]+ function: 0x[0-9a-f]+$/)));
  });

  it('a state that compiled any other text is never reused', () => {
    const s = luaScripting(bridge(), OPTS);
    runOnce(s, 'cjson.encode_max_depth(1) return 1');
    s.release();
    expect(luaScripting(bridge(), OPTS)).not.toBe(s);
  });

  it('a released server forgets its scripts (EVALSHA: NOSCRIPT)', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const conn = server.connect();
    const sha = server.exec(conn, ['SCRIPT', 'LOAD', TRUSTED]);
    expect(sha.t).toBe('bulk');
    server.scripts.release();
    const r = server.exec(conn, ['EVALSHA', (sha as { v: string }).v, '1', 'k', 'v']);
    expect(r).toMatchObject({ t: 'error', v: expect.stringMatching(/^NOSCRIPT/) });
  });
});
