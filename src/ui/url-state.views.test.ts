import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash } from './url-state';

describe('the views in a link (&g= topology, &k= compare)', () => {
  it.each([
    [{ layout: 'both' as const, compare: 'failover-wait-helps' }, '&g=both&k=failover-wait-helps'],
    [{ layout: 'topology' as const }, '&g=topology'],
    [{ compare: 'naive-lua-del-safe' }, '&k=naive-lua-del-safe'],
    [{}, ''],
  ])('%j round-trips', (extras, tail) => {
    const hash = encodeHash({ a: 1 }, 3, extras);
    expect(hash.endsWith(`&c=3${tail}`)).toBe(true);
    expect(decodeHash(hash)).toEqual({ kind: 'ok', scenario: { a: 1 }, cursor: 3, ...extras });
  });

  it('ignores values it does not know, so a hand-edited link still opens', () => {
    const hash = `${encodeHash({ a: 1 }, 0)}&g=sideways&k=../etc`;
    expect(decodeHash(hash)).toEqual({ kind: 'ok', scenario: { a: 1 }, cursor: 0 });
  });
});
