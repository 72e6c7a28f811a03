import { describe, expect, it } from 'vitest';
import { ChangeList } from './change_list';

const names = (l: ChangeList) => Array.from({ length: l.size }, (_, i) => l.at(i));

describe('ChangeList', () => {
  it('lists each name once a round, in the order added, and forgets them on reset', () => {
    const l = new ChangeList();
    l.add('A:1');
    l.add('B:1');
    l.add('A:1');
    expect(names(l)).toEqual(['A:1', 'B:1']);
    expect(l.has('A:1') && l.has('B:1')).toBe(true);
    expect(l.has('C:1')).toBe(false);
    l.reset();
    expect(l.size).toBe(0);
    expect(l.has('A:1')).toBe(false);
    l.add('B:1');
    expect(names(l)).toEqual(['B:1']);
    expect(l.has('B:1')).toBe(true);
    expect(l.has('A:1')).toBe(false);
  });

  it('an empty round stays empty across resets', () => {
    const l = new ChangeList();
    l.reset();
    l.reset();
    expect(l.size).toBe(0);
    l.add('x');
    l.reset();
    l.reset();
    expect(l.has('x')).toBe(false);
  });
});
