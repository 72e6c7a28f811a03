import { describe, expect, it } from 'vitest';
import { restoreMessage, rewriteFor53 } from './lua_syntax51';

describe('rewriteFor53', () => {
  it('marks where 5.1 stops on 5.3-only operators', () => {
    expect(rewriteFor53('return 7 // 2')).toEqual({ code: 'return 7.0 /@ 2.0', replaced: ['/'] });
    expect(rewriteFor53('return 1 & 2').code).toBe('return 1.0 @ 2.0');
    expect(rewriteFor53('return 1 << 2').replaced).toEqual(['<']);
    expect(rewriteFor53('::top::').code).toBe('@:top@:');
    expect(rewriteFor53('return a ~= b').code).toBe('return a ~= b');
  });

  it('leaves strings and comments alone, but drops unknown escapes like 5.1', () => {
    expect(rewriteFor53("return 'a//b' -- x // y").code).toBe("return 'a//b' -- x // y");
    expect(rewriteFor53('return [[1 & 2]]').code).toBe('return [[1 & 2]]');
    expect(rewriteFor53('return "\\x41\\q\\n\\065"').code).toBe('return "x41q\\n\\065"');
  });

  it('turns integer numerals into floats and keeps other numerals', () => {
    expect(rewriteFor53('return 1 + 0xff + 1.5 + 1e3 + .5').code).toBe(
      'return 1.0 + 0xffp0 + 1.5 + 1e3 + .5',
    );
    expect(rewriteFor53('return 3..2').code).toBe('return 3..2');
  });

  it('renames goto and _ENV, and restores names in messages', () => {
    const rw = rewriteFor53('goto x');
    expect(rw.code).toBe('g0to x');
    expect(restoreMessage("user_script:1: syntax error near 'x'", rw)).toBe(
      "user_script:1: syntax error near 'x'",
    );
    expect(rewriteFor53('return _ENV').code).toBe('return _EnV');
    const n = rewriteFor53('return 1 2');
    expect(restoreMessage("user_script:1: <eof> expected near '2.0'", n)).toBe(
      "user_script:1: <eof> expected near '2'",
    );
    const op = rewriteFor53('return 1 & 2');
    expect(restoreMessage("user_script:1: <eof> expected near '@'", op)).toBe(
      "user_script:1: <eof> expected near '&'",
    );
  });
});
