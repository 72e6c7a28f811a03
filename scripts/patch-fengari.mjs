// Applies LockScope's patch to fengari-web's bundle (run by `postinstall`, so `npm ci` applies it;
// also `node scripts/patch-fengari.mjs [--check]`). What each hunk changes and why:
// docs/fengari-patch.md.
//
// The patch is a list of exact search/replace pairs on the file the app and Node load
// (fengari-web's package.json "main"; it has no "module" or "browser" field, so Vite resolves the
// same file). Each search text must occur exactly the stated number of times, or nothing is
// written and the script fails: a different fengari-web build must be looked at, not half-patched.
// A marker comment at the end of the file records that the patch is in; running again only checks
// that every replacement is still there.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATCH_VERSION = 3;
export const MARKER = markerOf(PATCH_VERSION);
export const FENGARI_WEB_VERSION = '0.1.4';

/**
 * `delete L.stack[i]` -> `L.stack[i] = void 0`. fengari clears every stack slot it pops with
 * `delete`, which V8 runs as a generic runtime call and which turns the stack array holey (and,
 * once mostly empty, into a dictionary). Storing undefined reads back identically (fengari only ever
 * reads popped slots with `L.stack[i]`, never `in`, `hasOwnProperty` or iteration) and keeps the
 * array fast. The minified names (`t` for L) are webpack's, hence one pair per index expression.
 */
const stackHunks = [
  ['delete t.stack[--t.top]', 't.stack[--t.top]=void 0', 25],
  ['delete t.stack[e]', 't.stack[e]=void 0', 2],
  ['delete t.stack[t.top]', 't.stack[t.top]=void 0', 1],
  ['delete t.stack[t.top+r]', 't.stack[t.top+r]=void 0', 1],
];

/**
 * `lockscope_pushownedstring(L, bytes)`: lua_pushstring without its copy. lua_pushstring hands the
 * array to luaS_new, which copies it (`Uint8Array.from`) before wrapping it in a TString; a caller
 * that has just built the array for this push (every KEYS/ARGV value, every reply string) pays for
 * two allocations and two passes over the bytes. This one wraps the caller's array as is
 * (luaS_bless, what fengari itself does with strings it builds), so the caller must never write to
 * it afterwards. It returns that array, as lua_pushstring returns the string's. Inserted in front of
 * lua_pushstring in lapi.js (`V` is luaS_bless there, `C` lobject, `w` api_check), and exported from
 * the `lua` namespace next to it.
 */
const ownedStringHunks = [
  {
    id: 'owned-string-api',
    find: 't.exports.lua_pushstring=function(t,e){',
    replace:
      't.exports.lockscope_pushownedstring=function(t,e){return C.pushsvalue2s(t,V(t,e)),' +
      'w(t,t.top<=t.ci.top,"stack overflow"),e},t.exports.lua_pushstring=function(t,e){',
    count: 1,
  },
  {
    id: 'owned-string-export',
    find: 't.exports.lua_pushstring=a.lua_pushstring,',
    replace:
      't.exports.lua_pushstring=a.lua_pushstring,t.exports.lockscope_pushownedstring=a.lockscope_pushownedstring,',
    count: 1,
  },
];

/**
 * A read-only flag on tables, what Redis 7 adds to its Lua (lua_enablereadonlytable): a write to a
 * table whose `readonly` is true raises "Attempt to modify a readonly table" (luaG_runerror: with
 * the script's position when the write is the script's own, without when a library function such as
 * table.insert does it). The check sits in luaH_setfrom, which every write by key goes through (the
 * VM's SETTABLE/SETTABUP, lua_settable/setfield/seti, lua_rawset); luaH_setint (lua_rawseti,
 * SETLIST) is reached only with tables the host or the script's own constructor made. The sandbox
 * (src/engine/redis/lua_sandbox.ts) sets the flag on the globals and library tables, which
 * spares every global read the proxy-and-__index detour the shipped fengari needed. In the
 * ltable.js module `g` is ldebug and `d` to_luastring; the flag is declared in the Table constructor
 * so every table has the same shape.
 */
const readonlyHunks = [
  {
    id: 'readonly-table-field',
    find: 'this.metatable=null,this.flags=-1}',
    replace: 'this.metatable=null,this.flags=-1,this.readonly=!1}',
    count: 1,
  },
  {
    id: 'readonly-table-check',
    find: 'luaH_setfrom=function(t,e,n,r){',
    replace:
      'luaH_setfrom=function(t,e,n,r){if(e.readonly)return g.luaG_runerror(t,d("Attempt to modify a readonly table",!0));',
    count: 1,
  },
];

/** @type {{ id: string, find: string, replace: string, count: number }[]} */
export const HUNKS = [
  ...stackHunks.map(([find, replace, count], i) => ({
    id: `stack-slot-${i + 1}`,
    find,
    replace,
    count,
  })),
  ...ownedStringHunks,
  ...readonlyHunks,
];

/** The hunks of earlier versions of this patch, so an install patched by one can be brought up to date. */
const PREVIOUS_HUNKS = {
  1: HUNKS.filter((h) => h.id.startsWith('stack-slot-')),
  2: HUNKS.filter((h) => h.id.startsWith('stack-slot-') || h.id.startsWith('owned-string-')),
};

function occurrences(text, s) {
  let n = 0;
  for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + s.length)) n++;
  return n;
}

/**
 * The patched text, or `text` itself when the marker is already there. Throws, naming every hunk
 * that does not match, when the text is neither the expected original nor a patched copy.
 * @param {string} text
 * @returns {{ text: string, applied: boolean }}
 */
export function applyPatch(text) {
  if (text.includes(MARKER)) {
    const missing = HUNKS.filter((h) => occurrences(text, h.replace) < h.count);
    if (missing.length > 0)
      throw new Error(`marker present but hunk(s) ${missing.map((h) => h.id).join(', ')} missing`);
    return { text, applied: false };
  }
  if (text.includes('lockscope-fengari-patch')) {
    const older = previousVersion(text);
    if (older === null)
      throw new Error('patched by another version of this script: reinstall fengari-web (npm ci)');
    text = revertHunks(text, markerOf(older), PREVIOUS_HUNKS[older]);
  }
  const wrong = HUNKS.map((h) => ({ h, n: occurrences(text, h.find) })).filter(({ h, n }) => n !== h.count);
  if (wrong.length > 0)
    throw new Error(
      'fengari-web bundle does not match: ' +
        wrong.map(({ h, n }) => `${h.id} "${h.find}" found ${n}x, expected ${h.count}x`).join('; '),
    );
  let out = text;
  for (const h of HUNKS) out = out.split(h.find).join(h.replace);
  return { text: `${out}\n${MARKER}\n`, applied: true };
}

/**
 * The original text back from a patched one, or with only the hunks `only` taken out (what
 * `npm run bench` runs as "fengari without the stack patch": the engine needs the other hunks).
 * Exact because every replacement occurs exactly as often as its search text did.
 * @param {string} text
 */
export function revertPatch(text, only = HUNKS) {
  if (!text.includes(MARKER)) return text;
  return revertHunks(text, MARKER, only);
}

function revertHunks(text, marker, hunks) {
  let out = text.replace(`\n${marker}\n`, '');
  for (const h of [...hunks].reverse()) {
    if (occurrences(out, h.replace) !== h.count)
      throw new Error(`cannot revert ${h.id}: replacement not found ${h.count}x`);
    out = out.split(h.replace).join(h.find);
  }
  return out;
}

function markerOf(version) {
  return `/* lockscope-fengari-patch v${version}: see docs/fengari-patch.md */`;
}

/** The earlier version of this patch the text carries, if it is one this script can undo. */
function previousVersion(text) {
  for (const v of Object.keys(PREVIOUS_HUNKS)) if (text.includes(markerOf(v))) return Number(v);
  return null;
}

/** Path of the file `import 'fengari-web'` loads, and the installed version. */
export function fengariWebBundle(root = process.cwd()) {
  const require = createRequire(join(root, 'package.json'));
  const pkgPath = require.resolve('fengari-web/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  return { file: join(dirname(pkgPath), pkg.main), version: pkg.version };
}

/**
 * What is wrong with an installed bundle, or [] when the patch is fully in.
 * @param {string} text
 */
export function patchProblems(text) {
  const problems = [];
  if (!text.includes(MARKER)) problems.push(`marker "${MARKER}" missing`);
  for (const h of HUNKS) {
    const n = occurrences(text, h.replace);
    if (n !== h.count) problems.push(`${h.id}: "${h.replace}" found ${n}x, expected ${h.count}x`);
  }
  return problems;
}

function main() {
  const check = process.argv.includes('--check');
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { file, version } = fengariWebBundle(root);
  const text = readFileSync(file, 'utf8');
  if (check) {
    const problems = patchProblems(text);
    if (problems.length > 0)
      throw new Error(`not applied to ${file} (run: node scripts/patch-fengari.mjs): ${problems.join('; ')}`);
    console.log(`fengari-web ${version}: LockScope patch v${PATCH_VERSION} is applied (${file})`);
    return;
  }
  if (version !== FENGARI_WEB_VERSION)
    console.warn(`patch-fengari: written for fengari-web ${FENGARI_WEB_VERSION}, found ${version}`);
  const r = applyPatch(text);
  if (!r.applied) {
    console.log(`patch-fengari: already applied to ${file}`);
    return;
  }
  const tmp = `${file}.lockscope-tmp`;
  writeFileSync(tmp, r.text);
  renameSync(tmp, file);
  console.log(`patch-fengari: applied ${HUNKS.length} hunks to ${file}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (e) {
    console.error(`patch-fengari: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
