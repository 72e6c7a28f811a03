/**
 * The engine worker offers the core built-ins up front and loads the real incidents on demand
 * (src/ui/engine-adapter-incidents.ts): together they are the whole library, in its order.
 */
import { describe, expect, it } from 'vitest';
import { coreBuiltins } from './core';
import { builtins } from './index';
import { incidents } from './incidents/index';

describe('core built-ins and the incidents', () => {
  it('the library is the core, then the incidents, each once', () => {
    expect(builtins.map((b) => b.id)).toEqual([...coreBuiltins, ...incidents].map((b) => b.id));
    expect(new Set(builtins.map((b) => b.id)).size).toBe(builtins.length);
  });

  it('the core holds no incident: the first screen does not need their stories', () => {
    expect(coreBuiltins.filter((b) => b.group === 'incidents' || b.incident !== undefined)).toEqual([]);
    expect(incidents.length).toBeGreaterThan(0);
  });
});
