/**
 * The sandbox under attack: every hostile script gets a Redis-style error, and the node keeps
 * serving (the next script runs, the libraries are intact, Redisson's lock script still works).
 * Runs on the real simulated server (test_server.ts). Error texts that real Redis also produces
 * were checked against redis-server 7.0.15; the budget and memory texts are LockScope's own.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { LOCK } from '../redisson/scripts/RedissonLock';
import { formatReply } from './cli_format';
import { RedisServer } from './server';
import { fixture } from './test_server';
import { sha1hex } from './sha1';
import { budgetErrorText } from './script_lua';
import { MAX_SCRIPT_STRING } from './lua_vmpatch';

/** Redisson 4.7.0's RLock acquire, byte for byte */
const LOCK_LUA = LOCK.at('4.7.0').text;

function run(body: string, budget?: number) {
  const clock = new ManualClock(1_000_000);
  const server = new RedisServer({ clock, scriptBudget: budget });
  const conn = server.connect();
  const evalText = (b: string, ...rest: string[]) =>
    formatReply(server.exec(conn, ['eval', b, ...(rest.length ? rest : ['0'])]), 'tty').replace(/\n$/, '');
  return { first: evalText(body), evalText };
}

const suffix = (body: string, line = 1) => ` script: ${sha1hex(body)}, on @user_script:${line}.`;

/** The node is still healthy: plain scripts, intact libraries, Redisson's lock script. */
function expectHealthy(evalText: (b: string, ...rest: string[]) => string): void {
  expect(evalText('return 1')).toBe('(integer) 1');
  expect(
    evalText(
      "return {type(redis.call), type(string.rep), type(getmetatable('').__index), type(cjson.encode)}",
    ),
  ).toBe('1) "function"\n2) "function"\n3) "table"\n4) "function"');
  expect(evalText("return ('abc'):upper() .. tostring(10/2)")).toBe('"ABC5"');
  expect(evalText('return nosuch')).toMatch(/nonexistent global variable 'nosuch'/);
  expect(evalText(LOCK_LUA, '1', 'myLock', '30000', 'client:1')).toBe('(nil)');
  expect(evalText(LOCK_LUA, '1', 'myLock', '30000', 'client:2')).toMatch(/^\(integer\) \d+$/);
}

describe('globals are read-only, missing globals raise (Redis 7.0 texts)', () => {
  it.each([
    ['a=10', 'ERR user_script:1: Attempt to modify a readonly table'],
    ['function f() end', 'ERR user_script:1: Attempt to modify a readonly table'],
    ['redis.call = nil', 'ERR user_script:1: Attempt to modify a readonly table'],
    ['string.rep = nil', 'ERR user_script:1: Attempt to modify a readonly table'],
    ['_G.x = 1', 'ERR user_script:1: Attempt to modify a readonly table'],
    ["getmetatable('').__index = nil", 'ERR user_script:1: Attempt to modify a readonly table'],
    ["getmetatable('').__index.upper = nil", 'ERR user_script:1: Attempt to modify a readonly table'],
    ['getmetatable(_G).__index = nil', 'ERR user_script:1: Attempt to modify a readonly table'],
    ["rawset(_G, 'a', 1)", 'ERR Attempt to modify a readonly table'],
    ["rawset(redis, 'call', 1)", 'ERR Attempt to modify a readonly table'],
    ["rawset(getmetatable(''), '__index', {})", 'ERR Attempt to modify a readonly table'],
    ['setmetatable(_G, {})', 'ERR Attempt to modify a readonly table'],
    ['setmetatable(string, {})', 'ERR Attempt to modify a readonly table'],
    ['local _ENV = {} x = 1', 'ERR user_script:1: Attempt to modify a readonly table'],
    ['return js', "ERR user_script:1: Script attempted to access nonexistent global variable 'js'"],
    ['return _ENV', "ERR user_script:1: Script attempted to access nonexistent global variable '_ENV'"],
    ['return os.clock()', "ERR user_script:1: Script attempted to access nonexistent global variable 'os'"],
    ['return io', "ERR user_script:1: Script attempted to access nonexistent global variable 'io'"],
    [
      "return require('x')",
      "ERR user_script:1: Script attempted to access nonexistent global variable 'require'",
    ],
    [
      "dofile('/etc/passwd')",
      "ERR user_script:1: Script attempted to access nonexistent global variable 'dofile'",
    ],
    [
      "loadfile('/etc/passwd')",
      "ERR user_script:1: Script attempted to access nonexistent global variable 'loadfile'",
    ],
    ["print('x')", "ERR user_script:1: Script attempted to access nonexistent global variable 'print'"],
    [
      'return debug.getinfo(1)',
      "ERR user_script:1: Script attempted to access nonexistent global variable 'debug'",
    ],
    [
      'return package.loaded',
      "ERR user_script:1: Script attempted to access nonexistent global variable 'package'",
    ],
    [
      'return utf8.char(72)',
      "ERR user_script:1: Script attempted to access nonexistent global variable 'utf8'",
    ],
    [
      'return getfenv(1)',
      "ERR user_script:1: Script attempted to access nonexistent global variable 'getfenv'",
    ],
    ['return _G[1]', "ERR user_script:1: Script attempted to access nonexistent global variable '1'"],
  ])('%s', (body, text) => {
    const { first, evalText } = run(body);
    expect(first).toBe(`(error) ${text}${suffix(body)}`);
    expectHealthy(evalText);
  });

  it('leaves every writable-looking path unchanged for the next script', () => {
    const { evalText } = run('return 1');
    const attempts = [
      'redis.call = nil',
      "rawset(string, 'rep', nil)",
      'getmetatable(_G).__index = function() return 1 end',
      "getmetatable('').__index = {}",
      'for k in pairs(math) do math[k] = nil end',
      'local f, s = pairs(string) s.rep = nil',
      'local f, s = next, string for k, v in f, s do s[k] = nil end',
    ];
    for (const a of attempts) expect(evalText(a)).toMatch(/Attempt to modify a readonly table/);
    expectHealthy(evalText);
  });

  it('never hands out anything but Lua values (no JS object is reachable)', () => {
    const { evalText } = run('return 1');
    // walks every table reachable from _G, their metatables, and the string metatable
    const walk = `
      local seen, bad, n = {}, {}, 0
      local function visit(v, path)
        local t = type(v)
        if t == 'userdata' then
          if v ~= cjson.null then bad[#bad + 1] = path end
        elseif t == 'thread' then bad[#bad + 1] = path
        elseif t == 'table' and not seen[v] then
          seen[v] = true
          n = n + 1
          for k, x in pairs(v) do visit(x, path .. '.' .. tostring(k)) end
          local mt = getmetatable(v)
          if mt ~= nil then visit(mt, path .. '<mt>') end
        end
      end
      visit(_G, '_G')
      visit(getmetatable(''), '<string mt>')
      return {n, #bad, bad[1] or ''}`;
    const out = evalText(walk);
    expect(out).toMatch(/^1\) \(integer\) \d+\n2\) \(integer\) 0\n3\) ""$/);
    expect(Number(/^1\) \(integer\) (\d+)/.exec(out)![1])).toBeGreaterThan(10);
  });
});

describe('no bytecode', () => {
  it('loadstring of a binary chunk returns nil and a 5.1 parse error', () => {
    const { first, evalText } = run('return {loadstring(string.dump(function() return 1 end))}');
    expect(first).toMatch(/^1\) \(nil\)$|^$|^\(empty array\)$/);
    expect(evalText("return select(2, loadstring('\\27Lua garbage'))")).toBe(
      `"[string \\"\\x1bLua garbage\\"]:1: unexpected symbol near 'char(27)'"`,
    );
    expect(evalText('return loadstring(string.dump(function() return 1 end))()')).toMatch(
      /ERR user_script:1: attempt to call a nil value script:/,
    );
    expectHealthy(evalText);
  });

  it('load() with a reader that yields bytecode refuses it too', () => {
    const body =
      'local s = string.dump(function() return 1 end) local done = false ' +
      'return select(2, load(function() if done then return nil end done = true return s end))';
    const { first } = run(body);
    expect(first).toMatch(/unexpected symbol near 'char\(27\)'"$/);
  });

  it('load() of a string is refused as in Lua 5.1', () => {
    expect(run("return load('return 1')").first).toMatch(
      /ERR user_script:1: bad argument #1 to 'load' \(function expected, got string\)/,
    );
  });

  it('an EVAL body that is a binary chunk does not compile', () => {
    const body = '\x1bLuaS\x00\x19\x93\r\n\x1a\n';
    expect(run(body).first).toBe(
      "(error) ERR Error compiling script (new function): user_script:1: unexpected symbol near 'char(27)'",
    );
  });
});

describe('instruction budget', () => {
  const stop = (budget: number, body: string, line = 1) =>
    `(error) ${budgetErrorText(budget)} script: ${sha1hex(body)}, on @user_script:${line}.`;

  it.each([
    ['while true do end', 1],
    ['local i = 0\nwhile true do\n  i = i + 1\nend', 3],
    ['local function f() return f() end return f()', 1],
    ['for i = 1, 1e12 do end', 1],
    ['local t = {} for i = 1, 1e9 do t[i] = i end', 1],
    ['return pcall(function() while true do end end)', 1],
    ['pcall(function() while true do end end) return 1', 1],
    ['return xpcall(function() while true do end end, function(e) return e end)', 1],
    ['return xpcall(function() error("x") end, function(e) while true do end end)', 1],
    ['return coroutine.wrap(function() while true do end end)()', 1],
    ['return coroutine.resume(coroutine.create(function() while true do end end))', 1],
    ['while true do pcall(error, "x") end', 1],
    [
      'local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end',
      1,
    ],
    ['local s = "" while true do pcall(string.rep, "x", 10) end', 1],
    ['repeat local ok = pcall(function() while true do end end) until false', 1],
  ])('stops %j and the node keeps serving', (body, line) => {
    // a small budget keeps the test fast; the default one is exercised below
    const { first, evalText } = run(body, 200_000);
    expect(first).toBe(stop(200_000, body, line));
    expectHealthy(evalText);
  });

  it('stops a runaway loop under the default budget of 5,000,000 instructions', () => {
    const { first, evalText } = run('while true do end');
    expect(first).toBe(stop(5_000_000, 'while true do end'));
    expectHealthy(evalText);
  });

  it('uses the configured budget and resets it for each run', () => {
    const { first, evalText } = run('while true do end', 10_000);
    expect(first).toBe(stop(10_000, 'while true do end'));
    // about 3 instructions per iteration: 2000 iterations fit, 20000 do not
    expect(evalText('local n = 0 for i = 1, 2000 do n = n + 1 end return n')).toBe('(integer) 2000');
    expect(evalText('local n = 0 for i = 1, 2000 do n = n + 1 end return n')).toBe('(integer) 2000');
    expect(evalText('local n = 0 for i = 1, 20000 do n = n + 1 end return n')).toMatch(/instruction budget/);
  });

  it('lets a legitimately busy script finish under the default budget', () => {
    const { first } = run('local n = 0 for i = 1, 200000 do n = n + i end return n');
    expect(first).toBe('(integer) 20000100000');
  });
});

describe('allocation bombs are refused', () => {
  const limitText = (bytes: number) =>
    `not enough memory: string of ${bytes} bytes exceeds LockScope's ${MAX_SCRIPT_STRING}-byte script limit`;

  it.each([
    ["return string.rep('x', 1e9)", `ERR user_script:1: ${limitText(1e9)}`],
    ["return string.rep('abcd', 2^30)", `ERR user_script:1: ${limitText(4 * 2 ** 30)}`],
    [
      "local t = {} local s = string.rep('x', 2^20) for i = 1, 40 do t[i] = s end return #table.concat(t)",
      `ERR user_script:1: ${limitText(33554432 + 2 ** 20)}`,
    ],
    [
      "local s = string.rep('x', 2^20) return #s:gsub('x', s)",
      `ERR user_script:1: ${limitText(2 ** 20 + 2 ** 20 * 2 ** 20)}`,
    ],
    [
      "local s = string.rep('x', 2^20) return #s:gsub('x', function() return s end)",
      // raised inside gsub's callback, a C function called from C: no Lua position to report
      `ERR ${limitText(2 ** 20 + 32 * 2 ** 20)}`,
    ],
    [
      "local s = string.rep('x', 2^24) return #string.format('%s%s%s', s, s, s)",
      `ERR user_script:1: ${limitText(3 * 2 ** 24)}`,
    ],
  ])('%s', (body, text) => {
    const { first, evalText } = run(body);
    // Redis's error handler looks two levels up; from inside gsub's callback both are C functions
    const where = body.includes('function() return s end')
      ? ` script: ${sha1hex(body)}, on =[C]:-1.`
      : suffix(body);
    expect(first).toBe(`(error) ${text}${where}`);
    expectHealthy(evalText);
  });

  it('stops a doubling concatenation loop', () => {
    const body = "local s = 'x' for i = 1, 40 do s = s .. s end return #s";
    const { first, evalText } = run(body);
    expect(first).toBe(`(error) ERR Error running script ${sha1hex(body)}, ${limitText(2 ** 26)}`);
    expectHealthy(evalText);
  });

  it('refuses oversized library output (cjson, cmsgpack, struct)', () => {
    const { evalText } = run('return 1');
    const big = "local s = string.rep('x', 2^24) local t = {s, s, s}";
    expect(evalText(`${big} return #cjson.encode(t)`)).toMatch(/not enough memory: string of \d+ bytes/);
    expect(evalText(`${big} return #cmsgpack.pack(t)`)).toMatch(/not enough memory: string of \d+ bytes/);
    expect(evalText(`${big} return #struct.pack('c0c0c0', s, s, s)`)).toMatch(
      /not enough memory: string of \d+ bytes/,
    );
    expectHealthy(evalText);
    // Builds three 16 MiB strings per case on purpose: several seconds on a loaded 2-core machine.
  }, 60_000);

  it('caps coroutines per run, and pcall cannot hide a refusal forever', () => {
    const { first, evalText } = run('for i = 1, 20000 do coroutine.create(function() end) end return 1');
    expect(first).toMatch(/too many coroutines \(LockScope allows 10000 per script run\)/);
    expect(evalText('for i = 1, 5000 do coroutine.create(function() end) end return 1')).toBe('(integer) 1');
    expectHealthy(evalText);
  });

  it('lets scripts catch a refusal with pcall like any Lua error', () => {
    const { first } = run("local ok, err = pcall(string.rep, 'x', 1e9) return {ok, err}");
    expect(first).toBe(`1) (nil)\n2) "${limitText(1e9)}"`);
  });
});

describe('stack exhaustion', () => {
  it('deep Lua recursion is a Lua error, as in Redis', () => {
    const body = 'local function f() return 1 + f() end return f()';
    const { first, evalText } = run(body);
    expect(first).toBe(`(error) ERR user_script:1: stack overflow${suffix(body)}`);
    expectHealthy(evalText);
  });

  it('metamethod recursion reports a C stack overflow, as in Redis', () => {
    const body = 'local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x';
    const { first, evalText } = run(body);
    expect(first).toBe(`(error) ERR user_script:1: C stack overflow${suffix(body)}`);
    expectHealthy(evalText);
  });

  it('a self-referencing reply stops at the Lua stack limit', () => {
    const { first } = run('local t = {} t[1] = t return t');
    expect(first).toMatch(/\(error\) ERR reached lua stack limit$/);
  });
});

describe('integration with the fixture server', () => {
  it('runs the Redisson lock script through EVALSHA', () => {
    const f = fixture();
    const sha = f.run('script', 'load', LOCK_LUA);
    expect(sha).toBe(`"${sha1hex(LOCK_LUA)}"`);
    expect(f.run('evalsha', sha1hex(LOCK_LUA), '1', 'myLock', '30000', 'c:1')).toBe('(nil)');
    expect(f.run('hgetall', 'myLock')).toBe('1) "c:1"\n2) "1"');
    expect(f.run('pttl', 'myLock')).toBe('(integer) 30000');
    f.clock.advance(1000);
    expect(f.run('evalsha', sha1hex(LOCK_LUA), '1', 'myLock', '30000', 'c:2')).toBe('(integer) 29000');
  });
});

describe('long KEYS/ARGV values reach redis.call byte for byte (decode shortcut)', () => {
  // longer than the interning limit (64 bytes), with NUL, CR/LF and high bytes
  const long = (tag: string) => `${tag}:` + '\x00\xff\r\n\x80é'.repeat(20) + 'x'.repeat(40);
  it('a long binary key set through KEYS is the key the script builds by concatenation', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const conn = server.connect();
    const k = long('k');
    const v = long('v');
    const set = "redis.call('set', KEYS[1], ARGV[1]); return redis.call('get', KEYS[1])";
    expect(server.exec(conn, ['eval', set, '1', k, v])).toEqual({ t: 'bulk', v });
    expect(server.exec(conn, ['get', k])).toEqual({ t: 'bulk', v });
    // the same bytes made inside Lua (a different string object) find the same key
    const built =
      "local s = string.sub(ARGV[1], 1, 10) .. string.sub(ARGV[1], 11); return redis.call('get', s)";
    expect(server.exec(conn, ['eval', built, '0', k])).toEqual({ t: 'bulk', v });
    // a value derived from a long argument is converted, not mistaken for the argument
    const upper = "return redis.call('set', string.upper(ARGV[1]), ARGV[1])";
    expect(server.exec(conn, ['eval', upper, '0', k])).toEqual({ t: 'status', v: 'OK' });
    const asciiUpper = k.replace(/[a-z]/g, (c) => c.toUpperCase()); // Lua's C-locale toupper
    expect(server.exec(conn, ['get', asciiUpper])).toEqual({ t: 'bulk', v: k });
    // next run, other long arguments: nothing from the previous run leaks in
    const k2 = long('k2');
    expect(server.exec(conn, ['eval', set, '1', k2, k])).toEqual({ t: 'bulk', v: k });
    expect(server.exec(conn, ['get', k2])).toEqual({ t: 'bulk', v: k });
    expect(server.exec(conn, ['script', 'flush'])).toEqual({ t: 'status', v: 'OK' });
    expect(server.exec(conn, ['eval', set, '1', k, k2])).toEqual({ t: 'bulk', v: k2 });
  });
  it('more long arguments than are remembered still arrive intact', () => {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const conn = server.connect();
    const args = Array.from({ length: 40 }, (_, i) => long(`a${i}`));
    const body =
      "for i = 1, #ARGV do redis.call('set', ARGV[i], i) end return redis.call('mget', unpack(ARGV))";
    const r = server.exec(conn, ['eval', body, '0', ...args]);
    expect(r).toEqual({ t: 'array', v: args.map((_, i) => ({ t: 'bulk', v: String(i + 1) })) });
  });
});

describe('a body compiled by one node is shared with the next, not its state', () => {
  const body =
    "redis.call('set', KEYS[1], ARGV[1])\nreturn {redis.call('get', KEYS[1]), redis.call('dbsize')}";

  it('each node runs it on its own keyspace and globals', () => {
    const a = run('return 1');
    const b = run('return 1');
    expect(a.evalText(body, '1', 'k', 'from-a')).toBe('1) "from-a"\n2) (integer) 1');
    expect(b.evalText(body, '1', 'other', 'from-b')).toBe('1) "from-b"\n2) (integer) 1');
    expect(a.evalText("return redis.call('get', 'other')")).toBe('(nil)');
    expectHealthy(b.evalText);
  });

  it('a shared body still reports its own lines', () => {
    const failing = "local x = 1\nreturn redis.call('nosuchcommand')";
    for (const node of [run('return 1'), run('return 1')])
      expect(node.evalText(failing)).toMatch(/user_script:2/);
  });
});
