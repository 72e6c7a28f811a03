/**
 * The Java statement rules the program interpreter (program.ts) follows: which unlock closes the
 * section a tryLock guards, which exceptions a program may handle, and which `try` catches one.
 */
import { JavaException } from '../redisson/errors';
import type { Op, TryOp } from './schema';

/**
 * The index of the unlock that closes the section a tryLock at `from` guards (the rule is in
 * program.ts's header), or -1 when there is none.
 */
export function matchingUnlock(ops: readonly Op[], from: number): number {
  const name = (ops[from] as { lock: string }).lock;
  let depth = 0;
  for (let i = from + 1; i < ops.length; i++) {
    const op = ops[i];
    if (op.op === 'lock' || op.op === 'tryLock' || op.op === 'lockInterruptibly') {
      if (op.lock === name) depth++;
    } else if (op.op === 'unlock' && op.lock === name) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Java exceptions are the program's to handle; anything else is a simulator bug and goes on up. */
export function javaOnly(e: unknown): JavaException {
  if (e instanceof JavaException) return e;
  throw e;
}

/**
 * Whether a try catches `e`: any catch catches every exception, as `catch (Exception e)` does,
 * unless `catchClass` names a class, then only that class and its subclasses.
 */
export function catches(op: TryOp, e: JavaException): boolean {
  if (op.catch === undefined && op.catchClass === undefined) return false;
  if (op.catchClass === undefined) return true;
  const want = op.catchClass;
  return javaClassChain(e).some((c) => c === want || c.slice(c.lastIndexOf('.') + 1) === want);
}

/** The Java classes `e` is an instance of, most specific first (Throwable last). */
export function javaClassChain(e: JavaException): string[] {
  const chain: string[] = [];
  for (let p: unknown = Object.getPrototypeOf(e); p !== Error.prototype && p !== null;) {
    const ctor = (p as { constructor: new (message?: string) => JavaException }).constructor;
    p = Object.getPrototypeOf(p);
    // javaClass is an instance field, so the class's own value needs an instance of it
    let cls: string;
    try {
      cls = new ctor('').javaClass;
    } catch {
      continue;
    }
    if (chain[chain.length - 1] !== cls) chain.push(cls);
  }
  const checked = chain.includes('java.lang.InterruptedException');
  if (!checked && !chain.includes('java.lang.RuntimeException')) {
    const at = chain.indexOf('java.lang.Exception');
    chain.splice(at < 0 ? chain.length : at, 0, 'java.lang.RuntimeException');
  }
  if (!chain.includes('java.lang.Exception')) chain.push('java.lang.Exception');
  chain.push('java.lang.Throwable');
  return chain;
}
