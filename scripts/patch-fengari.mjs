// Applies LockScope's patch to fengari-web's bundle (run by `postinstall`, so `npm ci` applies it;
// also `node scripts/patch-fengari.mjs [--check]`). What each hunk changes and why:
// docs/fengari-patch.md.
//
// The patch is a list of exact search/replace pairs on the file the app and Node load
// (fengari-web's package.json "main"; it has no "module" or "browser" field, so Vite resolves the
// same file). Each search text must occur exactly the stated number of times, or nothing is
// written and the script fails: a different fengari-web build must be looked at, not half-patched.
// A marker comment at the end of the file records that the patch is in; running again only checks
// that every replacement is still there. Since v5 the patch also drops whole modules LockScope never
// loads: each is named by its first characters, its exact length and its SHA-256, so a different
// build is refused as well, and the dropped text is kept next to the bundle so the patch can be
// reverted exactly.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATCH_VERSION = 5;
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

/**
 * A table's dead-key `Map` made only when a key is deleted. fengari's Table keeps the entries of
 * deleted keys (so `next` can continue a traversal from one) in `dead_strong`, a `Map` that every
 * table got in its constructor and that every insertion emptied with `clear()`, which in V8
 * allocates a fresh backing store even for an empty `Map`. Scripts' tables are nearly all built
 * and dropped without a deletion (KEYS, ARGV, reply tables), so each paid for a `Map` it never
 * used, and each new key for a store it never filled. Now the field starts undefined, an
 * insertion forgets the dead keys by dropping the `Map` (what `clear()` did, as `dead_weak` was
 * already handled), a deletion makes it when needed, and `next` looks in it only when it exists.
 * In ltable.js `t` is the table (`e` in luaH_next), `e` the hash and `n` the entry.
 */
const lazyDeadKeyHunks = [
  {
    id: 'dead-keys-field',
    find: 'this.strong=new Map,this.dead_strong=new Map,',
    replace: 'this.strong=new Map,this.dead_strong=void 0,',
    count: 1,
  },
  {
    id: 'dead-keys-add',
    find: 't.dead_strong.clear(),t.dead_weak=void 0',
    replace: 't.dead_strong=void 0,t.dead_weak=void 0',
    count: 1,
  },
  {
    id: 'dead-keys-mark',
    find: '?t.dead_strong.set(e,n):',
    replace: '?(t.dead_strong||(t.dead_strong=new Map)).set(e,n):',
    count: 1,
  },
  {
    id: 'dead-keys-next',
    find: 'e.dead_weak&&e.dead_weak.get(n)||e.dead_strong.get(n)',
    replace: 'e.dead_weak&&e.dead_weak.get(n)||e.dead_strong&&e.dead_strong.get(n)',
    count: 1,
  },
];

/**
 * Lua strings as objects the host keeps: `lockscope_newstring(L, bytes)` wraps an array the caller
 * built for it (as the owned-string push does) and returns the string object (TString);
 * `lockscope_pushstringobject(L, ts)` pushes such an object; `lockscope_tostringobject(L, idx)`
 * returns the object of the string at `idx` (null for any other type, numbers not converted). And
 * every string object gets a `lockscope_js` field, undefined until the host sets it to the engine
 * string its bytes spell. The bridge keeps its short hot values (lock names, owner ids, "OK") as
 * objects in a JavaScript `Map` and pushes them straight onto the stack, where it used to keep a
 * registry reference and fetch it with `lua_rawgeti` (a look-up in the registry's `Map` and a
 * copied value), and a script's `redis.call(..., KEYS[1])` hands the engine back the string the
 * key came from, whose hash V8 has already computed, instead of a WeakMap look-up or a fresh
 * conversion. In lapi.js `V` is luaS_bless, `C` lobject, `w` api_check and `$` index2addr; the
 * field is declared in the TString constructor (lstring.js) so every string has one shape.
 */
const stringObjectHunks = [
  {
    id: 'string-object-api',
    find: 't.exports.lua_pushthread=function(t){',
    replace:
      't.exports.lockscope_newstring=function(t,e){return V(t,e)},' +
      't.exports.lockscope_pushstringobject=function(t,e){C.pushsvalue2s(t,e),w(t,t.top<=t.ci.top,"stack overflow")},' +
      't.exports.lockscope_tostringobject=function(t,e){let n=$(t,e);return n.ttisstring()?n.value:null},' +
      't.exports.lua_pushthread=function(t){',
    count: 1,
  },
  {
    id: 'string-object-export',
    find: 't.exports.lua_pushthread=a.lua_pushthread,',
    replace:
      't.exports.lockscope_newstring=a.lockscope_newstring,' +
      't.exports.lockscope_pushstringobject=a.lockscope_pushstringobject,' +
      't.exports.lockscope_tostringobject=a.lockscope_tostringobject,' +
      't.exports.lua_pushthread=a.lua_pushthread,',
    count: 1,
  },
  {
    id: 'string-object-field',
    find: 'this.hash=null,this.realstring=e}',
    replace: 'this.hash=null,this.realstring=e,this.lockscope_js=void 0}',
    count: 1,
  },
];

/**
 * CallInfo records kept between calls, as C Lua keeps them. fengari allocated a new record for
 * every call (luaE_extendCI) and dropped it on return (luaD_poscall: `L.ci.next = null`); a record
 * has some fifteen fields, and a script's `redis.call` is a call, so the renewal script of the
 * scale scenario alone allocated some 40 MB of them per run. Now a return keeps the record linked
 * and the next call at that depth takes it (luaE_extendCI returns `L.ci.next` when there is
 * one), which is what lstate.c's `next_ci` does. luaD_precall sets every field a call reads
 * (function, results wanted, top, status, and for a Lua function its base, code and pc); the
 * continuation fields are set by lua_callk/pcallk/yieldk before they are read, as in C Lua.
 * The list is still cut where fengari cut it (luaE_freeCI after a stack overflow, a tail call).
 * In lstate.js `A` is CallInfo; in ldo.js `e` is the returning record and `q` moveresults.
 */
const callInfoHunks = [
  {
    id: 'callinfo-reuse-extend',
    find: 'luaE_extendCI=function(t){let e=new A;return t.ci.next=e,e.previous=t.ci,e.next=null,t.ci=e,e}',
    replace:
      'luaE_extendCI=function(t){let e=t.ci.next;return null!==e?(t.ci=e,e):(e=new A,t.ci.next=e,e.previous=t.ci,e.next=null,t.ci=e,e)}',
    count: 1,
  },
  {
    id: 'callinfo-reuse-return',
    find: 'return t.ci=e.previous,t.ci.next=null,q(t,n,l,r,u)}',
    replace: 'return t.ci=e.previous,q(t,n,l,r,u)}',
    count: 1,
  },
];

/**
 * A string's table key spelled one character per byte. fengari keys its tables' `Map`s by
 * `luaS_hash`, "|" followed by each byte in hex without padding, so two different strings could
 * get the same key: "\1#" (bytes 01 23) and "\18\3" (12 03) both became "|123" and were one table
 * key (`t['\1#'] = 1 return t['\18\3']` gave 1, where Redis gives nil). The same text orders
 * strings for `<` and `<=` (lvm.js l_strcmp compares the keys), which put "\16" before "\2". Now
 * the key is "|" followed by each byte as the character with that code: distinct strings get
 * distinct keys, comparing keys compares bytes in order (as strcmp in the C locale does), and the
 * key is half as long and cheaper to build. Strings whose bytes are all 0x10 or more (two hex
 * digits each) never collided and compare as before. In lstring.js `t` is the byte array.
 */
const stringKeyHunks = [
  {
    id: 'string-key-bytes',
    find: 'n="|";for(let r=0;r<e;r++)n+=t[r].toString(16);return n}',
    replace: 'n="|";for(let r=0;r<e;r++)n+=String.fromCharCode(t[r]);return n}',
    count: 1,
  },
];

/**
 * fengari-web's entry module exports the Lua state it opens on load (`L`, with every library and
 * fengari-interop's `js` library in it) and `load`, which runs code in that state; LockScope builds
 * its own states and uses neither. Without these two getters nothing refers to that state, so the
 * code that builds it can go (`drop-web-entry-state` below).
 */
const webEntryHunks = [
  {
    id: 'web-entry-exports',
    find: 'n.r(e),n.d(e,"L",function(){return R}),n.d(e,"load",function(){return S});var r=n(0);',
    replace: 'n.r(e);var r=n(0);',
    count: 1,
  },
];

/** What a dropped library's stub does when called: nothing LockScope runs calls one. */
const dropped = (what) => `function(){throw Error("${what}: dropped by LockScope's fengari patch")}`;

/**
 * Modules of the bundle LockScope never loads, each replaced by a stub that keeps what the modules
 * still loaded require from it (webpack's module array keeps its indices). A script's sandbox
 * (src/engine/redis/lua_sandbox.ts) opens base, table, string, math and coroutine itself and takes
 * only Redis 7.0's functions from them; Redis 7.0 gives scripts no os, package, utf8 or debug
 * (debug is set to nil after its error handler is built, and LockScope's handler does not use
 * it), and every chunk is loaded as text (mode "t"), so the binary-chunk reader is never reached.
 * `string.format` is LockScope's own (lua_strformat.ts), so fengari's, the one user of sprintf-js,
 * is never called. Each is named by the text it starts with, found exactly once, and checked by
 * its length and SHA-256 in the shipped bundle.
 */
export const DROPS = [
  {
    id: 'drop-web-entry-state',
    what: 'fengari-web\'s own Lua state, its `<script type="application/lua">` loader and fengari-interop\'s require',
    start: 'var a=n(21);n.d(e,"interop",function(){return a});',
    length: 3591,
    sha256: 'f2ffd63b559ac33b803b3935770aec4fc2252e4b4c26b8c40565833562cc85b0',
    replace: 'const lockscope_dropped="web-entry-state";',
  },
  {
    id: 'drop-interop',
    what: 'fengari-interop (js.js)',
    start: 'function(t,e,n){"use strict";const{lua:r,lauxlib:a,lualib:u,to_luastring:l}=n(0),',
    length: 9502,
    sha256: 'af513162b20d329e2bdeffe58a94bc5fea2313f4ddf7f3c51563c6632dca3186',
    replace: 'function(t,e,n){t.exports.lockscope_dropped="interop"}',
  },
  {
    id: 'drop-loslib',
    what: 'loslib.js (os)',
    start: 'function(t,e,n){"use strict";const{LUA_TNIL:r,LUA_TTABLE:a,lua_close:u,lua_createtable:l,',
    length: 4866,
    sha256: '8daae3c2e66200b3525875283eb1ad04480891ec1851e1ba59c25dc46bc4d8bb',
    replace: `function(t,e,n){t.exports.luaopen_os=${dropped('luaopen_os')}}`,
  },
  {
    id: 'drop-lutf8lib',
    what: 'lutf8lib.js (utf8)',
    start: 'function(t,e,n){"use strict";const{lua_gettop:r,lua_pushcfunction:a,lua_pushfstring:u,',
    length: 2361,
    sha256: '1c4b78f51840ecdc186c452546d6970ffde40232828973223181fdb3da055e9d',
    replace: `function(t,e,n){t.exports.luaopen_utf8=${dropped('luaopen_utf8')}}`,
  },
  {
    id: 'drop-ldblib',
    what: 'ldblib.js (debug)',
    start: 'function(t,e,n){"use strict";const{LUA_MASKCALL:r,LUA_MASKCOUNT:a,LUA_MASKLINE:u,LUA_MASKRET:l,',
    length: 5045,
    sha256: 'f050ed6fe51478ba63d5b40a655aa5e095c535c246c63102d50bfa8a80ace26d',
    replace: `function(t,e,n){t.exports.luaopen_debug=${dropped('luaopen_debug')}}`,
  },
  {
    id: 'drop-loadlib',
    what: 'loadlib.js (package, require)',
    start: 'function(t,e,n){"use strict";const{LUA_DIRSEP:r,LUA_EXEC_DIR:a,LUA_JSPATH_DEFAULT:u,',
    length: 5291,
    sha256: 'baf3bc9a8e6fa3b291ef2ee08019a6ec4fa0cb86e73c2e176d37b9b2cc45c2de',
    replace: `function(t,e,n){t.exports.luaopen_package=${dropped('luaopen_package')}}`,
  },
  {
    id: 'drop-fengarilib',
    what: 'fengarilib.js (the fengari table)',
    start:
      'function(t,e,n){const{lua_pushinteger:r,lua_pushliteral:a,lua_setfield:u}=n(2),{luaL_newlib:l}=n(7),',
    length: 598,
    sha256: 'df8aed3ac3d3fc7d2133028f3b69adaadfe9b9ed8085707668b6b40e6e949f7e',
    replace: `function(t,e,n){t.exports.luaopen_fengari=${dropped('luaopen_fengari')}}`,
  },
  {
    id: 'drop-lundump',
    what: 'lundump.js (binary chunks)',
    start: 'function(t,e,n){"use strict";const{LUA_SIGNATURE:r,constant_types:{LUA_TBOOLEAN:a,LUA_TLNGSTR:u,',
    length: 4464,
    sha256: '2afea7bf1bea334f272fe6b16b8e7c4b16f2f7c321da08b76e999f1d2f3bfbf6',
    replace: `function(t,e,n){t.exports.luaU_undump=${dropped('luaU_undump')}}`,
  },
  {
    id: 'drop-sprintf',
    what: "sprintf-js (fengari's string.format)",
    start: 'function(t,e,n){var r;!function(){"use strict";var a={not_string:/[^s]/,',
    length: 3202,
    sha256: 'c082aef7aedae7321e31d602b2615cfb8a18142e39296be3e88cbeedb0600043',
    replace: `function(t,e,n){t.exports.sprintf=${dropped('sprintf')}}`,
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
  ...lazyDeadKeyHunks,
  ...stringObjectHunks,
  ...callInfoHunks,
  ...stringKeyHunks,
  ...webEntryHunks,
];

/** The hunks of earlier versions of this patch, so an install patched by one can be brought up to date. */
const PREVIOUS_HUNKS = {
  1: HUNKS.filter((h) => h.id.startsWith('stack-slot-')),
  2: HUNKS.filter((h) => h.id.startsWith('stack-slot-') || h.id.startsWith('owned-string-')),
  3: HUNKS.filter(
    (h) => h.id.startsWith('stack-slot-') || h.id.startsWith('owned-string-') || h.id.startsWith('readonly-'),
  ),
  4: HUNKS.filter((h) => !h.id.startsWith('web-entry-')),
};

function occurrences(text, s) {
  let n = 0;
  for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + s.length)) n++;
  return n;
}

/**
 * The patched text, or `text` itself when the marker is already there, and the text of every
 * module dropped (by id; `main` keeps it next to the bundle, `revertPatch` puts it back). Throws,
 * naming every hunk that does not match, when the text is neither the expected original nor a
 * patched copy.
 * @param {string} text
 * @returns {{ text: string, applied: boolean, dropped: Record<string, string> }}
 */
export function applyPatch(text) {
  if (text.includes(MARKER)) {
    const missing = [
      ...HUNKS.filter((h) => occurrences(text, h.replace) < h.count),
      ...DROPS.filter((d) => occurrences(text, d.replace) !== 1),
    ];
    if (missing.length > 0)
      throw new Error(`marker present but hunk(s) ${missing.map((h) => h.id).join(', ')} missing`);
    return { text, applied: false, dropped: {} };
  }
  if (text.includes('lockscope-fengari-patch')) {
    const older = previousVersion(text);
    if (older === null)
      throw new Error('patched by another version of this script: reinstall fengari-web (npm ci)');
    text = revertHunks(text, markerOf(older), PREVIOUS_HUNKS[older]);
  }
  const wrong = [
    ...HUNKS.map((h) => ({ h, n: occurrences(text, h.find) }))
      .filter(({ h, n }) => n !== h.count)
      .map(({ h, n }) => `${h.id} "${h.find}" found ${n}x, expected ${h.count}x`),
    ...DROPS.map((d) => dropMismatch(text, d)).filter((m) => m !== null),
  ];
  if (wrong.length > 0) throw new Error(`fengari-web bundle does not match: ${wrong.join('; ')}`);
  // the dropped modules hold none of the hunks' search texts (checked by the counts above, which
  // are those of the whole shipped bundle), so the order of the two steps does not matter
  const dropped = {};
  let out = text;
  for (const d of DROPS) {
    const at = out.indexOf(d.start);
    dropped[d.id] = out.slice(at, at + d.length);
    out = out.slice(0, at) + d.replace + out.slice(at + d.length);
  }
  for (const h of HUNKS) out = out.split(h.find).join(h.replace);
  return { text: `${out}\n${MARKER}\n`, applied: true, dropped };
}

/** Why the module `d` names is not the one the patch was written for, or null when it is. */
function dropMismatch(text, d) {
  const n = occurrences(text, d.start);
  if (n !== 1) return `${d.id} "${d.start}" found ${n}x, expected 1x`;
  const at = text.indexOf(d.start);
  const body = text.slice(at, at + d.length);
  return sha256(body) === d.sha256 ? null : `${d.id}: the ${d.length} characters from "${d.start}" differ`;
}

function sha256(s) {
  return createHash('sha256').update(s).digest('hex');
}

/**
 * The original text back from a patched one, or with only the hunks `only` taken out (what
 * `npm run bench` runs as "fengari without the stack patch": the engine needs the other hunks).
 * Exact because every replacement occurs exactly as often as its search text did. The dropped
 * modules come back only when their text is given (`dropped`, as `applyPatch` returned it or
 * `readDropped` reads it), each checked against its SHA-256; without it their stubs stay.
 * @param {string} text
 * @param {Record<string, string>} [dropped]
 */
export function revertPatch(text, only = HUNKS, dropped = undefined) {
  if (!text.includes(MARKER)) return text;
  let out = revertHunks(text, MARKER, only);
  if (dropped === undefined) return out;
  for (const d of [...DROPS].reverse()) {
    const body = dropped[d.id];
    if (body === undefined || sha256(body) !== d.sha256 || occurrences(out, d.replace) !== 1)
      throw new Error(`cannot revert ${d.id}: its text is missing or differs, or its stub is not found once`);
    const at = out.indexOf(d.replace);
    out = out.slice(0, at) + body + out.slice(at + d.replace.length);
  }
  return out;
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

/** Where `main` keeps the dropped modules' text: next to the bundle, read by nothing at run time. */
export function droppedFile(bundle) {
  return `${bundle}.lockscope-dropped.json`;
}

/** The dropped modules' text kept next to `bundle`, or undefined when there is none. */
export function readDropped(bundle) {
  const f = droppedFile(bundle);
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined;
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
  for (const d of DROPS) {
    if (occurrences(text, d.replace) !== 1) problems.push(`${d.id}: stub "${d.replace}" not found once`);
    if (text.includes(d.start)) problems.push(`${d.id}: "${d.start}" still there`);
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
  writeFileSync(droppedFile(file), `${JSON.stringify(r.dropped)}\n`);
  const tmp = `${file}.lockscope-tmp`;
  writeFileSync(tmp, r.text);
  renameSync(tmp, file);
  console.log(`patch-fengari: applied ${HUNKS.length} hunks and dropped ${DROPS.length} modules in ${file}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (e) {
    console.error(`patch-fengari: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
