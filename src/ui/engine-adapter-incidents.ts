/**
 * The built-ins the first screen does not carry: the core ones but the default (the worker's first
 * chunk has that one alone, engine-adapter.ts) and the real incidents (their stories and runs), in
 * the library's order. The engine worker loads them when the page asks, after its first screen
 * (worker.ts, `incidents`). The page runs one by sending its scenario like any other.
 */
import { builtins } from '../engine/scenario/builtins/index';
import { builtinInfo, type BuiltinInfo } from './engine-adapter';

export function listAllBuiltins(): BuiltinInfo[] {
  return builtins.map(builtinInfo);
}
