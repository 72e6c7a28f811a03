/** The built-in scenario library, in the order a newcomer meets the ideas: the core, then the real incidents. */
import type { BuiltinScenario } from './types';
import { coreBuiltins } from './core';
import { incidents } from './incidents/index';

export type { BuiltinScenario } from './types';
export { coreBuiltins } from './core';

export const builtins: readonly BuiltinScenario[] = [...coreBuiltins, ...incidents];

export function builtin(id: string): BuiltinScenario | undefined {
  return builtins.find((b) => b.id === id);
}
