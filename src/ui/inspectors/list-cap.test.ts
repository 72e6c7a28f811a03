import { describe, expect, it } from 'vitest';
import { MAX_LISTED, capList } from './list-cap';

describe('capList', () => {
  it('lists everything up to MAX_LISTED rows', () => {
    const rows = Array.from({ length: MAX_LISTED }, (_, i) => i);
    expect(capList(rows)).toEqual({ listed: rows, total: MAX_LISTED });
  });

  it('lists the first MAX_LISTED rows of a longer list and counts them all', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => i);
    const { listed, total } = capList(rows);
    expect(listed).toEqual(rows.slice(0, MAX_LISTED));
    expect(total).toBe(10_000);
  });
});
