import { describe, expect, it } from 'vitest';
import { firstSyntaxError } from './json-syntax';

// Each case: the text, and where JSON.parse's refusal starts (the character it cannot take).
const BAD: [string, string, number][] = [
  ['a stray word after a comma', '{"a":[{"b":1}, x\n {"c":2}]}', 15],
  ['a missing comma', '{"a":1\n "b":2}', 8],
  ['a trailing comma', '{"a":[1,2,]}', 10],
  ['a single-quoted string', "{'a':1}", 1],
  ['an unterminated string', '{"a":"b', 7],
  ['a text that ends early', '{"a":[1,2', 9],
  ['a bad escape', '{"a":"\\x"}', 7],
  ['a leading zero', '[01]', 2],
  ['something after the value', '{} {}', 3],
  ['a control character in a string', '["a\tb"]', 3],
  ['an empty text', '', 0],
];

describe('firstSyntaxError: where a JSON text first goes wrong', () => {
  for (const [what, text, at] of BAD)
    it(`${what}: at ${at}, and JSON.parse refuses it too`, () => {
      expect(() => JSON.parse(text)).toThrow();
      expect(firstSyntaxError(text)).toBe(at);
    });

  it('finds nothing in what JSON.parse takes', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '0', '"s"'])
      expect(firstSyntaxError(text), text).toBeNull();
  });
});
