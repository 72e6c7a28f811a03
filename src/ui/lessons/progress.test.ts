import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProgress, recordStep } from './progress';

const store = new Map<string, string>();
const fakeStorage = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
};

describe('lesson progress', () => {
  beforeEach(() => {
    store.clear();
    (globalThis as { window?: unknown }).window = { localStorage: fakeStorage };
  });
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('keeps the furthest step seen and marks a lesson done at its last step', () => {
    recordStep('waiting', 2, 6);
    recordStep('waiting', 1, 6);
    expect(readProgress().waiting).toEqual({ seen: 2, done: false });
    recordStep('waiting', 5, 6);
    recordStep('waiting', 0, 6);
    expect(readProgress().waiting).toEqual({ seen: 5, done: true });
    expect(readProgress().setnx).toBeUndefined();
  });

  it('forgets a damaged record instead of failing', () => {
    store.set('lockscope.lessons', '{not json');
    expect(readProgress()).toEqual({});
    store.set('lockscope.lessons', JSON.stringify({ a: { seen: 'x' }, b: { seen: 1, done: 1 } }));
    expect(readProgress()).toEqual({ b: { seen: 1, done: false } });
  });

  it('plays on without storage', () => {
    delete (globalThis as { window?: unknown }).window;
    expect(readProgress()).toEqual({});
    expect(recordStep('x', 0, 2)).toEqual({ x: { seen: 0, done: false } });
  });
});
