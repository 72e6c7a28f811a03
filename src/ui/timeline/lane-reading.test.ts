import { describe, expect, it } from 'vitest';
import type { KeyView } from '../../engine/trace/types';
import { inOrder, sameKeyView } from './lane-reading';

const hash = (owner: string, n: string, expireAt: number | null = 30_000): KeyView => ({
  key: 'lock',
  type: 'hash',
  value: [[owner, n]],
  expireAt,
});

describe('sameKeyView: a key segment goes on while its key reads the same', () => {
  it('compares type, value and expiry, not the view object', () => {
    expect(sameKeyView(hash('A:1', '1'), hash('A:1', '1'))).toBe(true);
    expect(sameKeyView(hash('A:1', '1'), hash('A:1', '2'))).toBe(false);
    expect(sameKeyView(hash('A:1', '1'), hash('B:1', '1'))).toBe(false);
    expect(sameKeyView(hash('A:1', '1'), hash('A:1', '1', 40_000))).toBe(false);
    expect(sameKeyView(hash('A:1', '1', null), hash('A:1', '1', null))).toBe(true);
    expect(
      sameKeyView(hash('A:1', '1'), {
        ...hash('A:1', '1'),
        value: [
          ['A:1', '1'],
          ['B:1', '1'],
        ],
      }),
    ).toBe(false);
    const str: KeyView = { key: 'lock', type: 'string', value: 'A:1', expireAt: null };
    expect(sameKeyView(str, { ...str })).toBe(true);
    expect(sameKeyView(str, { ...str, type: 'list', value: ['A:1'] })).toBe(false);
  });

  it('tells an absent key from any present one', () => {
    expect(sameKeyView(undefined, undefined)).toBe(true);
    expect(sameKeyView(hash('A:1', '1'), undefined)).toBe(false);
    expect(sameKeyView(undefined, hash('A:1', '1'))).toBe(false);
  });
});

describe('inOrder: whether the marks of a lane need sorting', () => {
  it('reads time first, then the event index', () => {
    expect(inOrder([])).toBe(true);
    expect(
      inOrder([
        { t: 1, index: 4 },
        { t: 1, index: 5 },
        { t: 2, index: 3 },
      ]),
    ).toBe(true);
    expect(
      inOrder([
        { t: 2, index: 1 },
        { t: 1, index: 2 },
      ]),
    ).toBe(false);
    expect(
      inOrder([
        { t: 1, index: 6 },
        { t: 1, index: 5 },
      ]),
    ).toBe(false);
  });
});
