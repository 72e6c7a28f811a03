import { readFileSync } from 'node:fs';
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
