/**
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

const { lua } = fengari;

/** Longest Lua string a script may build or measure (Redis allows 512 MB; a browser tab does not). */
export const MAX_SCRIPT_STRING = 32 * 1024 * 1024;

export class ScriptMemoryError extends Error {
  constructor(readonly bytes: number) {
    super(
      `not enough memory: string of ${bytes} bytes exceeds LockScope's ${MAX_SCRIPT_STRING}-byte script limit`,
    );
  }
}

let active = 0;
let installed = false;
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

interface InternalState {
  stack: { vslen?: () => number }[];
  top: number;
}

export function installStringGuard(L: LuaState): void {
  if (installed) return;
  lua.lua_pushstring(L, new Uint8Array([120]));
  const internal = L as unknown as InternalState;
  const tv = internal.stack[internal.top - 1];
  lua.lua_pop(L, 1);
  const proto = Object.getPrototypeOf(tv) as { vslen?: () => number };
  const original = proto.vslen;
  if (typeof original !== 'function') throw new Error('fengari internals changed: TValue#vslen not found');
  proto.vslen = function (this: unknown): number {
    const n = original.call(this);
    if (n > MAX_SCRIPT_STRING && active > 0) {
      lastRefusal = new ScriptMemoryError(n);
      throw lastRefusal;
    }
    return n;
  };
  installed = true;
}

/** Runs fn with the guard armed (re-entrant: nested engines each count). */
export function withStringGuard<T>(fn: () => T): T {
  active++;
  try {
    return fn();
  } finally {
    active--;
  }
}
