import { readFileSync } from 'node:fs';
import fengari from 'fengari-web';
import { describe, expect, it } from 'vitest';
import {
  HUNKS,
  MARKER,
  applyPatch,
  fengariWebBundle,
  patchProblems,
  revertPatch,
} from '../../../scripts/patch-fengari.mjs';
import { fengariStackPatchApplied } from './lua_vmpatch';

// The install-time patch of fengari-web (scripts/patch-fengari.mjs, docs/fengari-patch.md).
// These fail when `npm ci`/`npm install` did not run the postinstall step, or when a fengari-web
// upgrade no longer matches the patch.

const installed = fengariWebBundle();
const text = readFileSync(installed.file, 'utf8');


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
  ])('brings a bundle patched by v%i up to date', (version, prefixes) => {
    let old = revertPatch(text);
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
    const shipped = revertPatch(text);
    expect(shipped).not.toContain('lockscope-fengari-patch');
    expect(patchProblems(shipped).length).toBeGreaterThan(0);
    for (const h of HUNKS) expect(shipped.split(h.find).length - 1).toBe(h.count);
    const again = applyPatch(shipped);
    expect(again.applied).toBe(true);
    // booleans, not the texts: a failure would print 200 KB of minified code
    expect(again.text === text).toBe(true);
  });

  it('is idempotent', () => {
    const r = applyPatch(text);
    expect(r.applied).toBe(false);
    expect(r.text === text).toBe(true);
  });

  it('refuses a bundle that does not match, writing nothing half-done', () => {
    const shipped = revertPatch(text);
    const h = HUNKS[0];
    const changed = shipped.replace(h.find, h.find.replace('delete', 'void'));
    expect(() => applyPatch(changed)).toThrow(new RegExp(`${h.id} .* found ${h.count - 1}x`));
    expect(() => applyPatch(`${text.replace(MARKER, '/* lockscope-fengari-patch v0 */')}`)).toThrow(
      /another version/,
    );
  });
});
