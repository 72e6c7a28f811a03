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
});
