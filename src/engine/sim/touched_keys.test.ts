import { describe, expect, it } from 'vitest';
import { touchedKeys } from './touched_keys';

describe('touchedKeys', () => {
  it('takes the keys from the command table, in argv order', () => {
    expect(touchedKeys(['DEL', 'b', 'a'])).toEqual(['b', 'a']);
    expect(touchedKeys(['mset', 'a', '1', 'b', '2'])).toEqual(['a', 'b']);
    expect(touchedKeys(['EVAL', 'return 1', '2', 'k1', 'k2', 'arg'])).toEqual(['k1', 'k2']);
    expect(touchedKeys(['hincrby', 'h', 'f', '1'])).toEqual(['h']);
    expect(touchedKeys(['PUBLISH', 'ch', 'm'])).toEqual([]);
    expect(touchedKeys(['PING'])).toEqual([]);
  });

  it('answers null (resynchronise the node) when any key may have changed', () => {
    for (const argv of [['EXEC'], ['FLUSHALL'], ['flushdb', 'ASYNC'], ['smove', 'a', 'b', 'm']])
      expect(touchedKeys(argv)).toBeNull();
  });
});
