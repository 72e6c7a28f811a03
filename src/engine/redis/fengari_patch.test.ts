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

  it('brings a bundle patched by v1 (the stack hunks only) up to date', () => {
    const stackOnly = HUNKS.filter((h) => h.id.startsWith('stack-slot-'));
    let v1 = revertPatch(text);
    for (const h of stackOnly) v1 = v1.split(h.find).join(h.replace);
    v1 = `${v1}\n/* lockscope-fengari-patch v1: see docs/fengari-patch.md */\n`;
    const r = applyPatch(v1);
    expect(r.applied).toBe(true);
    expect(r.text === text).toBe(true);
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
