import { describe, expect, it } from 'vitest';
import { stringMatch } from './glob';

describe('stringMatch (util.c stringmatchlen)', () => {
  it('wildcards, classes, ranges, escapes', () => {
    expect(stringMatch('foo.*', 'foo.1')).toBe(true);
    expect(stringMatch('foo.*', 'foo1')).toBe(false);
    expect(stringMatch('foo.*', 'barfoo.1')).toBe(false);
    expect(stringMatch('h?llo', 'hello')).toBe(true);
    expect(stringMatch('h?llo', 'hllo')).toBe(false);
    expect(stringMatch('h*llo', 'hllo')).toBe(true);
    expect(stringMatch('h[ae]llo', 'hallo')).toBe(true);
    expect(stringMatch('h[^e]llo', 'hello')).toBe(false);
    expect(stringMatch('h[a-b]llo', 'hbllo')).toBe(true);
    expect(stringMatch('h[b-a]llo', 'hbllo')).toBe(true);
    expect(stringMatch('a\\*b', 'a*b')).toBe(true);
    expect(stringMatch('a\\*b', 'axb')).toBe(false);
    expect(stringMatch('[\\]]', ']')).toBe(true);
    expect(stringMatch('**', '')).toBe(false);
    expect(stringMatch('*', '')).toBe(false);
    expect(stringMatch('', '')).toBe(true);
    expect(stringMatch('a*', 'a')).toBe(true);
  });

  it('unterminated classes behave like the C loop', () => {
    expect(stringMatch('[x', 'x')).toBe(true);
    expect(stringMatch('h[', 'h')).toBe(false);
    expect(stringMatch('[', 'x')).toBe(false);
  });

  it('gives up on pathological patterns quickly', () => {
    const p = 'a*'.repeat(30) + 'b';
    expect(stringMatch(p, 'a'.repeat(60))).toBe(false);
  });
});
