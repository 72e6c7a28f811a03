import { describe, expect, it } from 'vitest';
import { locatePath, parsePath } from './json-locate';

const text = `{
  "format": "lockscope/1",
  "clients": [
    { "id": "A", "threads": [ { "id": 1, "program": [ { "op": "lock" }, { "op": "lokc", "lock": "x" } ] } ] }
  ]
}`;

const at = (path: string) => {
  const r = locatePath(text, path);
  return r ? text.slice(r.from, r.to) : null;
};

describe('locatePath', () => {
  it('parses schema paths', () => {
    expect(parsePath('clients[1].threads[0].op')).toEqual(['clients', 1, 'threads', 0, 'op']);
  });

  it('finds the value a schema issue names', () => {
    expect(at('clients[0].threads[0].program[1].op')).toBe('"lokc"');
    expect(at('format')).toBe('"lockscope/1"');
    expect(at('clients[0].id')).toBe('"A"');
  });

  it('falls back to the parent key for a missing field, and to null for broken text', () => {
    expect(at('clients[0].threads[0].program[1].lock.deeper')).toBe('"lock": "x"');
    expect(locatePath('{"a" 1}', 'a')).toBeNull();
  });

  it('reads keys as JSON strings, counts array items and ignores look-alikes inside strings', () => {
    const t = '{"a\\u0062": [1, "[2]", {"k": null}], "s": "{\\"x\\": 1}"}';
    const at2 = (p: string) => {
      const r = locatePath(t, p);
      return r ? t.slice(r.from, r.to) : null;
    };
    expect(at2('ab[2].k')).toBe('null');
    expect(at2('ab[1]')).toBe('"[2]"');
    expect(at2('ab[7]')).toBe(t.slice(1, t.indexOf('], "s"') + 1));
    expect(at2('s.x')).toBe('"s": "{\\"x\\": 1}"');
    expect(at2('(root)')).toBeNull();
    expect(locatePath('', 'a')).toBeNull();
  });
});
