/**
 * The two places LockScope reaches into fengari's internals, both on the shared TValue prototype
 * (installed once, checked by lua_vmpatch.test.ts so a fengari upgrade that moves them fails loudly):
 *
 * 1. Numbers become strings the Lua 5.1 way. fengari prints floats like Lua 5.3 ("5.0",
 *    "9007199254741000.0", "Infinity") wherever the VM converts a number in place: `..`,
 *    lua_tolstring, string.format('%s'), error messages. Every such conversion ends in
 *    TValue#setsvalue on the slot that still holds the float, so that is where the text is swapped
 *    for 5.1's `%.14g` ("5", "9.007199254741e+15", "inf"). Only a string equal to fengari's own
 *    rendering of that very float is replaced, so ordinary string stores pass through untouched.
 *
 * 2. Strings cannot grow past MAX_SCRIPT_STRING (below).
 *
 * Keeps a hostile script from eating the page's memory. Lua strings only grow through a few doors:
 * string.rep and table.concat (guarded by their LockScope versions in script_lua.ts) and the VM's
 * `..` operator, which fengari runs inside its interpreter loop where no Lua-visible hook can see
 * it. A doubling loop (`s = s .. s`) reaches gigabytes in ~30 iterations, far below any
 * instruction budget, so the count hook cannot catch it either.
 *
 * The one place every concatenation passes is TValue#vslen (the operand length, read before the
 * result buffer is allocated). While a script runs, we make it refuse strings longer than
 * MAX_SCRIPT_STRING: a concatenation can then produce at most (operands x limit) bytes once, and
 * the next one fails. The patch is installed once on fengari's shared TValue prototype and is inert
 * outside script runs. It reaches into fengari internals on purpose; lua_memguard.test.ts fails if
 * a fengari upgrade moves them.
 */
import fengari from 'fengari-web';
import type { LuaState } from 'fengari-web';
import { lua51NumberToString, luaBytes } from './lua_strings';

const { lua, lauxlib } = fengari;

/** Longest Lua string a script may build or measure (Redis allows 512 MB; a browser tab does not). */
export const MAX_SCRIPT_STRING = 32 * 1024 * 1024;

/**
 * Bytes of strings one run may build or copy in total. Each string stays under MAX_SCRIPT_STRING,
 * but a loop making a fresh 1 MB string per iteration would otherwise allocate gigabytes within
 * the instruction budget.
 */
export const MAX_RUN_STRING_BYTES = 512 * 1024 * 1024;

export class ScriptMemoryError extends Error {
  constructor(
    readonly bytes: number,
    perRun = false,
  ) {
    super(
      perRun
        ? `not enough memory: script built more than ${MAX_RUN_STRING_BYTES} bytes of strings (LockScope's per-run limit)`
        : `not enough memory: string of ${bytes} bytes exceeds LockScope's ${MAX_SCRIPT_STRING}-byte script limit`,
    );
  }
}

let active = 0;
let installed = false;
/** string bytes built or copied since the outermost guarded run began */
let charged = 0;

/**
 * Counts bytes a script builds against MAX_RUN_STRING_BYTES; returns the refusal to raise, if
 * the run is over its allowance.
 */
export function chargeStringBytes(n: number): ScriptMemoryError | null {
  if (active === 0) return null;
  charged += n;
  return charged > MAX_RUN_STRING_BYTES ? new ScriptMemoryError(charged, true) : null;
}
let lastRefusal: ScriptMemoryError | null = null;

/**
 * The refusal thrown inside the VM since the last call, if any. fengari's native-error handler
 * cannot run inside a Lua frame (its own API stack check fails), so such a throw surfaces as
 * lua_pcall status -1 and the caller asks here what happened.
 */
export function takeRefusal(): ScriptMemoryError | null {
  const r = lastRefusal;
  lastRefusal = null;
  return r;
}

/** lua_pcall's status when a JS exception escaped fengari's native-error handling. */
export const NATIVE_ERROR_STATUS = -1;

interface TValueProto {
  vslen?: (this: TValueLike) => number;
  setsvalue?: (this: TValueLike, ts: TStringLike) => void;
}
interface TValueLike {
  type: number;
  value: unknown;
}
interface TStringLike {
  realstring: Uint8Array;
}
interface InternalState {
  stack: TValueLike[];
  top: number;
}

/** fengari's type tag of a float TValue (LUA_TNUMBER | 0 << 4) */
const LUA_TNUMFLT = 3;

/** What fengari's luaO_tostring writes for a float. */
function fengariFloatText(n: number): string {
  const s = String(Number(n.toPrecision(14)));
  return /^[-0123456789]+$/.test(s) ? s + '.0' : s;
}

function sameText(a: Uint8Array, s: string): boolean {
  if (a.length !== s.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== s.charCodeAt(i)) return false;
  return true;
}

/** Installs both patches (idempotent). */
export function installVmPatches(L: LuaState): void {
  if (installed) return;
  lua.lua_pushstring(L, new Uint8Array([120]));
  const internal = L as unknown as InternalState;
  const tv = internal.stack[internal.top - 1];
  lua.lua_pop(L, 1);
  const proto = Object.getPrototypeOf(tv) as TValueProto;
  const original = proto.vslen;
  const originalSet = proto.setsvalue;
  if (typeof original !== 'function' || typeof originalSet !== 'function' || (tv.type & 0xf) !== 4) {
    throw new Error('fengari internals changed: TValue#vslen / TValue#setsvalue not found');
  }
  proto.setsvalue = function (this: TValueLike, ts: TStringLike): void {
    if (this.type === LUA_TNUMFLT && typeof this.value === 'number') {
      const n = this.value;
      const mine = fengariFloatText(n);
      if (sameText(ts.realstring, mine)) {
        const text = lua51NumberToString(n);
        if (text !== mine) ts.realstring = luaBytes(text);
      }
    }
    originalSet.call(this, ts);
  };
  proto.vslen = function (this: TValueLike): number {
    const n = original.call(this);
    if (active > 0) {
      if (n > MAX_SCRIPT_STRING) {
        lastRefusal = new ScriptMemoryError(n);
        throw lastRefusal;
      }
      // every `..` operand passes here: the bytes a concatenation copies
      charged += n;
      if (charged > MAX_RUN_STRING_BYTES) {
        lastRefusal = new ScriptMemoryError(charged, true);
        throw lastRefusal;
      }
    }
    return n;
  };
  installed = true;
}

/**
 * Arms the guard until the matching leaveStringGuard (re-entrant: nested engines each count). A
 * pair of calls around the run rather than a callback: a closure per script run was most of what
 * the run's wrapper allocated.
 */
export function enterStringGuard(): void {
  if (active === 0) charged = 0;
  active++;
}

export function leaveStringGuard(): void {
  active--;
}

/**
 * Whether the fengari this module loaded carries LockScope's install-time patch
 * (scripts/patch-fengari.mjs, docs/fengari-patch.md), judged by what the patch does rather than by
 * its marker: a popped stack slot is overwritten with undefined (patched) instead of being removed
 * with `delete` (fengari as shipped), so the slot is still an own element of the stack array.
 */
export function fengariStackPatchApplied(): boolean {
  const L = lauxlib.luaL_newstate();
  lua.lua_pushinteger(L, 1);
  lua.lua_pushinteger(L, 2);
  lua.lua_pop(L, 1);
  const internal = L as unknown as InternalState;
  return (
    Object.prototype.hasOwnProperty.call(internal.stack, internal.top) &&
    internal.stack[internal.top] === undefined
  );
}
