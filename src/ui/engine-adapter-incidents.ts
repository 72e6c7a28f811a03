/**
 * The real incidents' built-ins (their stories and runs), loaded by the engine worker when the page
 * asks for them after its first screen (worker.ts, `incidents`): the worker's first chunk does not
 * carry them. The page runs one by sending its scenario like any other.
 */
import { incidents } from '../engine/scenario/builtins/incidents/index';
import { builtinInfo, type BuiltinInfo } from './engine-adapter';

export function listIncidents(): BuiltinInfo[] {
  return incidents.map(builtinInfo);
}
