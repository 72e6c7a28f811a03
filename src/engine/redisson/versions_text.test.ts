/**
 * The release table's words (versions_text.ts) are kept apart from its values (versions.ts), range
 * for range: nothing but this test ties the two, so it checks that they line up.
 */
import { describe, expect, it } from 'vitest';
import { RELEASE_TRAITS, traitsFor } from './versions';
import { RELEASE_TRAIT_TEXT } from './versions_text';

describe("the release table's words", () => {
  it('name every row and every range of it, in both languages', () => {
    expect(Object.keys(RELEASE_TRAIT_TEXT).sort()).toEqual(Object.keys(RELEASE_TRAITS).sort());
    for (const [k, row] of Object.entries(RELEASE_TRAITS)) {
      const text = RELEASE_TRAIT_TEXT[k as keyof typeof RELEASE_TRAITS];
      expect(text.values.length, k).toBe(row.ranges.length);
      for (const s of [text.en, text.zh, ...text.values.flatMap((v) => [v.en, v.zh])])
        expect(s.trim().length, k).toBeGreaterThan(0);
    }
  });

  it('are what traitsFor lists once registered', () => {
    const first = traitsFor('3.11.6').find((t) => t.id === 'first-acquire')!;
    expect(first).toEqual({
      id: 'first-acquire',
      en: 'First acquire writes',
      zh: '首次加锁写入',
      value: 'HSET',
      valueZh: 'HSET',
    });
    expect(traitsFor('latest').find((t) => t.id === 'first-acquire')!.value).toBe('HINCRBY');
  });
});
