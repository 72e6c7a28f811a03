import { readFileSync } from 'node:fs';
import fengari from 'fengari-web';
import { describe, expect, it } from 'vitest';
import {
  DROPS,
  HUNKS,
  MARKER,
  applyPatch,
  fengariWebBundle,
  patchProblems,
  readDropped,
  revertPatch,
} from '../../../scripts/patch-fengari.mjs';
import { ManualClock } from '../clock';
import { formatReply } from './cli_format';
import { fengariStackPatchApplied } from './lua_vmpatch';
import { RedisServer } from './server';

// The install-time patch of fengari-web (scripts/patch-fengari.mjs, docs/fengari-patch.md).
// These fail when `npm ci`/`npm install` did not run the postinstall step, or when a fengari-web
// upgrade no longer matches the patch.

const installed = fengariWebBundle();
const text = readFileSync(installed.file, 'utf8');
/** The dropped modules' text, which the script keeps next to the bundle so a revert is exact. */
const dropped = readDropped(installed.file);

/** Runs a chunk on `L` and gives its one result as text, or "error: <message>". */
function runner(L: unknown): (code: string) => string {
  const { lua, lauxlib } = fengari;
  const S = L as Parameters<typeof lua.lua_pcall>[0];
  return (code) => {
    const bytes = fengari.to_luastring(code);
    lauxlib.luaL_loadbufferx(S, bytes, bytes.length, fengari.to_luastring('=t'), null);
    const st = lua.lua_pcall(S, 0, 1, 0);
    const out = fengari.to_jsstring(lua.lua_tolstring(S, -1) ?? fengari.to_luastring('nil'));
    lua.lua_settop(S, 0);
    return st === lua.LUA_OK ? out : `error: ${out}`;
  };
}

describe('fengari-web patch', () => {
  it('is applied to the bundle the app and Node load', () => {
    expect(patchProblems(text)).toEqual([]);
    expect(text).toContain(MARKER);
  });

  it('is what the loaded fengari does: popped stack slots are overwritten, not deleted', () => {
    expect(fengariStackPatchApplied()).toBe(true);
  });

  it("gives the loaded fengari a push that keeps the caller's array", () => {
    const L = fengari.lauxlib.luaL_newstate();
    const bytes = new Uint8Array([104, 105]);
    expect(fengari.lua.lockscope_pushownedstring?.(L, bytes)).toBe(bytes);
    expect(fengari.lua.lua_tolstring(L, -1)).toBe(bytes);
    // lua_pushstring still copies
    const other = new Uint8Array([104, 105]);
    expect(fengari.lua.lua_pushstring(L, other)).not.toBe(other);
    expect(Boolean(fengari.lua.lua_rawequal(L, -1, -2))).toBe(true);
  });

  it.each([
    [1, ['stack-slot-']],
    [2, ['stack-slot-', 'owned-string-']],
    [3, ['stack-slot-', 'owned-string-', 'readonly-']],
    [
      4,
      [
        'stack-slot-',
        'owned-string-',
        'readonly-',
        'dead-keys-',
        'string-object-',
        'callinfo-',
        'string-key-',
      ],
    ],
  ])('brings a bundle patched by v%i up to date', (version, prefixes) => {
    let old = revertPatch(text, HUNKS, dropped);
    for (const h of HUNKS)
      if (prefixes.some((p) => h.id.startsWith(p))) old = old.split(h.find).join(h.replace);
    old = `${old}\n/* lockscope-fengari-patch v${version}: see docs/fengari-patch.md */\n`;
    const r = applyPatch(old);
    expect(r.applied).toBe(true);
    expect(r.text === text).toBe(true);
  });

  it('gives the loaded fengari string objects the host keeps, pushes and reads back', () => {
    const { lua, lauxlib } = fengari;
    const L = lauxlib.luaL_newstate();
    const bytes = new Uint8Array([104, 105]);
    const ts = lua.lockscope_newstring!(L, bytes);
    expect(ts.realstring).toBe(bytes);
    expect(ts.lockscope_js).toBeUndefined();
    ts.lockscope_js = 'hi';
    lua.lockscope_pushstringobject!(L, ts);
    lua.lockscope_pushstringobject!(L, ts);
    expect(lua.lua_gettop(L)).toBe(2);
    expect(lua.lua_tolstring(L, -1)).toBe(bytes);
    expect(lua.lockscope_tostringobject!(L, 1)).toBe(ts);
    // a string the VM made itself has the field too (one shape for all strings), unset
    lua.lua_pushstring(L, new Uint8Array([104, 105]));
    const copy = lua.lockscope_tostringobject!(L, -1)!;
    expect(copy).not.toBe(ts);
    expect('lockscope_js' in copy && copy.lockscope_js === undefined).toBe(true);
    expect(Boolean(lua.lua_rawequal(L, 1, -1))).toBe(true);
    // anything but a string is null, numbers not converted
    lua.lua_pushinteger(L, 7);
    expect(lua.lockscope_tostringobject!(L, -1)).toBeNull();
    expect(lua.lua_type(L, -1)).toBe(lua.LUA_TNUMBER);
  });

  it("makes a table's dead-key map only when a key is deleted, and `next` still continues from one", () => {
    const { lua, lauxlib } = fengari;
    const L = lauxlib.luaL_newstate();
    lauxlib.luaL_requiref(L, fengari.to_luastring('_G'), fengari.lualib.luaopen_base, 1);
    lua.lua_settop(L, 0);
    lua.lua_createtable(L, 0, 0);
    const t = lua.lua_topointer(L, -1) as unknown as { dead_strong: Map<unknown, unknown> | undefined };
    expect(t.dead_strong).toBeUndefined();
    lua.lua_setglobal(L, fengari.to_luastring('t'));
    const run = runner(L);
    expect(run("t.a, t.b, t.c = 1, 2, 3 return 'ok'")).toBe('ok');
    expect(t.dead_strong).toBeUndefined();
    // clearing each field while traversing is allowed in Lua: next continues from a dead key
    expect(
      run("local n = 0 for k in pairs(t) do t[k] = nil n = n + 1 end return n .. ':' .. tostring(next(t))"),
    ).toBe('3:nil');
    expect(t.dead_strong?.size).toBe(3);
    // an insertion forgets the dead keys, as shipped (where it cleared the map)
    expect(run("t.d = 4 return 'ok'")).toBe('ok');
    expect(t.dead_strong).toBeUndefined();
    expect(run("return tostring((pcall(next, t, 'a')))")).toBe('false');
  });

  it('keeps CallInfo records between calls, as C Lua does, and still runs pcall, errors and coroutines', () => {
    const { lua, lauxlib } = fengari;
    const L = lauxlib.luaL_newstate();
    lauxlib.luaL_requiref(L, fengari.to_luastring('_G'), fengari.lualib.luaopen_base, 1);
    lauxlib.luaL_requiref(L, fengari.to_luastring('coroutine'), fengari.lualib.luaopen_coroutine, 1);
    lua.lua_settop(L, 0);
    const seen: unknown[] = [];
    lua.lua_pushcfunction(L, (l) => {
      seen.push((l as unknown as { ci: unknown }).ci);
      lua.lua_pushinteger(l, seen.length);
      return 1;
    });
    lua.lua_setglobal(L, fengari.to_luastring('f'));
    const run = runner(L);
    expect(run('return f() + f()')).toBe('3');
    // the two calls from the same frame ran in the same record
    expect(seen[0]).toBe(seen[1]);
    expect(run("local ok, e = pcall(function() error('x', 0) end) return tostring(ok) .. e .. f()")).toBe(
      'falsex3',
    );
    expect(
      run(
        'local co = coroutine.wrap(function(a) local b = coroutine.yield(a + f()) return b * 2 end) ' +
          'return co(10) .. ":" .. co(21)',
      ),
    ).toBe('14:42');
    expect(run("error('boom', 0)")).toBe('error: boom');
    expect(run('return f()')).toBe('5');
  });

  it('keys strings by their bytes: no two strings share a table key, and < orders bytes', () => {
    const { lua, lauxlib } = fengari;
    const L = lauxlib.luaL_newstate();
    lauxlib.luaL_requiref(L, fengari.to_luastring('_G'), fengari.lualib.luaopen_base, 1);
    lua.lua_settop(L, 0);
    const run = (code: string) => {
      const bytes = fengari.to_luastring(code);
      lauxlib.luaL_loadbufferx(L, bytes, bytes.length, fengari.to_luastring('=t'), null);
      lua.lua_pcall(L, 0, 1, 0);
      const out = fengari.to_jsstring(lua.lua_tolstring(L, -1) ?? fengari.to_luastring('nil'));
      lua.lua_settop(L, 0);
      return out;
    };
    // as shipped both were the key "|123"
    expect(run("local t = {} t['\\1#'] = 1 return tostring(t['\\18\\3'])")).toBe('nil');
    expect(run("return tostring('\\16' < '\\2') .. tostring('a' < 'a\\0') .. tostring('ab' < 'b')")).toBe(
      'falsetruetrue',
    );
  });

  it("gives tables a read-only flag that refuses writes with Redis's text", () => {
    const { lua, lauxlib } = fengari;
    const L = lauxlib.luaL_newstate();
    lua.lua_createtable(L, 0, 0);
    const t = lua.lua_topointer(L, -1) as unknown as { readonly: boolean };
    expect(t.readonly).toBe(false);
    t.readonly = true;
    lua.lua_setglobal(L, fengari.to_luastring('ro'));
    const run = (code: string) => {
      const bytes = fengari.to_luastring(code);
      lauxlib.luaL_loadbufferx(L, bytes, bytes.length, fengari.to_luastring('=t'), null);
      const st = lua.lua_pcall(L, 0, 0, 0);
      const msg = st === lua.LUA_OK ? 'ok' : fengari.to_jsstring(lua.lua_tolstring(L, -1)!);
      lua.lua_settop(L, 0);
      return msg;
    };
    expect(run('ro.x = 1')).toBe('t:1: Attempt to modify a readonly table');
    expect(run('local t = {} t.x = 1')).toBe('ok');
    t.readonly = false;
    expect(run('ro.x = 1')).toBe('ok');
  });

  it('reverts exactly and re-applies to the same text', () => {
    const shipped = revertPatch(text, HUNKS, dropped);
    expect(shipped).not.toContain('lockscope-fengari-patch');
    expect(patchProblems(shipped).length).toBeGreaterThan(0);
    for (const h of HUNKS) expect(shipped.split(h.find).length - 1).toBe(h.count);
    for (const d of DROPS) expect(shipped.split(d.start).length - 1).toBe(1);
    const again = applyPatch(shipped);
    expect(again.applied).toBe(true);
    // booleans, not the texts: a failure would print 200 KB of minified code
    expect(again.text === text).toBe(true);
    expect(again.dropped).toEqual(dropped);
  });

  it('without the dropped text, reverts the hunks and leaves the stubs', () => {
    const partial = revertPatch(text);
    expect(partial).not.toContain('lockscope-fengari-patch');
    for (const d of DROPS) expect(partial.split(d.replace).length - 1).toBe(1);
  });

  it('is idempotent', () => {
    const r = applyPatch(text);
    expect(r.applied).toBe(false);
    expect(r.text === text).toBe(true);
  });

  it('refuses a bundle that does not match, writing nothing half-done', () => {
    const shipped = revertPatch(text, HUNKS, dropped);
    const h = HUNKS[0];
    const changed = shipped.replace(h.find, h.find.replace('delete', 'void'));
    expect(() => applyPatch(changed)).toThrow(new RegExp(`${h.id} .* found ${h.count - 1}x`));
    expect(() => applyPatch(`${text.replace(MARKER, '/* lockscope-fengari-patch v0 */')}`)).toThrow(
      /another version/,
    );
    // a module to drop that differs by one character inside it is refused too
    const d = DROPS[1];
    const at = shipped.indexOf(d.start) + d.start.length + 10;
    const edited = shipped.slice(0, at) + (shipped[at] === 'x' ? 'y' : 'x') + shipped.slice(at + 1);
    expect(() => applyPatch(edited)).toThrow(
      new RegExp(`${d.id}: the ${d.length} characters from .* differ`),
    );
  });
});

/**
 * The modules v5 drops (docs/fengari-patch.md, "Modules LockScope never loads"): no script can
 * reach them, and what a script sees is what it saw before. The list below is the sandbox's
 * globals, each library table's fields and the two metatables a script can read, as v4 of the
 * patch (every module still in) gave them; Redis 7.0 (script_lua.c luaLoadLibraries and the allow
 * lists) has no os, io, package, utf8 or debug library either.
 */
describe('fengari-web patch: the dropped modules', () => {
  const SEEN_BY_SCRIPTS = `
  ARGV:table KEYS:table _G:table _VERSION:string __redis__err__handler:function assert:function
  bit:table bit.arshift:function bit.band:function bit.bnot:function bit.bor:function
  bit.bswap:function bit.bxor:function bit.lshift:function bit.rol:function bit.ror:function
  bit.rshift:function bit.tobit:function bit.tohex:function cjson:table cjson._NAME:string
  cjson._VERSION:string cjson.decode:function cjson.decode_invalid_numbers:function
  cjson.decode_max_depth:function cjson.encode:function cjson.encode_invalid_numbers:function
  cjson.encode_keep_buffer:function cjson.encode_max_depth:function
  cjson.encode_number_precision:function cjson.encode_sparse_array:function cjson.new:function
  cjson.null:userdata cmsgpack:table cmsgpack._COPYRIGHT:string cmsgpack._DESCRIPTION:string
  cmsgpack._NAME:string cmsgpack._VERSION:string cmsgpack.pack:function cmsgpack.unpack:function
  cmsgpack.unpack_limit:function cmsgpack.unpack_one:function collectgarbage:function
  coroutine:table coroutine.create:function coroutine.resume:function coroutine.running:function
  coroutine.status:function coroutine.wrap:function coroutine.yield:function error:function
  gcinfo:function getmetatable:function ipairs:function load:function loadstring:function
  math:table math.abs:function math.acos:function math.asin:function math.atan:function
  math.atan2:function math.ceil:function math.cos:function math.cosh:function math.deg:function
  math.exp:function math.floor:function math.fmod:function math.frexp:function math.huge:number
  math.ldexp:function math.log:function math.log10:function math.max:function math.min:function
  math.mod:function math.modf:function math.pi:number math.pow:function math.rad:function
  math.random:function math.randomseed:function math.sin:function math.sinh:function
  math.sqrt:function math.tan:function math.tanh:function next:function pairs:function
  pcall:function rawequal:function rawget:function rawset:function redis:table
  redis.LOG_DEBUG:number redis.LOG_NOTICE:number redis.LOG_VERBOSE:number redis.LOG_WARNING:number
  redis.REDIS_VERSION:string redis.REDIS_VERSION_NUM:number redis.REPL_ALL:number
  redis.REPL_AOF:number redis.REPL_NONE:number redis.REPL_REPLICA:number redis.REPL_SLAVE:number
  redis.acl_check_cmd:function redis.breakpoint:function redis.call:function redis.debug:function
  redis.error_reply:function redis.log:function redis.pcall:function
  redis.replicate_commands:function redis.set_repl:function redis.setresp:function
  redis.sha1hex:function redis.status_reply:function select:function setmetatable:function
  string:table string.byte:function string.char:function string.dump:function string.find:function
  string.format:function string.gfind:function string.gmatch:function string.gsub:function
  string.len:function string.lower:function string.match:function string.rep:function
  string.reverse:function string.sub:function string.upper:function struct:table
  struct.pack:function struct.size:function struct.unpack:function table:table
  table.concat:function table.foreach:function table.foreachi:function table.getn:function
  table.insert:function table.maxn:function table.remove:function table.setn:function
  table.sort:function tonumber:function tostring:function type:function unpack:function
  xpcall:function (getmetatable(_G)).__index:function (getmetatable('')).__index:table
  `
    .trim()
    .split(/\s+/);

  /** Lists `_G`, each table in it one level down, and the two metatables a script can read. */
  const LISTING = [
    'local out, seen = {}, {}',
    'local function walk(t, prefix, depth)',
    '  local keys = {}',
    '  for k in pairs(t) do keys[#keys + 1] = tostring(k) end',
    '  table.sort(keys)',
    '  for _, k in ipairs(keys) do',
    '    local v = rawget(t, k)',
    "    out[#out + 1] = prefix .. k .. ':' .. type(v)",
    "    if type(v) == 'table' and not seen[v] and depth < 1 then",
    '      seen[v] = true',
    "      walk(v, prefix .. k .. '.', depth + 1)",
    '    end',
    '  end',
    'end',
    'seen[_G] = true',
    "walk(_G, '', 0)",
    "walk(getmetatable(_G), '(getmetatable(_G)).', 1)",
    "walk(getmetatable(''), \"(getmetatable('')).\", 1)",
    "return table.concat(out, ' ')",
  ].join('\n');

  function evalText(body: string): string {
    const server = new RedisServer({ clock: new ManualClock(0) });
    const reply = server.exec(server.connect(), ['eval', body, '0']);
    return formatReply(reply, 'tty').replace(/\n$/, '');
  }

  it('leaves every global, library field and readable metatable a script sees as it was', () => {
    const seen = evalText(LISTING).replace(/^"|"$/g, '').split(' ');
    expect(seen).toEqual(SEEN_BY_SCRIPTS);
  });

  it.each([
    'os',
    'io',
    'package',
    'require',
    'utf8',
    'debug',
    'js',
    'fengari',
    'dofile',
    'loadfile',
    'print',
  ])('gives scripts no %s, as Redis 7.0', (name) => {
    expect(evalText(`return ${name}`)).toMatch(
      `Script attempted to access nonexistent global variable '${name}'`,
    );
  });

  it('loads chunks as text only, so the binary-chunk reader is never reached', () => {
    // Redis 7.0's scripting.tcl "Binary code loading failed": loadstring gives nil and a message
    expect(evalText('return type(select(2, loadstring(string.dump(function() return 1 end))))')).toBe(
      '"string"',
    );
    expect(evalText('return loadstring(string.dump(function() return 1 end))()')).toMatch(
      /attempt to call a nil value/,
    );
  });

  it('leaves stubs that fail loudly if anything ever calls them', () => {
    const L = fengari.lauxlib.luaL_newstate();
    const lualib = fengari.lualib as unknown as Record<string, (L: unknown) => number>;
    for (const open of ['luaopen_os', 'luaopen_utf8', 'luaopen_debug', 'luaopen_package', 'luaopen_fengari'])
      expect(() => lualib[open](L)).toThrow(`${open}: dropped by LockScope's fengari patch`);
    const exported = fengari as unknown as Record<string, unknown>;
    for (const name of ['interop', 'L', 'load']) expect(exported[name]).toBeUndefined();
  });
});
