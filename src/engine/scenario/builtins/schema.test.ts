import { describe, expect, it } from 'vitest';
import { validateScenario } from '../schema';
import { builtins } from './index';

describe('built-in scenarios', () => {
  it('have unique ids and texts in both languages', () => {
    const ids = builtins.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of builtins) {
      expect(b.title.length, b.id).toBeGreaterThan(0);
      expect(b.titleZh.length, b.id).toBeGreaterThan(0);
      expect(b.description.length, b.id).toBeGreaterThan(20);
      expect(b.descriptionZh.length, b.id).toBeGreaterThan(10);
    }
  });

  it.each(builtins.map((b) => [b.id, b] as const))('%s passes the scenario schema', (_id, b) => {
    const r = validateScenario(b.scenario);
    if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    expect(r.ok).toBe(true);
  });

  it('include the library the lessons rely on', () => {
    expect(builtins.map((b) => b.id).slice(0, 16)).toEqual([
      'basic-lock',
      'reentrant',
      'contention-wakeup',
      'trylock-timeout',
      'lease-expiry-no-watchdog',
      'watchdog-renewal',
      'client-crash-watchdog-expiry',
      'gc-pause-lease-expiry',
      'unlock-not-owner',
      'naive-setnx-deadlock',
      'naive-delete-others-lock',
      'naive-get-del-race',
      'naive-lua-del-safe',
      'stock-oversell-no-lock',
      'stock-with-lock',
      'contention-100',
    ]);
  });
});
