import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { laneHashes, laneModelText } from './lane_hash';

// src/cli/lane-hashes.json: `npm run -s lane-hashes` on main at 6f71d02 (before the trip's lane
// changes), every built-in plain and verbose (a few seconds in all, contention-100 included).
const committed = JSON.parse(readFileSync(new URL('./lane-hashes.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

describe('lane-hashes', () => {
  it('shows what JSON hides: undefined, NaN, the infinities and field order', () => {
    expect(laneModelText({ a: undefined, b: NaN, c: -Infinity })).toBe(
      '{"a":"__undef__","b":"__NaN__","c":"__-Infinity__"}',
    );
    expect(laneModelText({ a: 1, b: 2 })).not.toBe(laneModelText({ b: 2, a: 1 }));
  });

  it('every built-in draws the lanes main drew, plain and verbose', { timeout: 120_000 }, () => {
    const now = laneHashes();
    expect(Object.keys(now).sort()).toEqual(Object.keys(committed).sort());
    const changed = Object.keys(now).filter((k) => now[k] !== committed[k]);
    expect(changed).toEqual([]);
  });
});
