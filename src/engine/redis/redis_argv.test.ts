import { describe, expect, it } from 'vitest';
import { splitArgs } from './redis_argv';

// Cases follow sds.c sdssplitargs and what redis-cli 7.0.15 did with the same lines.
describe('splitArgs', () => {
  it('splits on blanks', () => {
    expect(splitArgs('  set  k\tv  ')).toEqual(['set', 'k', 'v']);
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('   ')).toEqual([]);
  });

  it('double quotes: escapes, \\xNN bytes, empty strings', () => {
    expect(splitArgs('set k "a b"')).toEqual(['set', 'k', 'a b']);
    expect(splitArgs('"a\\x00\\xe4b\\n"')).toEqual(['a\x00\xe4b\n']);
    expect(splitArgs('"\\r\\t\\b\\a\\q\\"\\\\"')).toEqual(['\r\t\b\x07q"\\']);
    expect(splitArgs('"\\x4G"')).toEqual(['x4G']);
    expect(splitArgs('rpush l ""')).toEqual(['rpush', 'l', '']);
  });

  it("single quotes only know \\'", () => {
    expect(splitArgs("'a\\'b\\n'")).toEqual(["a'b\\n"]);
  });

  it('a quote inside a word starts quoting; text glued after a closing quote is invalid', () => {
    expect(splitArgs('a"b c"')).toEqual(['ab c']);
    expect(splitArgs('x"y')).toBeNull();
    expect(splitArgs('"d"e')).toBeNull();
    expect(splitArgs('"a')).toBeNull();
    expect(splitArgs("'a")).toBeNull();
  });

  it('stops at a NUL byte like a C string', () => {
    expect(splitArgs('get a\x00b c')).toEqual(['get', 'a']);
  });
});
